// Unit tests for a CRD's x-kubernetes-validations, the two ways kubefake offers:
// - directly with `kubefake/cel`: compile one rule against the schema node it sits on (compile
//   errors and cost as a CRD write reports them), evaluate it on values, or validate a whole
//   object against the version's openAPIV3Schema as a custom resource write does;
// - through a cluster: install the CRD from its YAML file and write objects with client-node; a
//   broken rule is a 422 `Invalid` carrying the rule's message.
// Run: npm run example:cel-rules (also part of npm test).
import * as k8s from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { describe } from 'vitest';
import { compile, evaluate, validate, type JSONSchemaProps } from '../../src/cel/index.ts';
import { expect, test } from '../../src/vitest.ts';

const CRD_FILE = new URL('./rollout-crd.yaml', import.meta.url);
// The schema straight from the CRD file, so the tests follow the file.
const crd = load(readFileSync(CRD_FILE, 'utf8')) as { spec: { versions: Array<{ schema: { openAPIV3Schema: JSONSchemaProps } }> } };
const root = crd.spec.versions[0]!.schema.openAPIV3Schema;
const spec = root.properties!.spec!;
const rulesOf = (node: JSONSchemaProps) => node['x-kubernetes-validations']!;

const rollout = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Rollout', metadata: { name, namespace: 'default' }, spec });

describe('with kubefake/cel, no cluster', () => {
  test('a rule compiles against its schema node, with its worst-case cost', () => {
    const inRange = compile(rulesOf(spec)[0]!, spec);
    expect(inRange.errors).toEqual([]);
    expect(inRange.cost).toBeGreaterThan(0);
    expect(inRange.evaluate({ image: 'web:1', replicas: 3, minReplicas: 1, maxReplicas: 5 })).toMatchObject({ valid: true });
    expect(inRange.evaluate({ image: 'web:1', replicas: 9, minReplicas: 1, maxReplicas: 5 })).toMatchObject({
      valid: false,
      message: 'replicas should be in the range minReplicas..maxReplicas',
    });
  });

  test('a typo is a compile error in cel-go words, as the CRD write would report it', () => {
    expect(compile('self.replicas <= self.maxReplica', spec).errors).toEqual([
      "compilation failed: ERROR: <input>:1:22: undefined field 'maxReplica'\n | self.replicas <= self.maxReplica\n | .....................^",
    ]);
    expect(compile('self.replicas', spec).errors).toEqual(['cel expression must evaluate to a bool']);
  });

  test('messageExpression builds the message from the value', () => {
    const port = spec.properties!.ports!.items as JSONSchemaProps;
    expect(evaluate(rulesOf(port)[0]!, port, { name: 'metrics', port: 8080 })).toMatchObject({ valid: true });
    expect(evaluate(rulesOf(port)[0]!, port, { name: 'http', port: 80 })).toMatchObject({ valid: false, message: 'port http is privileged' });
  });

  test('a transition rule needs the old value: it is skipped on create and checked on update', () => {
    const image = spec.properties!.image!;
    const immutable = compile(rulesOf(image)[0]!, image);
    expect(immutable.usesOldSelf).toBe(true);
    expect(immutable.evaluate('web:2')).toMatchObject({ valid: true }); // no oldSelf: a create
    expect(immutable.evaluate('web:2', 'web:1')).toMatchObject({ valid: false, message: 'image is immutable' });
  });

  test('validate() runs every rule of the schema and renders errors as the apiserver does', () => {
    const bad = rollout('web', { image: 'web:1', replicas: 2, minReplicas: 1, maxReplicas: 1, ports: [{ name: 'http', port: 80 }, { name: 'metrics', port: 8080 }, { name: 'https', port: 443 }], canary: { weight: 60 } });
    expect(validate(root, bad).errors).toEqual([
      // object and array values are left out of the message, scalars are shown
      'spec: Invalid value: replicas should be in the range minReplicas..maxReplicas',
      'spec.canary.weight: Forbidden: a canary above 50% needs at least 4 replicas',
      'spec.ports[0]: Invalid value: port http is privileged',
      'spec.ports[2]: Invalid value: port https is privileged',
    ]);
    const old = rollout('web', { image: 'web:1', replicas: 3, minReplicas: 1, maxReplicas: 10 });
    expect(validate(root, { ...old, spec: { ...old.spec, image: 'web:2' } }, old).errors).toEqual(['spec.image: Invalid value: "web:2": image is immutable']);
  });

  test('validate() does not apply defaults: a rule reading an absent field fails to evaluate', () => {
    // The cluster applies the schema's defaults (minReplicas 1, maxReplicas 10) before the rules run; validate() takes the object as given.
    expect(validate(root, rollout('web', { image: 'web:1', replicas: 3, minReplicas: 1 })).errors).toEqual([
      'spec: Invalid value: "object": no such key: maxReplicas evaluating rule: replicas should be in the range minReplicas..maxReplicas',
    ]);
  });
});

