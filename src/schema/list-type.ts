// Uniqueness of x-kubernetes-list-type set and map lists (apiextensions schema/listtype/validation.go).
import { fieldError, type FieldError } from '../errors/field-error.ts';
import type { CompiledSchema, SchemaNode } from './schema-node.ts';
import { fieldChild, fieldKey, isObject } from './json-value.ts';

/**
 * ValidateListSetsAndMaps from the object root. On update the strategy reports these errors only
 * when the old object had none (see validateListTypesUpdate).
 */
export function validateListTypes(compiled: CompiledSchema, obj: unknown): FieldError[] {
  const errs: FieldError[] = [];
  if (isObject(obj)) walkObject('', compiled.root, obj, errs);
  return errs;
}

/** The update rule: list-type errors of the new object only count if the old object had none. */
export function validateListTypesUpdate(compiled: CompiledSchema, obj: unknown, old: unknown): FieldError[] {
  return validateListTypes(compiled, old).length === 0 ? validateListTypes(compiled, obj) : [];
}

function walkObject(path: string, s: SchemaNode, obj: Record<string, unknown>, errs: FieldError[]): void {
  if (typeof s.additionalProperties === 'object') {
    for (const k of Object.keys(obj)) walk(fieldKey(path, k), s.additionalProperties, obj[k], errs);
  }
  if (s.properties) {
    for (const k of Object.keys(obj)) {
      const sub = s.properties.get(k);
      if (sub) walk(path === '' ? k : fieldChild(path, k), sub, obj[k], errs);
    }
  }
}

function walk(path: string, s: SchemaNode, v: unknown, errs: FieldError[]): void {
  if (Array.isArray(v)) walkArray(path, s, v, errs);
  else if (isObject(v)) walkObject(path, s, v, errs);
}

function walkArray(path: string, s: SchemaNode, arr: unknown[], errs: FieldError[]): void {
  if (s.listType === 'set') {
    for (const i of nonUniqueIndices(arr)) errs.push(fieldError.duplicate(`${path}[${i}]`, arr[i]));
  } else if (s.listType === 'map') {
    errs.push(...validateListMap(path, s, arr));
  }
  if (s.items) for (let i = 0; i < arr.length; i++) walk(`${path}[${i}]`, s.items, arr[i], errs);
}

const UNSPECIFIED = Symbol('unspecified-key');

// validateListSet: the index of the second occurrence of each repeated value.
function nonUniqueIndices(values: readonly unknown[]): number[] {
  if (values.length <= 1) return [];
  const seen = new Map<unknown, number>();
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    // Compounds compare by their (key-sorted) JSON encoding, scalars by value.
    const key = typeof x === 'object' && x !== null ? 'j' + canonicalJson(x) : x;
    const times = seen.get(key);
    if (times === undefined) seen.set(key, 1);
    else {
      seen.set(key, times + 1);
      if (times === 1) out.push(i);
    }
  }
  return out;
}

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return '[' + v.map(canonicalJson).join(',') + ']';
  if (isObject(v)) return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canonicalJson(v[k])).join(',') + '}';
  return JSON.stringify(v) ?? 'null';
}

function validateListMap(path: string, s: SchemaNode, arr: unknown[]): FieldError[] {
  for (let i = 0; i < arr.length; i++) {
    const x = arr[i];
    if (x !== null && !isObject(x)) return [fieldError.invalid(`${path}[${i}]`, x, 'must be an object for an array of list-type map')];
  }
  if (arr.length <= 1) return [];
  const keyFields = s.listMapKeys;
  if (keyFields.length === 1) {
    const kf = keyFields[0]!;
    const keys = arr.map((x) => (isObject(x) && Object.hasOwn(x, kf) ? x[kf] : UNSPECIFIED));
    return nonUniqueIndices(keys).map((i) => fieldError.duplicate(`${path}[${i}]`, keys[i] === UNSPECIFIED ? {} : { [kf]: keys[i] }));
  }
  const keys = arr.map((x) => {
    const key: Record<string, unknown> = {};
    if (isObject(x)) for (const kf of keyFields) if (Object.hasOwn(x, kf)) key[kf] = x[kf];
    return key;
  });
  return nonUniqueIndices(keys).map((i) => fieldError.duplicate(`${path}[${i}]`, keys[i]));
}
