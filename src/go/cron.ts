// github.com/robfig/cron/v3 (v3.0.1, parser.go) ParseStandard's checks, as kube-apiserver runs them
// on a CronJob's spec.schedule: the error texts are what the Invalid cause carries, so they are
// reproduced as Go prints them (`expected exactly 5 fields, found 1: [x]`). A spec that parses is
// also a schedule: cronSchedule() answers the next activation after an instant (SpecSchedule.Next
// and ConstantDelaySchedule.Next), in the spec's TZ= location or UTC.
import { getOwn } from '../util/own-property.ts';
import { goQuote } from '../errors/go-format.ts';
import { goParseDurationResult } from './duration.ts';
import { loadLocationError } from './time-zone.ts';

interface Bounds {
  min: bigint;
  max: bigint;
  names?: Record<string, bigint>;
}

const MINUTES: Bounds = { min: 0n, max: 59n };
const HOURS: Bounds = { min: 0n, max: 23n };
const DOM: Bounds = { min: 1n, max: 31n };
const MONTHS: Bounds = { min: 1n, max: 12n, names: { jan: 1n, feb: 2n, mar: 3n, apr: 4n, may: 5n, jun: 6n, jul: 7n, aug: 8n, sep: 9n, oct: 10n, nov: 11n, dec: 12n } };
const DOW: Bounds = { min: 0n, max: 6n, names: { sun: 0n, mon: 1n, tue: 2n, wed: 3n, thu: 4n, fri: 5n, sat: 6n } };
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);
const MAX_INT64 = 2n ** 63n - 1n;

class CronError extends Error {}

/** The error cron.ParseStandard(spec) returns, or undefined when it parses. */
export function cronParseStandardError(spec: string): string | undefined {
  try {
    parseStandard(spec);
    return undefined;
  } catch (err) {
    if (err instanceof CronError) return err.message;
    throw err;
  }
}

/** A parsed schedule: the activation times of a five-field spec (in a time zone) or of `@every`. */
export type CronSpec =
  | { kind: 'fields'; minute: Set<number>; hour: Set<number>; dom: Set<number>; month: Set<number>; dow: Set<number>; domStar: boolean; dowStar: boolean; location: string }
  | { kind: 'every'; everyMs: number };

/** cron.ParseStandard(spec) as a schedule; throws Error with the parser's text when it does not parse. */
export function cronSchedule(spec: string): CronSpec {
  return parseStandard(spec);
}

function parseStandard(input: string): CronSpec {
  let spec = input;
  let location = 'UTC';
  if (spec.length === 0) throw new CronError('empty spec string');
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const i = spec.indexOf(' ');
    const eq = spec.indexOf('=');
    // Go slices spec[eq+1:i]: with no space v3.0.1 panics (a 500 from the apiserver). kubefake
    // reports a bad location instead, a known difference.
    const name = i < 0 ? spec.slice(eq + 1) : spec.slice(eq + 1, i);
    const err = loadLocationError(name);
    if (err !== undefined || i < 0) throw new CronError(`provided bad location ${name}: ${err ?? `unknown time zone ${name}`}`);
    location = name === 'Local' || name === '' ? 'UTC' : name;
    spec = spec.slice(i).trim();
  }
  if (spec.startsWith('@')) {
    const descriptor = parseDescriptor(spec);
    if (typeof descriptor === 'number') return { kind: 'every', everyMs: descriptor };
    spec = descriptor;
  }
  const fields = goFields(spec);
  if (fields.length !== 5) throw new CronError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const [minute, hour, dom, month, dow] = [MINUTES, HOURS, DOM, MONTHS, DOW].map((bounds, i) => getField(fields[i]!, bounds));
  return { kind: 'fields', minute: minute!.values, hour: hour!.values, dom: dom!.values, month: month!.values, dow: dow!.values, domStar: dom!.star, dowStar: dow!.star, location };
}

/** The descriptors as the five fields they stand for (parser.go parseDescriptor). */
const DESCRIPTOR_FIELDS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

// unicode.IsSpace: JS's \s without U+FEFF (not white space to Go) and with U+0085 (NEL).
const GO_SPACES = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

/** strings.Fields: split around runs of Unicode white space. */
const goFields = (s: string): string[] => s.split(GO_SPACES).filter((f) => f !== '');

/** Five fields for a named descriptor, or the interval of `@every` in ms (rounded down to whole seconds, at least one: Every()). */
function parseDescriptor(descriptor: string): string | number {
  if (DESCRIPTORS.has(descriptor)) return DESCRIPTOR_FIELDS[descriptor]!;
  const every = '@every ';
  if (descriptor.startsWith(every)) {
    // parser.go: fmt.Errorf("failed to parse duration %s: %s", descriptor, err), err time.ParseDuration's.
    const parsed = goParseDurationResult(descriptor.slice(every.length));
    if (!parsed.ok) throw new CronError(`failed to parse duration ${descriptor}: ${parsed.error}`);
    return Math.max(1000, Math.floor(Number(parsed.nanos) / 1e9) * 1000);
  }
  throw new CronError(`unrecognized descriptor: ${descriptor}`);
}

