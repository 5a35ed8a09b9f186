// JSON decoded into Go structs the way kube-apiserver's serializer does it for built-in kinds:
// sigs.k8s.io/json (a fork of encoding/json, internal/golang/encoding/json/decode.go) with
// CaseSensitive and PreserveInts, plus DisallowUnknownFields and DisallowDuplicateFields when
// strict (UnmarshalStrict; fieldValidation Strict or Warn). The Go types come as facts (field
// names, Go types, omitempty) generated from k8s.io/api, so every error text is the decoder's:
//   json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32
// and the strict findings are `unknown field "spec.foo"` / `duplicate field "metadata.name"`, in
// the order the decoder meets them.
//
// What the decoder does to values is kept too, since the apiserver stores the Go struct and not
// the request: unknown fields vanish, `null` into a non-pointer leaves the Go zero value, empty
// omitempty fields are not written back, and the types with their own UnmarshalJSON (Quantity,
// IntOrString, Time, ...) are handed to `special`.

import { goQuote } from '../errors/go-format.ts';
import { setOwn } from '../util/own-property.ts';

/** The generated facts (src/generated/go-types.generated.ts). */
export interface GoTypeFacts {
  /** Named non-struct types → their underlying type expression. */
  named: Readonly<Record<string, string>>;
  /** Structs → fields as [JSON name, Go type expression, 1 omitempty | 2 omitzero]. */
  structs: Readonly<Record<string, readonly (readonly [string, string, number])[]>>;
}

/**
 * A type with its own UnmarshalJSON, given the raw JSON text of the value (`null` included, for
 * non-pointers). Answers the value to store, `undefined` to store nothing (Go's zero encodes as
 * omitted), or an error that aborts the whole decode, as an Unmarshaler's error does.
 */
export type SpecialDecoder = (raw: string) => { value: unknown } | { error: string } | { typeError: { value: string; type: string } };

export interface TypedJsonOptions {
  /** UnmarshalStrict: report unknown and duplicate fields. */
  strict: boolean;
  /** The Unmarshaler types by type id (`resource.Quantity`); an id missing here decodes as raw JSON. */
  special: Readonly<Record<string, SpecialDecoder>>;
  /** base64.StdEncoding.Decode for []byte fields: the error text, or undefined when valid. */
  base64Error(text: string): string | undefined;
  /** The Go zero of a special type as its MarshalJSON writes it (Quantity "0"); undefined = null. */
  specialZero?: Readonly<Record<string, unknown>>;
}

export type TypedJsonResult = { ok: true; value: unknown; strictErrors: string[] } | { ok: false; error: string };

/** A struct field: its JSON name (the facts' own string, so property writes use one interned key), type and options. */
interface StructField {
  name: string;
  type: () => GoType;
  flags: number;
}

/** A resolved Go type (reflect's view): its kind, its parts and its String(). */
export type GoType =
  | { k: 'string' | 'bool'; s: string }
  | { k: 'int' | 'uint'; bits: number; s: string }
  | { k: 'float'; bits: number; s: string }
  | { k: 'ptr'; elem: () => GoType; s: string }
  | { k: 'slice'; elem: () => GoType; s: string; bytes: boolean }
  | { k: 'map'; elem: () => GoType; s: string }
  | { k: 'struct'; name: string; fields: Map<string, StructField>; order: string[]; s: string }
  | { k: 'special'; id: string; s: string };

export const OMITEMPTY = 1;
const OMITZERO = 2;
/** sigs.k8s.io/json saveStrictError keeps at most this many. */
const MAX_STRICT_ERRORS = 100;

const INT_BITS: Record<string, number> = { int: 64, int8: 8, int16: 16, int32: 32, int64: 64, uint: 64, uint8: 8, uint16: 16, uint32: 32, uint64: 64, uintptr: 64 };

/** Resolves type expressions of one set of facts, caching descriptors. */
export class GoTypeSystem {
  private readonly cache = new Map<string, GoType>();
  readonly facts: GoTypeFacts;
  private readonly specials: ReadonlySet<string>;

  constructor(facts: GoTypeFacts, specials: ReadonlySet<string>) {
    this.facts = facts;
    this.specials = specials;
  }

