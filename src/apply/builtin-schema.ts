// The server-side apply schema of built-in kinds, built from the table generated from the Go types
// (src/generated/builtin-schema.ts) the way kube-openapi's schemaconv turns the OpenAPI definitions into
// structured-merge-diff types.
import { BUILTIN_DEFS, BUILTIN_ROOTS, BUILTIN_ZERO, type GeneratedDef } from '../generated/builtin-schema.ts';
import { DEDUCED, scalarAtom, UNTYPED_ATOMIC, type Atom, type StructField } from './smd-schema.ts';

const LETTERS: Record<string, Atom> = {
  s: scalarAtom('string'),
  n: scalarAtom('numeric'),
  b: scalarAtom('boolean'),
  u: scalarAtom('untyped'),
  x: UNTYPED_ATOMIC,
  d: DEDUCED,
};

const named = new Map<string, Atom>();

function build(def: GeneratedDef): Atom {
  if (typeof def === 'string') {
    const letter = LETTERS[def];
    if (letter) return letter;
    return namedAtom(def);
  }
  if ('r' in def) {
    // A named struct made atomic at this field (`+mapType=atomic`): same fields, replaced whole.
    const base = namedAtom(def.r);
    let map: Atom['map'];
    return {
      get map() {
        map ??= base.map && { ...base.map, relationship: 'atomic' as const };
        return map;
      },
    };
  }
  if ('l' in def) {
    return { list: { elementType: build(def.l), relationship: def.t ? 'associative' : 'atomic', keys: def.t === 'map' ? (def.k ?? []) : [] } };
  }
  const fields = new Map<string, StructField>();
  for (const [name, t] of Object.entries(def.f)) {
    const field: StructField = { type: build(t) };
    if (def.dflt && Object.hasOwn(def.dflt, name)) field.default = def.dflt[name];
    fields.set(name, field);
  }
  return { map: { fields, elementType: def.e === undefined ? undefined : build(def.e), relationship: def.a ? 'atomic' : 'separable' } };
}

function namedAtom(name: string): Atom {
  let atom = named.get(name);
  if (atom) return atom;
  const def = BUILTIN_DEFS[name];
  if (def === undefined) throw new Error(`kubefake: no apply schema for ${name}`);
  atom = {};
  named.set(name, atom); // before building: recursive types (JSONSchemaProps) refer to themselves
  Object.assign(atom, build(def));
  return atom;
}

/** The apply schema of a built-in kind (`apps/v1/Deployment`, `v1/ConfigMap`), or undefined. */
export function builtinSchema(group: string, version: string, kind: string): Atom | undefined {
  const root = BUILTIN_ROOTS[`${group ? `${group}/` : ''}${version}/${kind}`];
  return root === undefined ? undefined : namedAtom(root);
}

/** The zero value of a built-in kind as the unstructured converter writes it, or undefined. */
export function builtinZero(group: string, version: string, kind: string): Record<string, unknown> | undefined {
  return BUILTIN_ZERO[`${group ? `${group}/` : ''}${version}/${kind}`];
}
