// Timestamps and durations as cel-go has them (common/types/timestamp.go, duration.go,
// overflow.go): nanosecond precision, the range 0001-01-01T00:00:00Z..9999-12-31T23:59:59.999999999Z,
// durations as int64 nanoseconds (Go's time.Duration), `timestamp overflow` / `integer overflow`
// errors, time zones by IANA name or `±hh:mm` offset, and RFC 3339 text with up to nine fractional
// digits.
//
// A timestamp stays a JavaScript Date (the engine types values by constructor), carrying the
// nanoseconds below its millisecond under a symbol. The engine's own timestamp and duration
// overloads are replaced (overload-overrides.ts) so that every operation keeps them.
import { EvaluationError } from '@marcbachmann/cel-js';
import { Duration } from '@marcbachmann/cel-js/evaluator';
import type { OverloadOverride } from '../overload-overrides.ts';
import { goParseDuration } from '../../go/duration.ts';

const SUB_MILLI_NANOS = Symbol('kubefake.subMilliNanos');
type Timestamp = Date & { [SUB_MILLI_NANOS]?: number };

const NS_PER_MS = 1_000_000n;
const NS_PER_S = 1_000_000_000n;
const MIN_UNIX_SECONDS = -62135596800n; // 0001-01-01T00:00:00Z
const MAX_UNIX_SECONDS = 253402300799n; // 9999-12-31T23:59:59Z
const MAX_INT64 = 9223372036854775807n;
const MIN_INT64 = -9223372036854775808n;

// ---- timestamps -------------------------------------------------------------------------------

/** Nanoseconds since the Unix epoch. */
export function timestampNanos(d: Date): bigint {
  return BigInt(d.getTime()) * NS_PER_MS + BigInt((d as Timestamp)[SUB_MILLI_NANOS] ?? 0);
}

const floorDiv = (a: bigint, b: bigint): bigint => (a % b !== 0n && a < 0n !== b < 0n ? a / b - 1n : a / b);

/** A timestamp from nanoseconds since the epoch; `timestamp overflow` outside CEL's range. */
export function timestampOf(nanos: bigint): Date {
  const seconds = floorDiv(nanos, NS_PER_S);
  if (seconds < MIN_UNIX_SECONDS || seconds > MAX_UNIX_SECONDS) throw new EvaluationError('timestamp overflow');
  const ms = floorDiv(nanos, NS_PER_MS);
  const d = new Date(Number(ms)) as Timestamp;
  const rest = Number(nanos - ms * NS_PER_MS);
  if (rest !== 0) d[SUB_MILLI_NANOS] = rest;
  return d;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/**
 * Go's time.Parse(time.RFC3339, s) as cel-go's string → timestamp conversion uses it: fractional
 * seconds of any length (beyond nanoseconds truncated), `Z` or a `±hh:mm` offset. Undefined when the
 * text does not parse; `timestamp overflow` outside the range.
 */
export function parseTimestamp(s: string): Date | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const frac = (m[7] ?? '').slice(0, 9).padEnd(9, '0');
  // Date.UTC maps years 0..99 to 1900+; setUTCFullYear does not.
  const base = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  base.setUTCFullYear(year);
  const seconds = BigInt(base.getTime() / 1000) - BigInt(offsetMinutes * 60);
  if (seconds < MIN_UNIX_SECONDS || seconds > MAX_UNIX_SECONDS) throw new EvaluationError('timestamp overflow');
  return timestampOf(seconds * NS_PER_S + BigInt(frac));
}

/** time.RFC3339Nano in UTC, as cel-go prints a timestamp: fractional digits without trailing zeros. */
export function formatTimestamp(d: Date): string {
  const nanos = timestampNanos(d);
  const seconds = floorDiv(nanos, NS_PER_S);
  const frac = nanos - seconds * NS_PER_S;
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  const year = whole.slice(0, 4);
  const digits = frac === 0n ? '' : '.' + frac.toString().padStart(9, '0').replace(/0+$/, '');
  return `${year}${whole.slice(4)}${digits}Z`;
}

function timestampFromString(s: string): Date {
  const d = parseTimestamp(s);
  if (d === undefined) throw new EvaluationError("type conversion error from 'string' to 'google.protobuf.Timestamp'");
  return d;
}

function timestampFromInt(seconds: bigint): Date {
  if (seconds < MIN_UNIX_SECONDS || seconds > MAX_UNIX_SECONDS) throw new EvaluationError('timestamp overflow');
  return timestampOf(seconds * NS_PER_S);
}

// ---- durations --------------------------------------------------------------------------------

/** A duration's nanoseconds (the engine's Duration may carry nanos of either sign). */
export function durationNanos(d: Duration): bigint {
  return d.seconds * NS_PER_S + BigInt(d.nanos);
}

