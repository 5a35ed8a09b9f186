// Go string semantics the selector code depends on: byte-wise ordering and strconv.ParseInt.

/** Go's `a < b` on strings (UTF-8 byte order, which equals code point order; not UTF-16 order). */
export function compareGoStrings(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const ca = ia.next();
    const cb = ib.next();
    if (ca.done || cb.done) return ca.done ? (cb.done ? 0 : -1) : 1;
    const d = ca.value.codePointAt(0)! - cb.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

/** Go's len(s): the UTF-8 byte length, which is what the length limits count. */
export const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 10, 64): optional sign, decimal digits only, int64 range; undefined on error. */
export function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}
