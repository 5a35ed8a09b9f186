// structured-merge-diff's typed package (v6.3.3) over plain JSON values: validation, field sets,
// merge (apply), comparison and item removal, each a walk of the value guided by its schema atom.
// `undefined` is Go's nil (absent), `null` an explicit JSON null.
import { appendAll } from '../util/append-all.ts';
import { FieldSet, keyElement, peString, type KeyField, type PathElement } from './fieldpath.ts';
import { DEDUCED, deduceAtom, fieldType, sameAtom, type Atom, type ListType, type MapType, type ScalarKind } from './smd-schema.ts';
import { compareStrings, isMap, valuesEqual } from './value.ts';
import { goQuote } from '../errors/go-format.ts';
import { setOwn } from '../util/own-property.ts';

export interface ValidationError {
  path: string;
  message: string;
}

/** ValidationErrors.Error(): one error as `path: message`, several under `errors:`. */
export function validationErrorsText(errs: readonly ValidationError[]): string {
  const one = (e: ValidationError) => (e.path ? `${e.path}: ${e.message}` : e.message);
  if (errs.length === 1) return one(errs[0]!);
  return ['errors:', ...errs.map((e) => '  ' + one(e))].join('\n');
}

export class TypedValueError extends Error {
  readonly errors: readonly ValidationError[];
  constructor(errors: readonly ValidationError[]) {
    super(validationErrorsText(errors));
    this.errors = errors;
  }
}

const errorf = (message: string): ValidationError[] => [{ path: '', message }];
const prefixed = (errs: ValidationError[], prefix: string): ValidationError[] => errs.map((e) => ({ path: prefix + e.path, message: e.message }));

/** What `%v` of a value.Value prints in walker errors (Go prints the wrapper struct). */
const goValue = (v: unknown): string => `&{${JSON.stringify(v)}}`;
const goTypeName = (v: unknown): string =>
  typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? '[]interface {}' : isMap(v) ? 'map[string]interface {}' : 'float64';

const mapKeys = (m: Record<string, unknown>): string[] => Object.keys(m).sort(compareStrings);

// ---------------------------------------------------------------------------------------------
// helpers.go

function atomError(): ValidationError[] {
  return errorf('schema error: invalid atom: inlined');
}

/** The item's path element in an associative list: its key fields (defaults filled in) or its value. */
export function listItemToPathElement(list: ListType, child: unknown): { pe: PathElement } | { error: string } {
  if (list.relationship !== 'associative') return { error: 'invalid indexing of non-associative list' };
  if (list.keys.length > 0) {
    if (child === null) return { error: 'associative list with keys may not have a null element' };
    if (!isMap(child)) return { error: 'associative list with keys may not have non-map elements' };
    const fields: KeyField[] = [];
    for (const name of list.keys) {
      if (Object.hasOwn(child, name)) {
        fields.push({ name, value: child[name] });
        continue;
      }
      const element = list.elementType.map;
      if (!element) return { error: `couldn't find default value for ${name}: associative list may not have non-map types` };
      const dflt = element.fields.get(name)?.default;
      if (dflt !== undefined && dflt !== null) fields.push({ name, value: dflt });
    }
    if (fields.length === 0) {
      return { error: `associative list with keys has an element that omits all key fields [${list.keys.map(goQuote).join(' ')}] (and doesn't have default values for any key fields)` };
    }
    return { pe: keyElement(fields) };
  }
  if (isMap(child)) return { error: "associative list without keys has an element that's a map type" };
  if (Array.isArray(child)) return { error: 'not supported: associative list with lists as elements' };
  if (child === null) return { error: "associative list without keys has an element that's an explicit null" };
  return { pe: { value: child } };
}

