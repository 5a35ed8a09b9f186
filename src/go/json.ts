// JSON request bodies the way kube-apiserver (Go) reads them, so 400 texts match byte for byte.
//
// How the apiserver reads a JSON object body (create/update; CRDs take the same path):
//   1. k8s.io/apimachinery/pkg/runtime/serializer/json/meta.go SimpleMetaFactory.Interpret runs
//      the standard library's encoding/json Unmarshal into
//        struct { APIVersion string `json:"apiVersion,omitempty"`; Kind string `json:"kind,omitempty"` }
//      and wraps any error as "couldn't get version/kind; json parse error: %v". Unmarshal checks
//      the whole document's syntax first (checkValid), so every syntax error surfaces here, with
//      the texts of encoding/json/scanner.go (ported below), before any typed decoding.
//   2. json.go Serializer.unmarshal then decodes with sigs.k8s.io/json: UnmarshalStrict (duplicate
//      and unknown fields; fieldValidation Warn, the default, or Strict) or
//      UnmarshalCaseSensitivePreserveInts (Ignore). Duplicate paths follow
//      sigs.k8s.io/json/internal/golang/encoding/json/kubernetes_patch.go (findDuplicates below).
//
// Texts follow Go <= 1.26 (the v1 scanner). Go 1.27 makes GOEXPERIMENT=jsonv2 the baseline, which
// reimplements encoding/json on v2 (encoding/json/v2_scanner.go) and changes some of these texts.

import { parseGroupVersion } from '../apis/object.ts';
import { goQuote } from '../errors/go-format.ts';
import { setOwn } from '../util/own-property.ts';
import { decodeGoUtf8 } from './utf8.ts';

export interface GoJsonOptions {
  /** Also report duplicate object keys, as sigs.k8s.io/json UnmarshalStrict does (costs a second scan). */
  trackDuplicates?: boolean;
}

export type GoJsonResult = { ok: true; value: unknown; duplicates: string[] } | { ok: false; error: string };

/** The reflect.Type.String() of the anonymous struct meta.go's Interpret decodes into. */
export const FIND_KIND_GO_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** meta.go's wrapper around encoding/json errors from Interpret. */
export const VERSION_KIND_ERROR_PREFIX = "couldn't get version/kind; json parse error: ";

/** encoding/json scanner.go maxNestingDepth. */
const MAX_NESTING_DEPTH = 10000;

/** sigs.k8s.io/json saveStrictError keeps at most this many strict errors. */
const MAX_STRICT_ERRORS = 100;

/**
 * Parses a JSON document as Go's encoding/json would: either the value (numbers as JS numbers)
 * or exactly the text of Go's first syntax error. With `trackDuplicates`, also the paths of
 * duplicated object keys in document order (`metadata.name`, `spec.ports[0].hostPort`), each
 * path once, as sigs.k8s.io/json reports them when decoding into unstructured content.
 *
 * Bytes are read as Go reads them (a BOM is a syntax error; invalid UTF-8 in strings becomes
 * U+FFFD per byte); a string is taken as already-decoded text.
 */
export function parseGoJson(input: string | Uint8Array, options?: GoJsonOptions): GoJsonResult {
  const text = typeof input === 'string' ? input : decodeGoUtf8(input);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return syntaxFailure(input, err);
  }
  let duplicates: string[] = [];
  if (options?.trackDuplicates) {
    const found = findDuplicates(text);
    if (found === undefined) return syntaxFailure(input, undefined);
    duplicates = found;
  } else if (text.length > 2 * MAX_NESTING_DEPTH && exceedsMaxDepth(text)) {
    return syntaxFailure(input, undefined);
  }
  // Go decodes an escaped lone surrogate (`"\ud800"`) as U+FFFD; JSON.parse keeps it.
  const escape = text.indexOf('\\u');
  if (escape >= 0) {
    ESCAPED_SURROGATE.lastIndex = escape;
    if (ESCAPED_SURROGATE.test(text)) value = replaceLoneSurrogates(value);
  }
  return { ok: true, value, duplicates };
}

/** The Go syntax error of a document JSON.parse rejected (or that nests too deep). */
function syntaxFailure(input: string | Uint8Array, cause: unknown): { ok: false; error: string } {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const error = goSyntaxError(bytes);
  if (error === undefined) throw cause ?? new Error('go-json: document accepted by the Go scanner but not parsed');
  return { ok: false, error };
}

