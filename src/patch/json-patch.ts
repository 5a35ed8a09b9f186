// RFC 6902 JSON patch exactly as gopkg.in/evanphx/json-patch.v4 v4.13.0 (root package) applies it,
// which is what apiserver/pkg/endpoints/handlers/patch.go vendors: SupportNegativeIndices = true,
// AccumulatedCopySizeLimit = 3 MiB (server/config.go JSONPatchMaxCopyBytes), no
// EnsurePathExistsOnAdd (a v5 option). Quirks kept on purpose: `replace` of a missing object key
// adds it, a path without a leading slash drops its first segment, `test` compares scalars by
// their raw JSON bytes (the current object's side as Go encodes it, HTML-escaped), and a null
// in a compared array panics.
import { goQuote } from '../errors/go-format.ts';
import { goHtmlEscape } from '../go/json-encode.ts';
import { decodeGoUtf8 } from '../go/utf8.ts';
import { GoPanic } from './go-value.ts';
import { setOwn } from '../util/own-property.ts';

/** patch.go maxJSONPatchOperations. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;
/** apiserver's default JSONPatchMaxCopyBytes, installed as jsonpatch.AccumulatedCopySizeLimit. */
export const ACCUMULATED_COPY_SIZE_LIMIT = 3 * 1024 * 1024;

// evanphx's lazyNode, decoded eagerly: scalars keep their raw JSON text, a JSON null inside a
// document is a nil node (null), and an op's `"value": null` is a node whose raw is nil.
type Node = RawNode | DocNode | AryNode;
interface RawNode {
  t: 'raw';
  raw: string | null;
}
interface DocNode {
  t: 'doc';
  doc: Map<string, Node | null>;
}
interface AryNode {
  t: 'ary';
  ary: (Node | null)[];
}
type Container = DocNode | AryNode;

/** One decoded operation: Go's map[string]*json.RawMessage, values pre-parsed. */
export type Operation = Map<string, OpValue>;
/** A raw message of an operation: null stands for JSON null (a nil *RawMessage). */
export type OpValue = Node | null;

/** jsonpatch.ErrTestFailed & co., as they end the wrapped messages. */
const ERR_TEST_FAILED = 'test failed';
const ERR_MISSING = 'missing value';
const ERR_INVALID_INDEX = 'invalid index referenced';

class PatchError extends Error {}

/** A scalar as the reviver saw it; a class so document objects cannot pass for one. */
class RawScalar implements RawNode {
  readonly t = 'raw' as const;
  readonly raw: string;
  constructor(raw: string) {
    this.raw = raw;
  }
}

/**
 * Parses a JSON document (already accepted by Go's scanner) into lazy nodes, keeping each
 * scalar's source text. Top level: a node, or null for JSON null.
 */
export function parseRawNodes(body: Uint8Array): Node | null {
  const parsed = JSON.parse(decodeGoUtf8(body), (_k: string, v: unknown, context?: { source?: string }) => {
    if (v !== null && typeof v !== 'object') return new RawScalar(context?.source ?? JSON.stringify(v));
    return v;
  }) as unknown;
  return fromParsed(parsed);
}

function fromParsed(v: unknown): Node | null {
  if (v === null) return null;
  if (v instanceof RawScalar) return v;
  if (Array.isArray(v)) return { t: 'ary', ary: v.map(fromParsed) };
  const doc = new Map<string, Node | null>();
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) doc.set(k, fromParsed(x));
  return { t: 'doc', doc };
}

/** Go's JSON text of a scalar of the current object (encoding/json, HTML-escaped). */
function goScalarJson(v: string | number | boolean): string {
  if (typeof v === 'string') return goHtmlEscape(JSON.stringify(v));
  return String(v);
}

/** The current object as the apiserver's JSON encoding of it reads back into lazy nodes. */
export function nodeFromValue(v: unknown): Node | null {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return { t: 'ary', ary: v.map(nodeFromValue) };
  if (typeof v === 'object') {
    const doc = new Map<string, Node | null>();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== undefined) doc.set(k, nodeFromValue(x));
    return { t: 'doc', doc };
  }
  return { t: 'raw', raw: goScalarJson(v as string | number | boolean) };
}

/** The JSON value a node marshals to. */
export function valueFromNode(n: Node | null): unknown {
  if (n === null) return null;
  switch (n.t) {
    case 'raw':
      return n.raw === null ? null : JSON.parse(n.raw);
    case 'ary':
      return n.ary.map(valueFromNode);
    case 'doc': {
      const out: Record<string, unknown> = {};
      for (const [k, x] of n.doc) setOwn(out, k, valueFromNode(x));
      return out;
    }
  }
}

