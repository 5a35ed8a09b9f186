// The raw test cases of k8s.io/apimachinery/pkg/util/strategicpatch/patch_test.go (v0.36.3),
// extracted to testdata/strategicpatch-raw-cases.json, run against the MergeItem struct of that
// test: the two-way patch applied to Original gives Modified (or TwoWayResult), the three-way
// patch applied to Current gives Result, and ExpectedError cases fail with that text.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromGoValue, toGoValue, type GoMap } from './go-value.ts';
import type { StructSchema } from './smp-schema.ts';
import { strategicMergeMapPatch } from './strategic-merge.ts';

interface RawCase {
  description: string;
  source: string;
  original?: Record<string, unknown>;
  modified?: Record<string, unknown>;
  current?: Record<string, unknown>;
  twoWay?: Record<string, unknown>;
  threeWay?: Record<string, unknown>;
  result?: Record<string, unknown>;
  twoWayResult?: Record<string, unknown>;
  expectedError?: string;
}

const cases = JSON.parse(readFileSync(new URL('./testdata/strategicpatch-raw-cases.json', import.meta.url), 'utf8')) as RawCase[];

// patch_test.go MergeItem / RetainKeysMergeItem.
const mergeItem: Record<string, unknown> = {};
const retainKeysMergeItem: StructSchema = {
  mergingIntList: { strategy: 'merge' },
  mergingList: { strategy: 'merge', mergeKey: 'name', type: mergeItem as StructSchema },
};
Object.assign(mergeItem, {
  mergingList: { strategy: 'merge', mergeKey: 'name', type: mergeItem },
  mergingIntList: { strategy: 'merge' },
  mergeItemPtr: { strategy: 'merge', mergeKey: 'name', type: mergeItem },
  replacingItem: { strategy: 'replace' },
  retainKeysMap: { strategy: 'retainKeys', type: retainKeysMergeItem },
  retainKeysMergingList: { strategy: 'merge,retainKeys', mergeKey: 'name', type: mergeItem },
});
const MERGE_ITEM = mergeItem as StructSchema;

const apply = (original: unknown, patch: unknown): unknown =>
  fromGoValue(strategicMergeMapPatch(toGoValue(original ?? {}) as GoMap, toGoValue(patch ?? {}) as GoMap, MERGE_ITEM));

describe('strategicpatch raw test cases', () => {
  const twoWay = cases.filter((c) => c.twoWay && (c.expectedError || c.modified || c.twoWayResult));
  it.each(twoWay.map((c) => [c.description, c] as const))('two-way: %s', (_d, c) => {
    if (c.expectedError) {
      expect(() => apply(c.original, c.twoWay)).toThrow(c.expectedError);
      return;
    }
    expect(apply(c.original, c.twoWay)).toStrictEqual(c.twoWayResult ?? c.modified);
  });

  const threeWay = cases.filter((c) => c.threeWay && c.result);
  it.each(threeWay.map((c) => [c.description, c] as const))('three-way: %s', (_d, c) => {
    expect(apply(c.current, c.threeWay)).toStrictEqual(c.result);
  });

  it('covers the extracted cases', () => {
    expect(cases.length).toBe(104);
    expect(twoWay.length + threeWay.length).toBeGreaterThan(150);
  });
});
