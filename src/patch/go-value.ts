// JSON values as Go's map[string]interface{} holds them after sigs.k8s.io/json decoding with
// PreserveInts: integers are int64, anything with a '.' or exponent is float64. strategicpatch
// compares with Go's `==` (int64(80) != float64(80)) and reflect.TypeOf, and prints values with
// fmt's %v, so the patch engines need the distinction and Go's formatting.
import { goFloat } from '../errors/go-format.ts';
import { decodeGoUtf8 } from '../go/utf8.ts';
import { setOwn } from '../util/own-property.ts';

/** A float64 (a JS number is taken as int64). */
export class GoFloat {
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }
}

export type GoValue = null | string | number | boolean | GoFloat | GoValue[] | GoMap;
export interface GoMap {
  [key: string]: GoValue;
}

export type GoKind = 'map' | 'slice' | 'string' | 'int64' | 'float64' | 'bool' | 'nil';

/** A Go runtime panic; the apiserver answers it with a plain-text 500. */
export class GoPanic extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoPanic';
  }
}

export function isGoMap(v: unknown): v is GoMap {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export function goKind(v: GoValue | undefined): GoKind {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  if (v instanceof GoFloat) return 'float64';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'int64';
    case 'boolean':
      return 'bool';
    default:
      return 'map';
  }
}

/** reflect.TypeOf(v).String(); `%!s(<nil>)` is what `%s` prints for the nil Type. */
export function goTypeName(v: GoValue | undefined): string {
  const kind = goKind(v);
  if (kind === 'map') return 'map[string]interface {}';
  if (kind === 'slice') return '[]interface {}';
  if (kind === 'nil') return '%!s(<nil>)';
  return kind;
}

/** fmt's %T of a JSON value decoded into interface{} (unstructured content): `<nil>` for null. */
export function goDynamicTypeName(v: unknown): string {
  return v === null || v === undefined ? '<nil>' : goTypeName(toGoValue(v));
}

/** Go's `a == b` on two interface{} values; uncomparable dynamic types panic. */
export function goEqual(a: GoValue | undefined, b: GoValue | undefined): boolean {
  const ka = goKind(a);
  if (ka !== goKind(b)) return false;
  if (ka === 'map' || ka === 'slice') throw new GoPanic(`runtime error: comparing uncomparable type ${goTypeName(a)}`);
  if (ka === 'float64') return (a as GoFloat).value === (b as GoFloat).value;
  return a === b || ka === 'nil';
}

/** A key standing for `v` in a Go map[interface{}]...; unhashable values panic. */
export function goHashKey(v: GoValue | undefined): string {
  const kind = goKind(v);
  if (kind === 'map' || kind === 'slice') throw new GoPanic(`runtime error: hash of unhashable type ${goTypeName(v)}`);
  if (kind === 'float64') return `float64:${(v as GoFloat).value}`;
  return `${kind}:${String(v)}`;
}

/** fmt's %v. */
export function goSprintV(v: GoValue | undefined): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goSprintV).join(' ')}]`;
  if (v instanceof GoFloat) return goFloat(v.value);
  if (typeof v === 'object') {
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${goSprintV(v[k])}`)
      .join(' ')}]`;
  }
  return String(v);
}

/** fmt's %s: strings as they are, other scalars as `%!s(int64=1)`. */
export function goSprintS(v: GoValue | undefined): string {
  if (v === null || v === undefined) return '%!s(<nil>)';
  if (Array.isArray(v)) return `[${v.map(goSprintS).join(' ')}]`;
  if (typeof v === 'string') return v;
  if (v instanceof GoFloat || typeof v !== 'object') return `%!s(${goKind(v)}=${goSprintV(v)})`;
  return `map[${Object.keys(v)
    .sort()
    .map((k) => `${k}:${goSprintS(v[k])}`)
    .join(' ')}]`;
}

/** A deep copy of a stored object as Go values: integral numbers are int64, others float64. */
export function toGoValue(v: unknown): GoValue {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map(toGoValue);
  if (typeof v === 'number') return Number.isInteger(v) ? v : new GoFloat(v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof GoFloat) return v;
  const out: GoMap = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== undefined) setOwn(out, k, toGoValue(x));
  return out;
}

/** Back to plain JSON values. */
export function fromGoValue(v: GoValue): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof GoFloat) return v.value;
  if (Array.isArray(v)) return v.map(fromGoValue);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) setOwn(out, k, fromGoValue(x));
  return out;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Decodes a document Go's scanner already accepted, with PreserveInts. The first number that
 * does not fit a float64 is reported as encoding/json's UnmarshalTypeError value (`number 1e999`).
 */
export function decodePreserveInts(body: Uint8Array): { value: GoValue; badNumber?: string } {
  let badNumber: string | undefined;
  const value = JSON.parse(decodeGoUtf8(body), (_key: string, v: unknown, context?: { source?: string }) => {
    if (typeof v === 'number') {
      const source = context?.source ?? String(v);
      if (!source.includes('.') && /^-?\d+$/.test(source)) {
        const big = BigInt(source);
        if (big >= INT64_MIN && big <= INT64_MAX) return v;
      }
      if (!Number.isFinite(v)) badNumber ??= `number ${source}`;
      return new GoFloat(v);
    }
    // Go decodes an escaped lone surrogate as U+FFFD.
    if (typeof v === 'string') return v.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
    return v;
  }) as GoValue;
  return badNumber === undefined ? { value } : { value, badNumber };
}