/**
 * The error encoding/json's Unmarshal returns when meta.go's Interpret decodes a syntactically
 * valid document into its apiVersion/kind struct, without the "couldn't get version/kind; json
 * parse error: " prefix; undefined when there is none (objects, and null, which Go ignores).
 *
 * Non-objects: `json: cannot unmarshal array into Go value of type struct { APIVersion string ... }`
 * (also string, number, bool). Objects whose apiVersion/kind (matched case-insensitively, as the
 * standard library does) is not a string or null:
 * `json: cannot unmarshal number into Go struct field .kind of type string`.
 *
 * Works on the parsed value, so for a duplicated apiVersion/kind only the last occurrence is seen
 * (Go would report a bad earlier one too).
 */
export function goJsonTypeError(value: unknown): string | undefined {
  if (value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    return `json: cannot unmarshal ${goJsonValueKind(value)} into Go value of type ${FIND_KIND_GO_TYPE}`;
  }
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    const field = typeMetaField(key);
    if (field === undefined) continue;
    const v = obj[key];
    if (v === null || typeof v === 'string') continue;
    return `json: cannot unmarshal ${goJsonValueKind(v)} into Go struct field .${field} of type string`;
  }
  return undefined;
}

export interface GoTypeMeta {
  group: string;
  version: string;
  kind: string;
}

/**
 * meta.go SimpleMetaFactory.Interpret on a parsed document: the group, version and kind it
 * declares, or the full error text (`couldn't get version/kind; json parse error: ...`, or
 * schema.ParseGroupVersion's `unexpected GroupVersion string: a/b/c`).
 */
export function interpretGoTypeMeta(value: unknown): { ok: true; meta: GoTypeMeta } | { ok: false; error: string } {
  const typeError = goJsonTypeError(value);
  if (typeError !== undefined) return { ok: false, error: VERSION_KIND_ERROR_PREFIX + typeError };
  let apiVersion = '';
  let kind = '';
  if (value !== null) {
    const obj = value as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      if (typeof v !== 'string') continue;
      const field = typeMetaField(key);
      if (field === 'apiVersion') apiVersion = v;
      else if (field === 'kind') kind = v;
    }
  }
  // k8s.io/apimachinery/pkg/runtime/schema/group_version.go ParseGroupVersion
  const gv = parseGroupVersion(apiVersion);
  return gv ? { ok: true, meta: { ...gv, kind } } : { ok: false, error: `unexpected GroupVersion string: ${apiVersion}` };
}

/** How encoding/json names a JSON value in UnmarshalTypeError ("number", not "number 5", for string targets). */
export function goJsonValueKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string': return 'string';
    case 'number': return 'number';
    case 'boolean': return 'bool';
    default: return 'object';
  }
}

/**
 * Which field of the apiVersion/kind struct a key lands in. The standard library (not
 * sigs.k8s.io/json's CaseSensitive mode) matches keys exactly, then by foldName: ASCII case,
 * plus U+212A KELVIN SIGN ~ K and U+017F LONG S ~ S, the only other runes folding onto these letters.
 */
function typeMetaField(key: string): 'apiVersion' | 'kind' | undefined {
  if (key === 'apiVersion') return 'apiVersion';
  if (key === 'kind') return 'kind';
  if (key.length === 4) return foldAscii(key) === 'KIND' ? 'kind' : undefined;
  if (key.length === 10) return foldAscii(key) === 'APIVERSION' ? 'apiVersion' : undefined;
  return undefined;
}

function foldAscii(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) out += String.fromCharCode(c - 0x20);
    else if (c === 0x212a) out += 'K';
    else if (c === 0x17f) out += 'S';
    else out += s[i];
  }
  return out;
}

/**
 * apiserver/pkg/endpoints/handlers/rest.go summarizeData(body, 30): `<empty>`, the first 30 bytes
 * as text when the body starts with `{`, else as hex; ` ...` when cut. Invalid UTF-8 (a cut
 * character) is shown as U+FFFD per byte, as Go's JSON encoder renders it in the Status.
 */
export function summarizeGoData(body: string | Uint8Array, maxLength = 30): string {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  if (bytes.length === 0) return '<empty>';
  const head = bytes.length > maxLength ? bytes.subarray(0, maxLength) : bytes;
  const more = bytes.length > maxLength ? ' ...' : '';
  if (bytes[0] === 0x7b) return decodeGoUtf8(head) + more;
  let hex = '';
  for (const b of head) hex += HEX[b >> 4]! + HEX[b & 0xf]!;
  return hex + more;
}

