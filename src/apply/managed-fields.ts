// metadata.managedFields as apimachinery's managedfields/internal/managedfields.go reads and writes
// them: entries keyed by a manager identifier (the entry minus its fields and time), FieldsV1 sets,
// timestamps, and the order entries are listed in.
import { FieldSet } from './fieldpath.ts';
import type { ManagedFields } from './updater.ts';
import { isMap } from './value.ts';
import { marshalGoJson } from '../go/json-encode.ts';

/** metav1.ManagedFieldsEntry, keys in the struct's (wire) order. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export interface Managed {
  fields: ManagedFields;
  /** Manager identifier → RFC 3339 time (absent when the entry had none). */
  times: Map<string, string | undefined>;
}

export const emptyManaged = (): Managed => ({ fields: new Map(), times: new Map() });


/**
 * BuildManagerIdentifier: the JSON of the entry without fieldsType, fieldsV1 and time (and without
 * apiVersion for Apply, so one applier owns its fields whatever version it applied through).
 */
export function managerIdentifier(entry: ManagedFieldsEntry): string {
  // Every write computes its manager's identifier: the few distinct ones are marshalled once.
  const memoKey = JSON.stringify([entry.manager, entry.operation, entry.apiVersion, entry.subresource]);
  let id = identifiers.get(memoKey);
  if (id === undefined) {
    id = marshalIdentifier(entry);
    if (identifiers.size >= MEMO_LIMIT) identifiers.clear();
    identifiers.set(memoKey, id);
  }
  return id;
}

/** Bounds the identifier memos (managers are client-chosen strings). */
const MEMO_LIMIT = 1000;
const identifiers = new Map<string, string>();
const parsedIdentifiers = new Map<string, Readonly<ManagedFieldsEntry> | undefined>();

function marshalIdentifier(entry: ManagedFieldsEntry): string {
  const id: ManagedFieldsEntry = {};
  if (entry.manager) id.manager = entry.manager;
  if (entry.operation) id.operation = entry.operation;
  if (entry.apiVersion && entry.operation !== 'Apply') id.apiVersion = entry.apiVersion;
  if (entry.subresource) id.subresource = entry.subresource;
  return marshalGoJson(id);
}

/** The entry an identifier names (shared and frozen: read it, never change it). */
export const parseIdentifier = (manager: string): Readonly<ManagedFieldsEntry> | undefined => {
  if (parsedIdentifiers.has(manager)) return parsedIdentifiers.get(manager);
  let parsed: Readonly<ManagedFieldsEntry> | undefined;
  try {
    const v = JSON.parse(manager) as unknown;
    parsed = isMap(v) ? Object.freeze(v as ManagedFieldsEntry) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsedIdentifiers.size >= MEMO_LIMIT) parsedIdentifiers.clear();
  parsedIdentifiers.set(manager, parsed);
  return parsed;
};

/**
 * Encoding the sets back is most of a write's managedFields cost, and most entries come back
 * unchanged (a kubelet status write leaves the controller's entry as it was). A FieldsV1 this
 * module encoded is its set's canonical form, so a set decoded from one (still that object, or
 * the store's frozen equal copy of it) is encoded as it. Decoded sets are never changed in
 * place: the updater and the field manager make new sets (union, difference).
 */
const encodedHere = new WeakSet<object>();
const encodingOf = new WeakMap<FieldSet, Record<string, unknown>>();
/**
 * The set decoded from a FieldsV1 this module encoded, once the store has frozen it. Its content
 * can no longer change and decoded sets are never changed in place, so every object sharing the
 * stored tree (a ReplicaSet's thousand pods share their controller's) decodes it once.
 */
const decodedFrom = new WeakMap<object, FieldSet>();

