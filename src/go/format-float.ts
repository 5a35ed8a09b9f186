// How Go prints the numbers of a decoded JSON object. apimachinery's JSON decoding (util/json)
// yields an int64 for an integer that fits and a float64 for everything else, and fmt's `%v` prints
// the one as digits and the other as strconv.FormatFloat(f, 'g', -1, 64): the one formatter for
// schema messages, printer columns and field error values.

const TWO_63 = 2 ** 63;

/** True when Go's JSON decoder (apimachinery util/json) would yield an int64 for this number. */
export function isInt64(n: number): boolean {
  return Number.isInteger(n) && n >= -TWO_63 && n < TWO_63;
}

/** strconv.FormatFloat(f, 'g', -1, 64), which is also what `%v` prints for a float64: `0.5`, `1.5e-05`, `1.2345675e+06`. */
export function goFormatG(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  // toExponential() gives the shortest round-trip digits, as strconv's shortest mode does.
  const [mant, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  // Shortest mode decides %e vs %f against a fixed precision of 6 (strconv/ftoa.go), with at least
  // two exponent digits (`1e-07`, where JS writes `1e-7`).
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mant}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(n); // JS prints plain decimals for -7 <= exp < 21
}

/** `%v` of the value as Go holds it: int64 digits or float64 'g'. */
export function goNumber(n: number): string {
  return isInt64(n) ? String(n) : goFormatG(n);
}
