import { describe, expect, it } from 'vitest';
import type { ObjectMeta } from '../apis/object.ts';
import { goTimeEqual, goTimeJson, metaAccessor, parseGoTime } from './meta-accessor.ts';

describe('parseGoTime / goTimeJson', () => {
  it('parses RFC3339 and prints UTC seconds like metav1.Time', () => {
    expect(goTimeJson(parseGoTime('1970-01-01T00:16:40Z'))).toBe('1970-01-01T00:16:40Z');
    expect(goTimeJson(parseGoTime('2024-05-01T14:34:56+02:00'))).toBe('2024-05-01T12:34:56Z');
    expect(goTimeJson(parseGoTime('2024-05-01T12:34:56.789Z'))).toBe('2024-05-01T12:34:56Z');
    expect(goTimeJson(parseGoTime('0099-01-01T00:00:00Z'))).toBe('0099-01-01T00:00:00Z');
  });
  it('compares instants, fractions included', () => {
    expect(goTimeEqual(parseGoTime('2024-05-01T14:34:56+02:00'), parseGoTime('2024-05-01T12:34:56Z'))).toBe(true);
    expect(goTimeEqual(parseGoTime('2024-05-01T12:34:56.5Z'), parseGoTime('2024-05-01T12:34:56Z'))).toBe(false);
    expect(goTimeEqual(parseGoTime('2024-05-01T12:34:56.5Z'), parseGoTime('2024-05-01T12:34:56.500Z'))).toBe(true);
    expect(goTimeEqual(undefined, undefined)).toBe(true);
    expect(goTimeEqual(parseGoTime('2024-05-01T12:34:56Z'), undefined)).toBe(false);
  });
  it('reads what Go cannot parse, and the zero time, as unset', () => {
    for (const s of ['', 'yesterday', '2024-02-30T00:00:00Z', '2024-05-01 12:34:56Z', '2024-05-01T24:00:00Z', '0001-01-01T00:00:00Z', 5, null]) {
      expect(parseGoTime(s)).toBeUndefined();
    }
    expect(parseGoTime('2024-02-29T00:00:00Z')).toBeDefined();
    expect(goTimeJson(undefined)).toBeNull();
  });
});

describe('metaAccessor', () => {
  it('fills Go zero values for a missing metadata', () => {
    expect(metaAccessor(undefined)).toEqual({
      name: '',
      generateName: '',
      namespace: '',
      uid: '',
      resourceVersion: '',
      generation: 0,
      creationTimestamp: undefined,
      deletionTimestamp: undefined,
      deletionGracePeriodSeconds: undefined,
      labels: {},
      annotations: {},
      ownerReferences: [],
      finalizers: [],
      managedFields: [],
    });
  });
  it('reads wrongly typed fields as zero, like the Unstructured accessors', () => {
    const m = metaAccessor({
      name: 5,
      generation: 1.5,
      deletionGracePeriodSeconds: '30',
      labels: { a: 'x', b: 1 },
      annotations: { a: null },
      finalizers: ['a', 2],
      ownerReferences: [{ kind: 'K', controller: 'yes' }],
      managedFields: [{ manager: 'm' }],
    } as unknown as ObjectMeta);
    expect(m.name).toBe('');
    expect(m.generation).toBe(0);
    expect(m.deletionGracePeriodSeconds).toBeUndefined();
    expect(m.labels).toEqual({});
    expect(m.annotations).toEqual({ a: '' });
    expect(m.finalizers).toEqual([]);
    expect(m.ownerReferences).toEqual([{ apiVersion: '', kind: 'K', name: '', uid: '' }]);
    expect(m.managedFields).toEqual([{ manager: 'm', operation: '', fieldsType: '', subresource: '' }]);
  });
  it('voids lists holding a non-object item', () => {
    const m = metaAccessor({ ownerReferences: [{ kind: 'K' }, 'x'], managedFields: [null] } as unknown as ObjectMeta);
    expect(m.ownerReferences).toEqual([]);
    expect(m.managedFields).toEqual([]);
  });
});

describe('parseGoTime, asked for the same text in a row', () => {
  it('answers the same time each time, and a copy the caller may change', () => {
    const first = parseGoTime('2026-01-02T03:04:05.5Z');
    first!.seconds = 0;
    expect(parseGoTime('2026-01-02T03:04:05.5Z')).toEqual({ seconds: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000, nanos: 500_000_000 });
    expect(parseGoTime('2026-01-02T03:04:06Z')).toEqual({ seconds: Date.UTC(2026, 0, 2, 3, 4, 6) / 1000, nanos: 0 });
    expect(parseGoTime('2026-02-30T00:00:00Z')).toBeUndefined();
    expect(parseGoTime('2026-02-30T00:00:00Z')).toBeUndefined();
  });
});
