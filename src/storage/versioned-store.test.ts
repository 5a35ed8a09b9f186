import { describe, expect, it } from 'vitest';
import { KeyExistsError, RevisionCompactedError, RevisionConflictError, VersionedStore, type StoreEvent } from './versioned-store.ts';

const obj = (name: string, data: Record<string, string> = {}) => ({ metadata: { name }, data });

describe('VersionedStore', () => {
  it('gives every write the next global revision, across buckets', () => {
    const s = new VersionedStore({ historyLimit: 100 });
    const a = s.create('/configmaps', 'ns/a', obj('a'));
    const b = s.create('/secrets', 'ns/b', obj('b'));
    const a2 = s.update('/configmaps', 'ns/a', obj('a', { x: '1' }), a.metadata.resourceVersion);
    expect([a, b, a2].map((o) => o.metadata.resourceVersion)).toEqual(['1', '2', '3']);
    expect(s.revision).toBe(3);
  });

  it('treats an identical update as a no-op: no revision, no event', () => {
    const s = new VersionedStore({ historyLimit: 100 });
    const events: StoreEvent[] = [];
    s.subscribe((e) => events.push(e));
    const a = s.create('/cm', 'a', obj('a', { k: 'v' }));
    const same = s.update('/cm', 'a', { data: { k: 'v' }, metadata: { name: 'a' } }, a.metadata.resourceVersion);
    expect(same).toBe(a);
    expect(s.revision).toBe(1);
    expect(events.map((e) => e.type)).toEqual(['ADDED']);
  });

  it('rejects duplicate keys and stale revisions', () => {
    const s = new VersionedStore({ historyLimit: 100 });
    s.create('/cm', 'a', obj('a'));
    expect(() => s.create('/cm', 'a', obj('a'))).toThrow(KeyExistsError);
    expect(() => s.update('/cm', 'a', obj('a', { x: '1' }), '0')).toThrow(RevisionConflictError);
    expect(() => s.delete('/cm', 'a', '7')).toThrow(RevisionConflictError);
  });

  it('hands out frozen objects, so stored state cannot be changed behind its back', () => {
    const s = new VersionedStore({ historyLimit: 100 });
    const a = s.create('/cm', 'a', obj('a', { k: 'v' }));
    expect(Object.isFrozen(a)).toBe(true);
    expect(Object.isFrozen(a.data)).toBe(true);
  });

  it('emits DELETED with the last state at the deletion revision', () => {
    const s = new VersionedStore({ historyLimit: 100 });
    const events: StoreEvent[] = [];
    s.subscribe((e) => events.push(e));
    s.create('/cm', 'a', obj('a', { k: 'v' }));
    const gone = s.delete('/cm', 'a');
    expect(gone.metadata.resourceVersion).toBe('2');
    expect(gone.data).toEqual({ k: 'v' });
    expect(events.map((e) => [e.type, e.object.metadata.resourceVersion])).toEqual([
      ['ADDED', '1'],
      ['DELETED', '2'],
    ]);
    expect(s.get('/cm', 'a')).toBeUndefined();
  });

  it('lists sorted by key, and as of an older revision', () => {
    const s = new VersionedStore({ historyLimit: 100 });
    s.create('/cm', 'ns/b', obj('b'));
    s.create('/cm', 'ns/a', obj('a'));
    s.create('/cm', 'other/a', obj('a'));
    const at3 = s.revision;
    s.delete('/cm', 'ns/b');
    s.update('/cm', 'ns/a', obj('a', { v: '2' }), '2');
    s.create('/cm', 'ns/c', obj('c'));
    expect(s.list('/cm', 'ns/').map((e) => e.key)).toEqual(['ns/a', 'ns/c']);
    const old = s.list('/cm', 'ns/', at3);
    expect(old.map((e) => e.key)).toEqual(['ns/a', 'ns/b']);
    expect(old[0]!.object.data).toEqual({});
    expect(s.list('/cm', '').map((e) => e.key)).toEqual(['ns/a', 'ns/c', 'other/a']);
  });

  it('keeps a bounded history and refuses reads before the compacted revision', () => {
    const s = new VersionedStore({ historyLimit: 3 });
    for (let i = 0; i < 6; i++) s.create('/cm', `k${i}`, obj(`k${i}`));
    expect(s.compactedRevision).toBe(3);
    expect(s.eventsSince(3).map((e) => e.revision)).toEqual([4, 5, 6]);
    expect(() => s.eventsSince(2)).toThrow(RevisionCompactedError);
    expect(() => s.list('/cm', '', 2)).toThrow(RevisionCompactedError);
    expect(s.list('/cm', '', 4).map((e) => e.key)).toEqual(['k0', 'k1', 'k2', 'k3']);
    s.compact();
    expect(s.compactedRevision).toBe(6);
    expect(s.eventsSince(6)).toEqual([]);
  });

  it('shares structure between snapshots: old snapshots never change', () => {
    const s = new VersionedStore({ historyLimit: 100 });
    s.create('/cm', 'a', obj('a'));
    const before = s.snapshot();
    s.create('/cm', 'b', obj('b'));
    s.create('/other', 'x', obj('x'));
    expect(Object.keys(before.buckets['/cm']!)).toEqual(['a']);
    expect(before.buckets['/other']).toBeUndefined();
    expect(s.snapshot().buckets['/cm']!.a).toBe(before.buckets['/cm']!.a);
  });
});