/** A Duration of int64 nanoseconds (Go's time.Duration); `integer overflow` beyond. */
export function durationOf(nanos: bigint): Duration {
  if (nanos > MAX_INT64 || nanos < MIN_INT64) throw new EvaluationError('integer overflow');
  const seconds = nanos / NS_PER_S; // truncated: seconds and nanos share the sign, as in protobuf
  return new Duration(seconds, Number(nanos - seconds * NS_PER_S));
}

/** Go's time.ParseDuration (src/go/duration.ts) as a CEL Duration: undefined where Go errors. */
export function parseDuration(input: string): Duration | undefined {
  const nanos = goParseDuration(input);
  return nanos === undefined ? undefined : durationOf(nanos);
}

function durationFromString(s: string): Duration {
  const d = parseDuration(s);
  if (d === undefined) throw new EvaluationError("type conversion error from 'string' to 'google.protobuf.Duration'");
  return d;
}

/** strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s", as cel-go prints a duration. */
export function formatDuration(d: Duration): string {
  const nanos = durationNanos(d);
  const seconds = nanos / NS_PER_S;
  return `${formatFloatF(Number(seconds) + Number(nanos - seconds * NS_PER_S) / 1e9)}s`;
}

/** Shortest decimal that reads back as x, without an exponent (Go's 'f' format, precision -1). */
export function formatFloatF(x: number): string {
  const s = String(x);
  const e = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!e) return s;
  const [, sign, lead, rest = '', exp] = e;
  const digits = lead! + rest;
  const point = 1 + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

// ---- time zones -------------------------------------------------------------------------------

interface Civil {
  year: number;
  month: number; // 0-based
  day: number; // 1-based
  hours: number;
  minutes: number;
  seconds: number;
  weekday: number; // 0 = Sunday
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(zone: string): Intl.DateTimeFormat {
  let f = zoneFormats.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short', era: 'short' });
    } catch {
      throw new EvaluationError(`unknown time zone ${zone}`);
    }
    zoneFormats.set(zone, f);
  }
  return f;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

function utcCivil(ms: number): Civil {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth(), day: d.getUTCDate(), hours: d.getUTCHours(), minutes: d.getUTCMinutes(), seconds: d.getUTCSeconds(), weekday: d.getUTCDay() };
}

/** strconv.Atoi as cel-go applies it to the parts of a `±hh:mm` zone. */
function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw new EvaluationError(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  return Number(s);
}

/** The civil time of `d` in `zone` (cel-go's timeZone(): an IANA name, or `±hh:mm` east of UTC). */
function civilIn(d: Date, zone?: string): Civil {
  const ms = d.getTime();
  if (zone === undefined) return utcCivil(ms);
  const colon = zone.indexOf(':');
  if (colon >= 0) {
    const hours = atoi(zone.slice(0, colon));
    const minutes = atoi(zone.slice(colon + 1));
    const offset = zone[0] === '-' ? hours * 60 - minutes : hours * 60 + minutes;
    return utcCivil(ms + offset * 60_000);
  }
  // time.LoadLocation: "" and "UTC" are UTC; "Local" would be the server's zone, which is UTC in a cluster.
  if (zone === '' || zone === 'UTC' || zone === 'Local') return utcCivil(ms);
  const parts: Record<string, string> = {};
  for (const p of zoneFormat(zone).formatToParts(new Date(ms))) parts[p.type] = p.value;
  const year = parts.era === 'BC' ? 1 - Number(parts.year) : Number(parts.year);
  return { year, month: Number(parts.month) - 1, day: Number(parts.day), hours: Number(parts.hour), minutes: Number(parts.minute), seconds: Number(parts.second), weekday: WEEKDAYS[parts.weekday!]! };
}

function dayOfYear(c: Civil): number {
  let n = c.day - 1;
  for (let m = 0; m < c.month; m++) n += m === 1 && isLeap(c.year) ? 29 : DAYS_IN_MONTH[m]!;
  return n;
}

const millisOfSecond = (d: Date): bigint => BigInt(((d.getTime() % 1000) + 1000) % 1000);

const ACCESSORS: Record<string, (c: Civil, d: Date) => number | bigint> = {
  getFullYear: (c) => c.year,
  getMonth: (c) => c.month,
  getDayOfYear: (c) => dayOfYear(c),
  getDate: (c) => c.day,
  getDayOfMonth: (c) => c.day - 1,
  getDayOfWeek: (c) => c.weekday,
  getHours: (c) => c.hours,
  getMinutes: (c) => c.minutes,
  getSeconds: (c) => c.seconds,
  getMilliseconds: (_c, d) => millisOfSecond(d),
};

