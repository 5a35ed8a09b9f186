// FieldSet stays O(n log n) however its elements arrive: counted in PathElement comparisons, not
// timed. A ConfigMap with 200k keys makes 200k members of one node, in the object's key order.
import { describe, expect, it } from 'vitest';
import { FieldSet, pathElementComparisons, type PathElement } from './fieldpath.ts';

/** Comparisons `run` makes. */
function comparisons(run: () => void): number {
  const before = pathElementComparisons.count;
  run();
  return pathElementComparisons.count - before;
}

const n = 20_000;
const bound = 3 * n * Math.log2(n);
const field = (i: number): PathElement => ({ field: `k${i}` });
/** A fixed shuffle of 0..n-1 (multiplication by a unit mod n). */
const shuffled = Array.from({ length: n }, (_, i) => (i * 7919) % n);

describe('FieldSet complexity', () => {
  it.each([
    ['ascending', Array.from({ length: n }, (_, i) => i).sort((a, b) => (`k${a}` < `k${b}` ? -1 : 1))],
    ['descending', Array.from({ length: n }, (_, i) => i).sort((a, b) => (`k${a}` < `k${b}` ? 1 : -1))],
    ['shuffled', shuffled],
  ])('builds %s members of one node, then reads them sorted, in O(n log n) comparisons', (_order, indices) => {
    let set!: FieldSet;
    const used = comparisons(() => {
      set = new FieldSet();
      for (const i of indices) set.insert([{ field: 'data' }, field(i)]);
      set.insert([{ field: 'data' }, field(indices[0]!)]); // a duplicate is refused
      expect(set.withPrefix({ field: 'data' }).members).toHaveLength(n);
    });
    expect(used).toBeLessThan(bound);
    const names = set.withPrefix({ field: 'data' }).members.map((pe) => (pe as { field: string }).field);
    expect(names).toEqual([...names].sort());
  });

  it('reads FieldsV1 with n children of one node in O(n log n) comparisons', () => {
    const data: Record<string, unknown> = {};
    for (const i of shuffled) data[`f:k${i}`] = { '.': {}, 'f:x': {} };
    const used = comparisons(() => {
      const set = FieldSet.fromFieldsV1({ 'f:data': data });
      expect(set.withPrefix({ field: 'data' }).children).toHaveLength(n);
    });
    expect(used).toBeLessThan(bound);
  });

  it('unions, subtracts and serialises large sets in O(n log n) comparisons', () => {
    const a = new FieldSet();
    const b = new FieldSet();
    for (const i of shuffled) (i % 2 ? a : b).insert([{ field: 'data' }, field(i)]);
    const used = comparisons(() => {
      const all = a.union(b);
      expect(all.withPrefix({ field: 'data' }).members).toHaveLength(n);
      expect(all.difference(b).equals(a)).toBe(true);
      expect(Object.keys(all.toFieldsV1()['f:data'] as object)).toHaveLength(n);
    });
    expect(used).toBeLessThan(bound);
  });

  it('answers membership and order as before: duplicates refused, members and children sorted by element', () => {
    const set = FieldSet.of([{ field: 'b' }], [{ field: 'a' }], [{ field: 'b' }], [{ field: 'c' }, { index: 1 }], [{ field: 'a' }, { field: 'x' }]);
    expect(set.paths().map((p) => p.map((pe) => JSON.stringify(pe)).join(''))).toEqual(['{"field":"a"}', '{"field":"b"}', '{"field":"a"}{"field":"x"}', '{"field":"c"}{"index":1}']);
    expect(set.has([{ field: 'b' }])).toBe(true);
    expect(set.has([{ field: 'c' }])).toBe(false);
    expect(set.has([{ field: 'c' }, { index: 1 }])).toBe(true);
  });
});