  resolve(expr: string): GoType {
    let d = this.cache.get(expr);
    if (!d) {
      d = this.build(expr);
      this.cache.set(expr, d);
    }
    return d;
  }

  private build(expr: string): GoType {
    // Types refer to each other (recursively, too): resolved on first use, then kept.
    const lazy = (e: string) => {
      let resolved: GoType | undefined;
      return () => (resolved ??= this.resolve(e));
    };
    if (expr.startsWith('*')) return { k: 'ptr', elem: lazy(expr.slice(1)), s: '*' + this.display(expr.slice(1)) };
    if (expr.startsWith('[]')) return { k: 'slice', elem: lazy(expr.slice(2)), s: this.display(expr), bytes: expr === '[]uint8' };
    if (expr.startsWith('map[')) {
      const close = matchingBracket(expr, 3);
      return { k: 'map', elem: lazy(expr.slice(close + 1)), s: this.display(expr) };
    }
    if (expr === 'string') return { k: 'string', s: expr };
    if (expr === 'bool') return { k: 'bool', s: expr };
    if (expr === 'float64' || expr === 'float32') return { k: 'float', bits: expr === 'float64' ? 64 : 32, s: expr };
    if (Object.hasOwn(INT_BITS, expr)) return { k: expr.startsWith('u') ? 'uint' : 'int', bits: INT_BITS[expr]!, s: expr };
    if (this.specials.has(expr)) return { k: 'special', id: expr, s: displayName(expr) };
    const fields = this.facts.structs[expr];
    if (fields) {
      const map = new Map<string, StructField>();
      for (const [name, type, flags] of fields) map.set(name, { name, type: lazy(type), flags });
      return { k: 'struct', name: expr.slice(expr.lastIndexOf('.') + 1), fields: map, order: fields.map((f) => f[0]), s: displayName(expr) };
    }
    const under = this.facts.named[expr];
    if (under !== undefined) {
      // A named type keeps its own name in errors (v1.Protocol, v1.ResourceList).
      const base = this.resolve(under);
      return { ...base, s: displayName(expr) } as GoType;
    }
    // A type the facts do not describe (an Unmarshaler without a port): raw JSON, as RawExtension.
    return { k: 'special', id: expr, s: displayName(expr) };
  }

  /** reflect.Type.String() of a type expression. */
  display(expr: string): string {
    if (expr.startsWith('*')) return '*' + this.display(expr.slice(1));
    if (expr.startsWith('[]')) return '[]' + this.display(expr.slice(2));
    if (expr.startsWith('map[')) {
      const close = matchingBracket(expr, 3);
      return `map[${this.display(expr.slice(4, close))}]${this.display(expr.slice(close + 1))}`;
    }
    return expr.includes('.') ? displayName(expr) : expr;
  }
}

function matchingBracket(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '[') depth++;
    else if (s[i] === ']' && --depth === 0) return i;
  }
  return s.length;
}

/** `core.v1.Protocol` → `v1.Protocol` (reflect prints the package name, the last path element). */
function displayName(id: string): string {
  const dot = id.lastIndexOf('.');
  const pkg = id.slice(0, dot);
  return `${pkg.slice(pkg.lastIndexOf('.') + 1)}.${id.slice(dot + 1)}`;
}

/** Go nil (a pointer, slice or map set to nil by `null`). */
const NIL = Symbol('nil');
/** `null` into a non-pointer: Go leaves the value as it was. */
const UNCHANGED = Symbol('unchanged');
type Decoded = unknown | typeof NIL | typeof UNCHANGED;

class AbortDecode {
  readonly error: string;
  constructor(error: string) {
    this.error = error;
  }
}

/**
 * Decodes JSON `text` (already syntax-checked, as Go's checkValid does first) into the Go type
 * `root` (a struct id of the facts).
 */
export function decodeTypedJson(types: GoTypeSystem, text: string, root: string, options: TypedJsonOptions): TypedJsonResult {
  const decoder = new Decoder(text, options);
  try {
    const value = decoder.top(types.resolve(root));
    if (decoder.savedError !== undefined) return { ok: false, error: decoder.savedError };
    return { ok: true, value, strictErrors: decoder.strictErrors };
  } catch (err) {
    if (err instanceof AbortDecode) return { ok: false, error: err.error };
    throw err;
  }
}

