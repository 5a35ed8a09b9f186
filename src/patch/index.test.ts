// The three patch types through applyPatch, as patch.go serves them: kubectl apply's strategic
// merge patches on built-in kinds, and the code/reason/message of each failure.
import { describe, expect, it } from 'vitest';
import { StatusError } from '../errors/status-error.ts';
import { applyPatch, PATCH_CONTENT_TYPES, patchObject, strictDecodingError, type PatchTarget } from './index.ts';

const enc = (v: unknown): Uint8Array => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));
const DEPLOYMENT: PatchTarget = { group: 'apps', version: 'v1', kind: 'Deployment', unstructured: false };
const CONFIGMAP: PatchTarget = { group: '', version: 'v1', kind: 'ConfigMap', unstructured: false };
const POD: PatchTarget = { group: '', version: 'v1', kind: 'Pod', unstructured: false };
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

function failure(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('no error');
}

const deployment = () => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'default',
    labels: { app: 'web', old: 'x' },
    annotations: { [LAST_APPLIED]: '{"old":true}\n', 'deployment.kubernetes.io/revision': '1' },
    finalizers: ['a/b'],
  },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'web' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    template: {
      metadata: { creationTimestamp: null, labels: { app: 'web' } },
      spec: {
        containers: [
          {
            name: 'web',
            image: 'nginx:1.25',
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            env: [
              { name: 'A', value: '1' },
              { name: 'INJECTED', value: 'server' },
              { name: 'B', value: '2' },
            ],
            resources: {},
          },
          { name: 'sidecar', image: 'envoy' },
        ],
        tolerations: [{ key: 'k', operator: 'Exists' }],
        restartPolicy: 'Always',
      },
    },
  },
});

describe('PATCH_CONTENT_TYPES', () => {
  it('maps the three patch media types', () => {
    expect(PATCH_CONTENT_TYPES).toEqual({
      'application/json-patch+json': 'json',
      'application/merge-patch+json': 'merge',
      'application/strategic-merge-patch+json': 'strategic',
    });
  });
});

describe('kubectl apply of an existing object (strategic merge patch)', () => {
  it('Deployment: new image, env changes with $setElementOrder, a deleted env var, a removed label', () => {
    const lastApplied = '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"web","namespace":"default"}}\n';
    const patch = {
      metadata: { annotations: { [LAST_APPLIED]: lastApplied }, labels: { old: null, tier: 'front' } },
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'web' }],
            containers: [
              {
                '$setElementOrder/env': [{ name: 'B' }, { name: 'C' }],
                '$setElementOrder/ports': [{ containerPort: 80 }, { containerPort: 443 }],
                env: [{ name: 'C', value: '3' }, { $patch: 'delete', name: 'A' }],
                image: 'nginx:1.27',
                name: 'web',
                ports: [{ containerPort: 443 }],
              },
            ],
          },
        },
      },
    };
    const current = deployment();
    const out = applyPatch('strategic', current, enc(patch), DEPLOYMENT);
    expect(out.metadata).toEqual({
      name: 'web',
      namespace: 'default',
      labels: { app: 'web', tier: 'front' },
      annotations: { [LAST_APPLIED]: lastApplied, 'deployment.kubernetes.io/revision': '1' },
      finalizers: ['a/b'],
    });
    const spec = (out.spec as { template: { spec: Record<string, unknown> } }).template.spec;
    expect(spec.containers).toEqual([
      {
        name: 'web',
        image: 'nginx:1.27',
        ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 443 }],
        // Server-only INJECTED keeps its place relative to the live list; B, C follow the order.
        env: [
          { name: 'INJECTED', value: 'server' },
          { name: 'B', value: '2' },
          { name: 'C', value: '3' },
        ],
        resources: {},
      },
      { name: 'sidecar', image: 'envoy' },
    ]);
    expect(spec.tolerations).toEqual([{ key: 'k', operator: 'Exists' }]);
    // The current object is not touched.
    expect(current.spec.template.spec.containers[0]!.image).toBe('nginx:1.25');
    expect(current.metadata.labels).toEqual({ app: 'web', old: 'x' });
  });

  it('ConfigMap: changed and removed data keys', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', annotations: { [LAST_APPLIED]: '{}' } }, data: { k1: 'v1', k2: 'v2' } };
    const patch = { data: { k1: null, k3: 'v3' }, metadata: { annotations: { [LAST_APPLIED]: '{"data":{"k2":"v2","k3":"v3"}}\n' } } };
    expect(applyPatch('strategic', cm, enc(patch), CONFIGMAP)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', annotations: { [LAST_APPLIED]: '{"data":{"k2":"v2","k3":"v3"}}\n' } },
      data: { k2: 'v2', k3: 'v3' },
    });
  });

  it('atomic lists are replaced, merge lists merged by their key', () => {
    const out = applyPatch('strategic', deployment(), enc({ spec: { template: { spec: { tolerations: [{ key: 'x', operator: 'Exists' }], containers: [{ name: 'new', image: 'busybox' }] } } } }), DEPLOYMENT);
    const spec = (out.spec as { template: { spec: { tolerations: unknown; containers: { name: string }[] } } }).template.spec;
    expect(spec.tolerations).toEqual([{ key: 'x', operator: 'Exists' }]);
    expect(spec.containers.map((c) => c.name)).toEqual(['new', 'web', 'sidecar']);
  });

  it('$retainKeys clears the other members of a union (Deployment strategy)', () => {
    const out = applyPatch('strategic', deployment(), enc({ spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }), DEPLOYMENT);
    expect((out.spec as Record<string, unknown>).strategy).toEqual({ type: 'Recreate' });
  });

  it('$deleteFromPrimitiveList and primitive merge lists (finalizers)', () => {
    const out = applyPatch('strategic', deployment(), enc({ metadata: { finalizers: ['c/d'], '$deleteFromPrimitiveList/finalizers': ['a/b'] } }), DEPLOYMENT);
    expect((out.metadata as Record<string, unknown>).finalizers).toEqual(['c/d']);
  });

  it('$patch: replace on a list and on a map', () => {
    const out = applyPatch('strategic', deployment(), enc({ spec: { selector: { $patch: 'replace', matchLabels: { x: 'y' } }, template: { spec: { containers: [{ $patch: 'replace' }, { name: 'only' }] } } } }), DEPLOYMENT);
    const spec = out.spec as { selector: unknown; template: { spec: { containers: unknown } } };
    expect(spec.selector).toEqual({ matchLabels: { x: 'y' } });
    expect(spec.template.spec.containers).toEqual([{ name: 'only' }]);
  });

  it('a merge key value is compared as Go does: 80.0 (float64) is not 80 (int64)', () => {
    const out = applyPatch('strategic', deployment(), enc('{"spec":{"template":{"spec":{"containers":[{"name":"web","ports":[{"containerPort":80.0,"name":"http"}]}]}}}}'), DEPLOYMENT);
    const ports = (out.spec as { template: { spec: { containers: { ports: unknown }[] } } }).template.spec.containers[0]!.ports;
    expect(ports).toEqual([{ containerPort: 80, name: 'http' }, { containerPort: 80, protocol: 'TCP' }]);
  });

  it('pod status conditions merge by type', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, status: { conditions: [{ type: 'Ready', status: 'False' }, { type: 'Initialized', status: 'True' }] } };
    const out = applyPatch('strategic', pod, enc({ status: { conditions: [{ type: 'Ready', status: 'True' }] } }), POD);
    expect((out.status as { conditions: unknown }).conditions).toEqual([{ type: 'Ready', status: 'True' }, { type: 'Initialized', status: 'True' }]);
  });
});

