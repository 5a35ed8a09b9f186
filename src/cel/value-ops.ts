// Equality and ordering of CEL runtime values as the library functions need them (list indexOf,
// sets, object equality): ints are bigint, doubles number, timestamps Date, durations Duration,
// bytes Uint8Array, lists arrays or Sets, maps Map, objects instances of the schema's classes.
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { compareNumbers, numeric } from './library/numeric-compare.ts';
import { durationNanos, timestampNanos } from './library/timestamps.ts';
import { semanticEqual, semanticsOf } from './list-semantics.ts';

/** The engine's evaluator, whose `==` overloads decide for library types (URL, quantity, ...). */
export interface EqualityEvaluator {
  debugType(v: unknown): unknown;
  registry: { findBinaryOverload(op: string, l: unknown, r: unknown): { handler(a: unknown, b: unknown, ast: unknown, ev: unknown): unknown } | false | undefined };
}

/**
 * cel-go's Equal, the one implementation for every caller: numbers across int, uint and double
 * (1 == 1u == 1.0, NaN equals nothing), set and map lists by the left operand's list type, lists
 * in order, Sets without order, maps by numerically equal keys ({1: 'a'} == {1u: 'a'}), timestamps
 * and durations to the nanosecond, bytes by content. Other objects: with the evaluator, the
 * engine's `==` overload of their type; else (and for the schema's classes, whose overload is this
 * function) the same class with equal fields.
 */
export function celEqual(a: unknown, b: unknown, ev?: EqualityEvaluator, ast?: unknown): boolean {
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a);
  if (typeof a === typeof b && typeof a !== 'object') return false;
  // A set or map list on the left compares by its list type, as cel-go's left-operand Equal does.
  const sem = semanticsOf(a);
  if (sem !== undefined) return semanticEqual(a as unknown[], sem, b, celEqual) ?? false;
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && compareNumbers(na, nb) === 0;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && timestampNanos(a) === timestampNanos(b);
  if (a instanceof Duration || b instanceof Duration) return a instanceof Duration && b instanceof Duration && durationNanos(a) === durationNanos(b);
  if (a instanceof Uint8Array || b instanceof Uint8Array) return a instanceof Uint8Array && b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  if (a instanceof Set || b instanceof Set) {
    // A Set is a list without order (as the engine compares them).
    const as = a instanceof Set ? [...a] : Array.isArray(a) ? a : undefined;
    const bs = b instanceof Set ? [...b] : Array.isArray(b) ? b : undefined;
    return as !== undefined && bs !== undefined && as.length === bs.length && as.every((x) => bs.some((y) => celEqual(x, y, ev, ast)));
  }
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => celEqual(x, b[i], ev, ast));
  const protoA = Object.getPrototypeOf(a) as object | null;
  const protoB = Object.getPrototypeOf(b) as object | null;
  // CEL maps: Map, or plain objects with string keys.
  if (isMapPrototype(protoA) && isMapPrototype(protoB)) return mapEqual(a as CelMap, b as CelMap, ev, ast);
  if (protoA !== protoB) return false;
  // A schema type with a field named `constructor` is Map-based (environment.ts).
  if (a instanceof Map) return mapEqual(a, b as CelMap, ev, ast);
  if (ev !== undefined) {
    const type = ev.debugType(a);
    const overload = ev.registry.findBinaryOverload('==', type, type);
    if (overload) return overload.handler(a, b, ast, ev) === true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && celEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], ev, ast));
}

type CelMap = Map<unknown, unknown> | Record<string, unknown>;

const isMapPrototype = (proto: object | null): boolean => proto === Map.prototype || proto === Object.prototype || proto === null;

const mapSize = (m: CelMap): number => (m instanceof Map ? m.size : Object.keys(m).length);

/** The value under `key` in a CEL map (numeric keys match across int, uint and double), or undefined. */
export function mapLookup(m: CelMap, key: unknown): unknown {
  if (m instanceof Map) {
    if (m.has(key)) return m.get(key);
    const n = numeric(key);
    if (n === undefined) return undefined;
    for (const [k, v] of m) {
      const nk = numeric(k);
      if (nk !== undefined && compareNumbers(nk, n) === 0) return v;
    }
    return undefined;
  }
  return typeof key === 'string' && Object.hasOwn(m, key) ? m[key] : undefined;
}

function mapEqual(a: CelMap, b: CelMap, ev: EqualityEvaluator | undefined, ast: unknown): boolean {
  if (mapSize(a) !== mapSize(b)) return false;
  for (const [k, v] of a instanceof Map ? a : Object.entries(a)) {
    const w = mapLookup(b, k);
    if (w === undefined || !celEqual(v, w, ev, ast)) return false;
  }
  return true;
}

/** Orders two values of one comparable type: negative, zero or positive. */
export function celCompare(a: unknown, b: unknown): number {
  if (a instanceof Date && b instanceof Date) return Number(timestampNanos(a) - timestampNanos(b));
  if (a instanceof Duration && b instanceof Duration) return Number(durationNanos(a) - durationNanos(b));
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  }
  const x = typeof a === 'object' && a !== null ? (a as { valueOf(): unknown }).valueOf() : a;
  const y = typeof b === 'object' && b !== null ? (b as { valueOf(): unknown }).valueOf() : b;
  if (typeof x === 'string' && typeof y === 'string') return x < y ? -1 : x > y ? 1 : 0;
  return (x as number) < (y as number) ? -1 : (x as number) > (y as number) ? 1 : 0;
}
