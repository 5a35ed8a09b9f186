// The in-memory etcd of one cluster: a single global revision for every write of every resource,
// per-bucket sorted keys, a bounded event log (for watch and for reading lists at an older
// revision), and immutable state built with immer so a snapshot of everything costs O(1).
import { produce } from 'immer';
import type { KubeObject, StoredObject } from '../apis/object.ts';
import { deepEqual } from '../util/deep-equal.ts';

export type StoreEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  revision: number;
  type: StoreEventType;
  /** The resource's storage bucket (`apps/deployments`). */
  bucket: string;
  /** `namespace/name` or `name`. */
  key: string;
  /** The object after the change; for DELETED the last state with the deletion revision. */
  object: StoredObject;
  /** The object before the change (MODIFIED and DELETED). */
  previous?: StoredObject;
}

type Bucket = Readonly<Record<string, StoredObject>>;

export interface StoreState {
  readonly revision: number;
  readonly buckets: Readonly<Record<string, Bucket>>;
}

export class KeyExistsError extends Error {
  readonly existing: StoredObject;
  constructor(existing: StoredObject) {
    super('key exists');
    this.existing = existing;
  }
}
export class KeyNotFoundError extends Error {}
export class RevisionConflictError extends Error {}
/** A read or list at a revision the history no longer covers. */
export class RevisionCompactedError extends Error {
  readonly requested: number;
  readonly compacted: number;
  constructor(requested: number, compacted: number) {
    super(`required revision ${requested} has been compacted (oldest ${compacted})`);
    this.requested = requested;
    this.compacted = compacted;
  }
}

export interface VersionedStoreOptions {
  /** How many events the history keeps before the oldest are compacted away. */
  historyLimit: number;
}

export class VersionedStore {
  private state: StoreState = { revision: 0, buckets: {} };
  private readonly log: StoreEvent[] = [];
  private logStart = 0;
  private compacted = 0;
  private readonly listeners = new Set<(event: StoreEvent) => void>();
  private readonly historyLimit: number;

  constructor(options: VersionedStoreOptions) {
    this.historyLimit = Math.max(1, options.historyLimit);
  }

  get revision(): number {
    return this.state.revision;
  }

  /** Every event with a revision above this one is still in the history. */
  get compactedRevision(): number {
    return this.compacted;
  }

  /** The whole store as immutable data; later writes never change it. */
  snapshot(): StoreState {
    return this.state;
  }

  get(bucket: string, key: string): StoredObject | undefined {
    return this.state.buckets[bucket]?.[key];
  }

  /**
   * Objects of a bucket whose key starts with `prefix`, sorted by key (etcd byte order), as they
   * were at `atRevision` (default: now).
   */
  list(bucket: string, prefix: string, atRevision?: number): Array<{ key: string; object: StoredObject }> {
    const current = this.state.buckets[bucket] ?? {};
    const entries = atRevision === undefined || atRevision >= this.state.revision ? current : this.bucketAt(bucket, atRevision);
    const keys = Object.keys(entries).filter((k) => k.startsWith(prefix));
    keys.sort(compareKeys);
    return keys.map((key) => ({ key, object: entries[key]! }));
  }

  /** Rebuilds a bucket as of an older revision by undoing the logged events after it. */
  private bucketAt(bucket: string, revision: number): Record<string, StoredObject> {
    if (revision < this.compacted) throw new RevisionCompactedError(revision, this.compacted);
    const entries: Record<string, StoredObject> = { ...this.state.buckets[bucket] };
    for (let i = this.log.length - 1; i >= this.logStart; i--) {
      const ev = this.log[i]!;
      if (ev.revision <= revision) break;
      if (ev.bucket !== bucket) continue;
      if (ev.type === 'ADDED') delete entries[ev.key];
      else entries[ev.key] = ev.previous!;
    }
    return entries;
  }

  create(bucket: string, key: string, obj: KubeObject): StoredObject {
    const existing = this.get(bucket, key);
    if (existing) throw new KeyExistsError(existing);
    return this.commit(bucket, key, 'ADDED', obj, undefined);
  }

  /**
   * Replaces an object if its stored revision is still `expectedRevision`. A write that changes
   * nothing is a no-op: no new revision, no event, the stored object is returned.
   */
  update(bucket: string, key: string, obj: KubeObject, expectedRevision: string): StoredObject {
    const existing = this.get(bucket, key);
    if (!existing) throw new KeyNotFoundError(key);
    if (existing.metadata.resourceVersion !== expectedRevision) throw new RevisionConflictError(key);
    const candidate = { ...obj, metadata: { ...obj.metadata, resourceVersion: existing.metadata.resourceVersion } };
    if (deepEqual(candidate, existing)) return existing;
    return this.commit(bucket, key, 'MODIFIED', obj, existing);
  }

  /** Removes an object; the returned last state carries the deletion revision. */
  delete(bucket: string, key: string, expectedRevision?: string): StoredObject {
    const existing = this.get(bucket, key);
    if (!existing) throw new KeyNotFoundError(key);
    if (expectedRevision !== undefined && existing.metadata.resourceVersion !== expectedRevision) throw new RevisionConflictError(key);
    return this.commit(bucket, key, 'DELETED', existing, existing);
  }

  /** Drops all history now: reads and watches from before this revision get 410 Expired. */
  compact(): void {
    this.logStart = this.log.length;
    this.compacted = this.state.revision;
    this.trimLog();
  }

  /** Listeners run synchronously after each commit, in revision order. */
  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Logged events of a bucket with a revision above `afterRevision`, oldest first. */
  eventsSince(afterRevision: number, bucket?: string): StoreEvent[] {
    if (afterRevision < this.compacted) throw new RevisionCompactedError(afterRevision, this.compacted);
    const out: StoreEvent[] = [];
    let i = this.firstIndexAfter(afterRevision);
    for (; i < this.log.length; i++) {
      const ev = this.log[i]!;
      if (!bucket || ev.bucket === bucket) out.push(ev);
    }
    return out;
  }

  private firstIndexAfter(revision: number): number {
    let lo = this.logStart;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.log[mid]!.revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private commit(bucket: string, key: string, type: StoreEventType, obj: KubeObject, previous: StoredObject | undefined): StoredObject {
    const revision = this.state.revision + 1;
    const stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(revision) } } as StoredObject;
    this.state = produce(this.state, (draft) => {
      draft.revision = revision;
      const b = (draft.buckets[bucket] ??= {});
      if (type === 'DELETED') delete b[key];
      else b[key] = stored;
    });
    // Read back the frozen copy immer made, so callers can never mutate stored state.
    const object = type === 'DELETED' ? (Object.freeze(stored) as StoredObject) : this.state.buckets[bucket]![key]!;
    const event: StoreEvent = { revision, type, bucket, key, object, previous };
    this.log.push(event);
    if (this.log.length - this.logStart > this.historyLimit) {
      const dropped = this.log.length - this.logStart - this.historyLimit;
      this.compacted = this.log[this.logStart + dropped - 1]!.revision;
      this.logStart += dropped;
      this.trimLog();
    }
    for (const listener of this.listeners) listener(event);
    return object;
  }

  /** Reclaims the dropped head of the log once it is large, keeping compaction amortised O(1). */
  private trimLog(): void {
    if (this.logStart > 1024 && this.logStart * 2 > this.log.length) {
      this.log.splice(0, this.logStart);
      this.logStart = 0;
    }
  }
}

/** etcd orders keys by bytes; names are ASCII, so code-unit order matches. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
