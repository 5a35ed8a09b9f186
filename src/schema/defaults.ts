// Null pruning and defaulting (apiextensions schema/defaulting/{prunenulls,algorithm}.go). Both
// walk only the structural part of the schema (properties, additionalProperties, items).
import { childForKey } from './compile.ts';
import type { SchemaNode } from './schema-node.ts';
import { deepCopyJson, isObject } from './json-value.ts';

/**
 * PruneNonNullableNullsWithoutDefaults, in place: drops `null` map values whose schema is neither
 * nullable nor defaulted (those with a default are left for applyDefaults). List items are kept.
 */
export function pruneNonNullableNulls(x: unknown, s: SchemaNode | undefined): void {
  if (Array.isArray(x)) {
    const items = s?.items;
    for (const v of x) pruneNonNullableNulls(v, items);
    return;
  }
  if (!isObject(x)) return;
  for (const k of Object.keys(x)) {
    const child = childForKey(s, k);
    const v = x[k];
    if (v === null && child && !child.nullable && !child.hasDefault) delete x[k];
    else pruneNonNullableNulls(v, child);
  }
}

const isNonNullableNull = (v: unknown, s: SchemaNode | undefined): boolean => v === null && s !== undefined && !s.nullable;

/**
 * structuraldefaulting.Default in place (request decoding): withDefaults' answer written back into
 * `x`, so one walk decides what is defaulted on writes and on reads alike.
 */
export function applyDefaults(x: unknown, s: SchemaNode | undefined): void {
  const out = withDefaults(x, s);
  if (out === x) return;
  if (Array.isArray(x)) x.splice(0, x.length, ...(out as unknown[]));
  else Object.assign(x as object, out);
}

/**
 * structuraldefaulting.Default without touching `x` (stored objects are frozen): answers `x`
 * itself when no default applies, else a copy sharing every unchanged subtree; default values are
 * deep-copied. Also the storage codec's unstructuredDefaulter, run on every object read back.
 */
export function withDefaults<T>(x: T, s: SchemaNode | undefined): T {
  if (!s?.defaultsBelow) return x;
  if (Array.isArray(x)) {
    const items = s.items;
    if (!items?.defaultsBelow) return x;
    let out: unknown[] | undefined;
    for (let i = 0; i < x.length; i++) {
      let v: unknown = x[i];
      if (isNonNullableNull(v, items) && items.hasDefault) v = deepCopyJson(items.default);
      v = withDefaults(v, items);
      if (v !== x[i]) (out ??= x.slice())[i] = v;
    }
    return (out ?? x) as T;
  }
  if (!isObject(x)) return x;
  let out: Record<string, unknown> | undefined;
  const set = (k: string, v: unknown) => ((out ??= { ...x })[k] = v);
  if (s.properties) {
    for (const [k, prop] of s.properties) {
      if (!prop.hasDefault) continue;
      if (!Object.hasOwn(x, k) || isNonNullableNull(x[k], prop)) set(k, deepCopyJson(prop.default));
    }
  }
  const ap = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  const current = (out ?? x) as Record<string, unknown>;
  for (const k of Object.keys(current)) {
    const prop = s.properties?.get(k);
    let v = current[k];
    if (prop) v = withDefaults(v, prop);
    else if (ap) {
      if (isNonNullableNull(v, ap) && ap.hasDefault) v = deepCopyJson(ap.default);
      v = withDefaults(v, ap);
    }
    if (v !== current[k]) set(k, v);
  }
  return (out ?? x) as T;
}
