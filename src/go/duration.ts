// Go's duration parsers, ported once for every user: time.ParseDuration (CEL's duration() and
// string → duration conversion) and kube-openapi strfmt.ParseDuration (CRD `format: duration`, both
// in schema validation and when a CEL rule reads such a field). Both return int64 nanoseconds, or
// undefined where Go returns an error.

import { goTimeQuote } from './time-quote.ts';

const MAX_INT64 = (1n << 63n) - 1n;
const TWO_63 = 1n << 63n;

// time.unitMap: "µs" is U+00B5 (micro sign), "μs" U+03BC (Greek mu).
const TIME_UNITS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['µs', 1_000n],
  ['μs', 1_000n],
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** time.ParseDuration's result: int64 nanoseconds, or Go's error text. */
export type GoDurationResult = { ok: true; nanos: bigint } | { ok: false; error: string };

/**
 * Go's time.ParseDuration (go/src/time/format.go): `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`, "0", int64
 * nanoseconds, with its three error texts (`time: invalid duration "x"`, `time: missing unit in
 * duration "1"`, `time: unknown unit "d" in duration "1d"`), quoted by time's quote.
 */
export function goParseDurationResult(input: string): GoDurationResult {
  const invalid = (): GoDurationResult => ({ ok: false, error: `time: invalid duration ${goTimeQuote(input)}` });
  let s = input;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { ok: true, nanos: 0n };
  if (s === '') return invalid();
  let total = 0n;
  let i = 0;
  while (i < s.length) {
    if (!(s[i] === '.' || isDigit(s[i]))) return invalid();
    // leadingInt: [0-9]*, an error past 2^63.
    const intStart = i;
    let v = 0n;
    for (; isDigit(s[i]); i++) {
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > TWO_63) return invalid();
    }
    const pre = i > intStart;
    // leadingFraction: digits past int64 precision are consumed but ignored.
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[i] === '.') {
      i++;
      const fracStart = i;
      let overflow = false;
      for (; isDigit(s[i]); i++) {
        if (overflow) continue;
        const y = f * 10n + BigInt(s.charCodeAt(i) - 48);
        if (f > MAX_INT64 / 10n || y > TWO_63) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = i > fracStart;
    }
    if (!pre && !post) return invalid();
    // The unit: everything up to the next digit or '.'.
    const unitStart = i;
    while (i < s.length && s[i] !== '.' && !isDigit(s[i])) i++;
    if (i === unitStart) return { ok: false, error: `time: missing unit in duration ${goTimeQuote(input)}` };
    const unitText = s.slice(unitStart, i);
    const unit = TIME_UNITS.get(unitText);
    if (unit === undefined) return { ok: false, error: `time: unknown unit ${goTimeQuote(unitText)} in duration ${goTimeQuote(input)}` };
    if (v > TWO_63 / unit) return invalid();
    v *= unit;
    // Go scales the fraction in float64 and truncates (nanosecond-exact up to hours).
    if (f > 0n) {
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > TWO_63) return invalid();
    }
    total += v;
    if (total > TWO_63) return invalid();
  }
  if (negative) return { ok: true, nanos: -total };
  return total > MAX_INT64 ? invalid() : { ok: true, nanos: total };
}

/** Go's time.ParseDuration's nanoseconds, or undefined where Go returns an error. */
export function goParseDuration(input: string): bigint | undefined {
  const result = goParseDurationResult(input);
  return result.ok ? result.nanos : undefined;
}

// strfmt's Scala-compatible fallback: each group's last spelling also matches as a prefix
// ("hours", "weeks"), the others only whole.
const STRFMT_UNITS: ReadonlyArray<readonly [bigint, readonly string[]]> = [
  [1n, ['ns', 'nano']],
  [1_000n, ['us', 'µs', 'micro']],
  [1_000_000n, ['ms', 'milli']],
  [1_000_000_000n, ['s', 'sec']],
  [60_000_000_000n, ['m', 'min']],
  [3_600_000_000_000n, ['h', 'hr', 'hour']],
  [86_400_000_000_000n, ['d', 'day']],
  [604_800_000_000_000n, ['w', 'wk', 'week']],
];
// Go's `((\d+)\s*([A-Za-zµ]+))`: RE2's \d and \s are ASCII only.
const STRFMT_PART = /([0-9]+)[\t\n\f\r ]*([A-Za-zµ]+)/g;

/**
 * kube-openapi strfmt.ParseDuration: time.ParseDuration, else the sum of every "<digits> <unit>"
 * found anywhere in the string ("1d", "2 weeks", "3 hours and 4 min"). Like Go, the sum wraps at
 * int64, and a number beyond int64 (strconv.Atoi) is an error.
 */
export function strfmtParseDuration(input: string): bigint | undefined {
  const exact = goParseDuration(input);
  if (exact !== undefined) return exact;
  let total = 0n;
  let matched = false;
  for (const [, digits, rawUnit] of input.matchAll(STRFMT_PART)) {
    const factor = BigInt(digits!);
    if (factor > MAX_INT64) return undefined;
    const unit = rawUnit!.toLowerCase();
    for (const [multiplier, variants] of STRFMT_UNITS) {
      const last = variants.length - 1;
      variants.forEach((variant, i) => {
        if ((i === last && unit.startsWith(variant)) || unit === variant) {
          matched = true;
          total = BigInt.asIntN(64, total + BigInt.asIntN(64, factor * multiplier));
        }
      });
    }
  }
  return matched ? total : undefined;
}

/** time.Duration's String() for a whole number of milliseconds: `0s`, `313ms`, `1.5s`, `2m0s`, `1h0m5s`. */
export function goDurationString(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  if (total === 0) return '0s';
  if (total < 1000) return `${total}ms`;
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const millis = total % 60_000;
  const seconds = `${Math.floor(millis / 1000)}${millis % 1000 ? `.${String(millis % 1000).padStart(3, '0').replace(/0+$/, '')}` : ''}s`;
  if (hours) return `${hours}h${minutes}m${seconds}`;
  if (minutes) return `${minutes}m${seconds}`;
  return seconds;
}
