// structured-merge-diff's fieldpath package (v6.3.3): path elements, paths, and the sorted trie
// `Set` that managedFields are made of, with its FieldsV1 encoding (`f:`, `k:`, `v:`, `i:`, `.`).
import { goJson } from '../errors/go-format.ts';
import type { Atom } from './smd-schema.ts';
import { compareStrings, compareValues, valueToString, valuesEqual } from './value.ts';

export interface KeyField {
  name: string;
  value: unknown;
}

/** Exactly one of field name, associative-list key, set value, or atomic-list index. */
export type PathElement = { field: string } | { key: KeyField[] } | { value: unknown } | { index: number };
export type Path = readonly PathElement[];

const kind = (pe: PathElement): number => ('field' in pe ? 0 : 'key' in pe ? 1 : 'value' in pe ? 2 : 3);

/** value.FieldList.Compare: by name, then value, field by field. */
function compareKeys(a: KeyField[], b: KeyField[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareStrings(a[i]!.name, b[i]!.name) || compareValues(a[i]!.value, b[i]!.value);
    if (c !== 0) return c;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** How many PathElements were compared: the complexity tests count them (cheaper than timing). */
export const pathElementComparisons = { count: 0 };

/** PathElement.Compare: field names < keys < values < indices. */
export function comparePE(a: PathElement, b: PathElement): number {
  pathElementComparisons.count++;
  const ka = kind(a);
  const kb = kind(b);
  if (ka !== kb) return ka < kb ? -1 : 1;
  if ('field' in a) return compareStrings(a.field, (b as { field: string }).field);
  if ('key' in a) return compareKeys(a.key, (b as { key: KeyField[] }).key);
  if ('value' in a) return compareValues(a.value, (b as { value: unknown }).value);
  const ia = a.index;
  const ib = (b as { index: number }).index;
  return ia < ib ? -1 : ia > ib ? 1 : 0;
}

export const peEquals = (a: PathElement, b: PathElement): boolean => {
  if ('value' in a && 'value' in b) return valuesEqual(a.value, b.value) || compareValues(a.value, b.value) === 0;
  return comparePE(a, b) === 0;
};

/** PathElement.String: `.name`, `[k=v,k2=v2]`, `[=v]`, `[3]`. */
export function peString(pe: PathElement): string {
  if ('field' in pe) return '.' + pe.field;
  if ('key' in pe) return '[' + pe.key.map((k) => `${k.name}=${valueToString(k.value)}`).join(',') + ']';
  if ('value' in pe) return `[=${valueToString(pe.value)}]`;
  return `[${pe.index}]`;
}

export const pathString = (p: Path): string => p.map(peString).join('');

/** A sorted key list, as KeyByFields/DeserializePathElement build it. */
export function keyElement(fields: KeyField[]): PathElement {
  return { key: [...fields].sort((a, b) => compareStrings(a.name, b.name)) };
}

function search<T>(items: readonly T[], pe: PathElement, get: (t: T) => PathElement): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comparePE(get(items[mid]!), pe) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const self = (pe: PathElement) => pe;

interface SetNode {
  pe: PathElement;
  set: FieldSet;
}

/**
 * fieldpath.Set: members (leaf paths) and children (sub-tries), each sorted by PathElement.
 *
 * Building a set must stay O(n log n): a ConfigMap with 200k keys makes 200k members of one
 * node, in the object's (unsorted) key order. Upstream inserts into a sorted slice (a memmove per
 * insert); here an insert in order appends, one out of order appends too and marks the list
 * unsorted, with a hash index (by serialised element) to find duplicates meanwhile. The list is
 * sorted once, when it is next read.
 */
export class FieldSet {
  #members: PathElement[] = [];
  #children: SetNode[] = [];
  /** While the members are unsorted: their serialised elements, to refuse duplicates. */
  #memberIndex: Set<string> | undefined;
  /** While the children are unsorted: each child by its serialised element. */
  #childIndex: Map<string, SetNode> | undefined;

  /** The members, sorted by PathElement. */
  get members(): readonly PathElement[] {
    if (this.#memberIndex) {
      this.#members.sort(comparePE);
      this.#memberIndex = undefined;
    }
    return this.#members;
  }

  /** The children, sorted by PathElement. */
  get children(): readonly SetNode[] {
    if (this.#childIndex) {
      this.#children.sort((a, b) => comparePE(a.pe, b.pe));
      this.#childIndex = undefined;
    }
    return this.#children;
  }

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  private static from(members: PathElement[], children: SetNode[]): FieldSet {
    const s = new FieldSet();
    s.#members = members;
    s.#children = children;
    return s;
  }

  insert(path: Path): void {
    if (path.length === 0) return;
    let s: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) s = s.descend(path[i]!);
    s.insertMember(path[path.length - 1]!);
  }

  private insertMember(pe: PathElement): void {
    const members = this.#members;
    if (this.#memberIndex) {
      const key = serializePE(pe);
      if (this.#memberIndex.has(key)) return;
      this.#memberIndex.add(key);
      members.push(pe);
      return;
    }
    const last = members[members.length - 1];
    const cmp = last === undefined ? -1 : comparePE(last, pe);
    if (cmp < 0) {
      members.push(pe);
      return;
    }
    if (cmp === 0 || this.hasMember(pe)) return;
    this.#memberIndex = new Set(members.map(serializePE));
    this.#memberIndex.add(serializePE(pe));
    members.push(pe);
  }

  /** The child set under `pe`, created (empty) when absent. */
  private descend(pe: PathElement): FieldSet {
    const found = this.child(pe);
    if (found) return found;
    const node = { pe, set: new FieldSet() };
    this.appendChild(node);
    return node.set;
  }

  /** Adds a child known to be absent. */
  private appendChild(node: SetNode): void {
    const children = this.#children;
    if (!this.#childIndex) {
      const last = children[children.length - 1];
      if (last === undefined || comparePE(last.pe, node.pe) < 0) {
        children.push(node);
        return;
      }
      this.#childIndex = new Map(children.map((n) => [serializePE(n.pe), n]));
    }
    this.#childIndex.set(serializePE(node.pe), node);
    children.push(node);
  }

  /** Unions `set` into the child under `pe` (for Set.FromJSON). */
  mergeChild(pe: PathElement, set: FieldSet): void {
    const node = this.#childIndex ? this.#childIndex.get(serializePE(pe)) : this.sortedChildNode(pe);
    if (node) node.set = node.set.union(set);
    else this.appendChild({ pe, set });
  }

  private sortedChildNode(pe: PathElement): SetNode | undefined {
    const children = this.#children;
    const loc = search(children, pe, (n) => n.pe);
    return loc < children.length && comparePE(children[loc]!.pe, pe) === 0 ? children[loc] : undefined;
  }

  private child(pe: PathElement): FieldSet | undefined {
    return (this.#childIndex ? this.#childIndex.get(serializePE(pe)) : this.sortedChildNode(pe))?.set;
  }

  hasMember(pe: PathElement): boolean {
    if (this.#memberIndex) return this.#memberIndex.has(serializePE(pe));
    const members = this.#members;
    const loc = search(members, pe, self);
    return loc < members.length && comparePE(members[loc]!, pe) === 0;
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    let s: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1; i++) {
      s = s.child(path[i]!);
      if (!s) return false;
    }
    return s.hasMember(path[path.length - 1]!);
  }

  /** The subtree under `pe` (empty when absent). */
  withPrefix(pe: PathElement): FieldSet {
    return this.child(pe) ?? new FieldSet();
  }

  empty(): boolean {
    return this.members.length === 0 && this.children.every((n) => n.set.empty());
  }

  union(o: FieldSet): FieldSet {
    return FieldSet.from(mergeSorted(this.members, o.members, 'union'), unionNodes(this.children, o.children));
  }

  intersection(o: FieldSet): FieldSet {
    const children: SetNode[] = [];
    for (const n of this.children) {
      const other = o.child(n.pe);
      if (!other) continue;
      const res = n.set.intersection(other);
      if (!res.empty()) children.push({ pe: n.pe, set: res });
    }
    return FieldSet.from(mergeSorted(this.members, o.members, 'intersection'), children);
  }

  difference(o: FieldSet): FieldSet {
    const children: SetNode[] = [];
    for (const n of this.children) {
      const other = o.child(n.pe);
      if (!other) {
        children.push(n);
        continue;
      }
      const diff = n.set.difference(other);
      if (!diff.empty()) children.push({ pe: n.pe, set: diff });
    }
    return FieldSet.from(mergeSorted(this.members, o.members, 'difference'), children);
  }

  /** Removes also every child whose path element is a member of `o` (a whole subtree). */
  recursiveDifference(o: FieldSet): FieldSet {
    const children: SetNode[] = [];
    for (const n of this.children) {
      if (o.hasMember(n.pe)) continue;
      const other = o.child(n.pe);
      if (!other) {
        children.push(n);
        continue;
      }
      const diff = n.set.recursiveDifference(other);
      if (!diff.empty()) children.push({ pe: n.pe, set: diff });
    }
    return FieldSet.from(mergeSorted(this.members, o.members, 'difference'), children);
  }

  /**
   * EnsureNamedFieldsAreMembers: a struct field of `atom` that only has children is made a member
   * too, so that removing the set removes the field itself.
   */
  ensureNamedFieldsAreMembers(atom: Atom | undefined): FieldSet {
    const out = FieldSet.from([...this.members], []);
    for (const n of this.children) if ('field' in n.pe && atom?.map?.fields.has(n.pe.field)) out.insertMember(n.pe);
    for (const n of this.children) {
      let next: Atom | undefined;
      if ('field' in n.pe && atom?.map) next = atom.map.fields.get(n.pe.field)?.type ?? atom.map.elementType;
      else if ('key' in n.pe && atom?.list) next = atom.list.elementType;
      out.appendChild({ pe: n.pe, set: n.set.ensureNamedFieldsAreMembers(next) });
    }
    return out;
  }

  iterate(f: (p: PathElement[]) => void, prefix: PathElement[] = []): void {
    for (const pe of this.members) f([...prefix, pe]);
    for (const n of this.children) n.set.iterate(f, [...prefix, n.pe]);
  }

  paths(): PathElement[][] {
    const out: PathElement[][] = [];
    this.iterate((p) => out.push(p));
    return out;
  }

  equals(o: FieldSet): boolean {
    if (this.members.length !== o.members.length || this.children.length !== o.children.length) return false;
    if (!this.members.every((m, i) => comparePE(m, o.members[i]!) === 0)) return false;
    return this.children.every((n, i) => comparePE(n.pe, o.children[i]!.pe) === 0 && n.set.equals(o.children[i]!.set));
  }

  /** Set.ToJSON (FieldsV1): members and children merged in element order; `.` marks a node that is also a member. */
  toFieldsV1(): Record<string, unknown> {
    return this.emit(false);
  }

  private emit(includeSelf: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (includeSelf && (this.members.length > 0 || this.children.length > 0)) out['.'] = {};
    let mi = 0;
    let ci = 0;
    while (mi < this.members.length || ci < this.children.length) {
      const m = this.members[mi];
      const c = this.children[ci];
      const cmp = m === undefined ? 1 : c === undefined ? -1 : comparePE(m, c.pe);
      if (cmp < 0) {
        out[serializePE(m!)] = {};
        mi++;
      } else if (cmp > 0) {
        out[serializePE(c!.pe)] = c!.set.emit(false);
        ci++;
      } else {
        out[serializePE(c!.pe)] = c!.set.emit(true);
        mi++;
        ci++;
      }
    }
    return out;
  }

  /** Set.FromJSON; unknown element prefixes are skipped, malformed ones throw. */
  static fromFieldsV1(json: unknown): FieldSet {
    const { children } = readNode(json);
    return children ?? new FieldSet();
  }
}

function readNode(json: unknown): { children?: FieldSet; isMember: boolean } {
  let children: FieldSet | undefined;
  let isMember = false;
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    for (const [k, v] of Object.entries(json as Record<string, unknown>)) {
      if (k === '.') {
        isMember = true;
        continue;
      }
      const pe = deserializePE(k);
      if (pe === undefined) continue;
      const sub = readNode(v);
      if (sub.isMember) {
        children ??= new FieldSet();
        children.insert([pe]);
      }
      if (sub.children) {
        children ??= new FieldSet();
        children.mergeChild(pe, sub.children);
      }
    }
  }
  if (!children) isMember = true;
  return { children, isMember };
}

function mergeSorted(a: readonly PathElement[], b: readonly PathElement[], op: 'union' | 'intersection' | 'difference'): PathElement[] {
  const out: PathElement[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = comparePE(a[i]!, b[j]!);
    if (c < 0) {
      if (op !== 'intersection') out.push(a[i]!);
      i++;
    } else if (c > 0) {
      if (op === 'union') out.push(b[j]!);
      j++;
    } else {
      if (op !== 'difference') out.push(a[i]!);
      i++;
      j++;
    }
  }
  // Loops, not push(...rest): spreading 200k arguments overflows the stack.
  if (op !== 'intersection') for (; i < a.length; i++) out.push(a[i]!);
  if (op === 'union') for (; j < b.length; j++) out.push(b[j]!);
  return out;
}

function unionNodes(a: readonly SetNode[], b: readonly SetNode[]): SetNode[] {
  const out: SetNode[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = comparePE(a[i]!.pe, b[j]!.pe);
    if (c < 0) out.push(a[i++]!);
    else if (c > 0) out.push(b[j++]!);
    else {
      out.push({ pe: a[i]!.pe, set: a[i]!.set.union(b[j]!.set) });
      i++;
      j++;
    }
  }
  return [...out, ...a.slice(i), ...b.slice(j)];
}

/**
 * Key elements serialised so far (key values are scalars; elements are never changed once made).
 * A list item's element is one object for every path below the item (a condition's six fields),
 * and a set whose children came out of order looks each one up by its serialised form: Go JSON
 * of the key, once per element rather than per path.
 */
const serialized = new WeakMap<PathElement, string>();

/** serializePathElement: `f:name`, `k:{"a":1,"b":"x"}` (keys in key order), `v:<json>`, `i:3`. */
export function serializePE(pe: PathElement): string {
  if ('field' in pe) return 'f:' + pe.field;
  if ('value' in pe) return 'v:' + goJson(pe.value);
  if ('index' in pe) return 'i:' + pe.index;
  let s = serialized.get(pe);
  if (s === undefined) {
    s = 'k:{' + pe.key.map((k) => `${goJson(k.name)}:${goJson(k.value)}`).join(',') + '}';
    serialized.set(pe, s);
  }
  return s;
}

export class FieldPathError extends Error {}

/** DeserializePathElement; undefined for an unknown element type (skipped by readers). */
export function deserializePE(s: string): PathElement | undefined {
  if (s.length < 2) throw new FieldPathError('key must be 2 characters long:');
  if (s[1] !== ':') throw new FieldPathError(`missing colon: ${s}`);
  const rest = s.slice(2);
  switch (s[0]) {
    case 'f':
      return { field: rest };
    case 'v':
      return { value: parseJson(rest) };
    case 'k': {
      const obj = parseJson(rest);
      if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw new FieldPathError(`invalid key: ${s}`);
      return keyElement(Object.entries(obj as Record<string, unknown>).map(([name, value]) => ({ name, value })));
    }
    case 'i': {
      if (!/^[+-]?\d+$/.test(rest)) throw new FieldPathError(`strconv.Atoi: parsing ${JSON.stringify(rest)}: invalid syntax`);
      return { index: Number(rest) };
    }
    default:
      return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new FieldPathError((err as Error).message);
  }
}
