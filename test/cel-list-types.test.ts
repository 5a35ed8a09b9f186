// x-kubernetes-list-type in CEL: `set` lists compare order-free and `+` is a union, `map` lists
// compare by their list-map keys and `+` merges by key (apiserver pkg/cel/common
// valuesunstructured.go), while indexing, size(), `in` and the macros see plain lists. Values
// first (the listType vectors of values_test.go, through `kubefake/cel`), then rules on custom
// resource writes through the real client.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluate } from '../src/cel/index.ts';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { at, installWidgets, specSchema, widget, type Schema } from './support/schema-crd.ts';

const str = { type: 'string', maxLength: 32 };
const int = { type: 'integer' };
const setOf = (items: Schema): Schema => ({ type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'set', items });
const mapListOf = (keys: string[], properties: Record<string, Schema>): Schema => ({
  type: 'array',
  maxItems: 10,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': keys,
  items: { type: 'object', required: keys, properties },
});

const holds = (rule: string, schema: Schema, self: unknown, oldSelf?: unknown) => {
  const result = evaluate(rule, schema, self, oldSelf);
  expect(result.error, rule).toBeUndefined();
  return result.valid;
};

describe('values: the listType vectors of values_test.go', () => {
  // `complexSchema`: mapList keyed by (key1, key2), setList of integers; c1..c4 as in the Go test.
  const complex = {
    type: 'object',
    properties: {
      mapList: mapListOf(['key1', 'key2'], { key1: str, key2: str, value: int }),
      setList: setOf(int),
    },
  };
  const schema = { type: 'object', properties: { c: { type: 'array', maxItems: 4, items: complex } } };
  const entry = (n: number) => ({ key1: `k1v${n}`, key2: `k2v${n}`, value: n });
  const self = {
    c: [
      { mapList: [entry(1), entry(2)], setList: [1, 2, 3] },
      { mapList: [entry(2), entry(1)], setList: [3, 2, 1] },
      { mapList: [entry(3), entry(1)], setList: [4, 1] },
      { mapList: [entry(3), entry(2), entry(1)], setList: [4, 3, 2, 1] },
    ],
  };
  const c = (n: number) => `self.c[${n - 1}]`;

  it.each([
    ['listType=map: equal', `${c(1)}.mapList == ${c(2)}.mapList`],
    ['listType=map: not equal', `${c(1)}.mapList != ${c(3)}.mapList`],
    ['listType=map: add overlapping', `${c(1)}.mapList + ${c(2)}.mapList == ${c(1)}.mapList`],
    ['listType=map: add non-overlapping', `${c(1)}.mapList + ${c(3)}.mapList == ${c(4)}.mapList`],
    ['listType=set: equal', `${c(1)}.setList == ${c(2)}.setList`],
    ['listType=set: not equal', `${c(1)}.setList != ${c(3)}.setList`],
    ['listType=set: add overlapping', `${c(1)}.setList + ${c(2)}.setList == ${c(1)}.setList`],
    ['listType=set: add non-overlapping', `${c(1)}.setList + ${c(3)}.setList == ${c(4)}.setList`],
  ])('%s: %s', (_name, rule) => {
    expect(holds(rule, schema, self)).toBe(true);
  });

  it('objects holding set and map lists compare through them', () => {
    expect(holds(`${c(1)} == ${c(2)}`, schema, self)).toBe(true);
    expect(holds(`${c(1)} == ${c(3)}`, schema, self)).toBe(false);
  });

  it('`+` keeps the left order: a set appends the new elements, a map list replaces in place', () => {
    expect(holds(`${c(3)}.setList + ${c(1)}.setList == [4, 1, 2, 3]`, schema, self)).toBe(true);
    expect(holds(`(${c(3)}.setList + [9, 4, 9])[2] == 9 && size(${c(3)}.setList + [9, 4, 9]) == 3`, schema, self)).toBe(true);
    const merged = `(${c(1)}.mapList + [${c(2)}.mapList[0]])`;
    expect(holds(`size(${merged}) == 2 && ${merged}[1].value == 2`, schema, self)).toBe(true);
    // Appended, in the right operand's order.
    expect(holds(`(${c(1)}.mapList + ${c(3)}.mapList).map(e, e.value) == [1, 2, 3]`, schema, self)).toBe(true);
  });
});

