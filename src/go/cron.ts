// github.com/robfig/cron/v3 (v3.0.1, parser.go) ParseStandard's checks, as kube-apiserver runs them
// on a CronJob's spec.schedule: the error texts are what the Invalid cause carries, so they are
// reproduced as Go prints them (`expected exactly 5 fields, found 1: [x]`). Only whether and how a
// spec fails is ported; no schedule is computed.
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

// unicode.IsSpace: JS's \s without U+FEFF (not white space to Go) and with U+0085 (NEL).
const GO_SPACES = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

/** strings.Fields: split around runs of Unicode white space. */
const goFields = (s: string): string[] => s.split(GO_SPACES).filter((f) => f !== '');

function parseDescriptor(descriptor: string): void {
  if (DESCRIPTORS.has(descriptor)) return;
  const every = '@every ';
  if (descriptor.startsWith(every)) {
    // parser.go: fmt.Errorf("failed to parse duration %s: %s", descriptor, err), err time.ParseDuration's.
    const parsed = goParseDurationResult(descriptor.slice(every.length));
    if (!parsed.ok) throw new CronError(`failed to parse duration ${descriptor}: ${parsed.error}`);
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
