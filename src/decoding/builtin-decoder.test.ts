// decodeBuiltin over the generated facts: which struct a body decodes into, the apiserver's texts
// for kinds it cannot take, and the Unmarshaler types' values.
import { describe, expect, it } from 'vitest';
import { decodeBuiltin, hasTypedDecoding } from './builtin-decoder.ts';

const decode = (kind: string, group: string, object: Record<string, unknown>, strict = true) =>
  decodeBuiltin({ group, version: 'v1', kind, object, json: JSON.stringify(object), strict });

describe('decodeBuiltin', () => {
  it('covers every kind of the facts, built-in or not yet served', () => {
    for (const [group, kind] of [['', 'Pod'], ['apps', 'Deployment'], ['networking.k8s.io', 'Ingress'], ['storage.k8s.io', 'StorageClass'], ['apiregistration.k8s.io', 'APIService']]) {
      expect(hasTypedDecoding(group!, 'v1', kind!)).toBe(true);
    }
    expect(hasTypedDecoding('stable.example.com', 'v1', 'CronTab')).toBe(false);
  });

  it('defaults apiVersion and kind from the endpoint', () => {
    expect(decode('ConfigMap', '', { metadata: { name: 'a' }, data: { k: 'v' } })).toEqual({ ok: true, object: { metadata: { name: 'a' }, data: { k: 'v' } }, strictErrors: [] });
  });

  it('refuses another kind of the group version as conversion does, after decoding it', () => {
    expect(decode('ConfigMap', '', { apiVersion: 'v1', kind: 'Secret', data: { a: 'x' } })).toMatchObject({
      ok: false,
      message: 'Secret in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 0',
    });
    expect(decode('ConfigMap', '', { apiVersion: 'v1', kind: 'Secret' })).toMatchObject({ message: 'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion' });
    expect(decode('Deployment', 'apps', { apiVersion: 'apps/v1', kind: 'StatefulSet' })).toMatchObject({ error: 'converting (v1.StatefulSet) to (apps.Deployment): unknown conversion' });
  });

  it('leaves a version the facts do not have, and another version of the same kind, to the apiVersion check', () => {
    expect(decode('Deployment', 'apps', { apiVersion: 'apps/v1beta2', kind: 'Deployment' })).toEqual({ ok: 'skipped' });
    expect(decodeBuiltin({ group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler', object: { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' }, strict: true })).toEqual({ ok: 'skipped' });
  });

  it('[]byte values are base64 as Go decodes it (Secret data, ConfigMap binaryData)', () => {
    expect(decode('Secret', '', { data: { ok: 'aGk=', bad: 'aGk' } })).toMatchObject({ message: 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 0' });
    expect(decode('ConfigMap', '', { binaryData: { a: 'hello' } })).toMatchObject({ error: 'illegal base64 data at input byte 4' });
    expect(decode('Secret', '', { data: { ok: 'aGVsbG8=' } })).toMatchObject({ ok: true });
  });

  it('stores Unmarshaler types as their MarshalJSON writes them', () => {
    const r = decode('Pod', '', {
      metadata: { name: 'p', creationTimestamp: '2024-01-01T02:00:00+02:00' },
      spec: { containers: [{ name: 'c', resources: { limits: { cpu: 0.5, memory: null } }, ports: [{ containerPort: 80 }], livenessProbe: { httpGet: { port: '8080' } } }] },
    });
    expect(r).toMatchObject({
      ok: true,
      object: {
        metadata: { creationTimestamp: '2024-01-01T00:00:00Z' },
        spec: { containers: [{ resources: { limits: { cpu: '500m', memory: '0' } }, livenessProbe: { httpGet: { port: '8080' } } }] },
      },
    });
  });

  it('decodes leniently when not strict, keeping no findings', () => {
    expect(decode('ConfigMap', '', { metadata: { name: 'a', x: 1 }, y: 2 }, false)).toEqual({ ok: true, object: { metadata: { name: 'a' } }, strictErrors: [] });
  });

  it('keeps the key order of an object decoded without its document', () => {
    const r = decodeBuiltin({ group: '', version: 'v1', kind: 'ConfigMap', object: { metadata: { namespace: 'd', name: 'a' }, data: { z: '1', a: '2' }, kind: 'ConfigMap' }, strict: true });
    expect(r.ok === true && JSON.stringify(r.object)).toBe('{"metadata":{"namespace":"d","name":"a"},"data":{"z":"1","a":"2"},"kind":"ConfigMap"}');
  });
});
