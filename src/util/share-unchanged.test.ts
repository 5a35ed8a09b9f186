import { describe, expect, it } from 'vitest';
import { deepFreeze } from './deep-freeze.ts';
import { shareUnchanged } from './share-unchanged.ts';

describe('shareUnchanged', () => {
  const stored = () =>
    deepFreeze({
      metadata: { name: 'p', labels: { app: 'a' }, managedFields: [{ manager: 'm', fieldsV1: { 'f:spec': {} } }] },
      spec: { containers: [{ name: 'c', image: 'i' }], nodeName: 'n' },
      status: { phase: 'Pending', conditions: [{ type: 'A', status: 'True' }, { type: 'B', status: 'False' }] },
    });
  const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

  it('gives the copy the stored parts it still equals, and keeps its changes and fresh members its own', () => {
    const prev = stored();
    const next = copy(prev) as Record<string, any>;
    next.status.phase = 'Running';
    next.status.conditions[1].status = 'True';
    shareUnchanged(next, prev, ['metadata']);
    expect(next.spec).toBe(prev.spec);
    expect(next.metadata).not.toBe(prev.metadata);
    expect(next.metadata.labels).toBe(prev.metadata.labels);
    expect(next.metadata.managedFields).toBe(prev.metadata.managedFields);
    expect(next.status).not.toBe(prev.status);
    expect(next.status.conditions).not.toBe(prev.status.conditions);
    expect(next.status.conditions[0]).toBe(prev.status.conditions[0]);
    expect(next.status.conditions[1]).toEqual({ type: 'B', status: 'True' });
    expect(next.status.phase).toBe('Running');
  });

  it('tells a missing key from one holding undefined, array lengths, -0 from 0, and shares no unfrozen part', () => {
    const prev = deepFreeze({ a: { x: 1 }, b: [1, 2], c: { z: 0 }, d: { y: 1 } });
    const next: Record<string, any> = { a: { x: 1, extra: undefined }, b: [1, 2, 3], c: { z: -0 }, d: { y: 1 } };
    const unfrozen = { a: { x: 1 } };
    shareUnchanged(next, prev);
    expect(next.a).not.toBe(prev.a);
    expect(next.b).toEqual([1, 2, 3]);
    expect(Object.is(next.c.z, -0)).toBe(true);
    expect(next.d).toBe(prev.d);
    const other: Record<string, any> = { a: { x: 1 } };
    shareUnchanged(other, unfrozen);
    expect(other.a).not.toBe(unfrozen.a);
  });
});