class Decoder {
  private i = 0;
  savedError: string | undefined;
  readonly strictErrors: string[] = [];
  private readonly seenStrict = new Set<string>();
  /** errorContext: the struct of the innermost field and the JSON names of the fields on the way. */
  private errStruct: string | undefined;
  private readonly errFields: string[] = [];
  /** strictFieldStack: keys and indexes, joined into a path only when a finding is reported. */
  private readonly strictPath: (string | number)[] = [];

  private readonly s: string;
  private readonly options: TypedJsonOptions;

  constructor(text: string, options: TypedJsonOptions) {
    this.s = text;
    this.options = options;
  }

  top(t: GoType): unknown {
    this.ws();
    const v = this.value(t, undefined);
    return v === NIL || v === UNCHANGED ? goZero(t, this.options.specialZero) : v;
  }

  private ws(): void {
    const s = this.s;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.i++;
      else return;
    }
  }

  /** The value starting at this.i, decoded into `t` over `existing` (Go decodes into the current value). */
  private value(t: GoType, existing: unknown): Decoded {
    const c = this.s.charCodeAt(this.i);
    if (t.k === 'ptr') {
      if (c === 0x6e) {
        this.i += 4; // null: the pointer becomes nil
        return NIL;
      }
      return this.value(t.elem(), existing);
    }
    if (t.k === 'special') return this.special(t);
    if (c === 0x7b) return this.object(t, existing);
    if (c === 0x5b) return this.array(t, existing);
    return this.literal(t);
  }

  private special(t: GoType & { k: 'special' }): Decoded {
    const start = this.i;
    this.skip();
    const raw = this.s.slice(start, this.i);
    const decode = this.options.special[t.id];
    if (!decode) return raw === 'null' ? UNCHANGED : JSON.parse(raw);
    const result = decode(raw);
    if ('error' in result) throw new AbortDecode(result.error);
    // An UnmarshalTypeError from inside UnmarshalJSON gets the field context too (addErrorContext).
    if ('typeError' in result) throw new AbortDecode(this.typeErrorText(result.typeError.value, result.typeError.type));
    return result.value === undefined ? UNCHANGED : result.value;
  }

  /** saveError of an UnmarshalTypeError: the first one is kept, and decoding goes on. */
  private typeError(value: string, t: GoType): void {
    this.savedError ??= this.typeErrorText(value, t.s);
  }

  private typeErrorText(value: string, type: string): string {
    const where = this.errStruct !== undefined || this.errFields.length > 0 ? `Go struct field ${this.errStruct ?? ''}.${this.errFields.join('.')}` : 'Go value';
    return `json: cannot unmarshal ${value} into ${where} of type ${type}`;
  }

  private strict(kind: 'unknown field' | 'duplicate field', field: string): void {
    if (this.strictErrors.length >= MAX_STRICT_ERRORS) return;
    let path = '';
    for (const segment of this.strictPath) path += typeof segment === 'number' ? `[${segment}]` : path === '' ? segment : `.${segment}`;
    path = path === '' ? field : `${path}.${field}`;
    const text = `${kind} ${goQuote(path)}`;
    if (this.seenStrict.has(text)) return;
    this.seenStrict.add(text);
    this.strictErrors.push(text);
  }


  private object(t: GoType, existing: unknown): Decoded {
    if (t.k !== 'struct' && t.k !== 'map') {
      this.typeError('object', t);
      this.skip();
      return UNCHANGED;
    }
    const s = this.s;
    const out: Record<string, unknown> = isRecord(existing) ? { ...existing } : {};
    const seen = this.options.strict ? new Set<string>() : undefined;
    const strict = this.options.strict;
    const savedStruct = this.errStruct;
    this.i++; // {
    this.ws();
    if (s.charCodeAt(this.i) === 0x7d) {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      const keyStart = this.i;
      const escaped = this.skipString();
      const key = escaped ? decodeJsonString(s.slice(keyStart, this.i)) : s.slice(keyStart + 1, this.i - 1);
      this.ws();
      this.i++; // :
      this.ws();
      if (t.k === 'map') {
        if (seen) {
          if (seen.has(key)) this.strict('duplicate field', key);
          else seen.add(key);
        }
        if (strict) this.strictPath.push(key);
        // Go decodes each map value into a fresh zero element.
        const elemType = t.elem();
        const v = this.value(elemType, undefined);
        setOwn(out, key, v === NIL ? null : v === UNCHANGED ? goZero(elemType, this.options.specialZero) : v);
        if (strict) this.strictPath.pop();
      } else {
        const field = t.fields.get(key);
        if (field) {
          // The field's own name from here on: an interned string keeps property access fast.
          // (Field names are JSON names of API types, none of them an Object.prototype member.)
          const name = field.name;
          if (seen) {
            if (seen.has(name)) this.strict('duplicate field', name);
            else seen.add(name);
          }
          this.errFields.push(name);
          this.errStruct = t.name;
          if (strict) this.strictPath.push(name);
          const fieldType = field.type();
          const previous = out[name];
          const v = this.value(fieldType, previous);
          if (v === NIL) {
            if (field.flags & OMITEMPTY) delete out[name];
            else out[name] = null;
          } else if (v === UNCHANGED) {
            if (previous === undefined || previous === null) setGoZero(out, name, fieldType, field.flags, this.options.specialZero);
          } else if (omittedOnEncode(v, fieldType, field.flags)) {
            delete out[name];
          } else {
            out[name] = v;
          }
          this.errFields.pop();
          this.errStruct = savedStruct;
          if (strict) this.strictPath.pop();
        } else {
          if (strict) this.strict('unknown field', key);
          this.skip();
        }
      }
      this.ws();
      if (s.charCodeAt(this.i++) === 0x7d) return out;
    }
  }

  private array(t: GoType, existing: unknown): Decoded {
    if (t.k !== 'slice') {
      this.typeError('array', t);
      this.skip();
      return UNCHANGED;
    }
    const s = this.s;
    const previous = Array.isArray(existing) ? existing : [];
    const out: unknown[] = [];
    const strict = this.options.strict;
    const elemType = t.elem();
    this.i++; // [
    this.ws();
    if (s.charCodeAt(this.i) === 0x5d) {
      this.i++;
      return out;
    }
    for (let index = 0; ; index++) {
      this.ws();
      if (strict) this.strictPath.push(index);
      // Go reuses the slice's backing array: a repeated key decodes into the earlier elements.
      const v = this.value(elemType, previous[index]);
      out.push(v === NIL ? null : v === UNCHANGED ? (index < previous.length ? previous[index] : goZero(elemType, this.options.specialZero)) : v);
      if (strict) this.strictPath.pop();
      this.ws();
      if (s.charCodeAt(this.i++) === 0x5d) return out;
    }
  }

  private literal(t: GoType): Decoded {
    const s = this.s;
    const start = this.i;
    const c = s.charCodeAt(start);
    this.skip();
    const item = s.slice(start, this.i);
    if (c === 0x6e) {
      // null: nil for slices and maps, no effect on anything else.
      return t.k === 'slice' || t.k === 'map' ? NIL : UNCHANGED;
    }
    if (c === 0x74 || c === 0x66) {
      if (t.k === 'bool') return c === 0x74;
      this.typeError('bool', t);
      return UNCHANGED;
    }
    if (c === 0x22) {
      if (t.k === 'string') return decodeJsonString(item);
      if (t.k === 'slice' && t.bytes) {
        const text = decodeJsonString(item);
        const error = this.options.base64Error(text);
        if (error !== undefined) {
          this.savedError ??= error;
          return UNCHANGED;
        }
        return text;
      }
      this.typeError('string', t);
      return UNCHANGED;
    }
    // A number.
    switch (t.k) {
      case 'int':
      case 'uint': {
        const n = parseGoInt(item, t.k === 'uint', t.bits);
        if (n === undefined) {
          this.typeError(`number ${item}`, t);
          return UNCHANGED;
        }
        return n;
      }
      case 'float': {
        const n = Number(item);
        if (!Number.isFinite(n) || (t.bits === 32 && Math.abs(n) > 3.4028234663852886e38)) {
          this.typeError(`number ${item}`, t);
          return UNCHANGED;
        }
        return n;
      }
      default:
        this.typeError('number', t);
        return UNCHANGED;
    }
  }

  /** Skips one value (it is valid JSON). */
  private skip(): void {
    const s = this.s;
    const c = s.charCodeAt(this.i);
    if (c === 0x22) {
      this.skipString();
      return;
    }
    if (c === 0x7b || c === 0x5b) {
      let depth = 0;
      for (;;) {
        const d = s.charCodeAt(this.i);
        if (d === 0x22) {
          this.skipString();
          continue;
        }
        this.i++;
        if (d === 0x7b || d === 0x5b) depth++;
        else if ((d === 0x7d || d === 0x5d) && --depth === 0) return;
      }
    }
    for (;;) {
      const d = s.charCodeAt(this.i);
      if (d === 0x2c || d === 0x5d || d === 0x7d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09 || Number.isNaN(d)) return;
      this.i++;
    }
  }

  /** Moves past a string literal; answers whether it has escapes. */
  private skipString(): boolean {
    const s = this.s;
    let j = this.i + 1;
    let escaped = false;
    for (;;) {
      const c = s.charCodeAt(j);
      if (c === 0x5c) {
        j += 2;
        escaped = true;
      } else if (c === 0x22) break;
      else j++;
    }
    this.i = j + 1;
    return escaped;
  }
}

