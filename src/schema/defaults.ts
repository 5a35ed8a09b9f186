// Null pruning and defaulting (apiextensions schema/defaulting/{prunenulls,algorithm}.go). Both
// walk only the structural part of the schema (properties, additionalProperties, items).
import { childForKey, type SchemaNode } from './compile.ts';
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

/** structuraldefaulting.Default, in place; default values are deep-copied. */
export function applyDefaults(x: unknown, s: SchemaNode | undefined): void {
  if (!s) return;
  if (Array.isArray(x)) {
    const items = s.items;
    for (let i = 0; i < x.length; i++) {
      // Go copies Items.Default here even when it is nil, turning the null into nil again.
      if (isNonNullableNull(x[i], items) && items!.hasDefault) x[i] = deepCopyJson(items!.default);
      applyDefaults(x[i], items);
    }
    return;
  }
  if (!isObject(x)) return;
  if (s.properties) {
    for (const [k, prop] of s.properties) {
      if (!prop.hasDefault) continue;
      if (!Object.hasOwn(x, k) || isNonNullableNull(x[k], prop)) x[k] = deepCopyJson(prop.default);
    }
  }
  const ap = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  for (const k of Object.keys(x)) {
    const prop = s.properties?.get(k);
    if (prop) applyDefaults(x[k], prop);
    else if (s.additionalProperties !== undefined) {
      if (ap && isNonNullableNull(x[k], ap) && ap.hasDefault) x[k] = deepCopyJson(ap.default);
      applyDefaults(x[k], ap);
    }
  }
}
