// How Go sees and prints the numbers of a decoded JSON object. The apiserver decodes integers as
// int64 and everything else as float64; kube-openapi's checks and messages branch on that.

const TWO_63 = 2 ** 63;
const MAX_JSON_FLOAT = 2 ** 53 - 1;

/** True when Go's JSON decoder (apimachinery util/json) would yield an int64 for this number. */
export function isInt64(n: number): boolean {
  return Number.isInteger(n) && n >= -TWO_63 && n < TWO_63;
}

/** strconv.FormatFloat(f, 'g', -1, 64), which is also what `%v` prints for a float64. */
export function goFormatG(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mant, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  // Shortest mode decides %e vs %f against a fixed precision of 6 (strconv/ftoa.go).
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mant}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(n); // JS prints plain decimals for -4 <= exp < 21
}

/** `%v` of the value as Go holds it: int64 digits or float64 'g'. */
export function goNumber(n: number): string {
  return isInt64(n) ? String(n) : goFormatG(n);
}

/** go-openapi swag.IsFloat64AJSONInteger, including its relative-epsilon tolerance. */
export function isFloat64AJSONInteger(f: number): boolean {
  if (!Number.isFinite(f) || f < -MAX_JSON_FLOAT || f > MAX_JSON_FLOAT) return false;
  if (Number.isInteger(f)) return true;
  if (f < 0) return false; // float64(uint64(f)) of a negative float is far away: relative error ~1
  const g = Math.trunc(f);
  const diff = Math.abs(f - g);
  if (g === 0) return diff < 1e-9 * Number.MIN_VALUE;
  return diff / Math.min(f + g, Number.MAX_VALUE) < 1e-9;
}
