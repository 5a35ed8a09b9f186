// structured-merge-diff's schema model, reduced to what the typed walkers read: an atom is a
// scalar, a list, a map, or (for untyped values) several at once and picked by the value's shape.
// Type references are resolved eagerly: a reference IS the atom (recursive types share objects).

export type ScalarKind = 'numeric' | 'string' | 'boolean' | 'untyped';

export interface ListType {
  elementType: Atom;
  /** atomic: replaced as a whole; associative: items keyed by `keys` (a set when there are none). */
  relationship: 'atomic' | 'associative';
  keys: readonly string[];
}

export interface StructField {
  type: Atom;
  /** The schema default; list-map key fields fall back to it (a port's protocol "TCP"). */
  default?: unknown;
}

export interface MapType {
  fields: ReadonlyMap<string, StructField>;
  /** Type of keys that are not fields; undefined = such keys are "not declared in schema". */
  elementType?: Atom;
  /** separable (granular, the default) or atomic. */
  relationship: 'separable' | 'atomic';
}

export interface Atom {
  scalar?: ScalarKind;
  list?: ListType;
  map?: MapType;
}

const NO_FIELDS: ReadonlyMap<string, StructField> = new Map();

/** `__untyped_atomic_`: any value, replaced as a whole. */
export const UNTYPED_ATOMIC: Atom = (() => {
  const a: Atom = { scalar: 'untyped' };
  a.list = { elementType: a, relationship: 'atomic', keys: [] };
  a.map = { fields: NO_FIELDS, elementType: a, relationship: 'atomic' };
  return a;
})();

/** `__untyped_deduced_`: maps are granular all the way down, lists atomic. */
export const DEDUCED: Atom = (() => {
  const a: Atom = { scalar: 'untyped', list: { elementType: UNTYPED_ATOMIC, relationship: 'atomic', keys: [] } };
  a.map = { fields: NO_FIELDS, elementType: a, relationship: 'separable' };
  return a;
})();

export const scalarAtom = (kind: ScalarKind): Atom => ({ scalar: kind });

/**
 * deduceAtom: for a value of a given shape, the matching part of the atom (an untyped atom that is
 * scalar, list and map at once is narrowed); the whole atom when nothing matches.
 */
export function deduceAtom(atom: Atom, v: unknown): Atom {
  if (v === undefined || v === null) return atom;
  if (Array.isArray(v)) return atom.list ? { list: atom.list } : atom;
  if (typeof v === 'object') return atom.map ? { map: atom.map } : atom;
  return atom.scalar ? { scalar: atom.scalar } : atom;
}

/** Atom.Equals as used by the walkers on deduced atoms: the same part of the same type. */
export function sameAtom(a: Atom, b: Atom): boolean {
  return a.scalar === b.scalar && a.list === b.list && a.map === b.map;
}

/** The type of a map key: the named field, else the element type, else undefined (undeclared). */
export function fieldType(map: MapType, key: string): Atom | undefined {
  return map.fields.get(key)?.type ?? map.elementType;
}
