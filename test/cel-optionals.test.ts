// CEL optional types in x-kubernetes-validations (cel-go's OptionalTypes library as apiserver
// v1.36 enables it): `.?`, `[?]`, orValue, optMap and optional list literals in rules, has() and
// optional equality in an optionalOldSelf transition rule, compile errors and static costs at CRD
// write time, all through client-node; zero values and costs through `kubefake/cel`.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { compile, compileExpression } from '../src/cel/index.ts';
import { clientCrd } from './support/client-schema.ts';
import { at, installWidgets, specSchema, widget, widgetCrd, type Schema } from './support/schema-crd.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
beforeEach(async () => {
  cluster = await createFakeCluster();
});
afterEach(() => cluster.close());

const create = (api: k8s.CustomObjectsApi, body: unknown) => api.createNamespacedCustomObject({ ...at, body: body as object });
const replace = async (api: k8s.CustomObjectsApi, name: string, spec: unknown) => {
  const current = (await api.getNamespacedCustomObject({ ...at, name })) as { metadata: { resourceVersion: string } };
  return api.replaceNamespacedCustomObject({ ...at, name, body: { ...widget(name, spec), metadata: { name, resourceVersion: current.metadata.resourceVersion } } });
};
const invalid = (name: string, message: string) => ({ code: 422, reason: 'Invalid', message: `Widget.schema.example.com "${name}" is invalid: spec: Invalid value: ${message}` });

/** The causes (`field: message`) of a CRD the apiserver refuses. */
async function crdCauses(schema: Schema): Promise<string[]> {
  const ext = cluster.kubeConfig.makeApiClient(k8s.ApiextensionsV1Api);
  const status = await expectStatus(ext.createCustomResourceDefinition({ body: clientCrd(widgetCrd(schema)) }), { code: 422, reason: 'Invalid' });
  return (status.details as { causes: Array<{ field: string; message: string }> }).causes.map((c) => `${c.field}: ${c.message}`);
}

const workload: Record<string, Schema> = {
  replicas: { type: 'integer' },
  image: { type: 'string', maxLength: 100 },
  imageRef: { type: 'string', maxLength: 100 },
  labels: { type: 'object', maxProperties: 10, additionalProperties: { type: 'string', maxLength: 63 } },
};

describe('optional selection, orValue, optMap and optional list elements in rules', () => {
  const rules = [
    { rule: 'self.?replicas.orValue(1) <= 10', message: 'at most 10 replicas' },
    { rule: '[?self.?image, ?self.?imageRef].size() == 1', message: 'exactly one of image and imageRef' },
    { rule: "self.?labels[?'team'].optMap(t, t.size() > 0).orValue(true)", message: 'the team label must not be empty' },
  ];

  it('hold for objects that leave the optional fields out', async () => {
    const api = await installWidgets(cluster, specSchema(workload, { 'x-kubernetes-validations': rules }));
    await create(api, widget('minimal', { image: 'nginx' }));
    await create(api, widget('full', { imageRef: 'sha256:abc', replicas: 10, labels: { team: 'web' } }));
    await create(api, widget('no-team', { image: 'nginx', labels: { app: 'web' } }));
  });

  it('fail with their message when a present value breaks them', async () => {
    const api = await installWidgets(cluster, specSchema(workload, { 'x-kubernetes-validations': rules }));
    await expectStatus(create(api, widget('big', { image: 'nginx', replicas: 11 })), invalid('big', 'at most 10 replicas'));
    await expectStatus(create(api, widget('both', { image: 'nginx', imageRef: 'sha256:abc' })), invalid('both', 'exactly one of image and imageRef'));
    await expectStatus(create(api, widget('neither', { replicas: 1 })), invalid('neither', 'exactly one of image and imageRef'));
    await expectStatus(create(api, widget('empty-team', { image: 'nginx', labels: { team: '' } })), invalid('empty-team', 'the team label must not be empty'));
  });
});

describe('an optionalOldSelf transition rule with has() and optional equality', () => {
  const rule = { rule: '!has(oldSelf.owner) || self.?owner == oldSelf.owner', message: 'owner cannot change once set', optionalOldSelf: true };
  const schema = specSchema({ owner: { type: 'string' }, note: { type: 'string' } }, { 'x-kubernetes-validations': [rule] });

  it('runs on create with oldSelf none, and lets an unset owner be set', async () => {
    const api = await installWidgets(cluster, schema);
    await create(api, widget('w', { note: 'new' }));
    await replace(api, 'w', { note: 'new', owner: 'team-a' });
    await replace(api, 'w', { note: 'changed', owner: 'team-a' });
  });

  it('refuses changing or removing a set owner', async () => {
    const api = await installWidgets(cluster, schema);
    await create(api, widget('w', { owner: 'team-a' }));
    await expectStatus(replace(api, 'w', { owner: 'team-b' }), invalid('w', 'owner cannot change once set'));
    await expectStatus(replace(api, 'w', { note: 'owner dropped' }), invalid('w', 'owner cannot change once set'));
  });
});

