// The in-memory etcd of one cluster: a single global revision for every write of every resource,
// per-bucket sorted keys, a bounded event log (for watch and for reading lists at an older
// revision). Stored objects are deep-frozen and replaced, never changed, so readers can hold them.
// Buckets are mutable maps so a write costs O(1) whatever the bucket's size (a copy-on-write
// record per write made a 1,000-object cascade quadratic); `snapshot()` freezes a bucket's view
// lazily and reuses it until the bucket changes.
import type { KubeObject, StoredObject } from '../apis/object.ts';
import { deepEqual } from '../util/deep-equal.ts';
import { deepFreeze } from '../util/deep-freeze.ts';
import { MAX_OBJECT_DEPTH, nestingDepth } from '../util/nesting-depth.ts';

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

export interface StoreState {
  readonly revision: number;
  readonly buckets: Readonly<Record<string, Readonly<Record<string, StoredObject>>>>;
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

/**
 * A write the store refuses before committing anything: etcd's request size limit (`tooLarge`,
 * what etcd answers `etcdserver: request is too large`), or nesting deeper than kubefake can
 * serialise again (`tooDeep`, see util/nesting-depth.ts).
 */
export class UnstorableObjectError extends Error {
  readonly problem: 'tooLarge' | 'tooDeep';
  constructor(problem: 'tooLarge' | 'tooDeep') {
    super(problem === 'tooLarge' ? 'etcdserver: request is too large' : `object nested deeper than ${MAX_OBJECT_DEPTH} levels`);
    this.problem = problem;
  }
}

/** etcd's default --max-request-bytes: the largest raft request (a Txn putting one key) it accepts. */
export const ETCD_MAX_REQUEST_BYTES = 1.5 * 1024 * 1024;

/** What a write must fit in besides the depth limit every write has. */
export interface WriteLimits {
  /**
   * The object is stored as JSON (custom resources): refuse it when etcd would, by its encoded
   * size plus the key and the Txn's framing, as etcd's processInternalRaftRequestOnce measures it.
   */
  etcdRequestBytes?: number;
}

/** The bytes of etcd's Txn beyond the value: the key twice (compare and put), revision, lease, header. */
const TXN_OVERHEAD_BYTES = 64;

function checkStorable(bucket: string, key: string, object: KubeObject, limits: WriteLimits | undefined): void {
  if (nestingDepth(object, MAX_OBJECT_DEPTH) > MAX_OBJECT_DEPTH) throw new UnstorableObjectError('tooDeep');
  const max = limits?.etcdRequestBytes;
  if (max === undefined) return;
  // The storage key is /registry/<bucket>/<key>; the value is the JSON serializer's output and its newline.
  const keyBytes = Buffer.byteLength(`/registry/${bucket}/${key}`);
  if (Buffer.byteLength(JSON.stringify(object)) + 1 + 2 * keyBytes + TXN_OVERHEAD_BYTES > max) throw new UnstorableObjectError('tooLarge');
}

/** One resource's objects, with views rebuilt only when it changes. */
class Bucket {
  readonly objects = new Map<string, StoredObject>();
  private sorted: string[] | undefined;
  private frozen: Readonly<Record<string, StoredObject>> | undefined;

  set(key: string, object: StoredObject): void {
    if (!this.objects.has(key)) this.sorted = undefined;
    this.objects.set(key, object);
    this.frozen = undefined;
  }

  delete(key: string): void {
    this.objects.delete(key);
    this.sorted = undefined;
    this.frozen = undefined;
  }

  /** Keys in etcd byte order, cached between key-set changes. */
  sortedKeys(): readonly string[] {
    return (this.sorted ??= [...this.objects.keys()].sort(compareKeys));
  }

  /** Keys starting with `prefix`, found by binary search in the sorted keys. */
  keysWithPrefix(prefix: string): readonly string[] {
    const keys = this.sortedKeys();
    if (prefix === '') return keys;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    while (end < keys.length && keys[end]!.startsWith(prefix)) end++;
    return keys.slice(lo, end);
  }

  view(): Readonly<Record<string, StoredObject>> {
    return (this.frozen ??= Object.freeze(Object.fromEntries(this.objects)));
  }
}

export interface VersionedStoreOptions {
  /** How many events the history keeps before the oldest are compacted away. */
  historyLimit: number;
}

export class VersionedStore {
  private currentRevision = 0;
  private readonly buckets = new Map<string, Bucket>();
  private readonly log: StoreEvent[] = [];
  private logStart = 0;
  private compacted = 0;
  private readonly listeners = new Set<(event: StoreEvent) => void>();
  private readonly historyLimit: number;

  constructor(options: VersionedStoreOptions) {
    this.historyLimit = Math.max(1, options.historyLimit);
  }

