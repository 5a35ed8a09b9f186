// Issue 19, the last gaps: resource versions beyond uint64, Warning texts beyond latin1, deeply
// nested CEL rules, oversized conversion webhook answers and unread bodies at close(). Through
// client-node (in-process) and the listener, as a client sees the real server.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { clientCrd } from './support/client-schema.ts';
import { rawRequest, type RawTarget } from './support/raw-http.ts';
import { expectStatus } from './support/status.ts';
import { captureWarnings, warningTexts } from './support/warnings.ts';

const G = 'leftovers.example.com';

function widgetCrd(versions: Array<Record<string, unknown>>, rule?: string) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${G}` },
    spec: {
      group: G,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: versions.map((v) => ({
        served: true,
        storage: false,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, ...(rule ? { 'x-kubernetes-validations': [{ rule }] } : {}) } } } },
        ...v,
      })),
    },
  };
}

let cluster: FakeCluster;
let target: RawTarget;
beforeAll(async () => {
  cluster = await createFakeCluster();
  target = { port: Number(new URL((await cluster.listen()).url).port) };
});
afterAll(() => cluster.close());

describe('resourceVersion beyond uint64', () => {
  it('is refused as ParseUint refuses it (400 value out of range), not read as a rounded number', async () => {
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const message = 'invalid resource version: resourceVersion: Invalid value: "99999999999999999999": strconv.ParseUint: parsing "99999999999999999999": value out of range';
    await expectStatus(core.listNamespacedConfigMap({ namespace: 'default', resourceVersion: '99999999999999999999' }), { code: 400, reason: 'BadRequest', message });
    const raw = await rawRequest(target, 'GET', '/api/v1/namespaces/default/configmaps?resourceVersion=99999999999999999999');
    expect(raw.status).toBe(400);
    expect(JSON.parse(raw.body)).toMatchObject({ kind: 'Status', code: 400, message });
  });

  it('reads the largest uint64 as a valid, too large version, printed with every digit', { timeout: 10_000 }, async () => {
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const status = await expectStatus(core.listNamespacedConfigMap({ namespace: 'default', resourceVersion: '18446744073709551615' }), { code: 504, reason: 'Timeout' });
    expect(status.message).toMatch(/^Timeout: Too large resource version: 18446744073709551615, current: \d+$/);
  });
});

describe('Warning headers with text beyond latin1', () => {
  const warning = 'v1 Widget is deprecated: use v2 — see 日本 ✓';

  it('are sent as Go sends them (UTF-8 bytes), never a 500', async () => {
    await cluster.apply(widgetCrd([{ name: 'v1', storage: true, deprecated: true, deprecationWarning: warning }]));
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    const capture = captureWarnings();
    const list = (await custom.listNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'widgets' }, capture.options)) as { kind: string };
    expect(list.kind).toBe('WidgetList');
    // A fetch client reads header bytes as latin1, from kube-apiserver as from here.
    expect(capture.warnings().map((w) => Buffer.from(w, 'latin1').toString('utf8'))).toEqual([warning]);
    const raw = await rawRequest(target, 'GET', `/apis/${G}/v1/namespaces/default/widgets`);
    expect(raw.status).toBe(200);
    expect(warningTexts(raw.headers.warning).map((w) => Buffer.from(w, 'latin1').toString('utf8'))).toEqual([warning]);
  });
});

describe('CEL rules nested deeper than cel-go parses', () => {
  const crds = () => cluster.kubeConfig.makeApiClient(k8s.ApiextensionsV1Api);
  const withRule = (rule: string) =>
    clientCrd({ ...widgetCrd([{ name: 'v1', storage: true }], rule), metadata: { name: `deep.${G}` }, spec: { ...widgetCrd([{ name: 'v1', storage: true }], rule).spec, names: { plural: 'deep', singular: 'deep', kind: 'Deep' } } });

  it('are refused with the parser’s recursion error (422), never a 500', async () => {
    const rules = {
      sum: Array(300).fill('1').join(' + ') + ' > 0',
      hugeSum: Array(5000).fill('1').join(' + ') + ' > 0',
      selects: 'self' + '.a'.repeat(300) + ' == 1',
      // cel-go folds runs of `!` and balances `&&` chains; the engine nests them, so they are
      // refused with the same text rather than overflowing the stack.
      nots: '!'.repeat(5000) + 'true',
      // Deep enough to overflow the engine's parser itself, whatever the stack in use.
      manyNots: '!'.repeat(200_000) + 'true',
      ands: Array(5000).fill('true').join(' && '),
    };
    for (const [what, rule] of Object.entries(rules)) {
      const status = await expectStatus(crds().createCustomResourceDefinition({ body: withRule(rule) }), { code: 422, reason: 'Invalid' });
      const causes = (status.details as { causes: Array<{ message: string; field: string }> }).causes;
      expect(causes, what).toEqual([
        expect.objectContaining({ field: 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule', message: expect.stringMatching(/compilation failed: ERROR: <input>:-1:0: max recursion depth exceeded$/) }),
      ]);
    }
  });

  it('answers nested parentheses and lists with the listener’s text', async () => {
    for (const rule of ['('.repeat(300) + 'true' + ')'.repeat(300), '['.repeat(300) + ']'.repeat(300) + ' == []']) {
      const status = await expectStatus(crds().createCustomResourceDefinition({ body: withRule(rule) }), { code: 422, reason: 'Invalid' });
      expect((status.details as { causes: Array<{ message: string }> }).causes[0]!.message).toMatch(/compilation failed: ERROR: <input>:-1:0: expression recursion limit exceeded: 250$/);
    }
  });

  it('accepts a rule just within the limit, and enforces it', async () => {
    await crds().createCustomResourceDefinition({ body: withRule(Array(200).fill('1').join(' + ') + ' == 200') });
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    await expect.poll(async () => (await custom.listNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'deep' }).then(() => 'served', () => 'not yet'))).toBe('served');
    const created = (await custom.createNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'deep', body: { apiVersion: `${G}/v1`, kind: 'Deep', metadata: { name: 'd' }, spec: {} } })) as { metadata: { name: string } };
    expect(created.metadata.name).toBe('d');
    // The rule is compiled and enforced: one term fewer fails it.
    await crds().patchCustomResourceDefinition(
      { name: `deep.${G}`, body: [{ op: 'replace', path: '/spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations/0/rule', value: Array(200).fill('1').join(' + ') + ' == 199' }] },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch),
    );
    await expect.poll(() => custom.createNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'deep', body: { apiVersion: `${G}/v1`, kind: 'Deep', metadata: { name: 'e' }, spec: {} } }).then(() => 'created', (e: k8s.ApiException<string>) => e.code)).toBe(422);
  });
});
