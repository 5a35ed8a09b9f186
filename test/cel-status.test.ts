// x-kubernetes-validations on /status writes (apiextensions-apiserver pkg/registry/customresource/
// status_strategy.go ValidateUpdate): the rules of the whole object run against the object the
// status strategy built (the stored spec and metadata, the request's status), with oldSelf from the
// stored object and ratcheting of what did not change — so a spec rule the stored object already
// breaks is a warning there, not an error. Through client-node's replace/patch of /status.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectInvalid, expectStatus } from './support/status.ts';
import { captureWarnings } from './support/warnings.ts';

type Schema = Record<string, unknown>;

const G = 'status.example.com';
const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const at = { group: G, version: 'v1', namespace: 'default', plural: 'gadgets' };

/** A Gadget CRD with the status subresource; `spec` and `status` schemas as given. */
function gadgetCrd(spec: Schema, status: Schema, root: Schema = {}) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `gadgets.${G}` },
    spec: {
      group: G,
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: { openAPIV3Schema: { type: 'object', properties: { spec, status }, ...root } },
        },
      ],
    },
  };
}

const int = { type: 'integer' };
const specSchema = (extra: Schema = {}): Schema => ({ type: 'object', properties: { replicas: { type: 'integer', ...extra } } });
const statusSchema = (extra: Schema = {}, props: Record<string, Schema> = {}): Schema => ({
  type: 'object',
  properties: { replicas: int, observedGeneration: int, phase: { type: 'string', maxLength: 20 }, ...props },
  ...extra,
});

let cluster: FakeCluster;
let api: k8s.CustomObjectsApi;
beforeEach(async () => {
  cluster = await createFakeCluster();
  api = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
});
afterEach(() => cluster.close());

const gadget = (name: string, spec: unknown, status?: unknown) => ({ apiVersion: `${G}/v1`, kind: 'Gadget', metadata: { name }, spec, ...(status === undefined ? {} : { status }) });
type Stored = { metadata: { resourceVersion: string }; spec?: unknown; status?: Record<string, unknown> };
const read = (name: string) => api.getNamespacedCustomObject({ ...at, name }) as Promise<Stored>;
/** replaceNamespacedCustomObjectStatus with the current resourceVersion. */
async function replaceStatus(name: string, status: unknown, options?: k8s.ConfigurationOptions) {
  const current = await read(name);
  return api.replaceNamespacedCustomObjectStatus({ ...at, name, body: { ...current, status } }, options) as Promise<Stored>;
}
const patchStatus = (name: string, status: unknown) => api.patchNamespacedCustomObjectStatus({ ...at, name, body: { status } }, merge) as Promise<Stored>;

