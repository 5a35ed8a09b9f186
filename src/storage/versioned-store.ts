// The in-memory etcd of one cluster: a single global revision for every write of every resource,
// per-bucket sorted keys, a bounded event log (for watch and for reading lists at an older
// revision). Stored objects are deep-frozen and replaced, never changed, so readers can hold them.
// Buckets are mutable maps so a write costs O(1) whatever the bucket's size (a copy-on-write
// record per write made a 1,000-object cascade quadratic); `snapshot()` freezes a bucket's view
// lazily and reuses it until the bucket changes. Reads walk a sorted array of entries from a
// binary-searched start, and read an older revision through an overlay built from the events
// since, so a page of a list costs its own length, not the bucket's.
import type { KubeObject, StoredObject } from '../apis/object.ts';
import { deepEqual } from '../util/deep-equal.ts';
import { MAX_OBJECT_DEPTH, nestingDepth } from '../util/nesting-depth.ts';
import { SharedValues } from './shared-values.ts';

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

/** Pending key-set changes up to this many are spliced into the sorted keys; more re-sort them. */
const SPLICE_LIMIT = 256;

/**
 * Where a reader may keep something it derived from an entry's current object (the registry keeps
 * the object as a list presents it): read next to the object, it spares a lookup in a table of
 * 100,000 keys per listed item, which costs cache misses. Cleared whenever the object changes.
 */
export interface DerivedSlot {
  derived: unknown;
}

/** A key and its object; a write of an existing key replaces the object in place. */
interface Entry extends DerivedSlot {
  readonly key: string;
  object: StoredObject;
}

/** One resource's objects, with views rebuilt only when it changes. */
class Bucket {
  private readonly entries = new Map<string, Entry>();
  /** Entries in etcd key order as of the last read; `added`/`removed` hold what changed since. */
  private sorted: Entry[] = [];
  private added: Entry[] = [];
  private removed: Entry[] = [];
  private frozen: Readonly<Record<string, StoredObject>> | undefined;
  /**
   * label key → label value → the entries carrying it, so a selected list visits only candidates.
   * A value only one object carries (a uid, a hash) holds that entry itself, not a one-entry Set.
   */
  private readonly labels = new Map<string, Map<string, Entry | Set<Entry>>>();

  get size(): number {
    return this.entries.size;
  }