/**
 * rest.go transformDecodeError: the 400 message when decoding a body into `objectKind` failed.
 * `decodedKind`/`decodedVersion` are the kind the decoder had settled on (none when Interpret
 * itself failed, e.g. on a syntax error).
 */
export function goDecodeErrorMessage(args: {
  objectKind: string;
  error: string;
  body: string | Uint8Array;
  decodedKind?: string;
  decodedVersion?: string;
}): string {
  if (args.decodedKind) {
    return `${args.decodedKind} in version ${goQuote(args.decodedVersion ?? '')} cannot be handled as a ${args.objectKind}: ${args.error}`;
  }
  return `the object provided is unrecognized (must be of type ${args.objectKind}): ${args.error} (${summarizeGoData(args.body)})`;
}

/** One strict error of sigs.k8s.io/json (kubernetes_patch.go strictError.Error): `duplicate field "spec.x"`. */
export function goDuplicateFieldError(path: string): string {
  return `duplicate field ${goQuote(path)}`;
}

/** apimachinery runtime/error.go strictDecodingError.Error(): `strict decoding error: a, b`. */
export function goStrictDecodingError(errors: readonly string[]): string {
  return `strict decoding error: ${errors.join(', ')}`;
}

// ---------------------------------------------------------------------------------------------
// encoding/json/scanner.go, ported state for state (checkValid over bytes).

const SCAN_CONTINUE = 0;
const SCAN_SKIP_SPACE = 1;
const SCAN_END = 2;
const SCAN_ERROR = 3;

const PARSE_OBJECT_KEY = 0;
const PARSE_OBJECT_VALUE = 1;
const PARSE_ARRAY_VALUE = 2;