// ---- the overrides ----------------------------------------------------------------------------

const TS = 'google.protobuf.Timestamp';
const DUR = 'google.protobuf.Duration';

const cmpTs = (a: Date, b: Date): number => {
  const x = timestampNanos(a);
  const y = timestampNanos(b);
  return x < y ? -1 : x > y ? 1 : 0;
};
const cmpDur = (a: Duration, b: Duration): number => {
  const x = durationNanos(a);
  const y = durationNanos(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** Adds a duration to a timestamp: `timestamp overflow` outside the range. */
export function addToTimestamp(t: Date, d: Duration): Date {
  return timestampOf(timestampNanos(t) + durationNanos(d));
}

const overrides: OverloadOverride[] = [
  { signature: `timestamp(string): ${TS}`, handler: timestampFromString },
  { signature: `timestamp(int): ${TS}`, handler: timestampFromInt },
  { signature: `duration(string): ${DUR}`, handler: durationFromString },
  { signature: `${TS} == ${TS}: bool`, handler: (a: Date, b: Date) => cmpTs(a, b) === 0 },
  { signature: `${TS} != ${TS}: bool`, handler: (a: Date, b: Date) => cmpTs(a, b) !== 0 },
  { signature: `${TS} < ${TS}: bool`, handler: (a: Date, b: Date) => cmpTs(a, b) < 0 },
  { signature: `${TS} <= ${TS}: bool`, handler: (a: Date, b: Date) => cmpTs(a, b) <= 0 },
  { signature: `${TS} > ${TS}: bool`, handler: (a: Date, b: Date) => cmpTs(a, b) > 0 },
  { signature: `${TS} >= ${TS}: bool`, handler: (a: Date, b: Date) => cmpTs(a, b) >= 0 },
  { signature: `${DUR} == ${DUR}: bool`, handler: (a: Duration, b: Duration) => cmpDur(a, b) === 0 },
  { signature: `${DUR} != ${DUR}: bool`, handler: (a: Duration, b: Duration) => cmpDur(a, b) !== 0 },
  { signature: `${DUR} < ${DUR}: bool`, handler: (a: Duration, b: Duration) => cmpDur(a, b) < 0 },
  { signature: `${DUR} <= ${DUR}: bool`, handler: (a: Duration, b: Duration) => cmpDur(a, b) <= 0 },
  { signature: `${DUR} > ${DUR}: bool`, handler: (a: Duration, b: Duration) => cmpDur(a, b) > 0 },
  { signature: `${DUR} >= ${DUR}: bool`, handler: (a: Duration, b: Duration) => cmpDur(a, b) >= 0 },
  { signature: `${DUR} + ${DUR}: ${DUR}`, handler: (a: Duration, b: Duration) => durationOf(durationNanos(a) + durationNanos(b)) },
  { signature: `${DUR} - ${DUR}: ${DUR}`, handler: (a: Duration, b: Duration) => durationOf(durationNanos(a) - durationNanos(b)) },
  { signature: `${TS} + ${DUR}: ${TS}`, handler: addToTimestamp },
  // The engine declares `duration + timestamp` as a duration (its default: the left operand's type).
  { signature: `${DUR} + ${TS}: ${DUR}`, returnType: TS, handler: (d: Duration, t: Date) => addToTimestamp(t, d) },
  { signature: `${TS} - ${DUR}: ${TS}`, handler: (t: Date, d: Duration) => timestampOf(timestampNanos(t) - durationNanos(d)) },
  { signature: `${TS} - ${TS}: ${DUR}`, handler: (a: Date, b: Date) => durationOf(timestampNanos(a) - timestampNanos(b)) },
  { signature: `${DUR}.getHours(): int`, handler: (d: Duration) => durationNanos(d) / (3600n * NS_PER_S) },
  { signature: `${DUR}.getMinutes(): int`, handler: (d: Duration) => durationNanos(d) / (60n * NS_PER_S) },
  { signature: `${DUR}.getSeconds(): int`, handler: (d: Duration) => durationNanos(d) / NS_PER_S },
  { signature: `${DUR}.getMilliseconds(): int`, handler: (d: Duration) => durationNanos(d) / NS_PER_MS },
];
for (const [name, get] of Object.entries(ACCESSORS)) {
  overrides.push(
    { signature: `${TS}.${name}(): int`, handler: (d: Date) => BigInt(get(civilIn(d), d)) },
    { signature: `${TS}.${name}(string): int`, handler: (d: Date, zone: string) => BigInt(get(civilIn(d, zone), d)) },
  );
}

/** cel-go's timestamp and duration semantics in place of the engine's (registered by registerLibraries). */
export const TIMESTAMP_OVERRIDES: readonly OverloadOverride[] = overrides;
