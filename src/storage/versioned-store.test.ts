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

describe('VersionedStore.range', () => {
  const keysOf = (s: VersionedStore, prefix: string, options: { from?: string; revision?: number } = {}) => {
    const out: string[] = [];
    const range = s.range('/cm', prefix, options);
    range.forEach((key, object) => {
      out.push(`${key}@${(object.data as Record<string, string> | undefined)?.v ?? ''}`);
    });
    expect(range.size).toBe(out.length);
    return out;
  };

  it('starts at a key by binary search and stays inside the prefix', () => {
    const s = new VersionedStore({ historyLimit: 100 });
    for (const k of ['a/x', 'b/1', 'b/2', 'b/3', 'ba/1', 'c/1']) s.create('/cm', k, obj(k, { v: '1' }));
    expect(keysOf(s, 'b/')).toEqual(['b/1@1', 'b/2@1', 'b/3@1']);
    expect(keysOf(s, 'b/', { from: 'b/2' })).toEqual(['b/2@1', 'b/3@1']);
    expect(keysOf(s, 'b/', { from: 'b/2\u0000' })).toEqual(['b/3@1']);
    expect(keysOf(s, '', { from: 'b/3\u0000' })).toEqual(['ba/1@1', 'c/1@1']);
    expect(keysOf(s, 'z/')).toEqual([]);
  });

  it('reads an older revision through creates, updates and deletes made since, from any start key', () => {
    const s = new VersionedStore({ historyLimit: 100 });
    for (const k of ['n/a', 'n/b', 'n/c', 'n/d']) s.create('/cm', k, obj(k, { v: '1' }));
    s.create('/other', 'n/zz', obj('zz'));
    const then = s.revision;
    s.delete('/cm', 'n/b');
    s.update('/cm', 'n/c', obj('c', { v: '2' }), s.get('/cm', 'n/c')!.metadata.resourceVersion);
    s.create('/cm', 'n/bb', obj('bb', { v: '1' }));
    s.create('/cm', 'n/e', obj('e', { v: '1' }));
    s.delete('/cm', 'n/e');
    s.delete('/cm', 'n/d');
    s.create('/cm', 'n/d', obj('d', { v: '3' }));
    expect(keysOf(s, 'n/', { revision: then })).toEqual(['n/a@1', 'n/b@1', 'n/c@1', 'n/d@1']);
    expect(keysOf(s, 'n/', { revision: then, from: 'n/b\u0000' })).toEqual(['n/c@1', 'n/d@1']);
    expect(keysOf(s, 'n/', { revision: then, from: 'n/c\u0000' })).toEqual(['n/d@1']);
    expect(keysOf(s, 'n/')).toEqual(['n/a@1', 'n/bb@1', 'n/c@2', 'n/d@3']);
    expect(keysOf(s, 'n/', { revision: then + 3 })).toEqual(['n/a@1', 'n/bb@1', 'n/c@2', 'n/d@1']);
  });

  it('stops when the visitor answers false', () => {
    const s = new VersionedStore({ historyLimit: 100 });
    for (const k of ['a', 'b', 'c']) s.create('/cm', k, obj(k));
    const seen: string[] = [];
    s.range('/cm', '').forEach((key) => (seen.push(key), key !== 'b'));
    expect(seen).toEqual(['a', 'b']);
  });

  it('keeps keys sorted through few writes (spliced) and many (sorted again)', () => {
    const s = new VersionedStore({ historyLimit: 10 });
    const expected = new Set<string>();
    const check = () => expect(s.list('/cm', '').map((e) => e.key)).toEqual([...expected].sort());
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (const batch of [3, 600, 1, 40, 2000]) {
      for (let i = 0; i < batch; i++) {
        const key = `k${next() % 500}`;
        if (expected.has(key)) {
          s.delete('/cm', key);
          expected.delete(key);
        } else {
          s.create('/cm', key, obj(key));
          expected.add(key);
        }
      }
      check();
    }
  });

  it('offers a derived slot with the current objects only, emptied when the object changes', () => {
    const s = new VersionedStore({ historyLimit: 100 });
    for (const k of ['a', 'b', 'c']) s.create('/cm', k, obj(k, { v: '1' }));
    const derive = (options: { revision?: number } = {}) => {
      const out: string[] = [];
      s.range('/cm', '', options).forEach((key, object, slot) => {
        const v = (object.data as Record<string, string>).v;
        if (!slot) return void out.push(`${key}@${v}:none`);
        out.push(`${key}@${v}:${slot.derived === undefined ? 'empty' : String(slot.derived)}`);
        slot.derived = `kept${v}`;
      });
      return out;
    };
    expect(derive()).toEqual(['a@1:empty', 'b@1:empty', 'c@1:empty']);
    expect(derive()).toEqual(['a@1:kept1', 'b@1:kept1', 'c@1:kept1']);
    const then = s.revision;
    s.update('/cm', 'b', obj('b', { v: '2' }), s.get('/cm', 'b')!.metadata.resourceVersion);
    s.delete('/cm', 'c');
    s.create('/cm', 'c', obj('c', { v: '3' }));
    // The updated and the re-created key start empty; at the older revision their states then have no slot.
    expect(derive()).toEqual(['a@1:kept1', 'b@2:empty', 'c@3:empty']);
    expect(derive({ revision: then })).toEqual(['a@1:kept1', 'b@1:none', 'c@1:none']);
  });

  it('refuses a revision the history no longer covers', () => {
    const s = new VersionedStore({ historyLimit: 2 });
    for (const k of ['a', 'b', 'c', 'd']) s.create('/cm', k, obj(k));
    expect(() => s.range('/cm', '', { revision: 1 })).toThrow(RevisionCompactedError);
    expect(keysOf(s, '', { revision: 2 })).toEqual(['a@', 'b@']);
  });
});

