// ext.Lists at version 3 (Kubernetes 1.34+; cel-go v0.26 ext/lists.go): results and error texts of
// slice, flatten, distinct, reverse, sort, sortBy and lists.range, their static cost estimates
// (worked out from ext/lists.go's estimators; the comments show the sums) and runtime costs, and
// a CRD rule using them on the wire.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, compileExpression, evaluate, type JSONSchemaProps } from '../src/cel/index.ts';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

const run = (expression: string): unknown => {
  const e = compileExpression(expression);
  if (e.error !== undefined) throw new Error(e.error);
  return e.evaluate({});
};
const runError = (expression: string): string => {
  try {
    run(expression);
  } catch (err) {
    return (err as Error).message.split('\n')[0]!;
  }
  throw new Error(`${expression} did not fail`);
};

describe('results', () => {
  it.each([
    ['[1, 2, 3, 4].slice(1, 3)', [2n, 3n]],
    ['[1, 2, 3, 4].slice(4, 4)', []],
    ['[[1, 2], [3], []].flatten()', [1n, 2n, 3n]],
    ['[[[1]], [[2, 3]]].flatten()', [[1n], [2n, 3n]]],
    ['[[[1]], [[2, 3]]].flatten(2)', [1n, 2n, 3n]],
    ['[1, 2, 2, 3, 3, 3].distinct()', [1n, 2n, 3n]],
    ['["b", "b", "c", "a", "c"].distinct()', ['b', 'c', 'a']],
    ['[5, 3, 1, 2].reverse()', [2n, 1n, 3n, 5n]],
    ['[3, 2, 1].sort()', [1n, 2n, 3n]],
    ['["b", "c", "a"].sort()', ['a', 'b', 'c']],
    ['["foo", "a", "bb"].sortBy(s, size(s))', ['a', 'bb', 'foo']],
    ['[1, 2, 3].sortBy(x, -x)', [3n, 2n, 1n]],
    ['lists.range(4)', [0n, 1n, 2n, 3n]],
    ['lists.range(0)', []],
  ])('%s', (expression, expected) => {
    expect(run(expression)).toEqual(expected);
  });

  it('keeps first() and last() (optionals) working beside them', () => {
    expect(run('[1, 2].sort().last().value()')).toBe(2n);
  });
});

describe('errors, with cel-go texts', () => {
  it.each([
    ['[1, 2, 3].slice(2, 1)', 'cannot slice(2, 1), start index must be less than or equal to end index'],
    ['[1, 2, 3].slice(0, 5)', 'cannot slice(0, 5), list is length 3'],
    ['[1, 2, 3].slice(-1, 2)', 'cannot slice(-1, 2), negative indexes not supported'],
    ['[[1]].flatten(-1)', 'level must be non-negative'],
  ])('%s', (expression, message) => {
    expect(runError(expression)).toContain(message);
  });

  it('sort() of mixed types fails at runtime (a list literal cannot mix them: literals are homogeneous)', () => {
    const e = compileExpression('[1, "b"].sort()', {}, { homogeneousAggregateLiterals: false });
    expect(e.error).toBeUndefined();
    expect(() => e.evaluate({})).toThrow('list elements must have the same type');
  });

  it('refuses sortBy keys that are not comparable at check time', () => {
    expect(compileExpression('[1, 2].sortBy(x, [x])').error).toContain("found no matching overload for '@sortByAssociatedKeys' applied to 'list(int).(list(list(int)))'");
  });

  it('has no reverse() on strings (that is ext.Strings version 3)', () => {
    expect(compileExpression("'abc'.reverse()").error).toContain("found no matching overload for 'reverse' applied to 'string.()'");
  });
});

