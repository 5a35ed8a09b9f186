// cluster.diff(before): what a step created, changed (field by field) and deleted, between a
// snapshot and now. resourceVersion and managedFields changes are not reported (every write
// moves them); an object deleted and created again under the same name (new uid) is both.
import { apiVersionOf, isPlainObject } from '../apis/object.ts';
import { deepEqual } from '../util/deep-equal.ts';
import { normalizeValue, Placeholders } from './normalize.ts';
import { presentCopy, type ObjectRef } from './object-ref.ts';
import type { SnapshotEntry } from './snapshot-entry.ts';
import { stableOrder } from './stable-order.ts';

/** One field that differs: `before` is absent for an added field, `after` for a removed one. */
export interface FieldChange {
  /** `spec.replicas`, `metadata.labels["app.kubernetes.io/name"]`, `status.conditions[0].status` */
  path: string;
  /** The value before (normalised as in snapshots unless the cluster is deterministic). */
  before?: unknown;
  /** The value now. */
  after?: unknown;
}

/** An object present before and now, with what differs. */
export interface ChangedObject extends ObjectRef {
  /** Field by field, in the object's key order; resourceVersion and managedFields are left out. */
  changes: FieldChange[];
}

/** What `cluster.diff(before)` answers. */
export interface ClusterDiff {
  /** Objects that exist now and did not before, in snapshot order. */
  created: ObjectRef[];
  /** Objects present in both with different content. */
  changed: ChangedObject[];
  /** Objects that existed before and are gone now. */
  deleted: ObjectRef[];
}

/** Ignored on every object: they change on every write. */
const IGNORED = new Set(['metadata.resourceVersion', 'metadata.managedFields']);

export function diffEntries(before: readonly SnapshotEntry[], current: readonly SnapshotEntry[], normalize: boolean): ClusterDiff {
  const placeholders = new Placeholders();
  // Normalised, generated names are numbered as in the snapshots (before's objects first), in an order that does not depend on them.
  const after = normalize ? stableOrder(current) : current;
  if (normalize) for (const e of [...before, ...after]) placeholders.addGeneratedNames(e.object);
  const refOf = (entry: SnapshotEntry) => refWithName(entry, placeholders.name(entry.object.metadata.name));
  const previous = new Map(before.map((e) => [e.id, e]));
  const now = new Map(after.map((e) => [e.id, e]));
  const sameObject = (a: SnapshotEntry, b: SnapshotEntry) => a.object.metadata.uid === b.object.metadata.uid;
  const result: ClusterDiff = { created: [], changed: [], deleted: [] };
  for (const entry of before) {
    const still = now.get(entry.id);
    if (!still || !sameObject(entry, still)) result.deleted.push(refOf(entry));
  }
  for (const entry of after) {
    const old = previous.get(entry.id);
    if (!old || !sameObject(old, entry)) {
      result.created.push(refOf(entry));
      continue;
    }
    if (old.object === entry.object) continue;
    const changes: FieldChange[] = [];
    compare('', presentCopy(old.type, old.object), presentCopy(entry.type, entry.object), changes);
    if (normalize) for (const c of changes) normalizeChange(c, placeholders);
    if (changes.length) result.changed.push({ ...refOf(entry), changes });
  }
  return result;
}

function refWithName(entry: SnapshotEntry, name: string): ObjectRef {
  const meta = entry.object.metadata;
  const ref: ObjectRef = { apiVersion: apiVersionOf(entry.type.group, entry.type.version), kind: entry.type.kind, name };
  if (meta.namespace !== undefined) ref.namespace = meta.namespace;
  return ref;
}

function compare(path: string, a: unknown, b: unknown, out: FieldChange[]): void {
  if (IGNORED.has(path) || deepEqual(a, b)) return;
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const key of Object.keys(b)) compare(join(path, key), a[key], b[key], out);
    for (const key of Object.keys(a)) if (!(key in b)) compare(join(path, key), a[key], undefined, out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) compare(`${path}[${i}]`, a[i], b[i], out);
    return;
  }
  const change: FieldChange = { path };
  if (a !== undefined) change.before = a;
  if (b !== undefined) change.after = b;
  out.push(change);
}

/** `a.b`, or `a["b.c/d"]` for keys that are not plain identifiers (label and annotation keys). */
function join(path: string, key: string): string {
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${JSON.stringify(key)}]`;
}

function normalizeChange(change: FieldChange, placeholders: Placeholders): void {
  const key = /(?:^|\.)([A-Za-z_$][\w$]*)$/.exec(change.path)?.[1];
  if ('before' in change) change.before = normalizeValue(key, change.before, placeholders);
  if ('after' in change) change.after = normalizeValue(key, change.after, placeholders);
}

