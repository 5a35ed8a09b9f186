// Pruning of fields the schema does not specify (apiextensions schema/pruning/algorithm.go).
import type { SchemaNode } from './schema-node.ts';
import { isObject, joinIndex, joinKey } from './json-value.ts';

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Removes, in place, every field of `obj` that `schema` does not specify, keeping subtrees under
 * x-kubernetes-preserve-unknown-fields (but pruning again inside their specified properties) and
 * apiVersion/kind/metadata of embedded resources. With `isResourceRoot` the root is treated as an
 * embedded resource. Returns the pruned paths sorted (sort.Strings), as `unknown field` reports them.
 */
export function pruneUnknownFields(obj: unknown, schema: SchemaNode | undefined, isResourceRoot = true): string[] {
  const paths: string[] = [];
  prune(obj, schema, isResourceRoot, '', paths);
  return paths.sort(byBytes);
}

// sort.Strings compares bytes; code-unit order matches it outside the astral planes.
export const byBytes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function prune(x: unknown, s: SchemaNode | undefined, embedded: boolean, path: string, paths: string[]): void {
  if (s?.preserveUnknownFields) {
    skipPrune(x, s, embedded, path, paths);
    return;
  }
  if (Array.isArray(x)) {
    const items = s?.items;
    for (let i = 0; i < x.length; i++) prune(x[i], items, items?.embeddedResource ?? false, joinIndex(path, i), paths);
    return;
  }
  if (!isObject(x)) return;
  if (!s) {
    for (const k of Object.keys(x)) {
      paths.push(joinKey(path, k));
      delete x[k];
    }
    return;
  }
  for (const k of Object.keys(x)) {
    if (embedded && META_FIELDS.has(k)) continue;
    const prop = s.properties?.get(k);
    if (prop) {
      prune(x[k], prop, prop.embeddedResource, joinKey(path, k), paths);
    } else if (s.additionalProperties !== undefined) {
      const ap = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
      prune(x[k], ap, ap?.embeddedResource ?? false, joinKey(path, k), paths);
    } else {
      // The Go code exempts root meta fields here, but the root is always embedded, so with a
      // path to report this branch never sees them.
      paths.push(joinKey(path, k));
      delete x[k];
    }
  }
}

// Under x-kubernetes-preserve-unknown-fields: unknown keys stay, specified children are pruned
// again; array items are walked with skipPrune whatever their own flags say (as in Go).
function skipPrune(x: unknown, s: SchemaNode | undefined, embedded: boolean, path: string, paths: string[]): void {
  if (!s) return;
  if (Array.isArray(x)) {
    const items = s.items;
    for (let i = 0; i < x.length; i++) skipPrune(x[i], items, items?.embeddedResource ?? false, joinIndex(path, i), paths);
    return;
  }
  if (!isObject(x)) return;
  for (const k of Object.keys(x)) {
    if (embedded && META_FIELDS.has(k)) continue;
    const prop = s.properties?.get(k);
    if (prop) prune(x[k], prop, prop.embeddedResource, joinKey(path, k), paths);
    else if (s.additionalProperties !== undefined) {
      const ap = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
      prune(x[k], ap, ap?.embeddedResource ?? false, joinKey(path, k), paths);
    }
  }
}