/**
 * Whether encoding/json leaves a decoded field out of what is stored: omitempty drops false, 0,
 * "" and empty slices and maps (a pointer only when nil; structs never), omitzero a zero value
 * (the zero Time). So `paused: false`, `labels: {}` and `args: []` are not stored.
 */
export function omittedOnEncode(v: unknown, t: GoType, flags: number): boolean {
  if (flags & OMITZERO && t.k === 'special' && (v === null || v === ZERO_TIME)) return true;
  if (!(flags & OMITEMPTY)) return false;
  switch (t.k) {
    case 'string':
      return v === '';
    case 'bool':
      return v === false;
    case 'int':
    case 'uint':
    case 'float':
      return v === 0;
    case 'slice':
      return Array.isArray(v) ? v.length === 0 : v === '';
    case 'map':
      return isRecord(v) && Object.keys(v).length === 0;
    default:
      return false;
  }
}

/** time.Time{} as metav1.Time marshals a value that is not nil but zero. */
const ZERO_TIME = '0001-01-01T00:00:00Z';

/** Writes the Go zero of a field into `out` as encoding/json would (omitted when omitempty/omitzero drops it). */
export function setGoZero(out: Record<string, unknown>, key: string, t: GoType, flags: number, specialZero?: Readonly<Record<string, unknown>>): void {
  const omitted = flags & OMITZERO || (flags & OMITEMPTY && t.k !== 'struct' && t.k !== 'special');
  if (omitted) {
    delete out[key];
    return;
  }
  const zero = goZero(t, specialZero);
  if (zero === undefined) delete out[key];
  else out[key] = zero;
}

