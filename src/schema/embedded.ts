// x-kubernetes-embedded-resource objects: their TypeMeta/ObjectMeta are checked and their metadata
// decoded through the typed ObjectMeta, dropping unknown fields (apiextensions
// schema/objectmeta/{coerce,algorithm,validation}.go).
import type { ObjectMeta } from '../apis/object.ts';
import { fieldError, type FieldError } from '../errors/field-error.ts';
import { isDNS1035Label } from '../validation/names.ts';
import { validateObjectMeta } from '../validation/object-meta.ts';
import type { CompiledSchema, SchemaNode } from './schema-node.ts';
import { byBytes } from './prune.ts';
import { fieldChild, fieldKey, isObject, type JsonObject } from './json-value.ts';

type FieldKind = 'string' | 'int' | 'time' | 'bool' | 'stringMap' | 'stringList' | 'raw' | { list: Record<string, FieldKind> };

const OWNER_REFERENCE: Record<string, FieldKind> = {
  apiVersion: 'string', kind: 'string', name: 'string', uid: 'string', controller: 'bool', blockOwnerDeletion: 'bool',
};
const MANAGED_FIELDS_ENTRY: Record<string, FieldKind> = {
  manager: 'string', operation: 'string', apiVersion: 'string', time: 'time', fieldsType: 'string', fieldsV1: 'raw', subresource: 'string',
};
const OBJECT_META: Record<string, FieldKind> = {
  name: 'string', generateName: 'string', namespace: 'string', selfLink: 'string', uid: 'string', resourceVersion: 'string',
  generation: 'int', creationTimestamp: 'time', deletionTimestamp: 'time', deletionGracePeriodSeconds: 'int',
  labels: 'stringMap', annotations: 'stringMap', ownerReferences: { list: OWNER_REFERENCE }, finalizers: 'stringList',
  managedFields: { list: MANAGED_FIELDS_ENTRY },
};

const GO_TYPE: Record<string, string> = { string: 'string', int: 'int64', time: 'Time', bool: 'bool', stringMap: 'map[string]string', stringList: '[]string' };

function jsonType(v: unknown): string {
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? 'array' : 'object';
}

/**
 * Strict decoding of a metadata object into ObjectMeta: the unknown field paths (relative, in the
 * sorted-key order the re-marshalled bytes have) or the first type error, as encoding/json words it.
 */
export function decodeObjectMeta(meta: unknown): { unknown: string[]; error?: string } {
  if (meta === null) return { unknown: [] };
  if (!isObject(meta)) return { unknown: [], error: `json: cannot unmarshal ${jsonType(meta)} into Go value of type v1.ObjectMeta` };
  const unknown: string[] = [];
  const error = decodeStruct(meta, OBJECT_META, 'ObjectMeta', '', unknown);
  return error ? { unknown: [], error } : { unknown };
}

function decodeStruct(obj: JsonObject, fields: Record<string, FieldKind>, goName: string, prefix: string, unknown: string[]): string | undefined {
  for (const k of Object.keys(obj).sort(byBytes)) {
    const kind = fields[k];
    const v = obj[k];
    const p = prefix === '' ? k : `${prefix}.${k}`;
    if (!kind) {
      unknown.push(p);
      continue;
    }
    if (v === null) continue;
    const bad = (goType: string): string => `json: cannot unmarshal ${jsonType(v)} into Go struct field ${goName}.${p} of type ${goType}`;
    if (typeof kind === 'object') {
      if (!Array.isArray(v)) return bad('[]' + (kind.list === OWNER_REFERENCE ? 'v1.OwnerReference' : 'v1.ManagedFieldsEntry'));
      for (let i = 0; i < v.length; i++) {
        const item = v[i];
        if (item === null) continue;
        if (!isObject(item)) return bad(kind.list === OWNER_REFERENCE ? 'v1.OwnerReference' : 'v1.ManagedFieldsEntry');
        const err = decodeStruct(item, kind.list, goName, `${p}[${i}]`, unknown);
        if (err) return err;
      }
      continue;
    }
    const ok =
      kind === 'string' ? typeof v === 'string'
      : kind === 'int' ? typeof v === 'number' && Number.isInteger(v)
      : kind === 'bool' ? typeof v === 'boolean'
      : kind === 'time' ? typeof v === 'string'
      : kind === 'stringMap' ? isObject(v) && Object.values(v).every((x) => x === null || typeof x === 'string')
      : kind === 'stringList' ? Array.isArray(v) && v.every((x) => x === null || typeof x === 'string')
      : true;
    if (!ok) return bad(GO_TYPE[kind] ?? kind);
  }
  return undefined;
}