const HEX = '0123456789abcdef';

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** The text of Go's SyntaxError for `data`, or undefined if encoding/json accepts it. */
export function goSyntaxError(data: Uint8Array): string | undefined {
  const parseState: number[] = [];
  let err: string | undefined;
  let endTop = false;

  const error = (c: number, context: string): number => {
    step = stateError;
    err = `invalid character ${quoteChar(c)} ${context}`;
    return SCAN_ERROR;
  };
  const pushParseState = (c: number, state: number, success: number): number => {
    parseState.push(state);
    return parseState.length <= MAX_NESTING_DEPTH ? success : error(c, 'exceeded max depth');
  };
  const popParseState = (): void => {
    parseState.pop();
    if (parseState.length === 0) {
      step = stateEndTop;
      endTop = true;
    } else {
      step = stateEndValue;
    }
  };

  const stateBeginValueOrEmpty = (c: number): number => {
    if (isSpace(c)) return SCAN_SKIP_SPACE;
    if (c === 0x5d) return stateEndValue(c);
    return stateBeginValue(c);
  };
  const stateBeginValue = (c: number): number => {
    if (isSpace(c)) return SCAN_SKIP_SPACE;
    switch (c) {
      case 0x7b: // {
        step = stateBeginStringOrEmpty;
        return pushParseState(c, PARSE_OBJECT_KEY, SCAN_CONTINUE);
      case 0x5b: // [
        step = stateBeginValueOrEmpty;
        return pushParseState(c, PARSE_ARRAY_VALUE, SCAN_CONTINUE);
      case 0x22: step = stateInString; return SCAN_CONTINUE;
      case 0x2d: step = stateNeg; return SCAN_CONTINUE;
      case 0x30: step = state0; return SCAN_CONTINUE;
      case 0x74: step = stateT; return SCAN_CONTINUE;
      case 0x66: step = stateF; return SCAN_CONTINUE;
      case 0x6e: step = stateN; return SCAN_CONTINUE;
    }
    if (c >= 0x31 && c <= 0x39) {
      step = state1;
      return SCAN_CONTINUE;
    }
    return error(c, 'looking for beginning of value');
  };
  const stateBeginStringOrEmpty = (c: number): number => {
    if (isSpace(c)) return SCAN_SKIP_SPACE;
    if (c === 0x7d) {
      parseState[parseState.length - 1] = PARSE_OBJECT_VALUE;
      return stateEndValue(c);
    }
    return stateBeginString(c);
  };
  const stateBeginString = (c: number): number => {
    if (isSpace(c)) return SCAN_SKIP_SPACE;
    if (c === 0x22) {
      step = stateInString;
      return SCAN_CONTINUE;
    }
    return error(c, 'looking for beginning of object key string');
  };
  const stateEndValue = (c: number): number => {
    const n = parseState.length;
    if (n === 0) {
      step = stateEndTop;
      endTop = true;
      return stateEndTop(c);
    }
    if (isSpace(c)) {
      step = stateEndValue;
      return SCAN_SKIP_SPACE;
    }
    switch (parseState[n - 1]) {
      case PARSE_OBJECT_KEY:
        if (c === 0x3a) {
          parseState[n - 1] = PARSE_OBJECT_VALUE;
          step = stateBeginValue;
          return SCAN_CONTINUE;
        }
        return error(c, 'after object key');
      case PARSE_OBJECT_VALUE:
        if (c === 0x2c) {
          parseState[n - 1] = PARSE_OBJECT_KEY;
          step = stateBeginString;
          return SCAN_CONTINUE;
        }
        if (c === 0x7d) {
          popParseState();
          return SCAN_CONTINUE;
        }
        return error(c, 'after object key:value pair');
      case PARSE_ARRAY_VALUE:
        if (c === 0x2c) {
          step = stateBeginValue;
          return SCAN_CONTINUE;
        }
        if (c === 0x5d) {
          popParseState();
          return SCAN_CONTINUE;
        }
        return error(c, 'after array element');
    }
    return error(c, '');
  };
  const stateEndTop = (c: number): number => {
    // Go records the error but reports scanEnd; the next byte (or eof) returns it.
    if (!isSpace(c)) error(c, 'after top-level value');
    return SCAN_END;
  };
  const stateInString = (c: number): number => {
    if (c === 0x22) {
      step = stateEndValue;
      return SCAN_CONTINUE;
    }
    if (c === 0x5c) {
      step = stateInStringEsc;
      return SCAN_CONTINUE;
    }
    if (c < 0x20) return error(c, 'in string literal');
    return SCAN_CONTINUE;
  };
  const stateInStringEsc = (c: number): number => {
    switch (c) {
      case 0x62: case 0x66: case 0x6e: case 0x72: case 0x74: case 0x5c: case 0x2f: case 0x22: // b f n r t \ / "
        step = stateInString;
        return SCAN_CONTINUE;
      case 0x75: // u
        step = stateInStringEscU;
        return SCAN_CONTINUE;
    }
    return error(c, 'in string escape code');
  };
  const escU = (next: () => (c: number) => number) => (c: number): number => {
    if (isHex(c)) {
      step = next();
      return SCAN_CONTINUE;
    }
    return error(c, 'in \\u hexadecimal character escape');
  };
  const stateInStringEscU123 = escU(() => stateInString);
  const stateInStringEscU12 = escU(() => stateInStringEscU123);
  const stateInStringEscU1 = escU(() => stateInStringEscU12);
  const stateInStringEscU = escU(() => stateInStringEscU1);
  const stateNeg = (c: number): number => {
    if (c === 0x30) {
      step = state0;
      return SCAN_CONTINUE;
    }
    if (c >= 0x31 && c <= 0x39) {
      step = state1;
      return SCAN_CONTINUE;
    }
    return error(c, 'in numeric literal');
  };
  const state1 = (c: number): number => {
    if (c >= 0x30 && c <= 0x39) {
      step = state1;
      return SCAN_CONTINUE;
    }
    return state0(c);
  };
  const state0 = (c: number): number => {
    if (c === 0x2e) {
      step = stateDot;
      return SCAN_CONTINUE;
    }
    if (c === 0x65 || c === 0x45) {
      step = stateE;
      return SCAN_CONTINUE;
    }
    return stateEndValue(c);
  };
  const stateDot = (c: number): number => {
    if (c >= 0x30 && c <= 0x39) {
      step = stateDot0;
      return SCAN_CONTINUE;
    }
    return error(c, 'after decimal point in numeric literal');
  };
  const stateDot0 = (c: number): number => {
    if (c >= 0x30 && c <= 0x39) return SCAN_CONTINUE;
    if (c === 0x65 || c === 0x45) {
      step = stateE;
      return SCAN_CONTINUE;
    }
    return stateEndValue(c);
  };
  const stateE = (c: number): number => {
    if (c === 0x2b || c === 0x2d) {
      step = stateESign;
      return SCAN_CONTINUE;
    }
    return stateESign(c);
  };
  const stateESign = (c: number): number => {
    if (c >= 0x30 && c <= 0x39) {
      step = stateE0;
      return SCAN_CONTINUE;
    }
    return error(c, 'in exponent of numeric literal');
  };
  const stateE0 = (c: number): number => {
    if (c >= 0x30 && c <= 0x39) return SCAN_CONTINUE;
    return stateEndValue(c);
  };
  const literal = (expected: number, context: string, next: () => (c: number) => number) => (c: number): number => {
    if (c === expected) {
      step = next();
      return SCAN_CONTINUE;
    }
    return error(c, context);
  };
  const stateTru = literal(0x65, "in literal true (expecting 'e')", () => stateEndValue);
  const stateTr = literal(0x75, "in literal true (expecting 'u')", () => stateTru);
  const stateT = literal(0x72, "in literal true (expecting 'r')", () => stateTr);
  const stateFals = literal(0x65, "in literal false (expecting 'e')", () => stateEndValue);
  const stateFal = literal(0x73, "in literal false (expecting 's')", () => stateFals);
  const stateFa = literal(0x6c, "in literal false (expecting 'l')", () => stateFal);
  const stateF = literal(0x61, "in literal false (expecting 'a')", () => stateFa);
  const stateNul = literal(0x6c, "in literal null (expecting 'l')", () => stateEndValue);
  const stateNu = literal(0x6c, "in literal null (expecting 'l')", () => stateNul);
  const stateN = literal(0x75, "in literal null (expecting 'u')", () => stateNu);
  const stateError = (_c: number): number => SCAN_ERROR;

  let step: (c: number) => number = stateBeginValue;

  // checkValid
  for (let i = 0; i < data.length; i++) {
    if (step(data[i]!) === SCAN_ERROR) return err;
  }
  // scanner.eof
  if (err !== undefined) return err;
  if (endTop) return undefined;
  step(0x20);
  if (endTop) return undefined;
  return err ?? 'unexpected end of JSON input';
}

