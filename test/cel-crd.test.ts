// x-kubernetes-validations checked when a CRD is written, through ApiextensionsV1Api: the compile
// errors of the task page in cel-go's words, result types, oldSelf placement, and the cost
// estimate against the per-rule and per-CRD limits (the task page's examples, 1.36 texts).
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { clientCrd } from './support/client-schema.ts';
import { specSchema, widgetCrd, type Schema } from './support/schema-crd.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let ext: k8s.ApiextensionsV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster();
  ext = cluster.kubeConfig.makeApiClient(k8s.ApiextensionsV1Api);
});
afterAll(() => cluster.close());

const ROOT = 'spec.validation.openAPIV3Schema';
const COST_HINT = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';

/** The causes (`field: message`) of a rejected CRD. */
async function causesOf(schema: Schema): Promise<string[]> {
  const status = await expectStatus(ext.createCustomResourceDefinition({ body: clientCrd(widgetCrd(schema)) }), { code: 422, reason: 'Invalid' });
  return (status.details as { causes: Array<{ field: string; message: string }> }).causes.map((c) => `${c.field}: ${c.message}`);
}

async function accepted(schema: Schema): Promise<void> {
  await ext.createCustomResourceDefinition({ body: clientCrd(widgetCrd(schema)) });
  await ext.deleteCustomResourceDefinition({ name: 'widgets.schema.example.com' });
  await cluster.settle();
}

const ruleValue = (rule: string) => `{"Rule":${JSON.stringify(rule)},"Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}`;

describe('compile errors', () => {
  it('no matching overload: self == true on an integer', async () => {
    expect(await causesOf(specSchema({ foo: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self == true' }] } }))).toEqual([
      `${ROOT}.properties[spec].properties[foo].x-kubernetes-validations[0].rule: Invalid value: ${ruleValue('self == true')}: compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(int, bool)'\n | self == true\n | .....^`,
    ]);
  });

  it('undefined field: self.nonExistingField > 0', async () => {
    const [cause] = await causesOf(specSchema({ foo: { type: 'integer' } }, { 'x-kubernetes-validations': [{ rule: 'self.nonExistingField > 0' }] }));
    expect(cause).toContain("compilation failed: ERROR: <input>:1:5: undefined field 'nonExistingField'");
  });

  it('invalid argument to has(): has(self)', async () => {
    const [cause] = await causesOf(specSchema({ foo: { type: 'integer' } }, { 'x-kubernetes-validations': [{ rule: 'has(self)' }] }));
    expect(cause).toContain('compilation failed: ERROR: <input>:1:4: invalid argument to has() macro');
  });

  it('a rule must be bool and a messageExpression a string', async () => {
    expect(
      await causesOf(specSchema({ foo: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self + 1' }, { rule: 'self > 0', messageExpression: 'self' }] } })),
    ).toEqual([
      `${ROOT}.properties[spec].properties[foo].x-kubernetes-validations[0].rule: Invalid value: ${ruleValue('self + 1')}: cel expression must evaluate to a bool`,
      `${ROOT}.properties[spec].properties[foo].x-kubernetes-validations[1].messageExpression: Invalid value: {"Rule":"self \\u003e 0","Message":"","MessageExpression":"self","Reason":null,"FieldPath":"","OptionalOldSelf":null}: messageExpression must evaluate to a string`,
    ]);
  });

  it('oldSelf only on correlatable nodes; optionalOldSelf only with oldSelf', async () => {
    expect(
      await causesOf(
        specSchema({
          list: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 5, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } },
          name: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self != ""', optionalOldSelf: true }] },
        }),
      ),
    ).toEqual([
      `${ROOT}.properties[spec].properties[list].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${ROOT}.properties[spec].properties[list]`,
      `${ROOT}.properties[spec].properties[name].x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
    ]);
  });

  it('accepts the rules of the task page', async () => {
    await accepted({
      type: 'object',
      'x-kubernetes-validations': [{ rule: 'self.status.availableReplicas >= self.spec.minReplicas' }],
      properties: {
        spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'has(self.foo)' }], properties: { minReplicas: { type: 'integer' }, foo: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0' }] } } },
        status: { type: 'object', properties: { availableReplicas: { type: 'integer' } } },
        map: { type: 'object', 'x-kubernetes-validations': [{ rule: "self['xyz'].foo > 0" }], additionalProperties: { type: 'object', properties: { foo: { type: 'integer' } } } },
        list: { type: 'array', 'x-kubernetes-validations': [{ rule: 'size(self) == 1' }], items: { type: 'string' } },
      },
    });
  });
});

describe('cost limits', () => {
  const containsRule = { rule: "self.all(x, x.contains('a string'))" };

  it('rejects an unbounded rule by more than 100x, and accepts its bounded twin', async () => {
    expect(await causesOf({ type: 'object', properties: { foo: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [containsRule] } } })).toEqual([
      `${ROOT}.properties[foo].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${COST_HINT}`,
      `${ROOT}.properties[foo].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${ROOT}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${COST_HINT}`,
    ]);
    await accepted({ type: 'object', properties: { foo: { type: 'array', maxItems: 25, items: { type: 'string', maxLength: 10 }, 'x-kubernetes-validations': [containsRule] } } });
  });

  it('counts how often a rule on list items runs (maxItems of the parent)', async () => {
    await accepted({ type: 'object', properties: { foo: { type: 'array', maxItems: 25, items: { type: 'string', maxLength: 10, 'x-kubernetes-validations': [{ rule: "self.contains('a string')" }] } } } });
  });

  it('allows self.all(x, x == 5) on an unbounded list, but not on a list nested in a list', async () => {
    const rule = { rule: 'self.all(x, x == 5)' };
    await accepted({ type: 'object', properties: { foo: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [rule] } } });
    const causes = await causesOf({ type: 'object', properties: { foo: { type: 'array', items: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [rule] } } } });
    expect(causes[0]).toBe(`${ROOT}.properties[foo].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${COST_HINT}`);
  });

  it('reports a factor below 100x with one decimal', async () => {
    const [cause] = await causesOf({ type: 'object', properties: { foo: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, x >= 0 && x < 100 && x != 7)' }] } } });
    expect(cause).toMatch(/rule: Forbidden: estimated rule cost exceeds budget by factor of 1\.\d+x \(try simplifying/);
  });

  it('rejects the task page messageExpression: string(int) has no size bound in cel-go', async () => {
    const [cause] = await causesOf(
      specSchema({ x: { type: 'integer' }, maxLimit: { type: 'integer' } }, { 'x-kubernetes-validations': [{ rule: 'self.x <= self.maxLimit', messageExpression: '"x exceeded max limit of " + string(self.maxLimit)' }] }),
    );
    expect(cause).toBe(`${ROOT}.properties[spec].x-kubernetes-validations[0].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x ${COST_HINT}`);
  });
});
