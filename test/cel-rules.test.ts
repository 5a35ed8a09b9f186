// x-kubernetes-validations evaluated on custom resource writes, through the real client: the rule
// examples of the CRD task page (rules table, scopes, transition rules, optionalOldSelf), messages,
// reasons and field paths, ratcheting, blocking schema errors and the runtime cost limit.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { clientCrd } from './support/client-schema.ts';
import { at, installWidgets, specSchema, widget, widgetCrd, type Schema } from './support/schema-crd.ts';
import { captureWarnings } from './support/warnings.ts';

let cluster: FakeCluster;
beforeEach(async () => {
  cluster = await createFakeCluster();
});
afterEach(() => cluster.close());

const create = (api: k8s.CustomObjectsApi, body: unknown) => api.createNamespacedCustomObject({ ...at, body: body as object });
const replace = async (api: k8s.CustomObjectsApi, name: string, body: Record<string, unknown>) => {
  const current = (await api.getNamespacedCustomObject({ ...at, name })) as { metadata: { resourceVersion: string } };
  const meta = (body.metadata ?? {}) as Record<string, unknown>;
  return api.replaceNamespacedCustomObject({ ...at, name, body: { ...body, metadata: { ...meta, name, resourceVersion: current.metadata.resourceVersion } } });
};
/** The causes of a 422 (field, reason, message). */
async function causesOf(call: Promise<unknown>): Promise<Array<{ field: string; reason: string; message: string }>> {
  const status = await expectStatus(call, { code: 422, reason: 'Invalid' });
  return (status.details as { causes: Array<{ field: string; reason: string; message: string }> }).causes;
}

describe('the rules table of the task page', () => {
  // Bounded, as the task page recommends: unbounded lists make several of these rules too expensive.
  const str = { type: 'string', maxLength: 64 };
  const int = { type: 'integer' };
  const ENVARS = { type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: str, value: str } } };
  const cases: Array<{ rule: string; props: Record<string, Schema>; ok: unknown; bad: unknown }> = [
    { rule: 'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas', props: { minReplicas: int, replicas: int, maxReplicas: int }, ok: { minReplicas: 1, replicas: 2, maxReplicas: 3 }, bad: { minReplicas: 1, replicas: 5, maxReplicas: 3 } },
    { rule: "'Available' in self.stateCounts", props: { stateCounts: { type: 'object', additionalProperties: int } }, ok: { stateCounts: { Available: 1 } }, bad: { stateCounts: { Pending: 1 } } },
    { rule: '(size(self.list1) == 0) != (size(self.list2) == 0)', props: { list1: { type: 'array', items: str }, list2: { type: 'array', items: str } }, ok: { list1: ['a'], list2: [] }, bad: { list1: ['a'], list2: ['b'] } },
    { rule: "!('MY_KEY' in self.map1) || self.map1['MY_KEY'].matches('^[a-zA-Z]*$')", props: { map1: { type: 'object', additionalProperties: str } }, ok: { map1: { MY_KEY: 'abc' } }, bad: { map1: { MY_KEY: 'ab1' } } },
    {
      // The page's `self.envars.filter(...).all(...)` form: see the cost test below.
      rule: "self.envars.all(e, e.name != 'MY_ENV' || e.value.matches('^[a-zA-Z]*$'))",
      props: { envars: ENVARS },
      ok: { envars: [{ name: 'MY_ENV', value: 'abc' }, { name: 'OTHER', value: '1' }] },
      bad: { envars: [{ name: 'MY_ENV', value: 'a1' }] },
    },
    {
      rule: 'has(self.expired) && self.created + self.ttl < self.expired',
      props: { created: { type: 'string', format: 'date-time' }, ttl: { type: 'string', format: 'duration' }, expired: { type: 'string', format: 'date-time' } },
      ok: { created: '2024-01-01T00:00:00Z', ttl: '1h', expired: '2024-01-01T02:00:00Z' },
      bad: { created: '2024-01-01T00:00:00Z', ttl: '3h', expired: '2024-01-01T02:00:00Z' },
    },
    { rule: "self.health.startsWith('ok')", props: { health: str }, ok: { health: 'okay' }, bad: { health: 'bad' } },
    {
      rule: "self.widgets.exists(w, w.key == 'x' && w.foo < 10)",
      props: { widgets: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'], items: { type: 'object', required: ['key'], properties: { key: str, foo: int } } } },
      ok: { widgets: [{ key: 'x', foo: 5 }] },
      bad: { widgets: [{ key: 'x', foo: 50 }] },
    },
    { rule: "type(self.v) == string ? self.v == '100%' : self.v == 1000", props: { v: { 'x-kubernetes-int-or-string': true } }, ok: { v: 1000 }, bad: { v: '50%' } },
    { rule: 'self.set1.all(e, !(e in self.set2))', props: { set1: { type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'set', items: str }, set2: { type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'set', items: str } }, ok: { set1: ['a'], set2: ['b'] }, bad: { set1: ['a'], set2: ['a'] } },
    {
      rule: 'size(self.names) == size(self.details) && self.names.all(n, n in self.details)',
      props: { names: { type: 'array', 'x-kubernetes-list-type': 'set', items: str }, details: { type: 'object', additionalProperties: str } },
      ok: { names: ['a'], details: { a: 'x' } },
      bad: { names: ['a'], details: { b: 'x' } },
    },
    {
      rule: 'size(self.clusters.filter(c, c.name == self.primary)) == 1',
      props: { primary: str, clusters: { type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: str } } } },
      ok: { primary: 'a', clusters: [{ name: 'a' }, { name: 'b' }] },
      bad: { primary: 'c', clusters: [{ name: 'a' }] },
    },
  ];
  for (const c of cases) {
    it(c.rule, async () => {
      const api = await installWidgets(cluster, specSchema(c.props, { 'x-kubernetes-validations': [{ rule: c.rule }] }));
      await create(api, widget('ok', c.ok));
      const causes = await causesOf(create(api, widget('bad', c.bad)));
      expect(causes).toEqual([{ field: 'spec', reason: 'FieldValueInvalid', message: `Invalid value: failed rule: ${c.rule}` }]);
    });
  }

  it('filter(...).all(...) loses the size bound of the items, so the estimate rejects it (cel-go sizes by path)', async () => {
    const rule = "self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))";
    const ext = cluster.kubeConfig.makeApiClient(k8s.ApiextensionsV1Api);
    const status = await expectStatus(ext.createCustomResourceDefinition({ body: clientCrd(widgetCrd(specSchema({ envars: ENVARS }, { 'x-kubernetes-validations': [{ rule }] }))) }), { code: 422 });
    expect(status.message).toContain('spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x');
  });

  it("self.metadata.name.startsWith(self.prefix) at the root sees metadata.name", async () => {
    const rule = 'self.metadata.name.startsWith(self.spec.prefix)';
    const api = await installWidgets(cluster, { type: 'object', 'x-kubernetes-validations': [{ rule }], properties: { spec: { type: 'object', properties: { prefix: { type: 'string' } } } } });
    await create(api, widget('web-1', { prefix: 'web' }));
    const causes = await causesOf(create(api, widget('db-1', { prefix: 'web' })));
    expect(causes).toEqual([{ field: '<nil>', reason: 'FieldValueInvalid', message: `Invalid value: failed rule: ${rule}` }]);
  });
});