describe('strategic merge patch failures', () => {
  const cases: [string, unknown, number, string | undefined, string][] = [
    ['a body that is not an object', '[1]', 400, 'BadRequest', 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['a syntax error', '{"a":', 400, 'BadRequest', 'unexpected end of JSON input'],
    ['a float64 overflow', '{"a":1e999}', 400, 'BadRequest', 'json: cannot unmarshal number 1e999 into Go value of type float64'],
    [
      'a merge list element without its key',
      { spec: { template: { spec: { containers: [{ image: 'x' }] } } } },
      500,
      undefined,
      'map: map[image:x] does not contain declared merge key: name',
    ],
    ['an unknown $patch on a map', { spec: { $patch: 'merge', replicas: 2 } }, 500, undefined, 'unknown patch type: merge in map: map[$patch:merge replicas:2]'],
    ['$patch: merge in a list', { spec: { template: { spec: { containers: [{ $patch: 'merge' }] } } } }, 500, undefined, 'merging lists cannot yet be specified in the patch'],
    ['a $retainKeys that is not a list', { spec: { strategy: { $retainKeys: 'type' } } }, 400, 'BadRequest', 'invalid patch format of retainKeys'],
    ['a patch key missing from $retainKeys', { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: {} } } }, 400, 'BadRequest', 'invalid patch format of retainKeys'],
    ['a malformed $deleteFromPrimitiveList', { metadata: { $deleteFromPrimitiveListfinalizers: ['a/b'] } }, 400, 'BadRequest', 'invalid patch format of primitive list'],
    ['a malformed $setElementOrder', { metadata: { $setElementOrderfinalizers: ['a/b'] } }, 400, 'BadRequest', 'invalid patch format of setElementOrder list'],
    ['a $setElementOrder that is not a list', { metadata: { '$setElementOrder/finalizers': 'a/b' } }, 500, undefined, 'expected a []interface {}, but received a string'],
    [
      'a $setElementOrder out of order with the patch list',
      { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }], containers: [{ name: 'b' }, { name: 'a' }] } } } },
      500,
      undefined,
      "The order in patch list:\n[map[name:b] map[name:a]]\n doesn't match $setElementOrder list:\n[map[name:a] map[name:b]]\n",
    ],
    ['mixed element types', { metadata: { finalizers: [1] } }, 500, undefined, 'list element types are not identical: [[a/b] [1]]'],
    ['a list of lists', { metadata: { finalizers: [['x']] } }, 500, undefined, 'list element types are not identical: [[a/b] [[x]]]'],
  ];
  it.each(cases)('%s', (_name, body, code, reason, message) => {
    const e = failure(() => applyPatch('strategic', deployment(), enc(body), DEPLOYMENT));
    expect(e.code).toBe(code);
    expect(e.status.reason).toBe(reason);
    expect(e.message).toBe(message);
  });

  it('lists of lists are a bare 422', () => {
    const obj = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, spec: { podCIDRs: [['10.0.0.0/24']] } };
    const e = failure(() => applyPatch('strategic', obj, enc({ spec: { podCIDRs: ['10.1.0.0/24'] } }), { group: '', version: 'v1', kind: 'Node', unstructured: false }));
    expect(e.status).toMatchObject({ code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request', details: {} });
    expect((e.cause as Error).message).toBe('lists of lists are not supported');
  });

  it('a custom resource has no strategic merge', () => {
    const e = failure(() => applyPatch('strategic', { apiVersion: 'x/v1', kind: 'X' }, enc({}), { group: 'x', version: 'v1', kind: 'X', unstructured: true }));
    expect(e.status).toMatchObject({ code: 400, reason: 'BadRequest', message: 'strategic merge patch format is not supported' });
  });

  it('duplicate fields: a warning under Warn, a 422 with the patch as Go prints it under Strict', () => {
    const target = { group: '', version: 'v1', kind: 'ConfigMap', unstructured: false };
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
    const result = patchObject('strategic', cm, enc('{"metadata":{"labels":{"a":"1","a":"2"}}}'), target);
    expect(result.strictErrors).toEqual(['duplicate field "metadata.labels.a"']);
    expect(result.object.metadata).toEqual({ name: 'c', labels: { a: '2' } });
    expect(strictDecodingError(result, ['unknown field "spec"']).message).toBe(
      ' "" is invalid: patch: Invalid value: "map[metadata:map[labels:map[a:2]]]": strict decoding error: duplicate field "metadata.labels.a", unknown field "spec"',
    );
    expect(failure(() => applyPatch('strategic', cm, enc('{"metadata":{"labels":{"a":"1","a":"2"}}}'), target, { fieldValidation: 'Strict' })).status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: ' "" is invalid: patch: Invalid value: "map[metadata:map[labels:map[a:2]]]": strict decoding error: duplicate field "metadata.labels.a"',
      details: { causes: [{ reason: 'FieldValueInvalid', field: 'patch', message: 'Invalid value: "map[metadata:map[labels:map[a:2]]]": strict decoding error: duplicate field "metadata.labels.a"' }] },
    });
    // Ignore skips the strict pass entirely.
    expect(patchObject('strategic', cm, enc('{"metadata":{"labels":{"a":"1","a":"2"}}}'), target, { fieldValidation: 'Ignore' }).strictErrors).toEqual([]);
  });
});