  get(key: string): StoredObject | undefined {
    return this.entries.get(key)?.object;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  set(key: string, object: StoredObject): void {
    let entry = this.entries.get(key);
    if (entry) {
      entry.derived = undefined;
      if (entry.object.metadata.labels !== object.metadata.labels) {
        this.unindex(entry);
        entry.object = object;
        this.index(entry);
      } else entry.object = object;
    } else {
      entry = { key, object, derived: undefined };
      this.entries.set(key, entry);
      this.added.push(entry);
      this.index(entry);
    }
    this.frozen = undefined;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.unindex(entry);
    this.removed.push(entry);
    this.frozen = undefined;
  }

  /** The entries whose label `key` has one of `values` now, in no order. */
  withLabel(key: string, values: readonly string[]): Entry[] {
    const byValue = this.labels.get(key);
    const out: Entry[] = [];
    if (!byValue) return out;
    for (const value of values) {
      const held = byValue.get(value);
      if (held instanceof Set) for (const entry of held) out.push(entry);
      else if (held) out.push(held);
    }
    return out;
  }

  private index(entry: Entry): void {
    const labels = entry.object.metadata.labels;
    if (!labels) return;
    for (const key in labels) {
      let byValue = this.labels.get(key);
      if (!byValue) this.labels.set(key, (byValue = new Map()));
      const value = labels[key]!;
      const held = byValue.get(value);
      if (held === undefined) byValue.set(value, entry);
      else if (held instanceof Set) held.add(entry);
      else if (held !== entry) byValue.set(value, new Set([held, entry]));
    }
  }

  private unindex(entry: Entry): void {
    const labels = entry.object.metadata.labels;
    if (!labels) return;
    for (const key in labels) {
      const byValue = this.labels.get(key)!;
      const value = labels[key]!;
      const held = byValue.get(value)!;
      if (held instanceof Set) {
        held.delete(entry);
        if (held.size === 1) byValue.set(value, held.values().next().value!);
      } else if (held === entry) byValue.delete(value);
      if (byValue.size === 0) this.labels.delete(key);
    }
  }

  /**
   * Entries in etcd key order. A few writes since the last read are spliced in by binary search
   * (a write between two pages of a paginated list must not re-sort 100,000 keys); many are
   * sorted afresh. Walking this array is what makes a list cheap: no lookup per key.
   */
  sortedEntries(): readonly Entry[] {
    const pending = this.added.length + this.removed.length;
    if (pending === 0) return this.sorted;
    if (pending > SPLICE_LIMIT) {
      // Code-unit order is byte order for the ASCII names the API allows; sort() without a
      // comparator compares code units and is the fastest form.
      this.sorted = [...this.entries.keys()].sort().map((key) => this.entries.get(key)!);
    } else {
      const sorted = this.sorted;
      for (const entry of this.removed) {
        const at = lowerBound(sorted, entry.key);
        if (sorted[at] === entry) sorted.splice(at, 1);
      }
      for (const entry of this.added) {
        if (this.entries.get(entry.key) !== entry) continue; // created, then deleted again
        sorted.splice(lowerBound(sorted, entry.key), 0, entry);
      }
    }
    this.added = [];
    this.removed = [];
    return this.sorted;
  }

  view(): Readonly<Record<string, StoredObject>> {
    if (!this.frozen) {
      const out: Record<string, StoredObject> = {};
      for (const [key, entry] of this.entries) out[key] = entry.object;
      this.frozen = Object.freeze(out);
    }
    return this.frozen;
  }
}

/** The first index of `entries` (sorted) whose key is not below `key`. */
function lowerBound(entries: readonly Entry[], key: string): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid]!.key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The smallest string above every string that starts with `prefix` ('' when there is none). */
function prefixEnd(prefix: string): string {
  return prefix === '' ? '' : prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** Keeps a range to the objects whose label `key` has one of `values` (the others may still be visited). */
export interface LabelNarrowing {
  key: string;
  values: readonly string[];
}

/**
 * The keys of one bucket under a prefix, from a start key on, as they were at one revision: the
 * current sorted entries, read through an overlay of what changed since that revision (taken from
 * the event log). Building one costs two binary searches plus the events after the revision, never
 * a walk or copy of the whole bucket, so each page of a paginated list costs only its own length.
 * Narrowed by a label, it visits only the entries the label index names (and the keys changed
 * since the revision, whose labels then may differ), sorted: a 1% selection visits about 1%.
 */
export class StoreRange {
  /** How many keys the range holds (not counted for a narrowed range: NaN). */
  readonly size: number;
  private readonly entries: readonly Entry[];
  private readonly lo: number;
  private readonly hi: number;
  /** The entries to visit when narrowed, sorted; else entries[lo, hi). */
  private readonly candidates: readonly Entry[] | undefined;
  /** Keys changed since the revision: their state then (null: absent then). */
  private readonly overlay: ReadonlyMap<string, StoredObject | null> | undefined;
  /** Keys to visit with their state then, outside the entries visited: deleted since, or (narrowed) not candidates now. Sorted. */
  private readonly extra: readonly string[];
  /** Keys present at the revision and deleted since. */
  private readonly gone: readonly string[];

  constructor(bucket: Bucket | undefined, prefix: string, from: string, overlay?: Map<string, StoredObject | null>, narrowing?: LabelNarrowing) {
    const entries = (this.entries = bucket ? bucket.sortedEntries() : []);
    const low = from > prefix ? from : prefix;
    this.lo = lowerBound(entries, low);
    const end = prefixEnd(prefix);
    this.hi = end === '' ? entries.length : Math.max(this.lo, lowerBound(entries, end));
    let candidateKeys: Set<string> | undefined;
    if (narrowing && bucket) {
      const inRange = (key: string) => key >= low && key.startsWith(prefix);
      const candidates = bucket.withLabel(narrowing.key, narrowing.values).filter((e) => inRange(e.key));
      this.candidates = candidates.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      if (overlay && overlay.size > 0) candidateKeys = new Set(candidates.map((e) => e.key));
    } else if (narrowing) this.candidates = [];
    let size = this.hi - this.lo;
    const extra: string[] = [];
    const gone: string[] = [];
    if (overlay && overlay.size > 0) {
      this.overlay = overlay;
      for (const [key, then] of overlay) {
        const now = bucket?.has(key) ?? false;
        if (then === null) {
          if (now) size--;
          continue;
        }
        if (!now) gone.push(key);
        if (candidateKeys ? !candidateKeys.has(key) : !now) extra.push(key);
      }
      extra.sort();
      size += gone.length;
    }
    this.extra = extra;
    this.gone = gone;
    this.size = this.candidates ? NaN : size;
  }

  /**
   * Visits the keys in order with their objects until `visit` answers false. `slot` is the
   * entry's DerivedSlot when the object visited is the key's current one, else undefined.
   */
  forEach(visit: (key: string, object: StoredObject, slot: DerivedSlot | undefined) => boolean | void): void {
    const { overlay } = this;
    const list = this.candidates ?? this.entries;
    const lo = this.candidates ? 0 : this.lo;
    const hi = this.candidates ? this.candidates.length : this.hi;
    if (overlay === undefined) {
      for (let i = lo; i < hi; i++) {
        const entry = list[i]!;
        if (visit(entry.key, entry.object, entry) === false) return;
      }
      return;
    }
    const extra = this.extra;
    let g = 0;
    for (let i = lo; i < hi; i++) {
      const entry = list[i]!;
      const key = entry.key;
      while (g < extra.length && extra[g]! < key) {
        if (visit(extra[g]!, overlay.get(extra[g]!)!, undefined) === false) return;
        g++;
      }
      const then = overlay.get(key);
      if (then === null) continue;
      if ((then === undefined ? visit(key, entry.object, entry) : visit(key, then, undefined)) === false) return;
    }
    for (; g < extra.length; g++) if (visit(extra[g]!, overlay.get(extra[g]!)!, undefined) === false) return;
  }

  /** Whether the range (not only the candidates of a narrowed one) holds a key after `key`. */
  hasKeyAfter(key: string): boolean {
    const { entries, hi, overlay } = this;
    for (let i = Math.max(this.lo, lowerBound(entries, `${key}\u0000`)); i < hi; i++) {
      if (overlay?.get(entries[i]!.key) !== null) return true;
    }
    return this.gone.some((k) => k > key);
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
  private readonly shared = new SharedValues();

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
    for (const [name, bucket] of this.buckets) if (bucket.size > 0) buckets[name] = bucket.view();
    return Object.freeze({ revision: this.currentRevision, buckets: Object.freeze(buckets) });
  }

  get(bucket: string, key: string): StoredObject | undefined {
    return this.buckets.get(bucket)?.get(key);
  }

  /**
   * Objects of a bucket whose key starts with `prefix`, sorted by key (etcd byte order), as they
   * were at `atRevision` (default: now).
   */
  list(bucket: string, prefix: string, atRevision?: number): Array<{ key: string; object: StoredObject }> {
    const out: Array<{ key: string; object: StoredObject }> = [];
    this.range(bucket, prefix, { revision: atRevision }).forEach((key, object) => {
      out.push({ key, object });
    });
    return out;
  }

  /**
   * The keys of a bucket starting with `prefix` and not below `from` (a whole key), as they were
   * at `revision` (default: now); throws RevisionCompactedError when the history no longer
   * reaches back that far.
   */
  range(bucket: string, prefix: string, options: { from?: string; revision?: number; narrowing?: LabelNarrowing } = {}): StoreRange {
    const { from = '', revision, narrowing } = options;
    const current = this.buckets.get(bucket);
    if (revision === undefined || revision >= this.currentRevision) return new StoreRange(current, prefix, from, undefined, narrowing);
    if (revision < this.compacted) throw new RevisionCompactedError(revision, this.compacted);
    // Undo the events after the revision: the earliest event of a key says what it was then.
    const low = from > prefix ? from : prefix;
    const overlay = new Map<string, StoredObject | null>();
    for (let i = this.log.length - 1; i >= this.logStart; i--) {
      const ev = this.log[i]!;
      if (ev.revision <= revision) break;
      if (ev.bucket !== bucket || ev.key < low || !ev.key.startsWith(prefix)) continue;
      overlay.set(ev.key, ev.type === 'ADDED' ? null : ev.previous!);
    }
    return new StoreRange(current, prefix, from, overlay, narrowing);
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
    // objects they no longer change (the registry always builds new ones). Equal small parts of
    // stored objects (field sets, label maps, kinds, namespaces) share one frozen copy.
    const object = this.shared.freeze(fresh);
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