/** The metadata as ToUnstructured(ObjectMeta) gives it back: known, non-empty fields only. */
export function normalizeObjectMeta(meta: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, kind] of Object.entries(OBJECT_META)) {
    const v = meta[k];
    if (v === null || v === undefined || v === '' || v === 0 || v === false) continue;
    if (typeof kind === 'object') {
      if (!Array.isArray(v) || v.length === 0) continue;
      out[k] = v.map((item) => (isObject(item) ? pick(item, kind.list) : {}));
    } else if (kind === 'stringMap' || kind === 'stringList') {
      if (isObject(v) ? Object.keys(v).length === 0 : Array.isArray(v) && v.length === 0) continue;
      out[k] = v;
    } else {
      out[k] = v;
    }
  }
  return out;
}

function pick(item: JsonObject, fields: Record<string, FieldKind>): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(fields)) {
    const v = item[k];
    if (v !== null && v !== undefined && v !== '') out[k] = v;
  }
  return out;
}

export interface CoerceResult {
  /** Unknown metadata fields of embedded resources, sorted (`spec.foo.metadata.bar`). */
  unknownFields: string[];
  /** The decode error that aborts the request, when apiVersion/kind/metadata cannot be decoded. */
  error?: FieldError;
}

/**
 * objectmeta.CoerceWithOptions(nil, obj, schema, isResourceRoot=false), in place: embedded
 * resources below the root get their metadata normalised; non-string apiVersion/kind are errors.
 */
export function coerceEmbeddedResources(compiled: CompiledSchema, obj: unknown): CoerceResult {
  const unknownFields: string[] = [];
  const error = coerce('', obj, compiled.root, false, unknownFields, false);
  return error ? { unknownFields: unknownFields.sort(byBytes), error } : { unknownFields: unknownFields.sort(byBytes) };
}

/**
 * Coerce with DropInvalidFields, as PruneDefaults runs it over default values: malformed
 * apiVersion/kind and metadata fields of embedded resources are dropped instead of failing, unknown
 * metadata fields are dropped, metadata is normalised. `isRoot` skips the node's own metadata.
 */
export function coerceEmbeddedDropInvalid(x: unknown, s: SchemaNode, isRoot: boolean): void {
  coerce('', x, s, isRoot, [], true);
}

function coerce(path: string, x: unknown, s: SchemaNode | undefined, isRoot: boolean, unknown: string[], dropInvalid: boolean): FieldError | undefined {
  if (!s) return undefined;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const err = coerce(`${path}[${i}]`, x[i], s.items, false, unknown, dropInvalid);
      if (err) return err;
    }
    return undefined;
  }
  if (!isObject(x)) return undefined;
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (s.embeddedResource && !isRoot) {
      if ((k === 'apiVersion' || k === 'kind') && typeof v !== 'string') {
        if (!dropInvalid) return fieldError.invalid(fieldChild(path, k), v, 'must be a string');
        delete x[k];
      }
      if (k === 'metadata') {
        const metaPath = fieldChild(path, 'metadata');
        const decoded = decodeObjectMeta(v);
        if (decoded.error && !dropInvalid) return fieldError.invalid(metaPath, v, decoded.error);
        for (const u of decoded.unknown) unknown.push(`${metaPath}.${u}`);
        if (isObject(v)) {
          // SetObjectMeta, then the zero creationTimestamp removed; with dropInvalid, the
          // field-by-field decode keeps only fields of the right type.
          x.metadata = normalizeObjectMeta(decoded.error ? dropMalformedMetaFields(v) : v);
        } else if (!decoded.error) {
          x.metadata = {};
        }
        // A non-object metadata with dropInvalid passes through unchanged, as in Go.
      }
    }
    const prop = s.properties?.get(k);
    let err: FieldError | undefined;
    if (prop) err = coerce(fieldChild(path, k), x[k], prop, false, unknown, dropInvalid);
    else if (typeof s.additionalProperties === 'object') err = coerce(fieldKey(path, k), x[k], s.additionalProperties, false, unknown, dropInvalid);
    if (err) return err;
  }
  return undefined;
}

