// github.com/robfig/cron/v3 (v3.0.1, parser.go) ParseStandard's checks, as kube-apiserver runs them
// on a CronJob's spec.schedule: the error texts are what the Invalid cause carries, so they are
// reproduced as Go prints them (`expected exactly 5 fields, found 1: [x]`). Only whether and how a
// spec fails is ported; no schedule is computed.
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

function parseStandard(input: string): void {
  let spec = input;
  if (spec.length === 0) throw new CronError('empty spec string');
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const i = spec.indexOf(' ');
    const eq = spec.indexOf('=');
    // Go slices spec[eq+1:i]: with no space v3.0.1 panics (a 500 from the apiserver). kubefake
    // reports a bad location instead, a known difference.
    const name = i < 0 ? spec.slice(eq + 1) : spec.slice(eq + 1, i);
    const err = loadLocationError(name);
    if (err !== undefined || i < 0) throw new CronError(`provided bad location ${name}: ${err ?? `unknown time zone ${name}`}`);
    spec = spec.slice(i).trim();
  }
  if (spec.startsWith('@')) return parseDescriptor(spec);
  const fields = goFields(spec);
  if (fields.length !== 5) throw new CronError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  [MINUTES, HOURS, DOM, MONTHS, DOW].forEach((bounds, i) => getField(fields[i]!, bounds));
}

/** strings.Fields: split around runs of Unicode white space. */
const goFields = (s: string): string[] => s.split(/\s+/u).filter((f) => f !== '');

function parseDescriptor(descriptor: string): void {
  if (DESCRIPTORS.has(descriptor)) return;
  const every = '@every ';
  if (descriptor.startsWith(every)) {
    const text = descriptor.slice(every.length);
    if (goParseDuration(text) === undefined) throw new CronError(`failed to parse duration ${descriptor}: time: invalid duration ${JSON.stringify(text)}`);
    return;
  }
  throw new CronError(`unrecognized descriptor: ${descriptor}`);
}

function getField(field: string, r: Bounds): void {
  // strings.FieldsFunc on ',': empty pieces are dropped.
  for (const expr of field.split(',').filter((p) => p !== '')) getRange(expr, r);
}

function getRange(expr: string, r: Bounds): void {
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