function validateScalar(kind: ScalarKind, v: unknown, prefix: string): ValidationError[] {
  if (v === undefined || v === null) return [];
  const scalar = typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean';
  switch (kind) {
    case 'numeric':
      return typeof v === 'number' ? [] : errorf(`${prefix}expected numeric (int or float), got ${goTypeName(v)}`);
    case 'string':
      return typeof v === 'string' ? [] : errorf(`${prefix}expected string, got &value.valueUnstructured{Value:${JSON.stringify(v)}}`);
    case 'boolean':
      return typeof v === 'boolean' ? [] : errorf(`${prefix}expected boolean, got ${goValue(v)}`);
    case 'untyped':
      return scalar ? [] : errorf(`${prefix}expected any scalar, got ${goValue(v)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// validate.go

/** TypedValue.Validate: undeclared fields, wrong types, bad or (unless allowed) duplicate list keys. */
export function validate(atom: Atom, value: unknown, allowDuplicates = false): ValidationError[] {
  // Every write validates its objects, nearly always without finding anything: the walk in key
  // order (which decides the errors' order and which undeclared field is named) only once it has.
  const errs = validateIn(atom, value, allowDuplicates, false);
  return errs.length ? validateIn(atom, value, allowDuplicates, true) : errs;
}

/**
 * Stored (frozen) parts found valid, per type and duplicate rule. An Update validates the live
 * and the new object, and a status write's new pod shares the live one's spec and metadata parts
 * (and most of a Deployment's pods share one frozen template-made spec): each is walked once.
 * Only the topmost frozen part of a walk is looked up or remembered.
 */
const validFrozen = [new WeakMap<Atom, WeakSet<object>>(), new WeakMap<Atom, WeakSet<object>>()] as const;

function validateChild(atom: Atom, child: unknown, allowDuplicates: boolean, inKeyOrder: boolean, parent: object): ValidationError[] {
  if (typeof child !== 'object' || child === null || Object.isFrozen(parent) || !Object.isFrozen(child)) return validateIn(atom, child, allowDuplicates, inKeyOrder);
  const byAtom = validFrozen[allowDuplicates ? 1 : 0];
  let valid = byAtom.get(atom);
  if (valid?.has(child)) return [];
  const errs = validateIn(atom, child, allowDuplicates, inKeyOrder);
  if (errs.length === 0) {
    if (!valid) byAtom.set(atom, (valid = new WeakSet()));
    valid.add(child);
  }
  return errs;
}

function validateIn(atom: Atom, value: unknown, allowDuplicates: boolean, inKeyOrder: boolean): ValidationError[] {
  const a = deduceAtom(atom, value);
  if (a.map) {
    if (value === undefined) return errorf('expected map, got nil');
    if (value === null) return [];
    if (!isMap(value)) return errorf(`expected map, got ${goValue(value)}`);
    const errs: ValidationError[] = [];
    for (const key of inKeyOrder ? mapKeys(value) : Object.keys(value)) {
      const t = fieldType(a.map, key);
      if (!t) {
        appendAll(errs, prefixed(errorf('field not declared in schema'), '.' + key));
        break;
      }
      const found = validateChild(t, value[key], allowDuplicates, inKeyOrder, value);
      if (found.length) appendAll(errs, prefixed(found, '.' + key));
    }
    return errs;
  }
  if (a.scalar) return validateScalar(a.scalar, value, '');
  if (a.list) {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) return errorf(`expected list, got ${goValue(value)}`);
    const errs: ValidationError[] = [];
    // The keys seen, only to report duplicates.
    const seen = allowDuplicates ? undefined : new FieldSet();
    for (let i = 0; i < value.length; i++) {
      const child = value[i];
      let pe: PathElement = { index: i };
      if (a.list.relationship === 'associative') {
        const r = listItemToPathElement(a.list, child);
        if ('error' in r) return [...errs, ...errorf(`element ${i}: ${r.error}`)];
        pe = r.pe;
        if (seen) {
          if (seen.hasMember(pe)) appendAll(errs, errorf(`duplicate entries for key ${peString(pe)}`));
          seen.insert([pe]);
        }
      }
      const found = validateChild(a.list.elementType, child, allowDuplicates, inKeyOrder, value);
      if (found.length) appendAll(errs, prefixed(found, peString(pe)));
    }
    return errs;
  }
  return atomError();
}

// ---------------------------------------------------------------------------------------------
// tofieldset.go

/** TypedValue.ToFieldSet: every leaf, atomic node, null/empty map, and map entry not named by the schema. */
export function toFieldSet(atom: Atom, value: unknown): FieldSet {
  const set = new FieldSet();
  walkFieldSet(atom, value, [], set);
  return set;
}

function walkFieldSet(atom: Atom, value: unknown, path: PathElement[], set: FieldSet): void {
  const a = deduceAtom(atom, value);
  if (a.map) {
    if (a.map.relationship === 'atomic') {
      set.insert(path);
      return;
    }
    if (!isMap(value)) return;
    for (const key of Object.keys(value)) {
      const child = value[key];
      const p = [...path, { field: key }];
      walkFieldSet(fieldType(a.map, key) ?? DEDUCED, child, p, set);
      if (child === null || (isMap(child) && Object.keys(child).length === 0)) set.insert(p);
      else if (!a.map.fields.has(key)) set.insert(p);
    }
    return;
  }
  if (a.scalar) {
    set.insert(path);
    return;
  }
  if (a.list) {
    if (a.list.relationship === 'atomic') {
      set.insert(path);
      return;
    }
    if (!Array.isArray(value)) return;
    const pes = value.map((child) => {
      const r = listItemToPathElement(a.list!, child);
      return 'pe' in r ? r.pe : undefined;
    });
    const seen = new FieldSet();
    const duplicates = new FieldSet();
    for (const pe of pes) {
      if (!pe) continue;
      if (seen.hasMember(pe)) {
        if (!duplicates.hasMember(pe)) {
          set.insert([...path, pe]);
          duplicates.insert([pe]);
        }
      } else seen.insert([pe]);
    }
    value.forEach((child, i) => {
      const pe = pes[i];
      if (!pe || duplicates.hasMember(pe)) return;
      const p = [...path, pe];
      walkFieldSet(a.list!.elementType, child, p, set);
      set.insert(p);
    });
  }
}

// ---------------------------------------------------------------------------------------------
// merge.go (ruleKeepRHS): the result of applying `rhs` over `lhs`.

interface MergeOut {
  /** undefined: no output (the key is dropped). */
  out: unknown;
  errs: ValidationError[];
}

export function merge(atom: Atom, lhs: unknown, rhs: unknown): MergeOut {
  if (lhs === undefined && rhs === undefined) return { out: undefined, errs: errorf('at least one of lhs and rhs must be provided') };
  const alhs = deduceAtom(atom, lhs);
  const arhs = deduceAtom(atom, rhs);
  const state = { leaf: false, out: undefined as unknown };
  const errs: ValidationError[] = [];
  if (rhs === undefined) appendAll(errs, mergeAtom(alhs, lhs, rhs, state));
  else if (lhs === undefined || sameAtom(alhs, arhs)) appendAll(errs, mergeAtom(arhs, lhs, rhs, state));
  else {
    const other = { leaf: false, out: undefined as unknown };
    appendAll(errs, mergeAtom(alhs, lhs, rhs, other));
    appendAll(errs, mergeAtom(arhs, lhs, rhs, state));
  }
  return { out: state.out, errs };
}

function keepRHS(lhs: unknown, rhs: unknown, state: { leaf: boolean; out: unknown }): void {
  if (state.leaf) return;
  state.leaf = true;
  if (rhs !== undefined) state.out = rhs;
  else if (lhs !== undefined) state.out = lhs;
}

function mergeAtom(a: Atom, lhs: unknown, rhs: unknown, state: { leaf: boolean; out: unknown }): ValidationError[] {
  if (a.map) return mergeMap(a.map, lhs, rhs, state);
  if (a.scalar) {
    const lerrs = validateScalar(a.scalar, lhs, 'lhs: ');
    const rerrs = validateScalar(a.scalar, rhs, 'rhs: ');
    if (lerrs.length && rerrs.length) return [...lerrs, ...rerrs];
    keepRHS(lhs, rhs, state);
    return [];
  }
  if (a.list) return mergeList(a.list, lhs, rhs, state);
  return atomError();
}

const asMap = (v: unknown): Record<string, unknown> | undefined => (isMap(v) ? v : undefined);
const asList = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : undefined);

function mergeMap(t: MapType, lhsV: unknown, rhsV: unknown, state: { leaf: boolean; out: unknown }): ValidationError[] {
  const lhs = asMap(lhsV);
  const rhs = asMap(rhsV);
  const emptyPromoteToLeaf = (!lhs || Object.keys(lhs).length === 0) && (!rhs || Object.keys(rhs).length === 0);
  if (t.relationship === 'atomic' || emptyPromoteToLeaf) {
    keepRHS(lhsV, rhsV, state);
    return [];
  }
  const errs: ValidationError[] = [];
  const out: Record<string, unknown> = {};
  const keys = [...Object.keys(lhs ?? {}), ...Object.keys(rhs ?? {}).filter((k) => !lhs || !Object.hasOwn(lhs, k))];
  for (const key of keys) {
    const l = lhs && Object.hasOwn(lhs, key) ? lhs[key] : undefined;
    const r = rhs && Object.hasOwn(rhs, key) ? rhs[key] : undefined;
    const child = merge(fieldType(t, key) ?? DEDUCED, l, r);
    appendAll(errs, prefixed(child.errs, '.' + key));
    if (child.out !== undefined) setOwn(out, key, child.out);
  }
  if (Object.keys(out).length > 0) state.out = out;
  return errs;
}

/** Path elements of a list's items, indexed; duplicates are kept (with a nil value) only when allowed. */
function indexList(t: ListType, list: unknown[] | undefined, allowDuplicates: boolean) {
  const errs: ValidationError[] = [];
  const pes: PathElement[] = [];
  const observed = new Map<string, unknown>();
  (list ?? []).forEach((child, i) => {
    const r = listItemToPathElement(t, child);
    if ('error' in r) {
      appendAll(errs, errorf(`element ${i}: ${r.error}`));
      return;
    }
    const id = peId(r.pe);
    if (observed.has(id) && !allowDuplicates) {
      appendAll(errs, errorf(`duplicate entries for key ${peString(r.pe)}`));
      return;
    }
    observed.set(id, observed.has(id) ? null : child);
    pes.push(r.pe);
  });
  return { pes, observed, errs };
}

/** A canonical identity for a path element (keys and values compare as JSON values do). */
function peId(pe: PathElement): string {
  if ('key' in pe) return 'k' + JSON.stringify(pe.key.map((k) => [k.name, k.value]));
  if ('value' in pe) return 'v' + JSON.stringify(pe.value);
  if ('field' in pe) return 'f' + pe.field;
  return 'i' + pe.index;
}

function mergeList(t: ListType, lhsV: unknown, rhsV: unknown, state: { leaf: boolean; out: unknown }): ValidationError[] {
  const lhs = lhsV === null ? undefined : asList(lhsV);
  const rhs = rhsV === null ? undefined : asList(rhsV);
  const emptyPromoteToLeaf = (!lhs || lhs.length === 0) && (!rhs || rhs.length === 0);
  if (t.relationship === 'atomic' || emptyPromoteToLeaf) {
    keepRHS(lhsV, rhsV, state);
    return [];
  }
  if (!lhs && !rhs) return [];
  const r = indexList(t, rhs, false);
  const l = indexList(t, lhs, true);
  const errs = [...r.errs, ...l.errs];
  if (errs.length) return errs;
  const out: unknown[] = [];
  const sharedOrder = r.pes.filter((pe) => l.observed.has(peId(pe)));
  let nextShared: PathElement | undefined = sharedOrder.shift();
  const mergedRHS = new Set<string>();
  const item = (pe: PathElement, lChild: unknown, rChild: unknown) => {
    const res = merge(t.elementType, lChild ?? undefined, rChild ?? undefined);
    appendAll(errs, prefixed(res.errs, peString(pe)));
    if (res.out !== undefined) out.push(res.out);
  };
  let lI = 0;
  let rI = 0;
  while (lI < l.pes.length || rI < r.pes.length) {
    if (lI < l.pes.length && rI < r.pes.length) {
      const pe = l.pes[lI]!;
      if (peId(pe) === peId(r.pes[rI]!)) {
        mergedRHS.add(peId(pe));
        item(pe, l.observed.get(peId(pe)), r.observed.get(peId(pe)));
        lI++;
        rI++;
        nextShared = sharedOrder.shift();
        continue;
      }
      if (r.observed.has(peId(pe)) && nextShared !== undefined && peId(nextShared) !== peId(pe)) {
        lI++;
        continue;
      }
    }
    if (lI < l.pes.length) {
      const pe = l.pes[lI]!;
      if (!r.observed.has(peId(pe))) {
        item(pe, lhs![lI], undefined);
        lI++;
        continue;
      } else if (mergedRHS.has(peId(pe))) {
        lI++;
      }
    }
    if (rI < r.pes.length) {
      const pe = r.pes[rI]!;
      mergedRHS.add(peId(pe));
      item(pe, l.observed.get(peId(pe)), r.observed.get(peId(pe)));
      rI++;
      if (nextShared !== undefined && peId(nextShared) === peId(pe)) nextShared = sharedOrder.shift();
    }
  }
  if (out.length > 0) state.out = out;
  return errs;
}

// ---------------------------------------------------------------------------------------------
// compare.go

export interface Comparison {
  removed: FieldSet;
  modified: FieldSet;
  added: FieldSet;
}

export function compare(atom: Atom, lhs: unknown, rhs: unknown): Comparison {
  const c: Comparison = { removed: new FieldSet(), modified: new FieldSet(), added: new FieldSet() };
  compareNode(atom, lhs, rhs, [], c);
  return c;
}

function compareNode(atom: Atom, lhs: unknown, rhs: unknown, path: PathElement[], c: Comparison): void {
  // The same value (a part a read-modify-write left as stored) has no differences to find.
  if (lhs === rhs) return;
  const alhs = deduceAtom(atom, lhs);
  const arhs = deduceAtom(atom, rhs);
  const state = { leaf: false };
  if (rhs === undefined) compareAtom(alhs, lhs, rhs, path, c, state);
  else if (lhs === undefined || sameAtom(alhs, arhs)) compareAtom(arhs, lhs, rhs, path, c, state);
  else {
    compareAtom(alhs, lhs, rhs, path, c, { leaf: false });
    compareAtom(arhs, lhs, rhs, path, c, state);
  }
  if (!state.leaf) {
    if (lhs === undefined) c.added.insert(path);
    else if (rhs === undefined) c.removed.insert(path);
  }
}

function compareLeaf(lhs: unknown, rhs: unknown, path: PathElement[], c: Comparison, state: { leaf: boolean }): void {
  if (state.leaf) return;
  state.leaf = true;
  if (lhs === undefined) c.added.insert(path);
  else if (rhs === undefined) c.removed.insert(path);
  else if (!valuesEqual(rhs, lhs)) c.modified.insert(path);
}

function compareAtom(a: Atom, lhs: unknown, rhs: unknown, path: PathElement[], c: Comparison, state: { leaf: boolean }): void {
  if (a.map) {
    const l = asMap(lhs);
    const r = asMap(rhs);
    const empty = (!l || Object.keys(l).length === 0) && (!r || Object.keys(r).length === 0);
    if (a.map.relationship === 'atomic' || empty) return compareLeaf(lhs, rhs, path, c, state);
    const keys = [...Object.keys(l ?? {}), ...Object.keys(r ?? {}).filter((k) => !l || !Object.hasOwn(l, k))];
    for (const key of keys) {
      const lv = l && Object.hasOwn(l, key) ? l[key] : undefined;
      const rv = r && Object.hasOwn(r, key) ? r[key] : undefined;
      compareNode(fieldType(a.map, key) ?? DEDUCED, lv, rv, [...path, { field: key }], c);
    }
    return;
  }
  if (a.scalar) return compareLeaf(lhs, rhs, path, c, state);
  if (a.list) {
    const l = lhs === null ? undefined : asList(lhs);
    const r = rhs === null ? undefined : asList(rhs);
    const empty = (!l || l.length === 0) && (!r || r.length === 0);
    if (a.list.relationship === 'atomic' || empty) return compareLeaf(lhs, rhs, path, c, state);
    if (!l && !r) return;
    compareListItems(a.list, l ?? [], r ?? [], path, c);
  }
}

function compareListItems(t: ListType, lhs: unknown[], rhs: unknown[], path: PathElement[], c: Comparison): void {
  // Each item's element and its identity, in the order compared (lhs items, then rhs-only ones).
  const all: { pe: PathElement; id: string }[] = [];
  const lValues = new Map<string, unknown[]>();
  const rValues = new Map<string, unknown[]>();
  for (const child of lhs) {
    const r = listItemToPathElement(t, child);
    if ('error' in r) continue;
    const id = peId(r.pe);
    if (lValues.has(id)) lValues.get(id)!.push(child);
    else {
      lValues.set(id, [child]);
      all.push({ pe: r.pe, id });
    }
  }
  for (const child of rhs) {
    const r = listItemToPathElement(t, child);
    if ('error' in r) continue;
    const id = peId(r.pe);
    if (rValues.has(id)) rValues.get(id)!.push(child);
    else {
      rValues.set(id, [child]);
      if (!lValues.has(id)) all.push({ pe: r.pe, id });
    }
  }
  for (const { pe, id } of all) {
    const lList = lValues.get(id) ?? [];
    const rList = rValues.get(id) ?? [];
    const p = [...path, pe];
    if (lList.length <= 1 && rList.length <= 1) compareNode(t.elementType, lList[0], rList[0], p, c);
    else if (lList.length >= 2 && rList.length >= 2) {
      if (lList.length !== rList.length || !lList.every((x, i) => valuesEqual(x, rList[i]))) c.modified.insert(p);
    } else if (lList.length >= 2) {
      if (rList.length) compareNode(t.elementType, undefined, rList[0], p, c);
      c.removed.insert(p);
    } else {
      if (lList.length) compareNode(t.elementType, lList[0], undefined, p, c);
      c.added.insert(p);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// remove.go

/** TypedValue.RemoveItems: the value without the paths in `toRemove` (whole items and fields). */
export function removeItems(atom: Atom, value: unknown, toRemove: FieldSet): unknown {
  const a = deduceAtom(atom, value);
  if (a.map) {
    if (!isMap(value)) return undefined;
    if (Object.keys(value).length === 0 || a.map.relationship === 'atomic') return undefined;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const pe: PathElement = { field: k };
      if (toRemove.has([pe])) continue;
      const subset = toRemove.withPrefix(pe);
      const t = fieldType(a.map, k) ?? DEDUCED;
      setOwn(out, k, subset.empty() ? v : removeItems(t, v, subset) ?? null);
    }
    return Object.keys(out).length ? out : undefined;
  }
  if (a.scalar) return value;
  if (a.list) {
    if (!Array.isArray(value)) return undefined;
    if (value.length === 0 || a.list.relationship === 'atomic') return undefined;
    const out: unknown[] = [];
    for (const item of value) {
      const r = listItemToPathElement(a.list, item);
      const pe = 'pe' in r ? r.pe : ({ index: -1 } as PathElement);
      if (toRemove.has([pe])) continue;
      const subset = toRemove.withPrefix(pe);
      out.push(subset.empty() ? item : removeItems(a.list.elementType, item, subset) ?? null);
    }
    return out.length ? out : undefined;
  }
  return undefined;
}
