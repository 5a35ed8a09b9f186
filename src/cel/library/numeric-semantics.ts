// cel-go's numeric semantics where the engine's built-in overloads differ (cel-go common/types
// int.go, uint.go, double.go, compare.go, overflow.go), put in place of the engine's handlers
// (overload-overrides.ts):
// - heterogeneous equality: inside lists and maps, and for `in`, 1 == 1u == 1.0 (the engine's
//   element comparison knows int and double only);
// - int/uint against double orders as cel-go does at the int64 edge (the double side decides when
//   it is out of range, otherwise the integer is converted to double: 2^63-1 < 2^63 is false);
// - overflow: MinInt64 / -1 and % -1, int(double) and uint(...) out of range, with cel-go's texts;
// - string(bytes) refuses invalid UTF-8 instead of inserting U+FFFD.
import { EvaluationError } from '@marcbachmann/cel-js';
import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import type { OverloadOverride } from '../overload-overrides.ts';
import { celEqual, type EqualityEvaluator } from '../value-ops.ts';
import { compareNumbers, numeric, TWO_63, TWO_64 } from './numeric-compare.ts';

const MIN_INT = -(2n ** 63n);

const intOverflow = (): EvaluationError => new EvaluationError({ code: 'numeric_overflow', message: 'integer overflow' });
const uintOverflow = (): EvaluationError => new EvaluationError({ code: 'numeric_overflow', message: 'unsigned integer overflow' });

type Evaluator = EqualityEvaluator;

/**
 * The key under which a Map stores `key`: itself, or the stored key equal to it as a number (cel-go
 * finds `{1u: 'a'}[1]` and `{1: 'a'}[1.0]`).
 */
export function storedMapKey(m: Map<unknown, unknown>, key: unknown): unknown {
  if (m.has(key)) return key;
  const n = numeric(key);
  if (n === undefined) return key;
  for (const k of m.keys()) {
    const nk = numeric(k);
    if (nk !== undefined && compareNumbers(nk, n) === 0) return k;
  }
  return key;
}

function mapContains(key: unknown, m: unknown): boolean {
  if (m instanceof Map) return m.get(storedMapKey(m, key)) !== undefined;
  return typeof m === 'object' && m !== null && Object.hasOwn(m, key as PropertyKey) && (m as Record<PropertyKey, unknown>)[key as PropertyKey] !== undefined;
}

function listContains(value: unknown, list: unknown, ast: unknown, ev: Evaluator): boolean {
  for (const x of list as Iterable<unknown>) if (celEqual(value, x, ev, ast)) return true;
  return false;
}

const ORDERING: [op: string, holds: (c: number) => boolean][] = [
  ['<', (c) => c < 0],
  ['<=', (c) => c <= 0],
  ['>', (c) => c > 0],
  ['>=', (c) => c >= 0],
];
const MIXED: [string, string][] = [
  ['int', 'double'],
  ['double', 'int'],
  ['uint', 'double'],
  ['double', 'uint'],
];

function ordering(holds: (c: number) => boolean) {
  return (a: unknown, b: unknown): boolean => {
    const c = compareNumbers(numeric(a)!, numeric(b)!);
    if (Number.isNaN(c)) throw new EvaluationError('NaN values cannot be ordered');
    return holds(c);
  };
}

function checkedDivision(op: '/' | '%') {
  return (a: bigint, b: bigint): bigint => {
    if (b === 0n) throw new EvaluationError(op === '/' ? { code: 'division_by_zero', message: 'division by zero' } : { code: 'modulo_by_zero', message: 'modulus by zero' });
    // Two's complement: MinInt64 / -1 is MaxInt64 + 1.
    if (a === MIN_INT && b === -1n) throw intOverflow();
    return op === '/' ? a / b : a % b;
  };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const OVERRIDES: OverloadOverride[] = [
  { signature: 'list<V> == list<V>: bool', handler: ((a: unknown, b: unknown, ast: unknown, ev: Evaluator) => celEqual(a, b, ev, ast)) as OverloadOverride['handler'] },
  { signature: 'list<V> != list<V>: bool', handler: ((a: unknown, b: unknown, ast: unknown, ev: Evaluator) => !celEqual(a, b, ev, ast)) as OverloadOverride['handler'] },
  { signature: 'map<K, V> == map<K, V>: bool', handler: ((a: unknown, b: unknown, ast: unknown, ev: Evaluator) => celEqual(a, b, ev, ast)) as OverloadOverride['handler'] },
  { signature: 'map<K, V> != map<K, V>: bool', handler: ((a: unknown, b: unknown, ast: unknown, ev: Evaluator) => !celEqual(a, b, ev, ast)) as OverloadOverride['handler'] },
  { signature: 'V in list<V>: bool', handler: listContains as OverloadOverride['handler'] },
  { signature: 'K in map<K, V>: bool', handler: mapContains as OverloadOverride['handler'] },
  { signature: 'int / int: int', handler: checkedDivision('/') as OverloadOverride['handler'] },
  { signature: 'int % int: int', handler: checkedDivision('%') as OverloadOverride['handler'] },
  {
    // doubleToInt64Checked: the bounds are compared as doubles, so -2^63 itself is out of range.
    signature: 'int(double): int',
    handler: ((v: number) => {
      if (!Number.isFinite(v) || v <= -TWO_63 || v >= TWO_63) throw intOverflow();
      return BigInt(Math.trunc(v));
    }) as OverloadOverride['handler'],
  },
  {
    signature: 'uint(int): uint',
    handler: ((v: bigint) => {
      if (v < 0n) throw uintOverflow();
      return new UnsignedInt(v);
    }) as OverloadOverride['handler'],
  },
  {
    signature: 'uint(double): uint',
    handler: ((v: number) => {
      if (!Number.isFinite(v) || v < 0 || v >= TWO_64) throw uintOverflow();
      return new UnsignedInt(BigInt(Math.trunc(v)));
    }) as OverloadOverride['handler'],
  },
  {
    signature: 'string(bytes): string',
    handler: ((b: Uint8Array) => {
      try {
        return strictUtf8.decode(b);
      } catch {
        throw new EvaluationError('invalid UTF-8 in bytes, cannot convert to string');
      }
    }) as OverloadOverride['handler'],
  },
];
for (const [op, holds] of ORDERING) for (const [l, r] of MIXED) OVERRIDES.push({ signature: `${l} ${op} ${r}: bool`, handler: ordering(holds) as OverloadOverride['handler'] });

/** cel-go's numeric semantics in place of the engine's (registered by registerLibraries). */
export const NUMERIC_OVERRIDES: readonly OverloadOverride[] = OVERRIDES;