describe('values: what stays a plain list', () => {
  const schema = { type: 'object', properties: { tags: setOf(str), plain: { type: 'array', maxItems: 10, items: str } } };
  const self = { tags: ['a', 'b', 'c'], plain: ['c', 'b', 'a'] };

  it('only the left operand decides, as cel-go dispatches on it', () => {
    expect(holds("self.tags == ['c', 'a', 'b']", schema, self)).toBe(true);
    expect(holds("['c', 'a', 'b'] == self.tags", schema, self)).toBe(false);
    expect(holds('self.tags == self.plain', schema, self)).toBe(true);
    expect(holds('self.plain == self.tags', schema, self)).toBe(false);
    expect(holds("self.plain + ['a'] == ['c', 'b', 'a', 'a']", schema, self)).toBe(true);
  });

  it('indexing, size, in and the macros see the stored order', () => {
    expect(holds("self.tags[0] == 'a' && self.tags[2] == 'c' && size(self.tags) == 3", schema, self)).toBe(true);
    expect(holds("'b' in self.tags && !('z' in self.tags)", schema, self)).toBe(true);
    expect(holds("self.tags.map(t, t + '!') == ['a!', 'b!', 'c!'] && self.tags.filter(t, t != 'b') == ['a', 'c']", schema, self)).toBe(true);
    expect(holds("self.tags.all(t, t.size() == 1) && self.tags.exists_one(t, t == 'c')", schema, self)).toBe(true);
  });

  it('a filtered set is a plain list again', () => {
    expect(holds("self.tags.filter(t, true) == ['c', 'b', 'a']", schema, self)).toBe(false);
  });

  it('a set with a duplicate-free right operand of the same size is equal; sizes must match', () => {
    expect(holds("self.tags == ['a', 'b']", schema, self)).toBe(false);
    expect(holds("self.tags != ['a', 'b', 'c', 'd']", schema, self)).toBe(true);
    // cel-go checks the size and then each right element's membership only.
    expect(holds("self.tags == ['a', 'a', 'b']", schema, self)).toBe(true);
  });

  it('maps of sets compare each value by its list type', () => {
    const s = { type: 'object', properties: { groups: { type: 'object', maxProperties: 4, additionalProperties: setOf(str) } } };
    expect(holds('self.groups == oldSelf.groups', s, { groups: { x: ['a', 'b'] } }, { groups: { x: ['b', 'a'] } })).toBe(true);
    expect(holds('self.groups == oldSelf.groups', s, { groups: { x: ['a', 'b'] } }, { groups: { x: ['b', 'c'] } })).toBe(false);
  });
});

describe('values: where Kubernetes compares raw JSON', () => {
  it('sets of timestamps, durations or bytes are equal only when empty', () => {
    const s = { type: 'object', properties: { at: setOf({ type: 'string', format: 'date-time' }) } };
    const times = ['2024-01-01T00:00:00Z'];
    expect(holds('self.at == oldSelf.at', s, { at: times }, { at: times })).toBe(false);
    expect(holds('self.at == oldSelf.at', s, { at: [] }, { at: [] })).toBe(true);
    // An atomic comparison of the same values holds.
    expect(holds('self.at.all(t, t in oldSelf.at)', s, { at: times }, { at: times })).toBe(true);
  });

  it('whole numbers of a `number` set are int64 when stored, so they never equal a double', () => {
    const s = { type: 'object', properties: { w: setOf({ type: 'number' }) } };
    expect(holds('self.w == oldSelf.w', s, { w: [0.5, 1.5] }, { w: [1.5, 0.5] })).toBe(true);
    expect(holds('self.w == oldSelf.w', s, { w: [1, 0.5] }, { w: [1, 0.5] })).toBe(false);
  });

  it('list-map keys CEL escapes are read under their escaped name, so they compare as absent', () => {
    const s = { type: 'object', properties: { refs: mapListOf(['namespace', 'name'], { namespace: str, name: str }) } };
    const refs = [{ namespace: 'a', name: 'x' }, { namespace: 'b', name: 'y' }];
    expect(holds('self.refs == oldSelf.refs', s, { refs }, { refs: [...refs].reverse() })).toBe(true);
    // Keyed by name only: the second element is found under "x" and compared whole.
    expect(holds('self.refs == oldSelf.refs', s, { refs }, { refs: [{ namespace: 'b', name: 'x' }, refs[1]] })).toBe(false);
    expect(holds('size(self.refs + [oldSelf.refs[0]]) == 2', s, { refs }, { refs: [{ namespace: 'z', name: 'x' }] })).toBe(true);
  });
});