/** json.Marshal of a node (sorted keys, HTML-escaped), for copy's size accounting. */
function marshal(n: Node | null): string {
  if (n === null) return 'null';
  switch (n.t) {
    case 'raw':
      return n.raw === null ? 'null' : goHtmlEscape(n.raw);
    case 'ary':
      return `[${n.ary.map(marshal).join(',')}]`;
    case 'doc':
      return `{${[...n.doc.keys()]
        .sort()
        .map((k) => `${goHtmlEscape(JSON.stringify(k))}:${marshal(n.doc.get(k) ?? null)}`)
        .join(',')}}`;
  }
}

function deepCopy(n: Node | null): { node: Node | null; size: number } {
  if (n === null) return { node: null, size: 0 };
  const json = marshal(n);
  const copy = n.t === 'raw' && n.raw === null ? n : parseRawNodes(new TextEncoder().encode(json));
  return { node: copy, size: new TextEncoder().encode(json).length };
}

/** lazyNode.equal. `o` undefined is a nil *lazyNode (dereferencing it panics in Go). */
function equal(n: Node | null | undefined, o: Node | null | undefined): boolean {
  if (n === null || n === undefined || o === null || o === undefined) {
    throw new GoPanic('runtime error: invalid memory address or nil pointer dereference');
  }
  if (n.t === 'raw') {
    if (o.t !== 'raw') return false;
    return n.raw === o.raw;
  }
  if (n.t === 'doc') {
    if (o.t !== 'doc' || n.doc.size !== o.doc.size) return false;
    for (const [k, v] of n.doc) {
      if (!o.doc.has(k)) return false;
      const ov = o.doc.get(k) ?? null;
      if ((v === null) !== (ov === null)) return false;
      if (v === null) continue;
      if (!equal(v, ov)) return false;
    }
    return true;
  }
  if (o.t !== 'ary' || n.ary.length !== o.ary.length) return false;
  for (let i = 0; i < n.ary.length; i++) if (!equal(n.ary[i], o.ary[i])) return false;
  return true;
}

