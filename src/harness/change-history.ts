// cluster.history: every change the store committed (from clients, apply() and the cluster's own
// controllers), with the object before and after. Stored objects are immutable, so keeping them
// costs nothing; readers get copies.
import type { KubeObject, StoredObject } from '../apis/object.ts';
import type { StoreEvent, StoreEventType } from '../storage/versioned-store.ts';
import { BoundedLog, type RecordLog } from './bounded-log.ts';
import type { HarnessContext } from './context.ts';
import { kindMatches, type KindSpec } from './object-ref.ts';
import { storageKeyOf } from '../apis/resource-type.ts';

/** One change the store committed. */
export interface StoredChange {
  /** The resourceVersion the change was committed at. */
  revision: number;
  /** `ADDED`, `MODIFIED` or `DELETED`, as a watch would report it. */
  type: StoreEventType;
  /** apiVersion of the object as stored (a custom resource's storage version). */
  apiVersion: string;
  /** Kind of the object. */
  kind: string;
  /** Namespace of a namespaced object. */
  namespace?: string;
  /** Name of the object. */
  name: string;
  /** The object before the change (MODIFIED, DELETED). */
  before?: KubeObject;
  /** The object after the change (ADDED, MODIFIED). */
  after?: KubeObject;
}

/** Selects changes; every given field must match. */
export interface ChangeMatch {
  /** `'Deployment'`, `'deployments.apps'`, `'cm'`, `{ apiVersion, kind }` (a deleted CRD's kind by its name). */
  kind?: KindSpec;
  /** Namespace of the object. */
  namespace?: string;
  /** Name of the object. */
  name?: string;
  /** `ADDED`, `MODIFIED` or `DELETED`. */
  type?: StoreEventType;
}

/** Selects changes: attribute filters, or any predicate. */
export type ChangeFilter = ChangeMatch | ((change: StoredChange) => boolean);

/** The change history (entries are copies); bounded (oldest dropped first) and clearable. */
export type ChangeHistory = RecordLog<StoredChange, ChangeFilter>;

export class ChangeRecorder implements ChangeHistory {
  private readonly log: BoundedLog<StoreEvent>;
  private readonly ctx: HarnessContext;
  private unsubscribe: (() => void) | undefined;

  constructor(ctx: HarnessContext, limit: number) {
    this.ctx = ctx;
    this.log = new BoundedLog(limit);
  }

  /** Records every change from now on. */
  start(): void {
    if (this.log.limit > 0) this.unsubscribe ??= this.ctx.store.subscribe((event) => this.log.push(event));
  }

  get length(): number {
    return this.log.length;
  }

  get limit(): number {
    return this.log.limit;
  }

  all(filter?: ChangeFilter): StoredChange[] {
    const entries = this.log.toArray();
    if (!filter) return entries.map((event) => toChange(event));
    if (typeof filter === 'function') return entries.map((event) => toChange(event)).filter(filter);
    const inBucket = filter.kind === undefined ? undefined : this.bucketsOf(filter.kind);
    return entries
      .filter((event) => {
        const obj = event.object;
        if (inBucket && !inBucket.has(event.bucket)) return false;
        if (filter.type !== undefined && event.type !== filter.type) return false;
        if (filter.namespace !== undefined && obj.metadata.namespace !== filter.namespace) return false;
        return filter.name === undefined || obj.metadata.name === filter.name;
      })
      .map((event) => toChange(event));
  }

  last(filter?: ChangeFilter): StoredChange | undefined {
    const items = this.all(filter);
    return items[items.length - 1];
  }

  clear(): void {
    this.log.clear();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  [Symbol.iterator](): Iterator<StoredChange> {
    return this.all()[Symbol.iterator]();
  }

  /** Buckets of the served types a kind spec names (a deleted CRD's kind is matched by its kind name). */
  private bucketsOf(spec: KindSpec): Set<string> {
    const buckets = new Set(this.ctx.catalog.all().filter((t) => kindMatches(t, spec)).map(storageKeyOf));
    if (buckets.size === 0) {
      const kind = typeof spec === 'string' ? spec.split('.')[0] : spec.kind;
      for (const event of this.log.toArray()) if (event.object.kind === kind) buckets.add(event.bucket);
    }
    return buckets;
  }
}

function toChange(event: StoreEvent): StoredChange {
  const obj = event.object;
  const change: StoredChange = {
    revision: event.revision,
    type: event.type,
    apiVersion: String(obj.apiVersion ?? ''),
    kind: String(obj.kind ?? ''),
    name: obj.metadata.name,
  };
  if (obj.metadata.namespace !== undefined) change.namespace = obj.metadata.namespace;
  if (event.previous) change.before = copy(event.previous);
  if (event.type !== 'DELETED') change.after = copy(obj);
  return change;
}

const copy = (obj: StoredObject): KubeObject => structuredClone(obj) as KubeObject;