describe('scope of self', () => {
  it('root object: spec and status in one rule', async () => {
    const api = await installWidgets(cluster, {
      type: 'object',
      'x-kubernetes-validations': [{ rule: 'self.status.actual <= self.spec.maxDesired' }],
      properties: { spec: { type: 'object', properties: { maxDesired: { type: 'integer' } } }, status: { type: 'object', properties: { actual: { type: 'integer' } } } },
    });
    await create(api, widget('ok', { maxDesired: 3 }, { status: { actual: 2 } }));
    await expectStatus(create(api, widget('bad', { maxDesired: 3 }, { status: { actual: 4 } })), { code: 422, message: 'Widget.schema.example.com "bad" is invalid: <nil>: Invalid value: failed rule: self.status.actual <= self.spec.maxDesired' });
  });

  it('map of objects, list of integers and a string', async () => {
    const api = await installWidgets(
      cluster,
      specSchema({
        components: { type: 'object', additionalProperties: { type: 'object', properties: { priority: { type: 'integer' } } }, 'x-kubernetes-validations': [{ rule: "self['Widget'].priority < 10" }] },
        values: { type: 'array', maxItems: 100, items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.all(value, value >= 0 && value < 100)' }] },
        name: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.startsWith('kube')" }] },
      }),
    );
    await create(api, widget('ok', { components: { Widget: { priority: 1 } }, values: [0, 99], name: 'kubefake' }));
    const causes = await causesOf(create(api, widget('bad', { components: { Widget: { priority: 10 } }, values: [100], name: 'fake' })));
    expect(causes.map((c) => `${c.field}: ${c.message}`).sort()).toEqual([
      "spec.components: Invalid value: failed rule: self['Widget'].priority < 10",
      'spec.name: Invalid value: "fake": failed rule: self.startsWith(\'kube\')',
      'spec.values: Invalid value: failed rule: self.all(value, value >= 0 && value < 100)',
    ]);
  });

  it('escaped property names and unknown fields', async () => {
    const api = await installWidgets(
      cluster,
      specSchema(
        { namespace: { type: 'integer' }, 'x-prop': { type: 'integer' }, redact__d: { type: 'integer' }, extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        { 'x-kubernetes-validations': [{ rule: 'self.__namespace__ > 0 && self.x__dash__prop > 0 && self.redact__underscores__d > 0' }] },
      ),
    );
    await create(api, widget('ok', { namespace: 1, 'x-prop': 1, redact__d: 1, extra: { hidden: true } }));
    await expectStatus(create(api, widget('bad', { namespace: 1, 'x-prop': 0, redact__d: 1, extra: {} })), { code: 422 });
  });

  it('a failing rule on a scalar prints the value; the rule runs only where the value exists', async () => {
    const api = await installWidgets(cluster, specSchema({ count: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', message: 'must be positive' }] } }));
    await create(api, widget('absent', {}));
    await expectStatus(create(api, widget('bad', { count: -2 })), { code: 422, message: 'Widget.schema.example.com "bad" is invalid: spec.count: Invalid value: -2: must be positive' });
  });

  it('a runtime error is reported with the rule', async () => {
    const api = await installWidgets(cluster, specSchema({ a: { type: 'integer' }, b: { type: 'integer' } }, { 'x-kubernetes-validations': [{ rule: 'self.a / self.b > 0' }] }));
    await expectStatus(create(api, widget('zero', { a: 1, b: 0 })), { code: 422, message: 'Widget.schema.example.com "zero" is invalid: spec: Invalid value: "object": division by zero evaluating rule: self.a / self.b > 0' });
    await expectStatus(create(api, widget('absent', { a: 1 })), { code: 422, message: 'Widget.schema.example.com "absent" is invalid: spec: Invalid value: "object": no such key: b evaluating rule: self.a / self.b > 0' });
  });
});

describe('messageExpression, message, reason and fieldPath', () => {
  it('use the messageExpression result, the reason as cause type and the fieldPath', async () => {
    const api = await installWidgets(
      cluster,
      specSchema({ x: { type: 'integer' }, maxLimit: { type: 'integer' } }, {
        'x-kubernetes-validations': [{ rule: 'self.x <= self.maxLimit', messageExpression: "'x exceeded max limit of %d'.format([self.maxLimit])", reason: 'FieldValueForbidden', fieldPath: '.x' }],
      }),
    );
    const causes = await causesOf(create(api, widget('m', { x: 11, maxLimit: 10 })));
    expect(causes).toEqual([{ field: 'spec.x', reason: 'FieldValueForbidden', message: 'Forbidden: x exceeded max limit of 10' }]);
  });

  it('fall back to message, then to "failed rule", when the messageExpression is empty or fails', async () => {
    const api = await installWidgets(
      cluster,
      specSchema({ x: { type: 'integer' }, name: { type: 'string' } }, {
        'x-kubernetes-validations': [
          { rule: 'self.x < 5', message: 'x too big', messageExpression: "self.name + ''" },
          { rule: 'self.x < 6', messageExpression: "''", reason: 'FieldValueRequired', fieldPath: ".x" },
        ],
      }),
    );
    const causes = await causesOf(create(api, widget('m', { x: 9 })));
    expect(causes).toEqual([
      { field: 'spec', reason: 'FieldValueInvalid', message: 'Invalid value: x too big' },
      { field: 'spec.x', reason: 'FieldValueRequired', message: 'Required value: failed rule: self.x < 6' },
    ]);
  });
});

describe('transition rules', () => {
  const transitions = async (rule: string, prop: Schema, steps: Array<[unknown, number]>) => {
    const api = await installWidgets(cluster, specSchema({ v: { ...prop, 'x-kubernetes-validations': [{ rule }] } }));
    await create(api, widget('t', { v: steps[0]![0] }));
    for (const [value, code] of steps.slice(1)) {
      const call = replace(api, 't', widget('t', { v: value }));
      if (code === 200) await call;
      else await expectStatus(call, { code });
    }
  };

  it('immutability: self.foo == oldSelf.foo', () =>
    transitions('self.foo == oldSelf.foo', { type: 'object', properties: { foo: { type: 'string' }, bar: { type: 'string' } } }, [[{ foo: 'a' }, 201], [{ foo: 'a', bar: 'x' }, 200], [{ foo: 'b' }, 422]]));
  it("once assigned: oldSelf != 'bar' || self == 'bar'", () => transitions("oldSelf != 'bar' || self == 'bar'", { type: 'string' }, [['foo', 201], ['bar', 200], ['baz', 422]]));
  it('append-only set', () => transitions('self.all(element, element in oldSelf)', { type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'set', items: { type: 'string', maxLength: 10 } }, [[['a'], 201], [['a'], 200], [['b'], 422]]));
  it("from X only to A or B: oldSelf != 'X' || self in ['A', 'B']", () => transitions("oldSelf != 'X' || self in ['A', 'B']", { type: 'string' }, [['X', 201], ['Y', 422], ['A', 200]]));
  it('monotonic counter: self >= oldSelf', () => transitions('self >= oldSelf', { type: 'integer' }, [[5, 201], [6, 200], [4, 422]]));

  it('do not run on create, nor when the value is newly set', async () => {
    const api = await installWidgets(cluster, specSchema({ v: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > oldSelf' }] } }));
    await create(api, widget('t', {}));
    await replace(api, 't', widget('t', { v: 1 }));
  });

  it('optionalOldSelf runs them on create with oldSelf none', async () => {
    const rule = 'self.foo == "foo" || (oldSelf.hasValue() && oldSelf.value().foo != "foo")';
    const api = await installWidgets(cluster, specSchema({ v: { type: 'object', properties: { foo: { type: 'string' } }, 'x-kubernetes-validations': [{ rule, optionalOldSelf: true }] } }));
    await expectStatus(create(api, widget('new', { v: { foo: 'bar' } })), { code: 422 });
    await create(api, widget('t', { v: { foo: 'foo' } }));
    await expectStatus(replace(api, 't', widget('t', { v: { foo: 'bar' } })), { code: 422 });
  });

  it('optionalOldSelf: orValue over old and new values', async () => {
    const rule = "[oldSelf.orValue(''), self].all(x, ['OldCase1', 'OldCase2'].exists(case, x == case)) || ['NewCase1', 'NewCase2'].exists(case, self == case)";
    const api = await installWidgets(cluster, specSchema({ v: { type: 'string', 'x-kubernetes-validations': [{ rule, optionalOldSelf: true }] } }));
    await create(api, widget('t', { v: 'NewCase1' }));
    await expectStatus(create(api, widget('old', { v: 'OldCase1' })), { code: 422 });
  });
});

describe('ratcheting and blocking errors', () => {
  it('a broken rule on an unchanged subtree is a warning on update', async () => {
    const api = await installWidgets(cluster, specSchema({ a: { type: 'integer' }, b: { type: 'string' } }));
    await create(api, widget('r', { a: 10, b: 'x' }));
    await cluster.apply(widgetCrd(specSchema({ a: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self < 5' }] }, b: { type: 'string' } })));
    const capture = captureWarnings();
    const current = (await api.getNamespacedCustomObject({ ...at, name: 'r' })) as { metadata: { resourceVersion: string } };
    await api.replaceNamespacedCustomObject({ ...at, name: 'r', body: widget('r', { a: 10, b: 'y' }, { metadata: { name: 'r', resourceVersion: current.metadata.resourceVersion } }) }, capture.options);
    expect(capture.warnings()).toEqual(['spec.a: Invalid value: 10: failed rule: self < 5']);
    await expectStatus(replace(api, 'r', widget('r', { a: 11, b: 'y' })), { code: 422, message: 'Widget.schema.example.com "r" is invalid: spec.a: Invalid value: 11: failed rule: self < 5' });
  });

  it('schema errors that make the object invalid skip the rules', async () => {
    const api = await installWidgets(cluster, specSchema({ name: { type: 'string', maxLength: 3 } }, { 'x-kubernetes-validations': [{ rule: 'false' }] }));
    const causes = await causesOf(create(api, widget('b', { name: 'toolong' })));
    expect(causes).toEqual([
      { field: 'spec.name', reason: 'FieldValueTooLong', message: 'Too long: may not be more than 3 bytes' },
      { field: '<nil>', reason: 'FieldValueInvalid', message: 'Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation' },
    ]);
  });

  it('a rule over the per-call cost limit stops validation', async () => {
    const rule = 'self.all(x, self.all(y, x >= 0))';
    const api = await installWidgets(cluster, specSchema({ xs: { type: 'array', maxItems: 1000, items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule }] } }));
    await create(api, widget('small', { xs: [1, 2, 3] }));
    await expectStatus(create(api, widget('big', { xs: Array.from({ length: 1000 }, (_, i) => i) })), {
      code: 422,
      message: `Widget.schema.example.com "big" is invalid: spec.xs: Invalid value: "array": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${rule}`,
    });
  });
});
