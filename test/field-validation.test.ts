// fieldValidation=Strict|Warn|Ignore on custom resources (spec §9.2): the 400 texts of strict
// decoding, the `Warning: 299` headers in the server's order (duplicate fields, root metadata
// unknowns, pruned paths sorted, embedded metadata unknowns), and silent dropping, for JSON and YAML
// bodies. Raw fetch (through the same transport) is used where client-node cannot express the
// request: duplicate keys and YAML bodies.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { at, COLLECTION_PATH, installWidgets, KIND, specSchema, widget } from './support/schema-crd.ts';
import { expectStatus } from './support/status.ts';
import { captureWarnings, warningTexts } from './support/warnings.ts';

const str = { type: 'string' };
const schema = specSchema({
  known: str,
  ports: { type: 'array', items: { type: 'object', properties: { name: str, port: { type: 'integer' } } } },
  template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { data: { type: 'object', additionalProperties: str } } },
});

let cluster: FakeCluster;
let custom: k8s.CustomObjectsApi;
let seq = 0;
beforeAll(async () => {
  cluster = await createFakeCluster();
  custom = await installWidgets(cluster, schema);
});
afterAll(() => cluster.close());

type Widget = { metadata: k8s.V1ObjectMeta; spec?: Record<string, unknown> };
const cannotBeHandled = (issues: string) => `${KIND} in version "v1" cannot be handled as a ${KIND}: strict decoding error: ${issues}`;

/** A body with unknown fields at the root metadata, in the spec (two, unsorted), in a list item and in embedded metadata. */
const bodyWithUnknowns = (name: string) => ({
  ...widget(name, {
    zeta: 1,
    known: 'k',
    alpha: 2,
    ports: [{ name: 'http', port: 80, hostPort: 8080 }],
    template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'inner', unknownInner: true }, data: { a: 'b' } },
  }),
  metadata: { name, unknownMeta: 'x' },
});
const UNKNOWNS = [
  'unknown field "metadata.unknownMeta"',
  'unknown field "spec.alpha"',
  'unknown field "spec.ports[0].hostPort"',
  'unknown field "spec.zeta"',
  'unknown field "spec.template.metadata.unknownInner"',
];
const PRUNED_SPEC = { known: 'k', ports: [{ name: 'http', port: 80 }], template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'inner' }, data: { a: 'b' } } };

const post = (body: string, query: string, contentType = 'application/json') =>
  fetch(`${cluster.url}${COLLECTION_PATH}${query}`, { method: 'POST', headers: { 'content-type': contentType }, body });

describe('Strict', () => {
  it('refuses unknown fields with 400, listing them all in the server order', async () => {
    const name = `s${++seq}`;
    await expectStatus(custom.createNamespacedCustomObject({ ...at, body: bodyWithUnknowns(name), fieldValidation: 'Strict' }), {
      code: 400,
      reason: 'BadRequest',
      message: cannotBeHandled(UNKNOWNS.join(', ')),
    });
    await expectStatus(custom.getNamespacedCustomObject({ ...at, name }), { code: 404 });
  });

  it('refuses on update too', async () => {
    const name = `s${++seq}`;
    const created = (await custom.createNamespacedCustomObject({ ...at, body: widget(name, { known: 'a' }) })) as Widget;
    await expectStatus(
      custom.replaceNamespacedCustomObject({ ...at, name, body: { ...widget(name, { known: 'b', extra: 1 }), metadata: created.metadata }, fieldValidation: 'Strict' }),
      { code: 400, reason: 'BadRequest', message: cannotBeHandled('unknown field "spec.extra"') },
    );
  });

  it('reports duplicate JSON fields first, and a duplicated unknown field as both', async () => {
    const name = `s${++seq}`;
    const body = `{"apiVersion":"schema.example.com/v1","kind":"Widget","metadata":{"name":"${name}","name":"${name}"},"spec":{"known":"a","unknownDupe":1,"known":"b","unknownDupe":2,"ports":[{"port":1,"port":2}]}}`;
    const res = await post(body, '?fieldValidation=Strict');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      cannotBeHandled(
        'duplicate field "metadata.name", duplicate field "spec.known", duplicate field "spec.unknownDupe", duplicate field "spec.ports[0].port", unknown field "spec.unknownDupe"',
      ),
    );
  });

  it('a clean body passes', async () => {
    const name = `s${++seq}`;
    const created = (await custom.createNamespacedCustomObject({ ...at, body: widget(name, { known: 'a' }), fieldValidation: 'Strict' })) as Widget;
    expect(created.spec).toEqual({ known: 'a' });
  });
});