  get revision(): number {
    return this.currentRevision;
  }

  /** Every event with a revision above this one is still in the history. */
  get compactedRevision(): number {
    return this.compacted;
  }

  /** The whole store as immutable data; later writes never change it. Unchanged buckets are shared. */
  snapshot(): StoreState {
    const buckets: Record<string, Readonly<Record<string, StoredObject>>> = {};
    for (const [name, bucket] of this.buckets) if (bucket.objects.size > 0) buckets[name] = bucket.view();
    return Object.freeze({ revision: this.currentRevision, buckets: Object.freeze(buckets) });
  }

  get(bucket: string, key: string): StoredObject | undefined {
    return this.buckets.get(bucket)?.objects.get(key);
  }

  /**
   * Objects of a bucket whose key starts with `prefix`, sorted by key (etcd byte order), as they
   * were at `atRevision` (default: now).
   */
  list(bucket: string, prefix: string, atRevision?: number): Array<{ key: string; object: StoredObject }> {
    if (atRevision === undefined || atRevision >= this.currentRevision) {
      const current = this.buckets.get(bucket);
      if (!current) return [];
      return current.keysWithPrefix(prefix).map((key) => ({ key, object: current.objects.get(key)! }));
    }
    const entries = this.bucketAt(bucket, atRevision);
    const keys = [...entries.keys()].filter((k) => k.startsWith(prefix));
    keys.sort(compareKeys);
    return keys.map((key) => ({ key, object: entries.get(key)! }));
  }

  /** Rebuilds a bucket as of an older revision by undoing the logged events after it. */
  private bucketAt(bucket: string, revision: number): Map<string, StoredObject> {
    if (revision < this.compacted) throw new RevisionCompactedError(revision, this.compacted);
    const entries = new Map(this.buckets.get(bucket)?.objects);
    for (let i = this.log.length - 1; i >= this.logStart; i--) {
      const ev = this.log[i]!;
      if (ev.revision <= revision) break;
      if (ev.bucket !== bucket) continue;
      if (ev.type === 'ADDED') entries.delete(ev.key);
      else entries.set(ev.key, ev.previous!);
    }
    return entries;
  }

  create(bucket: string, key: string, obj: KubeObject, limits?: WriteLimits): StoredObject {
    const existing = this.get(bucket, key);
    if (existing) throw new KeyExistsError(existing);
    return this.commit(bucket, key, 'ADDED', obj, undefined, limits);
  }

  /**
   * Replaces an object if its stored revision is still `expectedRevision`. A write that changes
   * nothing is a no-op: no new revision, no event, the stored object is returned.
   */
  update(bucket: string, key: string, obj: KubeObject, expectedRevision: string, limits?: WriteLimits): StoredObject {
    const existing = this.get(bucket, key);
    if (!existing) throw new KeyNotFoundError(key);
    if (existing.metadata.resourceVersion !== expectedRevision) throw new RevisionConflictError(key);
    const candidate = { ...obj, metadata: { ...obj.metadata, resourceVersion: existing.metadata.resourceVersion } };
    // deepEqual recurses no deeper than `existing`, which the depth limit bounds.
    if (deepEqual(candidate, existing)) return existing;
    return this.commit(bucket, key, 'MODIFIED', obj, existing, limits);
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
    this.compacted = this.currentRevision;
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

  /**
   * Everything that can fail runs before the revision moves: an object that is committed is one
   * every reader, answer and watch event can serialise, and every listener hears of it.
   */
  private commit(bucket: string, key: string, type: StoreEventType, obj: KubeObject, previous: StoredObject | undefined, limits?: WriteLimits): StoredObject {
    const revision = this.currentRevision + 1;
    const fresh = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(revision) } } as StoredObject;
    if (type !== 'DELETED') checkStorable(bucket, key, fresh, limits);
    // A fresh top level and metadata; the rest is frozen in place, so callers must hand over
    // objects they no longer change (the registry always builds new ones).
    const object = deepFreeze(fresh);
    this.currentRevision = revision;
    let b = this.buckets.get(bucket);
    if (!b) this.buckets.set(bucket, (b = new Bucket()));
    if (type === 'DELETED') b.delete(key);
    else b.set(key, object);
    const event: StoreEvent = { revision, type, bucket, key, object, previous };
    this.log.push(event);
    if (this.log.length - this.logStart > this.historyLimit) {
      const dropped = this.log.length - this.logStart - this.historyLimit;
      this.compacted = this.log[this.logStart + dropped - 1]!.revision;
      this.logStart += dropped;
      this.trimLog();
    }
    // A listener that throws must not keep the others from the event, nor turn the committed
    // write into an error for its writer (listeners are meant not to throw: a watch ends itself).
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        process.emitWarning(`kubefake: a store listener failed on revision ${revision}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
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
