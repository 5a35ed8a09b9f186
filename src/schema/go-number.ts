// go-openapi's integer test for a float64 (how Go prints numbers: src/go/format-float.ts).

const MAX_JSON_FLOAT = 2 ** 53 - 1;

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