describe('Warn', () => {
  it('stores the pruned object and sends one warning per issue, in order', async () => {
    const name = `w${++seq}`;
    const capture = captureWarnings();
    const created = (await custom.createNamespacedCustomObject({ ...at, body: bodyWithUnknowns(name), fieldValidation: 'Warn' }, capture.options)) as Widget;
    expect(capture.warnings()).toEqual(UNKNOWNS);
    expect(created.spec).toEqual(PRUNED_SPEC);
    expect(created.metadata).not.toHaveProperty('unknownMeta');
  });

  it('is the default when fieldValidation is not set', async () => {
    const capture = captureWarnings();
    await custom.createNamespacedCustomObject({ ...at, body: bodyWithUnknowns(`w${++seq}`) }, capture.options);
    expect(capture.warnings()).toEqual(UNKNOWNS);
  });

  it('warns about duplicates before unknowns; the last duplicate wins', async () => {
    const name = `w${++seq}`;
    const body = `{"apiVersion":"schema.example.com/v1","kind":"Widget","metadata":{"name":"${name}"},"spec":{"known":"first","extra":1,"known":"last"}}`;
    const res = await post(body, '');
    expect(res.status).toBe(201);
    expect(warningTexts(res.headers.get('warning'))).toEqual(['duplicate field "spec.known"', 'unknown field "spec.extra"']);
    expect(((await res.json()) as Widget).spec).toEqual({ known: 'last' });
  });

  it('no warnings for a clean body', async () => {
    const capture = captureWarnings();
    await custom.createNamespacedCustomObject({ ...at, body: widget(`w${++seq}`, { known: 'a' }) }, capture.options);
    expect(capture.warnings()).toEqual([]);
  });
});

describe('Ignore', () => {
  it('drops unknown fields silently and keeps the last duplicate', async () => {
    const name = `i${++seq}`;
    const capture = captureWarnings();
    const created = (await custom.createNamespacedCustomObject({ ...at, body: bodyWithUnknowns(name), fieldValidation: 'Ignore' }, capture.options)) as Widget;
    expect(capture.warnings()).toEqual([]);
    expect(created.spec).toEqual(PRUNED_SPEC);
    const res = await post(`{"apiVersion":"schema.example.com/v1","kind":"Widget","metadata":{"name":"i${++seq}"},"spec":{"known":"a","known":"b"}}`, '?fieldValidation=Ignore');
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBeNull();
    expect(((await res.json()) as Widget).spec).toEqual({ known: 'b' });
  });

  it('an unknown fieldValidation value is a 422 on the options', async () => {
    await expectStatus(custom.createNamespacedCustomObject({ ...at, body: widget(`i${++seq}`, {}), fieldValidation: 'Loose' }), {
      code: 422,
      reason: 'Invalid',
      message: 'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"',
    });
  });
});

describe('YAML bodies', () => {
  const yaml = (name: string) => `apiVersion: schema.example.com/v1
kind: Widget
metadata:
  name: ${name}
  name: ${name}
spec:
  known: first
  extra: 1
  known: last
`;

  it('Strict: go-yaml\'s duplicate-key error comes first, then the unknown fields', async () => {
    const res = await post(yaml(`y${++seq}`), '?fieldValidation=Strict', 'application/yaml');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      cannotBeHandled('yaml: unmarshal errors:\n  line 5: key "name" already set in map\n  line 9: key "known" already set in map, unknown field "spec.extra"'),
    );
  });

  it('Warn: the multi-line YAML error cannot be a Warning header and is dropped; unknown fields still warn', async () => {
    const name = `y${++seq}`;
    const res = await post(yaml(name), '', 'application/yaml');
    expect(res.status).toBe(201);
    expect(warningTexts(res.headers.get('warning'))).toEqual(['unknown field "spec.extra"']);
    expect(((await res.json()) as Widget).spec).toEqual({ known: 'last' });
  });

  it('Ignore: accepted, last value kept', async () => {
    const res = await post(yaml(`y${++seq}`), '?fieldValidation=Ignore', 'application/yaml');
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBeNull();
  });
});

describe('patches', () => {
  it('Strict merge patch with an unknown field is a 422 on the patched object', async () => {
    const name = `p${++seq}`;
    await custom.createNamespacedCustomObject({ ...at, body: widget(name, { known: 'a' }) });
    const status = await expectStatus(
      custom.patchNamespacedCustomObject({ ...at, name, body: { spec: { extra: 1 } }, fieldValidation: 'Strict' }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch)),
      { code: 422, reason: 'Invalid' },
    );
    expect(status.message).toMatch(/^ "" is invalid: patch: Invalid value: "\{.*\}": strict decoding error: unknown field "spec.extra"$/);
  });

  it('Warn merge patch warns and drops', async () => {
    const name = `p${++seq}`;
    await custom.createNamespacedCustomObject({ ...at, body: widget(name, { known: 'a' }) });
    const capture = captureWarnings(k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    const patched = (await custom.patchNamespacedCustomObject({ ...at, name, body: { spec: { extra: 1 } } }, capture.options)) as Widget;
    expect(capture.warnings()).toEqual(['unknown field "spec.extra"']);
    expect(patched.spec).toEqual({ known: 'a' });
  });
});

describe('built-in objects', () => {
  // Typed decoding reports duplicate fields the same way (kube-apiserver's field_validation_test.go).
  const configMap = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup","name":"dup"},"data":{"a":"1","a":"2"}}';
  const postConfigMap = (query: string) =>
    fetch(`${cluster.url}/api/v1/namespaces/default/configmaps${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: configMap });

  it('Strict refuses duplicate fields with 400', async () => {
    const res = await postConfigMap('?fieldValidation=Strict');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.name", duplicate field "data.a"',
    );
  });

  it('Warn keeps the last value and warns', async () => {
    const res = await postConfigMap('');
    expect(res.status).toBe(201);
    expect(warningTexts(res.headers.get('warning'))).toEqual(['duplicate field "metadata.name"', 'duplicate field "data.a"']);
    expect(((await res.json()) as { data: unknown }).data).toEqual({ a: '2' });
  });
});