describe('static cost estimates', () => {
  const ints = (maxItems: number, rule: string): JSONSchemaProps => ({ type: 'array', maxItems, items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule }] });
  const cost = (schema: JSONSchemaProps) => compile(schema['x-kubernetes-validations']![0]!.rule!, schema).cost;

  it('distinct() is O(n²): the uniqueness idiom over 10 items', () => {
    // self 1 + distinct (10 × 10 × 2 + 1 + 10) + size() 1 + self.size() 2 + == 1
    expect(cost(ints(10, 'self.distinct().size() == self.size()'))).toBe(1 + 211 + 1 + 2 + 1);
  });

  it('slice() with literal bounds sizes its result by them', () => {
    // self 1 + slice (2 + 1 + 10) + [1, 2] 10 + == ceil(2 × 0.1)
    expect(cost(ints(100, 'self.slice(0, 2) == [1, 2]'))).toBe(1 + 13 + 10 + 1);
  });

  it('lists.range(n) with a literal n sizes what iterates over it', () => {
    // range (3 + 1 + 10) + all's result 1 + 3 × (2 + 1 + (i 1 + < 1))
    expect(cost(ints(1, 'lists.range(3).all(i, i < 5)'))).toBe(14 + 1 + 3 * 5);
  });

  it('sortBy() costs its bind, the map of keys and an O(n²) sort', () => {
    // 10 ([]) + self 1 + accumulator 1 + map (1 + 10 + 1 + 10 × (x 1 + 12)) + sort (100 × 2 + 11), then == self: 1 + self 1
    expect(cost(ints(10, 'self.sortBy(x, x) == self'))).toBe(10 + 1 + 1 + 142 + 211 + 1 + 1);
  });
});

describe('runtime costs (ext/lists.go cost trackers)', () => {
  const list = { type: 'array', items: { type: 'integer' } };
  it('sort() charges n² × 2 plus the call and the allocation', () => {
    const three = evaluate('self.sort().size() > 0', list, [3, 1, 2]);
    const six = evaluate('self.sort().size() > 0', list, [6, 5, 4, 3, 1, 2]);
    // (36 - 9) × 2
    expect(six.cost! - three.cost!).toBe(54);
  });

  it('indexOf() walks objects and maps entry by entry (library/cost.go traversalCost: keys and values)', () => {
    // Three int fields with one-letter names: each key costs 0 (1 byte × 0.1), each value 1, so 3 per object.
    const objects = { type: 'array', items: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' }, c: { type: 'integer' } } } };
    const maps = { type: 'array', items: { type: 'object', additionalProperties: { type: 'integer' } } };
    const one = { a: 1, b: 2, c: 3 };
    for (const schema of [objects, maps]) {
      const short = evaluate('self.indexOf(self[0]) == 0', schema, [one]);
      const long = evaluate('self.indexOf(self[0]) == 0', schema, [one, one, one, one]);
      expect(long.cost! - short.cost!).toBe(9);
    }
  });

  it('reverse() charges the result size', () => {
    const two = evaluate('self.reverse().size() > 0', list, [1, 2]);
    const twelve = evaluate('self.reverse().size() > 0', list, Array.from({ length: 12 }, (_, i) => i));
    expect(twelve.cost! - two.cost!).toBe(10);
  });
});

describe('in a CRD rule, on the wire', () => {
  let cluster: FakeCluster;
  let objects: k8s.CustomObjectsApi;
  beforeAll(async () => {
    cluster = await createFakeCluster();
    objects = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    await cluster.apply({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gates.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'gates', singular: 'gate', kind: 'Gate' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    properties: { ports: { type: 'array', maxItems: 16, items: { type: 'integer' } } },
                    'x-kubernetes-validations': [{ rule: 'self.ports.distinct().size() == self.ports.size()', message: 'ports must be unique' }],
                  },
                },
              },
            },
          },
        ],
      },
    });
  });
  afterAll(() => cluster.close());

  const gate = (name: string, ports: number[]) => ({ apiVersion: 'example.com/v1', kind: 'Gate', metadata: { name }, spec: { ports } });

  it('accepts unique ports and refuses a duplicate with the rule message', async () => {
    await objects.createNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace: 'default', plural: 'gates', body: gate('ok', [80, 443]) });
    await expectStatus(objects.createNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace: 'default', plural: 'gates', body: gate('dup', [80, 80]) }), {
      code: 422,
      reason: 'Invalid',
      // A failed rule omits the value (field.OmitValueType), as the task page's fixture shows.
      message: 'Gate.example.com "dup" is invalid: spec: Invalid value: ports must be unique',
    });
  });
});