/** encoding/json's output for the Go zero value of `t` (specials: their MarshalJSON of zero, else null). */
export function goZero(t: GoType, specialZero?: Readonly<Record<string, unknown>>): unknown {
  switch (t.k) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'int':
    case 'uint':
    case 'float':
      return 0;
    case 'special':
      return specialZero && Object.hasOwn(specialZero, t.id) ? specialZero[t.id] : null;
    case 'struct': {
      const out: Record<string, unknown> = {};
      for (const name of t.order) {
        const f = t.fields.get(name)!;
        setGoZero(out, name, f.type(), f.flags, specialZero);
      }
      return out;
    }
    default:
      return null;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);


const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A JSON string literal's text; Go decodes an escaped lone surrogate as U+FFFD (the text itself
 * holds none: it was decoded from UTF-8 bytes).
 */
function decodeJsonString(literal: string): string {
  if (literal.indexOf('\\') < 0) return literal.slice(1, -1);
  return (JSON.parse(literal) as string).replace(LONE_SURROGATE, '\uFFFD');
}

/** strconv.ParseInt/ParseUint(item, 10, 64) then the target's overflow check; undefined when Go fails. */
function parseGoInt(item: string, unsigned: boolean, bits: number): number | undefined {
  if (!(unsigned ? /^[0-9]+$/ : /^-?[0-9]+$/).test(item)) return undefined;
  const n = BigInt(item);
  const [min, max] = unsigned ? [0n, (1n << BigInt(bits)) - 1n] : [-(1n << BigInt(bits - 1)), (1n << BigInt(bits - 1)) - 1n];
  if (n < min || n > max) return undefined;
  return Number(n);
}