function decodeSet(fieldsV1: unknown): FieldSet {
  if (fieldsV1 === undefined || fieldsV1 === null) return new FieldSet();
  const ours = isMap(fieldsV1) && encodedHere.has(fieldsV1);
  if (ours && Object.isFrozen(fieldsV1)) {
    const known = decodedFrom.get(fieldsV1);
    if (known) return known;
  }
  const set = FieldSet.fromFieldsV1(fieldsV1);
  if (ours) {
    encodingOf.set(set, fieldsV1);
    if (Object.isFrozen(fieldsV1)) decodedFrom.set(fieldsV1, set);
  }
  return set;
}

function encodeSet(set: FieldSet): Record<string, unknown> {
  const known = encodingOf.get(set);
  if (known) return known;
  const fieldsV1 = set.toFieldsV1();
  encodedHere.add(fieldsV1);
  return fieldsV1;
}

export class ManagedFieldsDecodeError extends Error {}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** DecodeManagedFields: every entry must be valid, or the whole list is refused. */
export function decodeManagedFields(encoded: unknown): Managed {
  const managed = emptyManaged();
  if (encoded === undefined || encoded === null) return managed;
  if (!Array.isArray(encoded)) throw new ManagedFieldsDecodeError('managedFields must be a list');
  encoded.forEach((raw, i) => {
    if (!isMap(raw)) throw new ManagedFieldsDecodeError(`invalid managed fields entry ${i}`);
    const entry: ManagedFieldsEntry = {
      manager: str(raw.manager),
      operation: str(raw.operation),
      apiVersion: str(raw.apiVersion),
      fieldsType: str(raw.fieldsType),
      subresource: str(raw.subresource),
    };
    if (entry.operation !== 'Apply' && entry.operation !== 'Update') throw new ManagedFieldsDecodeError('operation must be `Apply` or `Update`');
    if (!entry.apiVersion) throw new ManagedFieldsDecodeError('apiVersion must not be empty');
    if (entry.fieldsType === '') throw new ManagedFieldsDecodeError(`missing fieldsType in managed fields entry ${i}`);
    if (entry.fieldsType !== 'FieldsV1') throw new ManagedFieldsDecodeError(`invalid fieldsType ${JSON.stringify(entry.fieldsType)} in managed fields entry ${i}`);
    const id = managerIdentifier(entry);
    let set: FieldSet;
    try {
      set = decodeSet(raw.fieldsV1);
    } catch (err) {
      throw new ManagedFieldsDecodeError(`error decoding versioned set: ${(err as Error).message}`);
    }
    managed.fields.set(id, { set, apiVersion: entry.apiVersion, applied: entry.operation === 'Apply' });
    managed.times.set(id, typeof raw.time === 'string' ? raw.time : undefined);
  });
  return managed;
}

const seconds = (t: string | undefined): number => (t ? Math.floor(Date.parse(t) / 1000) || 0 : 0);

/** encodeManagedFields: undefined when nobody manages anything; sorted as sortEncodedManagedFields. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const parsed = parseIdentifier(id) ?? {};
    const entry: ManagedFieldsEntry = {};
    if (parsed.manager) entry.manager = parsed.manager;
    entry.operation = vs.applied ? 'Apply' : parsed.operation;
    if (!entry.operation) delete entry.operation;
    entry.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time !== undefined) entry.time = time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = encodeSet(vs.set);
    if (parsed.subresource) entry.subresource = parsed.subresource;
    entries.push(entry);
  }
  const cmp = (a = '', b = '') => (a < b ? -1 : a > b ? 1 : 0);
  return entries.sort(
    (p, q) =>
      cmp(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      cmp(p.manager, q.manager) ||
      cmp(p.apiVersion, q.apiVersion) ||
      cmp(p.subresource, q.subresource),
  );
}

/**
 * isResetManagedFields: `managedFields: []` or `[{}]` in a write clears them (a missing list keeps
 * the live ones).
 */
export function isResetManagedFields(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  if (v.length === 0) return true;
  return v.length === 1 && isMap(v[0]) && Object.keys(v[0]).every((k) => isEmptyValue(v[0][k]));
}

const isEmptyValue = (v: unknown) => v === undefined || v === null || v === '' || (isMap(v) && Object.keys(v).length === 0);
