// Equality and ordering of CEL runtime values as the library functions need them (list indexOf,
// sets, object equality): ints are bigint, doubles number, timestamps Date, durations Duration,
// bytes Uint8Array, lists arrays or Sets, maps Map, objects instances of the schema's classes.
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { durationNanos, timestampNanos } from './library/timestamps.ts';
import { semanticEqual, semanticsOf } from './list-semantics.ts';

export function celEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // A set or map list on the left compares by its list type, as cel-go's left-operand Equal does.
  const sem = semanticsOf(a);
  if (sem !== undefined) return semanticEqual(a as unknown[], sem, b) ?? false;
  if (typeof a === 'bigint' && typeof b === 'number') return Number(a) === b;
  if (typeof a === 'number' && typeof b === 'bigint') return a === Number(b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Date && b instanceof Date) return timestampNanos(a) === timestampNanos(b);
  if (a instanceof Duration && b instanceof Duration) return durationNanos(a) === durationNanos(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  if (a instanceof Set || b instanceof Set) {
    const as = a instanceof Set ? [...a] : Array.isArray(a) ? a : undefined;
    const bs = b instanceof Set ? [...b] : Array.isArray(b) ? b : undefined;
    if (!as || !bs || as.length !== bs.length) return false;
    return as.every((x) => bs.some((y) => celEqual(x, y)));
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => celEqual(x, b[i]));
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !celEqual(v, b.get(k))) return false;
    return true;
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ak = Object.keys(a);
  if (ak.length !== Object.keys(b).length) return false;
  return ak.every((k) => Object.hasOwn(b, k) && celEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
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
