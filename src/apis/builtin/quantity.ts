// Exact values of resource.Quantity strings (apimachinery/pkg/api/resource), enough to add and
// compare them the way a Pod's QoS class is computed. Formatting (canonical form) is not done here.

/** A quantity as an exact fraction num/den (den > 0). */
export interface Rational {
  num: bigint;
  den: bigint;
}

const BINARY: Record<string, bigint> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

/** Parses a quantity ("500m", "1.5Gi", "2e3", 4); undefined when it is not one. */
export function parseQuantity(input: unknown): Rational | undefined {
  const text = typeof input === 'number' ? String(input) : input;
  if (typeof text !== 'string') return undefined;
  const m = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(.*)$/.exec(text.trim());
  if (!m) return undefined;
  const [, sign, digits, suffix] = m as unknown as [string, string, string, string];
  const [intPart, fracPart = ''] = digits.split('.');
  let num = BigInt((intPart || '0') + fracPart);
  let den = 10n ** BigInt(fracPart.length);
  if (sign === '-') num = -num;
  if (suffix in BINARY) {
    num *= BINARY[suffix]!;
  } else if (suffix in DECIMAL) {
    const exp = DECIMAL[suffix]!;
    if (exp >= 0) num *= 10n ** BigInt(exp);
    else den *= 10n ** BigInt(-exp);
  } else {
    const e = /^[eE]([+-]?\d+)$/.exec(suffix);
    if (!e) return undefined;
    const exp = Number(e[1]);
    if (exp >= 0) num *= 10n ** BigInt(exp);
    else den *= 10n ** BigInt(-exp);
  }
  return { num, den };
}

export function addQuantities(a: Rational, b: Rational): Rational {
  return { num: a.num * b.den + b.num * a.den, den: a.den * b.den };
}

/** -1, 0 or 1, like Quantity.Cmp. */
export function compareQuantities(a: Rational, b: Rational): number {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

export const ZERO: Rational = { num: 0n, den: 1n };