describe('VersionedStore.range narrowed by a label', () => {
  const labelled = (name: string, tier?: string, v = '1') => ({ metadata: { name, ...(tier ? { labels: { tier } } : {}) }, data: { v } });
  const visit = (s: VersionedStore, options: Parameters<VersionedStore['range']>[2]) => {
    const out: string[] = [];
    s.range('/cm', 'n/', options).forEach((key, object) => {
      out.push(`${key}:${object.metadata.labels?.tier ?? '-'}`);
    });
    return out;
  };
  const web = { key: 'tier', values: ['web'] };

  it('visits only the objects carrying the label, in key order, from the start key', () => {
    const s = new VersionedStore({ historyLimit: 100 });
    for (const [name, tier] of [['n/d', 'web'], ['n/a', 'web'], ['n/b', 'db'], ['n/c'], ['m/a', 'web']] as const) s.create('/cm', name, labelled(name, tier));
    expect(visit(s, { narrowing: web })).toEqual(['n/a:web', 'n/d:web']);
    expect(visit(s, { narrowing: { key: 'tier', values: ['db', 'web'] } })).toEqual(['n/a:web', 'n/b:db', 'n/d:web']);
    expect(visit(s, { narrowing: web, from: 'n/a\u0000' })).toEqual(['n/d:web']);
    expect(visit(s, { narrowing: { key: 'zone', values: ['x'] } })).toEqual([]);
  });

  it('follows label changes and deletes, and at an older revision visits what carried the label then', () => {
    const s = new VersionedStore({ historyLimit: 100 });
    for (const [name, tier] of [['n/a', 'web'], ['n/b', 'web'], ['n/c', 'db']] as const) s.create('/cm', name, labelled(name, tier));
    const then = s.revision;
    s.update('/cm', 'n/a', labelled('n/a', 'db'), s.get('/cm', 'n/a')!.metadata.resourceVersion);
    s.update('/cm', 'n/c', labelled('n/c', 'web'), s.get('/cm', 'n/c')!.metadata.resourceVersion);
    s.delete('/cm', 'n/b');
    s.create('/cm', 'n/e', labelled('n/e', 'web'));
    expect(visit(s, { narrowing: web })).toEqual(['n/c:web', 'n/e:web']);
    // The visitor still checks labels: at `then`, n/a and n/b carried the label; n/c (a candidate now) did not.
    expect(visit(s, { narrowing: web, revision: then }).filter((e) => e.endsWith(':web'))).toEqual(['n/a:web', 'n/b:web']);
  });

  it('keeps the index exact as objects take, share, change and drop label values', () => {
    const s = new VersionedStore({ historyLimit: 10 });
    const tiers = ['web', 'db', 'cache', undefined];
    let seed = 11;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let i = 0; i < 3000; i++) {
      const key = `n/k${next() % 40}`;
      // 'rare' is carried by one object at a time, mostly: the index's single-entry form.
      const tier = next() % 30 === 0 ? 'rare' : tiers[next() % tiers.length];
      const existing = s.get('/cm', key);
      if (existing && next() % 4 === 0) s.delete('/cm', key);
      else if (existing) s.update('/cm', key, labelled(key, tier, String(i)), existing.metadata.resourceVersion);
      else s.create('/cm', key, labelled(key, tier));
      if (i % 100 === 0) {
        for (const t of ['web', 'db', 'cache', 'rare']) {
          const expected = s.list('/cm', 'n/').filter((e) => e.object.metadata.labels?.tier === t).map((e) => `${e.key}:${t}`);
          expect(visit(s, { narrowing: { key: 'tier', values: [t] } })).toEqual(expected);
        }
      }
    }
  });

  it('tells whether any key (matching or not) follows a key at the revision', () => {
    const s = new VersionedStore({ historyLimit: 100 });
    for (const name of ['n/a', 'n/b', 'n/c']) s.create('/cm', name, labelled(name));
    const then = s.revision;
    s.delete('/cm', 'n/c');
    s.create('/cm', 'n/d', labelled('n/d'));
    expect(s.range('/cm', 'n/', { narrowing: web }).hasKeyAfter('n/b')).toBe(true); // n/d
    expect(s.range('/cm', 'n/', { narrowing: web }).hasKeyAfter('n/d')).toBe(false);
    expect(s.range('/cm', 'n/', { narrowing: web, revision: then }).hasKeyAfter('n/b')).toBe(true); // n/c, deleted since
    expect(s.range('/cm', 'n/', { narrowing: web, revision: then }).hasKeyAfter('n/c')).toBe(false); // n/d came later
  });
});