describe('rules on custom resource writes', () => {
  let cluster: FakeCluster;
  beforeEach(async () => {
    cluster = await createFakeCluster();
  });
  afterEach(() => cluster.close());

  const replace = async (api: k8s.CustomObjectsApi, name: string, spec: unknown) => {
    const current = (await api.getNamespacedCustomObject({ ...at, name })) as { metadata: { resourceVersion: string } };
    return api.replaceNamespacedCustomObject({ ...at, name, body: widget(name, spec, { metadata: { name, resourceVersion: current.metadata.resourceVersion } }) });
  };

  it('an immutable set may be reordered but not changed', async () => {
    const api = await installWidgets(cluster, specSchema({ tags: { ...setOf(str), 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'tags are immutable' }] } }));
    await api.createNamespacedCustomObject({ ...at, body: widget('w', { tags: ['a', 'b'] }) });
    await replace(api, 'w', { tags: ['b', 'a'] });
    await expectStatus(replace(api, 'w', { tags: ['b', 'c'] }), {
      code: 422,
      reason: 'Invalid',
      message: 'Widget.schema.example.com "w" is invalid: spec.tags: Invalid value: tags are immutable',
    });
  });

  it('an immutable map list may be reordered but no entry changed', async () => {
    const ports = { ...mapListOf(['port', 'protocol'], { port: int, protocol: str, name: str }), 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] };
    const api = await installWidgets(cluster, specSchema({ ports }));
    const http = { port: 80, protocol: 'TCP', name: 'http' };
    const dns = { port: 53, protocol: 'UDP', name: 'dns' };
    await api.createNamespacedCustomObject({ ...at, body: widget('w', { ports: [http, dns] }) });
    await replace(api, 'w', { ports: [dns, http] });
    await expectStatus(replace(api, 'w', { ports: [dns, { ...http, name: 'web' }] }), {
      code: 422,
      message: 'Widget.schema.example.com "w" is invalid: spec.ports: Invalid value: failed rule: self == oldSelf',
    });
  });

  it('`+` on a set: a union equal to self means nothing of the old set was removed', async () => {
    const api = await installWidgets(cluster, specSchema({ finalizers: { ...setOf(str), 'x-kubernetes-validations': [{ rule: 'self + oldSelf == self', message: 'entries may only be added' }] } }));
    await api.createNamespacedCustomObject({ ...at, body: widget('w', { finalizers: ['a', 'b'] }) });
    await replace(api, 'w', { finalizers: ['c', 'b', 'a'] });
    await expectStatus(replace(api, 'w', { finalizers: ['c', 'a'] }), {
      code: 422,
      message: 'Widget.schema.example.com "w" is invalid: spec.finalizers: Invalid value: entries may only be added',
    });
  });

  it('`+` on a map list merges by key: no key of the old list may disappear', async () => {
    const limits = { ...mapListOf(['name'], { name: str, max: int }), 'x-kubernetes-validations': [{ rule: 'size(oldSelf + self) == size(self)', message: 'limits may not be removed' }] };
    const api = await installWidgets(cluster, specSchema({ limits }));
    await api.createNamespacedCustomObject({ ...at, body: widget('w', { limits: [{ name: 'cpu', max: 2 }, { name: 'mem', max: 4 }] }) });
    await replace(api, 'w', { limits: [{ name: 'mem', max: 8 }, { name: 'cpu', max: 1 }, { name: 'gpu', max: 1 }] });
    await expectStatus(replace(api, 'w', { limits: [{ name: 'mem', max: 8 }, { name: 'gpu', max: 1 }] }), {
      code: 422,
      message: 'Widget.schema.example.com "w" is invalid: spec.limits: Invalid value: limits may not be removed',
    });
  });

  it('transition rules on map-list elements see the old element with the same keys', async () => {
    const counters = mapListOf(['name'], { name: str, value: int });
    const items = { ...(counters.items as Schema), 'x-kubernetes-validations': [{ rule: 'self.value >= oldSelf.value', message: 'counters only grow' }] };
    const api = await installWidgets(cluster, specSchema({ counters: { ...counters, items } }));
    await api.createNamespacedCustomObject({ ...at, body: widget('w', { counters: [{ name: 'a', value: 1 }, { name: 'b', value: 5 }] }) });
    // Reordered and grown: each element is compared with its own old self, not with the old one at its index.
    await replace(api, 'w', { counters: [{ name: 'b', value: 6 }, { name: 'a', value: 2 }, { name: 'new', value: 0 }] });
    await expectStatus(replace(api, 'w', { counters: [{ name: 'a', value: 3 }, { name: 'b', value: 4 }] }), {
      code: 422,
      message: 'Widget.schema.example.com "w" is invalid: spec.counters[1]: Invalid value: counters only grow',
    });
  });
});
