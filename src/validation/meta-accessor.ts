// Reads a JSON ObjectMeta the way metav1.Object accessors on an Unstructured do
// (apimachinery/pkg/apis/meta/v1/unstructured/unstructured.go): a field of the wrong JSON type reads
// as its zero value instead of failing, and timestamps are parsed RFC3339 values.
import type { ObjectMeta } from '../apis/object.ts';
import { isPlainObject } from '../apis/object.ts';
import { daysIn, formatTimestamp } from '../go/time.ts';
import type { ManagedFieldsEntryValue, OwnerReferenceValue } from './meta-fields.ts';

/** A metav1.Time: whole seconds since the epoch plus nanoseconds, as Go compares them. */
export interface GoTime {
  seconds: number;
  nanos: number;
}

/** What ObjectMeta validation reads, with Go's zero values filled in. */
export interface MetaAccessor {
  name: string;
  generateName: string;
  namespace: string;
  uid: string;
  resourceVersion: string;
  generation: number;
  /** Zero time (absent or unparsable) is undefined. */
  creationTimestamp: GoTime | undefined;
  /** GetDeletionTimestamp() == nil is undefined. */
  deletionTimestamp: GoTime | undefined;
  deletionGracePeriodSeconds: number | undefined;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  ownerReferences: OwnerReferenceValue[];
  finalizers: string[];
  managedFields: ManagedFieldsEntryValue[];
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
// NestedInt64: only integers count; anything else reads as absent.
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

/** NestedNullCoercingStringMap: null values read as "", any other non-string voids the whole map. */
function stringMap(v: unknown): Record<string, string> {
  if (!isPlainObject(v)) return {};
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) {
    if (typeof val === 'string') out[k] = val;
    else if (val === null) out[k] = '';
    else return {};
  }
  return out;
}

/** NestedStringSlice: a non-string element voids the whole list. */
function stringSlice(v: unknown): string[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return [];
  return v as string[];
}

/** GetOwnerReferences: a non-object item voids the whole list. */
function ownerReferences(v: unknown): OwnerReferenceValue[] {
  if (!Array.isArray(v) || !v.every(isPlainObject)) return [];
  return v.map((o) => {
    const ref: OwnerReferenceValue = { apiVersion: str(o.apiVersion), kind: str(o.kind), name: str(o.name), uid: str(o.uid) };
    const controller = bool(o.controller);
    const blockOwnerDeletion = bool(o.blockOwnerDeletion);
    if (controller !== undefined) ref.controller = controller;
    if (blockOwnerDeletion !== undefined) ref.blockOwnerDeletion = blockOwnerDeletion;
    return ref;
  });
}

/** GetManagedFields: a non-object item voids the whole list. */
function managedFields(v: unknown): ManagedFieldsEntryValue[] {
  if (!Array.isArray(v) || !v.every(isPlainObject)) return [];
  return v.map((e) => ({ manager: str(e.manager), operation: str(e.operation), fieldsType: str(e.fieldsType), subresource: str(e.subresource) }));
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(Z|([+-])(\d{2}):(\d{2}))$/;

/** time.Parse(time.RFC3339, s); undefined where Go fails (metav1.Time then stays zero). */
export function parseGoTime(s: unknown): GoTime | undefined {
  if (typeof s !== 'string') return undefined;
  // Writes in a row carry the same timestamps (the same second on thousands of them): the last
  // answer is kept, handed out as a fresh object.
  if (s === lastParsed.text) return lastParsed.time && { ...lastParsed.time };
  const time = parseGoTimeText(s);
  lastParsed.text = s;
  lastParsed.time = time;
  return time && { ...time };
}

const lastParsed: { text: string | undefined; time: GoTime | undefined } = { text: undefined, time: undefined };

function parseGoTimeText(s: string): GoTime | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(mo, y) || h > 23 || mi > 59 || se > 59) return undefined;
  let offset = 0;
  if (m[8] !== 'Z') {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offset = (m[9] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
  }
  const nanos = m[7] ? Number((m[7] + '00000000').slice(0, 9)) : 0;
  // Date.UTC maps two-digit years to 19xx; setUTCFullYear keeps them literal.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, se, 0);
  const seconds = date.getTime() / 1000 - offset;
  // The zero time.Time (year 1, UTC) is what Go treats as unset: IsZero, and null in JSON.
  if (seconds === ZERO_TIME_SECONDS && nanos === 0) return undefined;
  return { seconds, nanos };
}

const ZERO_TIME_SECONDS = -62135596800;

export function goTimeEqual(a: GoTime | undefined, b: GoTime | undefined): boolean {
  if (!a || !b) return a === b;
  return a.seconds === b.seconds && a.nanos === b.nanos;
}

/** metav1.Time.MarshalJSON: UTC, whole seconds; zero is null. */
export function goTimeJson(t: GoTime | undefined): string | null {
  if (!t) return null;
  return formatTimestamp(new Date(t.seconds * 1000));
}

export function metaAccessor(meta: ObjectMeta | undefined): MetaAccessor {
  const m: Record<string, unknown> = isPlainObject(meta) ? meta : {};
  return {
    name: str(m.name),
    generateName: str(m.generateName),
    namespace: str(m.namespace),
    uid: str(m.uid),
    resourceVersion: str(m.resourceVersion),
    generation: int(m.generation) ?? 0,
    creationTimestamp: parseGoTime(m.creationTimestamp),
    deletionTimestamp: parseGoTime(m.deletionTimestamp),
    deletionGracePeriodSeconds: int(m.deletionGracePeriodSeconds),
    labels: stringMap(m.labels),
    annotations: stringMap(m.annotations),
    ownerReferences: ownerReferences(m.ownerReferences),
    finalizers: stringSlice(m.finalizers),
    managedFields: managedFields(m.managedFields),
  };
}
