// The example rules of the CRD task page ("Validation rules" onward) that the other suites do not
// run as written, through the real client. Where each example of the page is tested:
//
//   intro example, with and without `message`  fixtures/crd-docs/cel.yaml (rule-message, rule-without-message)
//   compile errors (3)                          test/cel-crd.test.ts "compile errors"
//   rules table (13 rows)                       test/cel-rules.test.ts "the rules table of the task page";
//                                               the int-or-string row scoped to the field as printed: here
//   root scope, spec and status in one rule     test/cel-rules.test.ts "scope of self"; the page's block: here
//   scope blocks (has, map, list, scalar)       compiled in test/cel-crd.test.ts; evaluated: here
//   scope table (4 rows)                        as printed (rules on the parent): here
//   escaping table                              test/cel-rules.test.ts "escaped property names and unknown fields"
//   list-type equality and `+`                  test/cel-list-types.test.ts
//   messageExpression example                   test/cel-crd.test.ts (rejected by the 1.36 cost estimate)
//   reason and fieldPath examples               here
//   optionalOldSelf table (3 rows)              rows 1-2 test/cel-rules.test.ts; row 3 and row 2 as printed: here
//   transition example (low/medium/high)        fixtures/crd-docs/cel.yaml (transition-rule)
//   transition table (5 use cases, 6 rules)     test/cel-rules.test.ts "transition rules"; `!has(oldSelf.field) || has(self.field)`: here
//   cost examples (100x, bounded, items, nested) test/cel-crd.test.ts "cost limits"
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { clientCrd } from './support/client-schema.ts';
import { at, installWidgets, specSchema, widget, widgetCrd, type Schema } from './support/schema-crd.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
beforeEach(async () => {
  cluster = await createFakeCluster();
});
afterEach(() => cluster.close());

const create = (api: k8s.CustomObjectsApi, name: string, spec: unknown, extra: Record<string, unknown> = {}) =>
  api.createNamespacedCustomObject({ ...at, body: widget(name, spec, extra) });
const replace = async (api: k8s.CustomObjectsApi, name: string, spec: unknown) => {
  const current = (await api.getNamespacedCustomObject({ ...at, name })) as { metadata: { resourceVersion: string } };
  return api.replaceNamespacedCustomObject({ ...at, name, body: widget(name, spec, { metadata: { name, resourceVersion: current.metadata.resourceVersion } }) });
};
type Cause = { field: string; reason: string; message: string };
async function causesOf(call: Promise<unknown>): Promise<Cause[]> {
  const status = await expectStatus(call, { code: 422, reason: 'Invalid' });
  return (status.details as { causes: Cause[] }).causes;
}