describe('rules on status', () => {
  it('a failing status rule is the exact 422 of a replace', async () => {
    await cluster.apply(gadgetCrd(specSchema(), statusSchema({}, { replicas: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= 0', message: 'must not be negative', reason: 'FieldValueForbidden' }] } })));
    await api.createNamespacedCustomObject({ ...at, body: gadget('a', { replicas: 1 }) });
    await expectInvalid(replaceStatus('a', { replicas: -1 }), { group: G, kind: 'Gadget', name: 'a' }, [
      { field: 'status.replicas', reason: 'FieldValueForbidden', message: 'Forbidden: must not be negative' },
    ]);
    expect((await read('a')).status).toBeUndefined();
    expect((await replaceStatus('a', { replicas: 0 })).status).toEqual({ replicas: 0 });
  });

  it('a status rule with messageExpression and fieldPath, through a merge patch', async () => {
    const rule = { rule: "self.phase != 'Ready' || self.replicas > 0", messageExpression: "'phase ' + self.phase + ' needs replicas'", fieldPath: '.replicas' };
    await cluster.apply(gadgetCrd(specSchema(), statusSchema({ 'x-kubernetes-validations': [rule] })));
    await api.createNamespacedCustomObject({ ...at, body: gadget('a', { replicas: 1 }) });
    await expectStatus(patchStatus('a', { phase: 'Ready', replicas: 0 }), {
      code: 422,
      message: 'Gadget.status.example.com "a" is invalid: status.replicas: Invalid value: phase Ready needs replicas',
    });
    expect((await patchStatus('a', { phase: 'Ready', replicas: 2 })).status).toEqual({ phase: 'Ready', replicas: 2 });
  });

  it('a transition rule on status sees the stored status as oldSelf, and does not run while there is none', async () => {
    const observedGeneration = { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'observedGeneration may not go back' }] };
    await cluster.apply(gadgetCrd(specSchema(), statusSchema({}, { observedGeneration })));
    await api.createNamespacedCustomObject({ ...at, body: gadget('a', { replicas: 1 }) });
    // No old value yet: the first status write is not a transition.
    await patchStatus('a', { observedGeneration: 3 });
    await patchStatus('a', { observedGeneration: 4 });
    await expectStatus(patchStatus('a', { observedGeneration: 2 }), {
      code: 422,
      message: 'Gadget.status.example.com "a" is invalid: status.observedGeneration: Invalid value: 2: observedGeneration may not go back',
    });
    await expectStatus(replaceStatus('a', { observedGeneration: 1 }), { code: 422 });
    expect((await read('a')).status).toEqual({ observedGeneration: 4 });
  });

  it('optionalOldSelf on status runs on the first status write with oldSelf none', async () => {
    const rule = { rule: "oldSelf.hasValue() || self == 'Pending'", message: 'the first phase is Pending', optionalOldSelf: true };
    await cluster.apply(gadgetCrd(specSchema(), statusSchema({}, { phase: { type: 'string', maxLength: 20, 'x-kubernetes-validations': [rule] } })));
    await api.createNamespacedCustomObject({ ...at, body: gadget('a', { replicas: 1 }) });
    await expectStatus(patchStatus('a', { phase: 'Running' }), {
      code: 422,
      message: 'Gadget.status.example.com "a" is invalid: status.phase: Invalid value: "Running": the first phase is Pending',
    });
    await patchStatus('a', { phase: 'Pending' });
    await patchStatus('a', { phase: 'Running' });
  });

  it('a root rule relating status to spec runs on status writes (the root changed)', async () => {
    const rules = [{ rule: '!has(self.status) || !has(self.status.replicas) || self.status.replicas <= self.spec.replicas', message: 'status.replicas exceeds spec.replicas' }];
    await cluster.apply(gadgetCrd(specSchema(), statusSchema(), { 'x-kubernetes-validations': rules }));
    await api.createNamespacedCustomObject({ ...at, body: gadget('a', { replicas: 2 }) });
    await patchStatus('a', { replicas: 2 });
    await expectStatus(patchStatus('a', { replicas: 3 }), {
      code: 422,
      message: 'Gadget.status.example.com "a" is invalid: <nil>: Invalid value: status.replicas exceeds spec.replicas',
    });
  });
});

describe('spec rules on status writes', () => {
  it('a spec rule the stored object already breaks is ratcheted: the status write succeeds with a warning', async () => {
    await cluster.apply(gadgetCrd(specSchema(), statusSchema()));
    await api.createNamespacedCustomObject({ ...at, body: gadget('a', { replicas: 50 }) });
    // The rule arrives after the object was stored.
    await cluster.apply(gadgetCrd(specSchema({ 'x-kubernetes-validations': [{ rule: 'self <= 10', message: 'at most 10' }] }), statusSchema()));

    const capture = captureWarnings();
    const updated = await replaceStatus('a', { replicas: 1 }, capture.options);
    expect(updated.status).toEqual({ replicas: 1 });
    expect(capture.warnings()).toEqual(['spec.replicas: Invalid value: 50: at most 10']);

    const patched = captureWarnings(merge);
    await api.patchNamespacedCustomObjectStatus({ ...at, name: 'a', body: { status: { replicas: 2 } } }, patched.options);
    expect(patched.warnings()).toEqual(['spec.replicas: Invalid value: 50: at most 10']);

    // A write of the main resource that changes spec is held to the rule.
    const current = await read('a');
    await expectStatus(api.replaceNamespacedCustomObject({ ...at, name: 'a', body: { ...current, spec: { replicas: 40 } } }), {
      code: 422,
      message: 'Gadget.status.example.com "a" is invalid: spec.replicas: Invalid value: 40: at most 10',
    });
  });

  it('a spec rule that errors at runtime is not ratcheted: the status write is refused', async () => {
    const spec = { type: 'object', properties: { a: int, b: int } };
    await cluster.apply(gadgetCrd(spec, statusSchema()));
    await api.createNamespacedCustomObject({ ...at, body: gadget('a', { a: 1, b: 0 }) });
    await cluster.apply(gadgetCrd({ ...spec, 'x-kubernetes-validations': [{ rule: 'self.a / self.b > 0' }] }, statusSchema()));
    await expectStatus(patchStatus('a', { replicas: 1 }), {
      code: 422,
      message: 'Gadget.status.example.com "a" is invalid: spec: Invalid value: "object": division by zero evaluating rule: self.a / self.b > 0',
    });
  });

  it('blocking errors of the status schema skip the rules', async () => {
    await cluster.apply(gadgetCrd(specSchema(), statusSchema({ 'x-kubernetes-validations': [{ rule: 'false', message: 'never' }] })));
    await api.createNamespacedCustomObject({ ...at, body: gadget('a', { replicas: 1 }) });
    const body = await expectStatus(patchStatus('a', { phase: 'x'.repeat(21) }), { code: 422, reason: 'Invalid' });
    expect((body.details as { causes: unknown[] }).causes).toEqual([
      { reason: 'FieldValueTooLong', message: 'Too long: may not be more than 20 bytes', field: 'status.phase' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation', field: '<nil>' },
    ]);
    await expectStatus(patchStatus('a', { phase: 'ok' }), { code: 422, message: 'Gadget.status.example.com "a" is invalid: status: Invalid value: never' });
  });

  it('a spec change sent to /status is dropped before the rules run', async () => {
    await cluster.apply(gadgetCrd(specSchema({ 'x-kubernetes-validations': [{ rule: 'self <= 10', message: 'at most 10' }] }), statusSchema()));
    await api.createNamespacedCustomObject({ ...at, body: gadget('a', { replicas: 5 }) });
    const capture = captureWarnings(merge);
    const patched = (await api.patchNamespacedCustomObjectStatus({ ...at, name: 'a', body: { spec: { replicas: 99 }, status: { replicas: 1 } } }, capture.options)) as Stored;
    expect(patched.spec).toEqual({ replicas: 5 });
    expect(capture.warnings()).toEqual([]);
  });
});