/** The values a field allows, and whether it began with `*` or `?` (robfig's starBit, which day matching reads). */
function getField(field: string, r: Bounds): { values: Set<number>; star: boolean } {
  const values = new Set<number>();
  let star = false;
  // strings.FieldsFunc on ',': empty pieces are dropped.
  for (const expr of field.split(',').filter((p) => p !== '')) star = getRange(expr, r, values) || star;
  return { values, star };
}

function getRange(expr: string, r: Bounds, values: Set<number>): boolean {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  const singleDigit = lowAndHigh.length === 1;
  // uint in Go: kept as bigint so a number past 2^53 prints exactly in the range errors.
  let start: bigint;
  let end: bigint;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, r.names);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1n;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]!);
    if (singleDigit) end = r.max;
  } else if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (start < r.min) throw new CronError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new CronError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0n) throw new CronError(`step of range should be a positive number: ${expr}`);
  for (let v = start; v <= end; v += step) values.add(Number(v));
  return lowAndHigh[0] === '*' || lowAndHigh[0] === '?';
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** The wall clock of an instant in a time zone. */
function wallTime(ms: number, location: string): WallTime {
  if (location === 'UTC') {
    const d = new Date(ms);
    return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), weekday: d.getUTCDay() };
  }
  let format = formatters.get(location);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: location, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', weekday: 'short' });
    formatters.set(location, format);
  }
  const parts = Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, p.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute), weekday: WEEKDAYS[parts.weekday!] ?? 0 };
}

/**
 * The first activation strictly after `afterMs` (SpecSchedule.Next: whole minutes of the wall
 * clock in the schedule's location; day of month and day of week both restrict only when neither
 * is `*`, else either matches), or undefined when none comes within five years.
 */
export function cronNext(spec: CronSpec, afterMs: number): number | undefined {
  if (spec.kind === 'every') return Math.floor(afterMs / 1000) * 1000 + spec.everyMs;
  const limit = afterMs + 5 * 366 * 24 * 3_600_000;
  let t = Math.floor(afterMs / 60_000) * 60_000 + 60_000;
  while (t <= limit) {
    const w = wallTime(t, spec.location);
    const domMatch = spec.dom.has(w.day);
    const dowMatch = spec.dow.has(w.weekday);
    const dayMatches = spec.domStar || spec.dowStar ? domMatch && dowMatch : domMatch || dowMatch;
    if (!spec.month.has(w.month) || !dayMatches) t += (24 * 60 - (w.hour * 60 + w.minute)) * 60_000;
    else if (!spec.hour.has(w.hour)) t += (60 - w.minute) * 60_000;
    else if (!spec.minute.has(w.minute)) t += 60_000;
    else return t;
  }
  return undefined;
}

function parseIntOrName(expr: string, names: Record<string, bigint> | undefined): bigint {
  const named = names && getOwn(names, expr.toLowerCase());
  return typeof named === 'bigint' ? named : mustParseInt(expr);
}

/** parser.go mustParseInt: strconv.Atoi, then not negative. */
function mustParseInt(expr: string): bigint {
  const atoi = goAtoi(expr);
  if (typeof atoi === 'string') throw new CronError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${goQuote(expr)}: ${atoi}`);
  if (atoi < 0n) throw new CronError(`negative number (${atoi}) not allowed: ${expr}`);
  return atoi;
}

const MAX_UINT64 = 2n ** 64n - 1n;

/**
 * strconv.Atoi on a 64-bit platform (go/src/strconv/atoi.go): an optional sign and decimal digits
 * (no underscores in base 10), within int64; else its error. ParseUint reads left to right, so a
 * number that overflows uint64 before a bad character is `value out of range`, not `invalid syntax`.
 */
function goAtoi(s: string): bigint | 'invalid syntax' | 'value out of range' {
  const negative = s[0] === '-';
  const digits = s[0] === '-' || s[0] === '+' ? s.slice(1) : s;
  if (digits === '') return 'invalid syntax';
  let n = 0n;
  for (const c of digits) {
    if (c < '0' || c > '9') return 'invalid syntax';
    n = n * 10n + BigInt(c.charCodeAt(0) - 48);
    if (n > MAX_UINT64) return 'value out of range';
  }
  if (negative ? n > MAX_INT64 + 1n : n > MAX_INT64) return 'value out of range';
  return negative ? -n : n;
}