/**
 * scanner.go quoteChar: `'x'`, `'\''`, `'"'`, and otherwise strconv.Quote of the byte taken as a
 * rune (so byte 0xC3, the lead byte of "é", shows as 'Ã'): `'\n'`, `'\x01'`, `'\x7f'`, `'\u0080'`.
 */
export function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  if (c === 0x5c) return "'\\\\'";
  if ((c >= 0x20 && c <= 0x7e) || (c >= 0xa1 && c <= 0xff && c !== 0xad)) return `'${String.fromCharCode(c)}'`;
  switch (c) {
    case 0x07: return "'\\a'";
    case 0x08: return "'\\b'";
    case 0x0c: return "'\\f'";
    case 0x0a: return "'\\n'";
    case 0x0d: return "'\\r'";
    case 0x09: return "'\\t'";
    case 0x0b: return "'\\v'";
  }
  if (c < 0x20 || c === 0x7f) return `'\\x${HEX[c >> 4]}${HEX[c & 0xf]}'`;
  return `'\\u00${HEX[c >> 4]}${HEX[c & 0xf]}'`;
}

// ---------------------------------------------------------------------------------------------
// Duplicate keys, over text JSON.parse has accepted.

interface Frame {
  isObject: boolean;
  /** The key or index under which this container sits in its parent (undefined at the root). */
  segment: string | number | undefined;
  /** Next element index (arrays). */
  index: number;
  /** The member being read (objects). */
  key: string;
  keys: string[] | Set<string> | undefined;
}

/**
 * The duplicated keys of valid JSON `s` as sigs.k8s.io/json paths (kubernetes_patch.go: keys
 * joined by ".", indexes as "[i]", no leading dot), each once, at most 100, in the order Go meets
 * the repeated key. Undefined when nesting exceeds Go's limit (a syntax error there).
 */