describe('CRD writes: compile errors and static cost', () => {
  const ROOT = 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule';
  const ruleValue = (rule: string) => `{"Rule":${JSON.stringify(rule)},"Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}`;
  const refused = async (rule: string, error: string, properties: Record<string, Schema> = workload) => {
    expect(await crdCauses(specSchema(properties, { 'x-kubernetes-validations': [{ rule }] }))).toEqual([`${ROOT}: Invalid value: ${ruleValue(rule)}: compilation failed: ${error}`]);
  };

  it('.? and has() on a field the schema does not declare: undefined field', async () => {
    await refused('self.?nope.hasValue()', "ERROR: <input>:1:5: undefined field 'nope'\n | self.?nope.hasValue()\n | ....^");
    // Unknown fields kept by x-kubernetes-preserve-unknown-fields are not visible to CEL, not even to has().
    await refused('has(self.extra.hidden)', "ERROR: <input>:1:15: undefined field 'hidden'\n | has(self.extra.hidden)\n | ..............^", { extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } });
  });

  it('an optional list element must be optional; optionals compare only with optionals', async () => {
    await refused('[?self.image].size() == 1', "ERROR: <input>:1:7: expected type 'optional_type(string)' but found 'string'\n | [?self.image].size() == 1\n | ......^");
    await refused("self.?image == 'nginx'", "ERROR: <input>:1:13: found no matching overload for '_==_' applied to '(optional_type(string), string)'\n | self.?image == 'nginx'\n | ............^");
  });

  it('sizes nothing behind .?: a macro over orValue of an optional list is unbounded', async () => {
    const items = { items: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 } } };
    const [cause] = await crdCauses(specSchema(items, { 'x-kubernetes-validations': [{ rule: "self.?items.orValue([]).all(x, x.startsWith('a'))" }] }));
    expect(cause).toBe(
      `${ROOT}: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    );
    await installWidgets(cluster, specSchema(items, { 'x-kubernetes-validations': [{ rule: "!has(self.items) || self.items.all(x, x.startsWith('a'))" }] }));
  });
});

describe('kubefake/cel', () => {
  const value = (expr: string): unknown => {
    const c = compileExpression(expr);
    if (c.error) throw new Error(c.error);
    return c.evaluate();
  };

  it("ofNonZeroValue: scalars' zero values and empty literals are none, a schema object never is", () => {
    expect(['0', '0u', '0.0', "''", "b''", 'false', 'null', '[]', '{}', "duration('0s')", 'timestamp(0)'].map((v) => value(`optional.ofNonZeroValue(${v}).hasValue()`))).toEqual(Array(11).fill(false));
    expect(value("optional.ofNonZeroValue('x').value()")).toBe('x');
    const schema = { type: 'object', properties: { limits: { type: 'object', properties: { cpu: { type: 'integer' } } } } };
    // apiserver's object values do not implement IsZeroValue: an empty object is still a value.
    expect(compile('optional.ofNonZeroValue(self.limits).hasValue()', schema).evaluate({ limits: {} }).valid).toBe(true);
  });

  it('optional literals, equality, type, first/last and unwrap', () => {
    expect(value("{?'a': optional.none(), ?'b': optional.of(2), 'c': 3}")).toEqual({ b: 2n, c: 3n });
    expect(value('[?optional.none(), ?optional.of(1), 2]')).toEqual([1n, 2n]);
    expect(value('optional.of(1) == optional.of(1) && optional.none() != optional.of(1) && optional.none() == optional.none()')).toBe(true);
    expect(value('type(optional.of(1)) == optional_type')).toBe(true);
    expect(value('[1, 2, 3].last().value() - [1, 2, 3].first().value() + [].first().orValue(0)')).toBe(2n);
    expect(value('optional.unwrap([optional.of(1), optional.none()]) == [optional.of(2)].unwrapOpt().map(x, x - 1)')).toBe(true);
  });

  it('has() looks through optionals; value() of none is cel-go\'s dereference error', () => {
    expect(value("has(optional.of({'c': 1}).c) && !has(optional.of({'c': 1}).d) && !has(optional.none().c) && !has({}.?x.y)")).toBe(true);
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(compile('self.?a.value() == "x"', schema).evaluate({})).toMatchObject({ valid: false, error: 'optional.none() dereference' });
  });

  it("static costs follow cel-go's expansion of optMap and its calls for .?", () => {
    const schema = { type: 'object', properties: { a: { type: 'string', maxLength: 10 } } };
    // `_?._` and orValue are calls (1 each plus operands); `== 'x'` compares at most one character.
    expect(compile("self.?a.orValue('') == 'x'", schema).cost).toBe(4);
    // t.hasValue() ? optional.of(cel.bind(v, t.value(), v.size())) : optional.none(), then orValue and `>`.
    expect(compile('self.?a.optMap(v, v.size()).orValue(0) > 0', schema).cost).toBe(21);
  });
});
