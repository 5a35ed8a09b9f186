// One CEL equality (value-ops.ts celEqual, cel-go's Equal) behind `==` on lists and maps, `in`,
// indexOf, the sets library, optional equality and schema objects: numbers equal across int, uint
// and double, NaN equals nothing, maps match numerically equal keys, set lists compare unordered.
import { describe, expect, it } from 'vitest';
import { compile, compileExpression } from '../src/cel/index.ts';

const value = (expression: string) => {
  const e = compileExpression(expression);
  if (e.error) throw new Error(e.error);
  return e.evaluate({});
};

describe('heterogeneous equality everywhere values are compared', () => {
  it('in lists and maps, with `==` and `in`', () => {
    expect(value('[dyn(1), dyn(2u)] == [dyn(1.0), dyn(2)]')).toBe(true);
    expect(value("dyn({1: 'a'}) == dyn({1u: 'a'})")).toBe(true);
    expect(value('dyn(2u) in [1, 2]')).toBe(true);
    expect(value("[dyn(0.0 / 0.0)] == [dyn(0.0 / 0.0)]")).toBe(false);
  });

  it('in indexOf and lastIndexOf', () => {
    expect(value('[dyn(1), dyn(2u), dyn(3.0)].indexOf(dyn(2))')).toBe(1n);
    expect(value('[dyn(3), dyn(1), dyn(3u)].lastIndexOf(dyn(3))')).toBe(2n);
    expect(value('[dyn(1.0), dyn(0.0 / 0.0)].indexOf(dyn(0.0 / 0.0))')).toBe(-1n);
  });

  it('in the sets library', () => {
    expect(value('sets.contains([dyn(1), dyn(2)], [dyn(2), dyn(1u)])')).toBe(true);
    expect(value('sets.equivalent([dyn(1), dyn(2.0)], [dyn(2), dyn(1u)])')).toBe(true);
    expect(value('sets.intersects([dyn(1), dyn(2)], [dyn(3), dyn(2u)])')).toBe(true);
    expect(value('sets.intersects([dyn(1), dyn(2)], [dyn(3), dyn(4u)])')).toBe(false);
  });

  it('in optional equality', () => {
    expect(value('optional.of(dyn(1)) == optional.of(dyn(1u))')).toBe(true);
    expect(value('optional.of(dyn(1)) == optional.of(dyn(2u))')).toBe(false);
    expect(value('optional.none() == optional.of(1)')).toBe(false);
  });

  it('for schema objects, field by field, and inside their lists', () => {
    const item = { type: 'object', properties: { n: { type: 'integer' }, tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } } };
    const same = compile('self.items[0] == self.items[1]', { type: 'object', properties: { items: { type: 'array', items: item } } });
    expect(same.errors).toEqual([]);
    // The set list inside compares without order; a different field makes them unequal.
    expect(same.evaluate({ items: [{ n: 1, tags: ['x', 'y'] }, { n: 1, tags: ['y', 'x'] }] }).valid).toBe(true);
    expect(same.evaluate({ items: [{ n: 1, tags: ['x'] }, { n: 2, tags: ['x'] }] }).valid).toBe(false);
    expect(same.evaluate({ items: [{ n: 1 }, { n: 1, tags: [] }] }).valid).toBe(false);
  });
});