function findDuplicates(s: string): string[] | undefined {
  const out: string[] = [];
  let reported: Set<string> | undefined;
  const frames: Frame[] = [];
  let i = 0;

  const readKey = (f: Frame): void => {
    i = skipSpace(s, i);
    const start = i;
    i = skipString(s, i);
    const raw = s.slice(start + 1, i - 1);
    let key = raw.indexOf('\\') < 0 ? raw : (JSON.parse(s.slice(start, i)) as string);
    if (LONE_SURROGATE.test(key)) key = key.replace(LONE_SURROGATE_G, '\uFFFD');
    i = skipSpace(s, i) + 1; // ':'
    f.key = key;
    if (f.keys === undefined) {
      f.keys = [key];
      return;
    }
    let seen: boolean;
    if (Array.isArray(f.keys)) {
      seen = f.keys.includes(key);
      if (!seen) {
        f.keys.push(key);
        if (f.keys.length > 16) f.keys = new Set(f.keys);
      }
    } else {
      seen = f.keys.has(key);
      if (!seen) f.keys.add(key);
    }
    if (!seen || out.length >= MAX_STRICT_ERRORS) return;
    const path = strictPath(frames, key);
    reported ??= new Set();
    if (reported.has(path)) return;
    reported.add(path);
    out.push(path);
  };

  for (;;) {
    // At the start of a value.
    i = skipSpace(s, i);
    const c = s.charCodeAt(i);
    let closed = true;
    if (c === 0x7b || c === 0x5b) {
      const parent = frames[frames.length - 1];
      const isObject = c === 0x7b;
      const frame: Frame = {
        isObject,
        segment: parent === undefined ? undefined : parent.isObject ? parent.key : parent.index,
        index: 0,
        key: '',
        keys: undefined,
      };
      frames.push(frame);
      if (frames.length > MAX_NESTING_DEPTH) return undefined;
      i = skipSpace(s, i + 1);
      if (s.charCodeAt(i) === (isObject ? 0x7d : 0x5d)) {
        i++;
        frames.pop();
      } else {
        if (isObject) readKey(frame);
        closed = false;
      }
    } else if (c === 0x22) {
      i = skipString(s, i);
    } else {
      i = skipLiteral(s, i);
    }
    if (!closed) continue;
    // After a value: commas and closers.
    for (;;) {
      const f = frames[frames.length - 1];
      if (f === undefined) return out;
      i = skipSpace(s, i);
      const d = s.charCodeAt(i++);
      if (d === 0x2c) {
        if (f.isObject) readKey(f);
        else f.index++;
        break;
      }
      frames.pop();
    }
  }
}

/** kubernetes_patch.go newFieldError over strictFieldStack (appendStrictFieldStackKey/Index). */
function strictPath(frames: readonly Frame[], field: string): string {
  let path = '';
  let pieces = false;
  for (let k = 1; k < frames.length; k++) {
    const seg = frames[k]!.segment;
    if (typeof seg === 'number') path += `[${seg}]`;
    else path = pieces ? `${path}.${seg}` : (seg ?? '');
    pieces = true;
  }
  return pieces ? `${path}.${field}` : field;
}

function skipSpace(s: string, i: number): number {
  for (;;) {
    const c = s.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

/** From an opening quote to just past the closing one. */
function skipString(s: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = s.indexOf('"', j);
    let backslashes = 0;
    for (let k = q - 1; s.charCodeAt(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

function skipLiteral(s: string, i: number): number {
  for (;;) {
    const c = s.charCodeAt(i);
    if (c === 0x2c || c === 0x5d || c === 0x7d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || Number.isNaN(c)) return i;
    i++;
  }
}

/** Whether valid JSON `s` nests deeper than Go allows (a text scan: walking a parsed value is slower). */
function exceedsMaxDepth(s: string): boolean {
  // Cheap bound first: nesting that deep needs that many opening brackets.
  let openers = 0;
  for (const ch of ['{', '[']) {
    for (let i = s.indexOf(ch); i >= 0; i = s.indexOf(ch, i + 1)) openers++;
  }
  if (openers <= MAX_NESTING_DEPTH) return false;
  let depth = 0;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c === 0x22) {
      i = skipString(s, i);
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_NESTING_DEPTH) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
    i++;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Text decoding as Go does it.

const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATE_G = new RegExp(LONE_SURROGATE.source, 'g');

function fixString(s: string): string {
  return LONE_SURROGATE.test(s) ? s.replace(LONE_SURROGATE_G, '\uFFFD') : s;
}

function replaceLoneSurrogates(value: unknown): unknown {
  if (typeof value === 'string') return fixString(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(replaceLoneSurrogates);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // setOwn, not assignment: JSON.parse makes "__proto__" an own key, and so must we.
    setOwn(out, fixString(k), replaceLoneSurrogates(v));
  }
  return out;
}
