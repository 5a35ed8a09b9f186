// x-kubernetes-list-type semantics of CEL values (k8s.io/apiserver pkg/cel/common/
// valuesunstructured.go): a `set` list compares order-free and `+` is a union; a `map` list
// compares by its list-map keys and `+` merges by key. The values stay plain arrays — so the
// engine's type checker keeps typing them as list<T> and indexing, size(), `in` and macros work
// unchanged — tagged with a symbol; after the type check the `==`, `!=` and `+` nodes whose left
// operand may be a list get a handler (list-semantics-hook.ts) that consults the tag of the left
// value first, as cel-go dispatches on the left operand (`['b', 'a'] == self.set` compares in
// order, `self.set == ['b', 'a']` does not).
//
// The Go code keys sets and map lists by raw JSON values: a set's own elements are looked up as
// stored (a whole number of a `number` set is an int64), the right operand's by their CEL value.
// That is reproduced: sets of timestamps, durations or bytes are equal only when empty, and a
// `number` set holding whole numbers never equals another; map-list keys named with characters
// CEL escapes (`-`, `.`, `/`, `__`, keywords such as `namespace`) read as absent.
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { escapeName, type DeclType } from './decl-type.ts';

const SEMANTICS = Symbol('kubefake.cel.listType');

export type ListSemantics =
  | { readonly kind: 'set' }
  /** `keys`: the CEL field read for each list-map key, undefined where Kubernetes' lookup misses. */
  | { readonly kind: 'map'; readonly keys: readonly (string | undefined)[] };

type Tagged = unknown[] & { [SEMANTICS]?: ListSemantics };

const SET: ListSemantics = { kind: 'set' };
const byDecl = new WeakMap<DeclType, ListSemantics>();

/** The semantics of a list node's values, or undefined for atomic lists. */
export function listSemantics(decl: DeclType): ListSemantics | undefined {
  if (decl.kind !== 'list' || decl.listType === 'atomic') return undefined;
  if (decl.listType === 'set') return SET;
  let sem = byDecl.get(decl);
  if (sem === undefined) {
    // escapeKeyProps: the key is looked up in the raw object under its escaped name.
    sem = { kind: 'map', keys: decl.mapKeys.map((k) => (escapeName(k) === k ? k : undefined)) };
    byDecl.set(decl, sem);
  }
  return sem;
}

/** Marks a converted list with its semantics (returns the same array). */
export function withListSemantics(items: unknown[], sem: ListSemantics | undefined): unknown[] {
  if (sem !== undefined) (items as Tagged)[SEMANTICS] = sem;
  return items;
}

/** The semantics a runtime value carries, if it is a set or map list. */
export function semanticsOf(value: unknown): ListSemantics | undefined {
  return Array.isArray(value) ? (value as Tagged)[SEMANTICS] : undefined;
}

const asItems = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : v instanceof Set ? [...v] : undefined);

/** The Go map key of a stored (raw JSON) scalar: whole numbers are int64 whatever the schema says. */
function rawKey(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return 's' + v;
    case 'bigint':
      return 'i' + v;
    case 'number':
      return Number.isInteger(v) ? 'i' + v : 'd' + v;
    case 'boolean':
      return 'b' + v;
    case 'undefined':
      return 'n';
  }
  if (v === null) return 'n';
  // Formatted strings (stored as text) and anything else: keyed by value, never equal to a CEL native.
  if (v instanceof Date) return 't' + v.getTime();
  if (v instanceof Duration) return `D${v.seconds}.${v.nanos}`;
  if (v instanceof Uint8Array) return 'B' + Buffer.from(v).toString('base64');
  return undefined;
}

/** The Go map key of a CEL value's native form (`ref.Val.Value()`); undefined when no raw value equals it. */
function nativeKey(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return 's' + v;
    case 'bigint':
      return 'i' + v;
    case 'number':
      return 'd' + v;
    case 'boolean':
      return 'b' + v;
  }
  return undefined;
}

/** A set's own elements are raw; timestamps, durations and bytes among them never match a native. */
const setElementKey = (v: unknown): string | undefined => (v instanceof Date || v instanceof Duration || v instanceof Uint8Array ? undefined : rawKey(v));

function mapKey(keys: readonly (string | undefined)[], element: unknown): string | undefined {
  if (typeof element !== 'object' || element === null || Array.isArray(element) || element instanceof Map) return undefined;
  const e = element as Record<string, unknown>;
  let key = '';
  for (const k of keys) {
    const part = k === undefined ? 'n' : rawKey(e[k]);
    if (part === undefined) return undefined;
    key += part + '\u0000';
  }
  return key;
}

/**
 * `left == right` for a set or map list on the left; undefined when `right` is not a list.
 * `elementEqual` compares the elements of map lists found under the same key: value-ops.ts's
 * celEqual, passed in so that this module need not import it (celEqual calls this function).
 */
export function semanticEqual(left: unknown[], sem: ListSemantics, right: unknown, elementEqual: (a: unknown, b: unknown) => boolean): boolean | undefined {
  const other = asItems(right);
  if (other === undefined) return undefined;
  if (left.length !== other.length) return false;
  if (sem.kind === 'set') {
    const own = new Set<string>();
    for (const e of left) {
      const k = setElementKey(e);
      if (k !== undefined) own.add(k);
    }
    return other.every((e) => {
      const k = nativeKey(e);
      return k !== undefined && own.has(k);
    });
  }
  const byKey = new Map<string, unknown>();
  for (const e of left) {
    const k = mapKey(sem.keys, e);
    if (k !== undefined) byKey.set(k, e);
  }
  return other.every((e) => {
    const k = mapKey(sem.keys, e);
    return k !== undefined && byKey.has(k) && elementEqual(byKey.get(k), e);
  });
}

/** `left + right` for a set or map list on the left; undefined when `right` is not a list. */
export function semanticAdd(left: unknown[], sem: ListSemantics, right: unknown): unknown[] | undefined {
  const other = asItems(right);
  if (other === undefined) return undefined;
  const out = [...left];
  if (sem.kind === 'set') {
    // Union: the left order kept, new elements of the right appended once.
    const seen = new Set<string>();
    for (const e of left) {
      const k = setElementKey(e);
      if (k !== undefined) seen.add(k);
    }
    for (const e of other) {
      const k = nativeKey(e);
      if (k !== undefined && seen.has(k)) continue;
      if (k !== undefined) seen.add(k);
      out.push(e);
    }
  } else {
    // Merge: a right element replaces the left one with its keys in place, others are appended.
    const position = new Map<string, number>();
    left.forEach((e, i) => {
      const k = mapKey(sem.keys, e);
      if (k !== undefined) position.set(k, i);
    });
    for (const e of other) {
      const k = mapKey(sem.keys, e);
      const at = k === undefined ? undefined : position.get(k);
      if (at === undefined) out.push(e);
      else out[at] = e;
    }
  }
  return withListSemantics(out, sem);
}