describe('the rules table: int-or-string, scoped to the field', () => {
  it("type(self) == string ? self == '100%' : self == 1000", async () => {
    const rule = "type(self) == string ? self == '100%' : self == 1000";
    const api = await installWidgets(cluster, specSchema({ v: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': [{ rule }] } }));
    await create(api, 'int', { v: 1000 });
    await create(api, 'str', { v: '100%' });
    expect(await causesOf(create(api, 'bad-int', { v: 999 }))).toEqual([{ field: 'spec.v', reason: 'FieldValueInvalid', message: `Invalid value: 999: failed rule: ${rule}` }]);
    expect(await causesOf(create(api, 'bad-str', { v: '50%' }))).toEqual([{ field: 'spec.v', reason: 'FieldValueInvalid', message: `Invalid value: "50%": failed rule: ${rule}` }]);
  });
});

describe('scope of self, as the page writes it', () => {
  it('root: self.status.availableReplicas >= self.spec.minReplicas', async () => {
    const rule = 'self.status.availableReplicas >= self.spec.minReplicas';
    const api = await installWidgets(cluster, {
      type: 'object',
      'x-kubernetes-validations': [{ rule }],
      properties: { spec: { type: 'object', properties: { minReplicas: { type: 'integer' } } }, status: { type: 'object', properties: { availableReplicas: { type: 'integer' } } } },
    });
    await create(api, 'ok', { minReplicas: 2 }, { status: { availableReplicas: 2 } });
    expect(await causesOf(create(api, 'low', { minReplicas: 2 }, { status: { availableReplicas: 1 } }))).toEqual([{ field: '<nil>', reason: 'FieldValueInvalid', message: `Invalid value: failed rule: ${rule}` }]);
    // Without a status the select fails at runtime.
    expect(await causesOf(create(api, 'none', { minReplicas: 2 }))).toEqual([
      { field: '<nil>', reason: 'FieldValueInvalid', message: `Invalid value: "object": no such key: status evaluating rule: ${rule}` },
    ]);
  });

  it('an object with properties: has(self.foo)', async () => {
    const api = await installWidgets(cluster, specSchema({ foo: { type: 'integer', nullable: true } }, { 'x-kubernetes-validations': [{ rule: 'has(self.foo)' }] }));
    await create(api, 'ok', { foo: 1 });
    expect(await causesOf(create(api, 'bad', {}))).toEqual([{ field: 'spec', reason: 'FieldValueInvalid', message: 'Invalid value: failed rule: has(self.foo)' }]);
    // A null field (kept: nullable) reads as absent.
    expect(await causesOf(create(api, 'null', { foo: null }))).toEqual([{ field: 'spec', reason: 'FieldValueInvalid', message: 'Invalid value: failed rule: has(self.foo)' }]);
  });

  it("a map: self['xyz'].foo > 0", async () => {
    const rule = "self['xyz'].foo > 0";
    const spec = { type: 'object', additionalProperties: { type: 'object', properties: { foo: { type: 'integer' } } }, 'x-kubernetes-validations': [{ rule }] };
    const api = await installWidgets(cluster, { type: 'object', properties: { spec } });
    await create(api, 'ok', { xyz: { foo: 1 }, other: { foo: 0 } });
    expect(await causesOf(create(api, 'zero', { xyz: { foo: 0 } }))).toEqual([{ field: 'spec', reason: 'FieldValueInvalid', message: `Invalid value: failed rule: ${rule}` }]);
    expect(await causesOf(create(api, 'missing', { abc: { foo: 1 } }))).toEqual([
      { field: 'spec', reason: 'FieldValueInvalid', message: `Invalid value: "object": no such key: xyz evaluating rule: ${rule}` },
    ]);
  });

  it('a list: size(self) == 1', async () => {
    const api = await installWidgets(cluster, specSchema({ foo: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'size(self) == 1' }] } }));
    await create(api, 'ok', { foo: ['a'] });
    expect(await causesOf(create(api, 'two', { foo: ['a', 'b'] }))).toEqual([{ field: 'spec.foo', reason: 'FieldValueInvalid', message: 'Invalid value: failed rule: size(self) == 1' }]);
  });

  it('a scalar: self > 0', async () => {
    const api = await installWidgets(cluster, specSchema({ foo: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0' }] } }));
    await create(api, 'ok', { foo: 1 });
    expect(await causesOf(create(api, 'zero', { foo: 0 }))).toEqual([{ field: 'spec.foo', reason: 'FieldValueInvalid', message: 'Invalid value: 0: failed rule: self > 0' }]);
  });

  it("the scope table's map of objects and list of integers, from the parent", async () => {
    const rules = [{ rule: "self.components['Widget'].priority < 10" }, { rule: 'self.values.all(value, value >= 0 && value < 100)' }];
    const api = await installWidgets(
      cluster,
      specSchema(
        {
          components: { type: 'object', additionalProperties: { type: 'object', properties: { priority: { type: 'integer' } } } },
          values: { type: 'array', maxItems: 100, items: { type: 'integer' } },
        },
        { 'x-kubernetes-validations': rules },
      ),
    );
    await create(api, 'ok', { components: { Widget: { priority: 9 } }, values: [0, 99] });
    expect(await causesOf(create(api, 'bad', { components: { Widget: { priority: 10 } }, values: [-1] }))).toEqual([
      { field: 'spec', reason: 'FieldValueInvalid', message: "Invalid value: failed rule: self.components['Widget'].priority < 10" },
      { field: 'spec', reason: 'FieldValueInvalid', message: 'Invalid value: failed rule: self.values.all(value, value >= 0 && value < 100)' },
    ]);
  });
});

describe('reason and fieldPath, as the page writes them', () => {
  it('reason: FieldValueInvalid on self.x <= self.maxLimit', async () => {
    const api = await installWidgets(cluster, specSchema({ x: { type: 'integer' }, maxLimit: { type: 'integer' } }, { 'x-kubernetes-validations': [{ rule: 'self.x <= self.maxLimit', reason: 'FieldValueInvalid' }] }));
    await create(api, 'ok', { x: 10, maxLimit: 10 });
    await expectStatus(create(api, 'bad', { x: 11, maxLimit: 10 }), {
      code: 422,
      reason: 'Invalid',
      message: 'Widget.schema.example.com "bad" is invalid: spec: Invalid value: failed rule: self.x <= self.maxLimit',
    });
  });

  it('fieldPath: .foo.test.x points the error at the field', async () => {
    const foo = { type: 'object', properties: { test: { type: 'object', properties: { x: { type: 'integer' } } } } };
    const api = await installWidgets(cluster, specSchema({ foo, maxLimit: { type: 'integer' } }, { 'x-kubernetes-validations': [{ rule: 'self.foo.test.x <= self.maxLimit', fieldPath: '.foo.test.x' }] }));
    await create(api, 'ok', { foo: { test: { x: 1 } }, maxLimit: 1 });
    expect(await causesOf(create(api, 'bad', { foo: { test: { x: 2 } }, maxLimit: 1 }))).toEqual([
      { field: 'spec.foo.test.x', reason: 'FieldValueInvalid', message: 'Invalid value: failed rule: self.foo.test.x <= self.maxLimit' },
    ]);
  });
});

describe('optionalOldSelf, the rows not run elsewhere', () => {
  it('oldSelf.optMap(o, o.size()).orValue(0) < 4 || self.size() >= 4: a new minimum size ratchets', async () => {
    const rule = 'oldSelf.optMap(o, o.size()).orValue(0) < 4 || self.size() >= 4';
    const api = await installWidgets(cluster, specSchema({ names: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 }, 'x-kubernetes-validations': [{ rule, optionalOldSelf: true }] } }));
    // Nothing before: anything goes.
    await create(api, 'small', { names: ['a'] });
    await replace(api, 'small', { names: ['a', 'b'] });
    // Once at four or more, it may not shrink below four.
    await create(api, 'big', { names: ['a', 'b', 'c', 'd'] });
    await replace(api, 'big', { names: ['a', 'b', 'c', 'd', 'e'] });
    await expectStatus(replace(api, 'big', { names: ['a', 'b', 'c'] }), {
      code: 422,
      message: `Widget.schema.example.com "big" is invalid: spec.names: Invalid value: failed rule: ${rule}`,
    });
  });

  it('the removed-enum row as printed does not compile: no list function `has` (column 159)', async () => {
    const rule = '[oldSelf.orValue(""), self].all(x, ["OldCase1", "OldCase2"].exists(case, x == case)) || ["NewCase1", "NewCase2"].exists(case, self == case) || ["NewCase"].has(self)';
    const ext = cluster.kubeConfig.makeApiClient(k8s.ApiextensionsV1Api);
    const status = await expectStatus(ext.createCustomResourceDefinition({ body: clientCrd(widgetCrd(specSchema({ v: { type: 'string', 'x-kubernetes-validations': [{ rule, optionalOldSelf: true }] } }))) }), { code: 422, reason: 'Invalid' });
    expect(status.message).toContain('spec.validation.openAPIV3Schema.properties[spec].properties[v].x-kubernetes-validations[0].rule: Invalid value: ');
    // The error points at the `has` call (cel-go words it `undeclared reference to 'has' (in container '')`,
    // kubefake `found no matching overload for 'has' …`; the wording is a known difference).
    expect(status.message).toMatch(/compilation failed: ERROR: <input>:1:159: [^\n]*'has'/);
  });
});

describe('transition rules, the second form of "prevent modification/removal once assigned"', () => {
  it('!has(oldSelf.field) || has(self.field)', async () => {
    const rule = '!has(oldSelf.field) || has(self.field)';
    const api = await installWidgets(cluster, specSchema({ field: { type: 'string' }, other: { type: 'string' } }, { 'x-kubernetes-validations': [{ rule }] } as Schema));
    await create(api, 'w', { other: 'x' });
    await replace(api, 'w', { field: 'set' });
    await replace(api, 'w', { field: 'changed' });
    await expectStatus(replace(api, 'w', { other: 'y' }), { code: 422, message: `Widget.schema.example.com "w" is invalid: spec: Invalid value: failed rule: ${rule}` });
  });
});