describe('through a cluster', () => {
  test.override({ clusterOptions: { manifests: CRD_FILE } });
  const at = { group: 'example.com', version: 'v1', namespace: 'default', plural: 'rollouts' };

  /** The Status of a write that must fail. */
  async function rejection(call: Promise<unknown>): Promise<{ code: number; reason: string; message: string; details: { causes: unknown[] } }> {
    const err = await call.then(
      () => expect.fail('the write should have been refused'),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(k8s.ApiException);
    return JSON.parse((err as k8s.ApiException<string>).body);
  }

  test('a write that breaks a rule is a 422 with the rule message', async ({ cluster }) => {
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    // minReplicas and maxReplicas come from the schema's defaults here.
    const status = await rejection(custom.createNamespacedCustomObject({ ...at, body: rollout('web', { image: 'web:1', replicas: 30 }) }));
    expect(status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'Rollout.example.com "web" is invalid: spec: Invalid value: replicas should be in the range minReplicas..maxReplicas',
      details: { name: 'web', group: 'example.com', kind: 'Rollout', causes: [{ reason: 'FieldValueInvalid', field: 'spec', message: 'Invalid value: replicas should be in the range minReplicas..maxReplicas' }] },
    });
    expect(cluster.get({ kind: 'Rollout', name: 'web' })).toBeUndefined();
  });

  test('reason and fieldPath pick the cause type and the field', async ({ cluster }) => {
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    const status = await rejection(custom.createNamespacedCustomObject({ ...at, body: rollout('web', { image: 'web:1', replicas: 2, canary: { weight: 80 } }) }));
    expect(status.details.causes).toEqual([{ reason: 'FieldValueForbidden', field: 'spec.canary.weight', message: 'Forbidden: a canary above 50% needs at least 4 replicas' }]);
  });

  test('a transition rule lets the create through and refuses the change', async ({ cluster }) => {
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    await custom.createNamespacedCustomObject({ ...at, body: rollout('web', { image: 'web:1', replicas: 3 }) });
    const patch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
    const status = await rejection(custom.patchNamespacedCustomObject({ ...at, name: 'web', body: { spec: { image: 'web:2', replicas: 4 } } }, patch));
    expect(status.message).toBe('Rollout.example.com "web" is invalid: spec.image: Invalid value: "web:2": image is immutable');
    // Changing what the rules allow goes through.
    await custom.patchNamespacedCustomObject({ ...at, name: 'web', body: { spec: { replicas: 4 } } }, patch);
    expect(cluster.get({ kind: 'Rollout', name: 'web' })).toMatchObject({ spec: { image: 'web:1', replicas: 4 } });
  });

  test('every broken rule is reported, in one 422', async ({ cluster }) => {
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    const status = await rejection(custom.createNamespacedCustomObject({ ...at, body: rollout('web', { image: 'web:1', replicas: 0, ports: [{ name: 'ssh', port: 22 }, { name: 'metrics', port: 8080 }] }) }));
    expect(status.message).toBe(
      'Rollout.example.com "web" is invalid: [spec: Invalid value: replicas should be in the range minReplicas..maxReplicas, spec.ports[0]: Invalid value: port ssh is privileged]',
    );
  });
});