// GetObjectMetaWithOptions(DropMalformedFields): each field decoded on its own, failures dropped.
function dropMalformedMetaFields(meta: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(meta)) if (!decodeObjectMeta({ [k]: v }).error) out[k] = v;
  return out;
}

/**
 * objectmeta.Validate(nil, obj, schema, isResourceRoot=false): apiVersion and kind required in
 * every embedded resource below the root, and their metadata validated as on create.
 */
export function validateEmbeddedResources(compiled: CompiledSchema, obj: unknown): FieldError[] {
  const errs: FieldError[] = [];
  walk('', obj, compiled.root, true, errs);
  return errs;
}

function walk(path: string, x: unknown, s: SchemaNode | undefined, isRoot: boolean, errs: FieldError[]): void {
  if (!s) return;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) walk(`${path}[${i}]`, x[i], s.items, false, errs);
    return;
  }
  if (!isObject(x)) return;
  if (s.embeddedResource && !isRoot) validateEmbedded(path, x, errs);
  for (const k of Object.keys(x)) {
    const prop = s.properties?.get(k);
    if (prop) walk(fieldChild(path, k), x[k], prop, false, errs);
    else if (typeof s.additionalProperties === 'object') walk(fieldKey(path, k), x[k], s.additionalProperties, false, errs);
  }
}

function validateEmbedded(path: string, x: JsonObject, errs: FieldError[]): void {
  if (!Object.hasOwn(x, 'apiVersion')) errs.push(fieldError.required(fieldChild(path, 'apiVersion')));
  if (!Object.hasOwn(x, 'kind')) errs.push(fieldError.required(fieldChild(path, 'kind')));
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (k === 'apiVersion') {
      const p = fieldChild(path, k);
      if (typeof v !== 'string') errs.push(fieldError.invalid(p, v, 'must be a string'));
      else if (v.length === 0) errs.push(fieldError.invalid(p, v, 'must not be empty'));
      else if (v !== '/' && (v.split('/').length - 1) > 1) errs.push(fieldError.invalid(p, v, `unexpected GroupVersion string: ${v}`));
    } else if (k === 'kind') {
      const p = fieldChild(path, k);
      if (typeof v !== 'string') errs.push(fieldError.invalid(p, v, 'must be a string'));
      else if (v.length === 0) errs.push(fieldError.invalid(p, v, 'must not be empty'));
      else {
        const msgs = isDNS1035Label(v.toLowerCase());
        if (msgs.length > 0) errs.push(fieldError.invalid(p, v, 'may have mixed case, but should otherwise match: ' + msgs.join(',')));
      }
    } else if (k === 'metadata') {
      const p = fieldChild(path, 'metadata');
      const decoded = decodeObjectMeta(v);
      if (decoded.error) {
        errs.push(fieldError.invalid(p, v, decoded.error));
        continue;
      }
      const meta = (isObject(v) ? { ...v } : {}) as ObjectMeta;
      if (!meta.name) meta.name = 'fakename'; // as upstream, to avoid a Required error
      errs.push(...validateObjectMeta(meta, { namespaced: !!meta.namespace, nameRule: 'path-segment', path: p }));
    }
  }
}
