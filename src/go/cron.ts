// github.com/robfig/cron/v3 (v3.0.1, parser.go) ParseStandard's checks, as kube-apiserver runs them
// on a CronJob's spec.schedule: the error texts are what the Invalid cause carries, so they are
// reproduced as Go prints them (`expected exactly 5 fields, found 1: [x]`). A spec that parses is
// also a schedule: cronSchedule() answers the next activation after an instant (SpecSchedule.Next
// and ConstantDelaySchedule.Next), in the spec's TZ= location or UTC.
import { getOwn } from '../util/own-property.ts';
import { goParseDuration } from './duration.ts';
import { loadLocationError } from './time-zone.ts';

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = { min: 1, max: 12, names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 } };
const DOW: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };
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

/** strings.Fields: split around runs of Unicode white space. */
const goFields = (s: string): string[] => s.split(/\s+/u).filter((f) => f !== '');

/** Five fields for a named descriptor, or the interval of `@every` in ms (rounded down to whole seconds, at least one: Every()). */
function parseDescriptor(descriptor: string): string | number {
  if (DESCRIPTORS.has(descriptor)) return DESCRIPTOR_FIELDS[descriptor]!;
  const every = '@every ';
  if (descriptor.startsWith(every)) {
    const text = descriptor.slice(every.length);
    const duration = goParseDuration(text);
    if (duration === undefined) throw new CronError(`failed to parse duration ${descriptor}: time: invalid duration ${JSON.stringify(text)}`);
    return Math.max(1000, Math.floor(Number(duration) / 1e9) * 1000);
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
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, r.names);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]!);
    if (singleDigit) end = r.max;
  } else if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (start < r.min) throw new CronError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new CronError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
  for (let v = start; v <= end; v += step) values.add(v);
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

function parseIntOrName(expr: string, names: Record<string, number> | undefined): number {
  const named = names && getOwn(names, expr.toLowerCase());
  return typeof named === 'number' ? named : mustParseInt(expr);
}

/** strconv.Atoi (an optional sign, decimal digits, within int64), then not negative. */
function mustParseInt(expr: string): number {
  if (!/^[+-]?[0-9]+$/.test(expr)) throw new CronError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`);
  const n = BigInt(expr);
  if (n > MAX_INT64 || n < -MAX_INT64 - 1n) throw new CronError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: value out of range`);
  if (n < 0n) throw new CronError(`negative number (${n}) not allowed: ${expr}`);
  // Beyond any bound: the range checks report it with Go's uint value, exact for these sizes.
  return Number(n);
}
