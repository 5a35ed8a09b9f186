// cel-go's Compare across int, uint and double (common/types compare.go), the one numeric
// comparison both value-ops.ts (equality, map lookup) and numeric-semantics.ts (the overridden
// operators) use; apart from those so that neither imports the other.
import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';

export const TWO_63 = 2 ** 63;
export const TWO_64 = 2 ** 64;

export type Num = { kind: 'int' | 'uint'; v: bigint } | { kind: 'double'; v: number };

/** An int (bigint), uint or double as a tagged number; undefined for anything else. */
export function numeric(x: unknown): Num | undefined {
  if (typeof x === 'bigint') return { kind: 'int', v: x };
  if (typeof x === 'number') return { kind: 'double', v: x };
  if (x instanceof UnsignedInt) return { kind: 'uint', v: x.valueOf() };
  return undefined;
}

/** compareDoubleInt / compareDoubleUint: -1, 0, 1, or NaN when the double is NaN. */
function compareDoubleInteger(d: number, i: bigint, unsigned: boolean): number {
  if (Number.isNaN(d)) return NaN;
  if (d < (unsigned ? 0 : -TWO_63)) return -1;
  if (d > (unsigned ? TWO_64 : TWO_63)) return 1;
  const x = Number(i);
  return d < x ? -1 : d > x ? 1 : 0;
}

/** cel-go's Compare across int, uint and double (NaN when a NaN is involved). */
export function compareNumbers(a: Num, b: Num): number {
  if (a.kind === 'double' && b.kind === 'double') return Number.isNaN(a.v) || Number.isNaN(b.v) ? NaN : a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
  if (a.kind === 'double') return compareDoubleInteger(a.v, b.v as bigint, b.kind === 'uint');
  if (b.kind === 'double') return -compareDoubleInteger(b.v, a.v, a.kind === 'uint');
  return a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
}