describe('merge patch (application/merge-patch+json)', () => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { a: '1' } }, data: { k: 'v' } };
  it('merges objects, deletes nulls, replaces lists', () => {
    expect(applyPatch('merge', cm, enc({ metadata: { labels: { a: null, b: '2' } }, data: { k: null } }), CONFIGMAP)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', labels: { b: '2' } },
      data: {},
    });
  });
  it('errors: decoding (Warn) and evanphx ErrBadJSONPatch (Ignore, or a null body)', () => {
    expect(failure(() => applyPatch('merge', cm, enc('[1]'), CONFIGMAP)).status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}',
    });
    expect(failure(() => applyPatch('merge', cm, enc('{'), CONFIGMAP)).message).toBe('error decoding patch: unexpected end of JSON input');
    expect(failure(() => applyPatch('merge', cm, enc('null'), CONFIGMAP)).message).toBe('Invalid JSON Patch');
    expect(failure(() => applyPatch('merge', cm, enc('{'), CONFIGMAP, { fieldValidation: 'Ignore' })).message).toBe('Invalid JSON Patch');
    expect(failure(() => applyPatch('merge', cm, enc('"x"'), CONFIGMAP, { fieldValidation: 'Ignore' })).message).toBe('Invalid JSON Patch');
    const e = failure(() => applyPatch('merge', cm, enc('[{"a":null}]'), CONFIGMAP, { fieldValidation: 'Ignore' }));
    expect(e.code).toBe(422);
    expect(e.message).toMatch(/^ "" is invalid: patch: Invalid value: "\[\{\}\]": couldn't get version\/kind; json parse error: json: cannot unmarshal array into Go value of type struct/);
  });
  it('strict findings: duplicate fields', () => {
    const result = patchObject('merge', cm, enc('{"data":{"k":"1","k":"2"}}'), CONFIGMAP);
    expect(result.strictErrors).toEqual(['duplicate field "data.k"']);
    expect(result.object.data).toEqual({ k: '2' });
  });
});