/** strconv.Atoi, with its error text. */
function atoi(s: string): number | PatchError {
  if (!/^[+-]?\d+$/.test(s)) return new PatchError(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n < -(2n ** 63n) || n > 2n ** 63n - 1n) return new PatchError(`strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return Number(n);
}

const invalidIndex = (idx: number): PatchError => new PatchError(`Unable to access invalid index: ${idx}: ${ERR_INVALID_INDEX}`);

function containerGet(c: Container, key: string): Node | null | PatchError {
  if (c.t === 'doc') return c.doc.get(key) ?? null;
  let idx = atoi(key);
  if (idx instanceof PatchError) return idx;
  if (idx < 0) {
    if (idx < -c.ary.length) return invalidIndex(idx);
    idx += c.ary.length;
  }
  if (idx >= c.ary.length) return invalidIndex(idx);
  return c.ary[idx] ?? null;
}

/** partialArray.set is only reached after a successful get, so the index is in range. */
function containerSet(c: Container, key: string, val: Node | null): PatchError | undefined {
  if (c.t === 'doc') {
    c.doc.set(key, val);
    return undefined;
  }
  let idx = atoi(key);
  if (idx instanceof PatchError) return idx;
  if (idx < 0) {
    if (idx < -c.ary.length) return invalidIndex(idx);
    idx += c.ary.length;
  }
  c.ary[idx] = val;
  return undefined;
}

function containerAdd(c: Container, key: string, val: Node | null): PatchError | undefined {
  if (c.t === 'doc') {
    c.doc.set(key, val);
    return undefined;
  }
  if (key === '-') {
    c.ary = [...c.ary, val];
    return undefined;
  }
  let idx = atoi(key);
  if (idx instanceof PatchError) return new PatchError(`value was not a proper array index: '${key}': ${idx.message}`);
  const size = c.ary.length + 1;
  if (idx >= size) return invalidIndex(idx);
  if (idx < 0) {
    if (idx < -size) return invalidIndex(idx);
    idx += size;
  }
  c.ary = [...c.ary.slice(0, idx), val, ...c.ary.slice(idx)];
  return undefined;
}

function containerRemove(c: Container, key: string): PatchError | undefined {
  if (c.t === 'doc') {
    if (!c.doc.has(key)) return new PatchError(`Unable to remove nonexistent key: ${key}: ${ERR_MISSING}`);
    c.doc.delete(key);
    return undefined;
  }
  let idx = atoi(key);
  if (idx instanceof PatchError) return idx;
  if (idx >= c.ary.length) return invalidIndex(idx);
  if (idx < 0) {
    if (idx < -c.ary.length) return invalidIndex(idx);
    idx += c.ary.length;
  }
  c.ary = [...c.ary.slice(0, idx), ...c.ary.slice(idx + 1)];
  return undefined;
}

/** RFC 6901 unescaping with strings.NewReplacer("~1", "/", "~0", "~"). */
const decodePatchKey = (k: string): string => k.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));

function findObject(root: Container, path: string): [Container, string] | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let doc: Container = root;
  for (const part of split.slice(1, -1)) {
    const next = containerGet(doc, decodePatchKey(part));
    if (next === null || next instanceof PatchError || next.t === 'raw') return undefined;
    doc = next;
  }
  return [doc, decodePatchKey(split[split.length - 1]!)];
}

/** Operation.Kind(): the op as a string, else "unknown". */
function opKind(op: Operation): string {
  const v = op.get('op');
  if (!v || v.t !== 'raw' || v.raw === null || !v.raw.startsWith('"')) return 'unknown';
  return JSON.parse(v.raw) as string;
}

/** Operation.Path()/From(): the string, or the error Go returns. */
function opString(op: Operation, field: 'path' | 'from'): string | PatchError {
  const v = op.get(field);
  if (v === undefined || v === null) {
    return new PatchError(field === 'path' ? `operation missing path field: ${ERR_MISSING}` : `operation, missing from field: ${ERR_MISSING}`);
  }
  if (v.t === 'raw' && v.raw !== null && v.raw.startsWith('"')) return JSON.parse(v.raw) as string;
  const kind = v.t === 'doc' ? 'object' : v.t === 'ary' ? 'array' : v.raw === 'true' || v.raw === 'false' ? 'bool' : 'number';
  return new PatchError(`json: cannot unmarshal ${kind} into Go value of type string`);
}

/** Operation.value(): undefined when the op has no "value" key (a nil *lazyNode). */
function opValue(op: Operation): Node | undefined {
  if (!op.has('value')) return undefined;
  return op.get('value') ?? { t: 'raw', raw: null };
}

interface State {
  root: Container;
  copied: number;
  copyLimit: number;
}

function add(s: State, op: Operation): void {
  const path = opString(op, 'path');
  if (path instanceof PatchError) throw new PatchError(`add operation failed to decode path: ${ERR_MISSING}`);
  const found = findObject(s.root, path);
  if (!found) throw new PatchError(`add operation does not apply: doc is missing path: "${path}": ${ERR_MISSING}`);
  const err = containerAdd(found[0], found[1], opValue(op) ?? null);
  if (err) throw new PatchError(`error in add for path: '${path}': ${err.message}`);
}

function remove(s: State, op: Operation): void {
  const path = opString(op, 'path');
  if (path instanceof PatchError) throw new PatchError(`remove operation failed to decode path: ${ERR_MISSING}`);
  const found = findObject(s.root, path);
  if (!found) throw new PatchError(`remove operation does not apply: doc is missing path: "${path}": ${ERR_MISSING}`);
  const err = containerRemove(found[0], found[1]);
  if (err) throw new PatchError(`error in remove for path: '${path}': ${err.message}`);
}

function replace(s: State, op: Operation): void {
  const path = opString(op, 'path');
  if (path instanceof PatchError) throw new PatchError(`replace operation failed to decode path: ${path.message}`);
  if (path === '') {
    const val = opValue(op);
    // Go's message wraps a nil error here, hence %!w(<nil>); a missing value dereferences nil.
    if (val === undefined) throw new GoPanic('runtime error: invalid memory address or nil pointer dereference');
    if (val.t === 'raw') throw new PatchError('replace operation value must be object or array: %!w(<nil>)');
    s.root = val;
    return;
  }
  const found = findObject(s.root, path);
  if (!found) throw new PatchError(`replace operation does not apply: doc is missing path: ${path}: ${ERR_MISSING}`);
  const [con, key] = found;
  // partialDoc.get never fails: replacing a missing object key adds it.
  if (containerGet(con, key) instanceof PatchError) throw new PatchError(`replace operation does not apply: doc is missing key: ${path}: ${ERR_MISSING}`);
  const err = containerSet(con, key, opValue(op) ?? null);
  if (err) throw new PatchError(`error in remove for path: '${path}': ${err.message}`);
}

function move(s: State, op: Operation): void {
  const from = opString(op, 'from');
  if (from instanceof PatchError) throw new PatchError(`move operation failed to decode from: ${from.message}`);
  const src = findObject(s.root, from);
  if (!src) throw new PatchError(`move operation does not apply: doc is missing from path: ${from}: ${ERR_MISSING}`);
  const [srcCon, srcKey] = src;
  const val = containerGet(srcCon, srcKey);
  if (val instanceof PatchError) throw new PatchError(`error in move for path: '${srcKey}': ${val.message}`);
  const removeErr = containerRemove(srcCon, srcKey);
  if (removeErr) throw new PatchError(`error in move for path: '${srcKey}': ${removeErr.message}`);
  const path = opString(op, 'path');
  if (path instanceof PatchError) throw new PatchError(`move operation failed to decode path: ${path.message}`);
  const dst = findObject(s.root, path);
  if (!dst) throw new PatchError(`move operation does not apply: doc is missing destination path: ${path}: ${ERR_MISSING}`);
  const addErr = containerAdd(dst[0], dst[1], val);
  if (addErr) throw new PatchError(`error in move for path: '${path}': ${addErr.message}`);
}

function test(s: State, op: Operation): void {
  const path = opString(op, 'path');
  if (path instanceof PatchError) throw new PatchError(`test operation failed to decode path: ${path.message}`);
  const expected = opValue(op);
  if (path === '') {
    if (equal(s.root, expected)) return;
    throw new PatchError(`testing value ${path} failed: ${ERR_TEST_FAILED}`);
  }
  const found = findObject(s.root, path);
  if (!found) throw new PatchError(`test operation does not apply: is missing path: ${path}: ${ERR_MISSING}`);
  const val = containerGet(found[0], found[1]);
  if (val instanceof PatchError) throw new PatchError(`error in test for path: '${path}': ${val.message}`);
  if (val === null) {
    // A missing or null value passes against an absent or null "value".
    if (expected === undefined || (expected.t === 'raw' && expected.raw === null)) return;
    throw new PatchError(`testing value ${path} failed: ${ERR_TEST_FAILED}`);
  }
  if (expected === undefined) throw new PatchError(`testing value ${path} failed: ${ERR_TEST_FAILED}`);
  if (equal(val, expected)) return;
  throw new PatchError(`testing value ${path} failed: ${ERR_TEST_FAILED}`);
}

function copy(s: State, op: Operation): void {
  const from = opString(op, 'from');
  if (from instanceof PatchError) throw new PatchError(`copy operation failed to decode from: ${from.message}`);
  const src = findObject(s.root, from);
  if (!src) throw new PatchError(`copy operation does not apply: doc is missing from path: ${from}: ${ERR_MISSING}`);
  const val = containerGet(src[0], src[1]);
  if (val instanceof PatchError) throw new PatchError(`error in copy for from: '${from}': ${val.message}`);
  const path = opString(op, 'path');
  if (path instanceof PatchError) throw new PatchError(`copy operation failed to decode path: ${ERR_MISSING}`);
  const dst = findObject(s.root, path);
  if (!dst) throw new PatchError(`copy operation does not apply: doc is missing destination path: ${path}: ${ERR_MISSING}`);
  const { node, size } = deepCopy(val);
  s.copied += size;
  if (s.copyLimit > 0 && s.copied > s.copyLimit) {
    throw new PatchError(`Unable to complete the copy, the accumulated size increase of copy is ${s.copied}, exceeding the limit ${s.copyLimit}`);
  }
  const err = containerAdd(dst[0], dst[1], node);
  if (err) throw new PatchError(`error while adding value during copy: ${err.message}`);
}

export type JsonPatchOutcome = { ok: true; value: unknown } | { ok: false; error: string } | { ok: false; panic: GoPanic };

/**
 * Patch.Apply on the current object: the patched JSON value (an object, or an array after a
 * whole-document replace), or the library's error text (what patch.go answers with a bare 422).
 */
export function applyOperations(
  ops: readonly (Operation | null)[],
  current: Record<string, unknown>,
  copyLimit = ACCUMULATED_COPY_SIZE_LIMIT,
): JsonPatchOutcome {
  const state: State = { root: nodeFromValue(current) as DocNode, copied: 0, copyLimit };
  try {
    for (const op of ops) {
      const o = op ?? new Map<string, OpValue>();
      const kind = opKind(o);
      switch (kind) {
        case 'add':
          add(state, o);
          break;
        case 'remove':
          remove(state, o);
          break;
        case 'replace':
          replace(state, o);
          break;
        case 'move':
          move(state, o);
          break;
        case 'test':
          test(state, o);
          break;
        case 'copy':
          copy(state, o);
          break;
        default:
          throw new PatchError(`Unexpected kind: ${kind}`);
      }
    }
  } catch (err) {
    if (err instanceof PatchError) return { ok: false, error: err.message };
    if (err instanceof GoPanic) return { ok: false, panic: err };
    throw err;
  }
  return { ok: true, value: valueFromNode(state.root) };
}

/** Turns a parsed patch array element into an Operation (Go map: the last duplicate key wins). */
export function toOperation(n: Node | null): Operation | null {
  if (n === null) return null;
  if (n.t !== 'doc') throw new Error('json-patch: operation is not an object');
  return new Map(n.doc);
}

export type { Node as JsonPatchNode };
