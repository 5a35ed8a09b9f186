import { describe, expect, it } from 'vitest';
import { SharedValues } from './shared-values.ts';

const configMap = (name: string, data: Record<string, string>) => ({
  metadata: { name, labels: { app: 'web' }, managedFields: [{ manager: 'm', fieldsV1: { 'f:data': { '.': {}, 'f:k': {} } } }] },
  data,
});

describe('SharedValues', () => {
  it('freezes everything it is given, nested arrays included', () => {
    const stored = new SharedValues().freeze(configMap('a', { k: '1' }));
    expect(Object.isFrozen(stored)).toBe(true);
    expect(Object.isFrozen(stored.metadata.managedFields)).toBe(true);
    expect(Object.isFrozen(stored.metadata.managedFields[0]!.fieldsV1['f:data']['.'])).toBe(true);
    expect(stored).toEqual(configMap('a', { k: '1' }));
  });

  it('shares equal small subtrees between objects, never unequal ones', () => {
    const shared = new SharedValues();
    const a = shared.freeze(configMap('a', { k: '1' }));
    const b = shared.freeze(configMap('b', { k: '2' }));
    expect(b.metadata.labels).toBe(a.metadata.labels);
    expect(b.metadata.managedFields[0]!.fieldsV1).toBe(a.metadata.managedFields[0]!.fieldsV1);
    expect(b.data).not.toBe(a.data);
    expect(b.data).toEqual({ k: '2' });
    expect(b.metadata).not.toBe(a.metadata);
  });

  it('keeps key order apart: objects equal but for key order are not shared', () => {
    const shared = new SharedValues();
    const a = shared.freeze({ x: { p: '1', q: '2' } });
    const b = shared.freeze({ x: { q: '2', p: '1' } });
    expect(b.x).not.toBe(a.x);
    expect(Object.keys(b.x)).toEqual(['q', 'p']);
  });

  it('keeps types apart: "1" and 1 are different values', () => {
    const shared = new SharedValues();
    const a = shared.freeze({ x: { v: '1' } });
    const b = shared.freeze({ x: { v: 1 } });
    expect(b.x).not.toBe(a.x);
    expect(b.x.v).toBe(1);
  });

  it('leaves parts that are already frozen (kept from a stored object) as they are', () => {
    const kept = Object.freeze({ v: 'same' });
    const stored = new SharedValues().freeze({ spec: kept, extra: [1, 2] });
    expect(stored.spec).toBe(kept);
    expect(stored.extra).toEqual([1, 2]);
  });

  it('shares nothing unequal when one object holds more distinct values than the tables have ids for', () => {
    // 40,000 small subtrees of distinct values: past the primitives' and the subtrees' id ranges.
    const input: Record<string, { v: string; n: number }> = {};
    for (let i = 0; i < 40_000; i++) input[`k${i}`] = { v: `value-${i}`, n: i };
    const shared = new SharedValues();
    const stored = shared.freeze(structuredClone(input));
    expect(stored).toEqual(input);
    const again = shared.freeze({ a: { v: 'value-39999', n: 39_999 }, b: { v: 'value-0', n: 0 } });
    expect(again).toEqual({ a: { v: 'value-39999', n: 39_999 }, b: { v: 'value-0', n: 0 } });
  });

  it('starts its tables afresh under churn and still shares equal subtrees after', () => {
    const shared = new SharedValues();
    for (let i = 0; i < 15_000; i++) {
      const stored = shared.freeze(configMap(`cm-${i}`, { k: `v-${i}` }));
      expect(stored.data).toEqual({ k: `v-${i}` });
    }
    const a = shared.freeze(configMap('x', { k: '1' }));
    const b = shared.freeze(configMap('y', { k: '2' }));
    expect(b.metadata.labels).toBe(a.metadata.labels);
    expect(b.data).toEqual({ k: '2' });
  });
});
