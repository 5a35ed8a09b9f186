// `<string>.format(<list>)` as Kubernetes runs it: cel-go v0.26 ext.Strings at version 2, i.e. the
// first formatter (ext/formatting.go, not formatting_v2.go) with the en_US locale. So `%s` of a
// double is Go's %g, doubles inside lists and maps print with six decimals, strings inside them are
// quoted, map entries print as `key:value` sorted by key, timestamps and durations inside them as
// `timestamp("…")` / `duration("…")`, `%f` groups thousands (golang.org/x/text), `%e` prints
// `1.052033 × 10⁰³`, and NaN/±Infinity are `NaN`, `∞`, `-∞` under %f and %e.
import { EvaluationError } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { formatDuration, formatTimestamp } from './timestamps.ts';
import { goQuote } from '../../errors/go-format.ts';

class FormatError extends Error {}

/** cel-go's TypeName() of a runtime value. */
function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'null_type';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'bigint':
      return 'int';
    case 'number':
      return 'double';
    case 'boolean':
      return 'bool';
  }
  if (v instanceof UnsignedInt) return 'uint';
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof Date) return 'google.protobuf.Timestamp';
  if (v instanceof Duration) return 'google.protobuf.Duration';
  if (Array.isArray(v) || v instanceof Set) return 'list';
  if (v instanceof Map) return 'map';
  if (isType(v)) return 'type';
  const ctor = (v as object).constructor;
  return ctor === Object || ctor === undefined ? 'map' : ctor.name;
}

// The engine's type values (`type(x)`) are instances of its Type class, named by `name`.
const isType = (v: unknown): v is { name: string } => typeof v === 'object' && v !== null && v.constructor?.name === 'Type' && typeof (v as { name?: unknown }).name === 'string';

const isList = (v: unknown): v is Iterable<unknown> => Array.isArray(v) || v instanceof Set;
const isMap = (v: unknown): boolean => v instanceof Map || (typeof v === 'object' && v !== null && (v.constructor === Object || v.constructor === undefined));
const entriesOf = (v: unknown): [unknown, unknown][] => (v instanceof Map ? [...v] : Object.entries(v as object));

/** Go's %g: shortest digits, with an exponent (two digits at least) below 1e-4 and from 1e6 on. */
function goG(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mant, expText] = x.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(x);
}

/** digits × 10^(point − digits.length), rounded half-even to `places` decimals. */
function roundDecimal(digits: string, point: number, places: number): { int: string; frac: string } {
  const k = point + places - digits.length;
  let n: bigint;
  if (k >= 0) n = BigInt(digits) * 10n ** BigInt(k);
  else {
    const unit = 10n ** BigInt(-k);
    const d = BigInt(digits);
    n = d / unit;
    const twice = (d % unit) * 2n;
    if (twice > unit || (twice === unit && n % 2n === 1n)) n += 1n;
  }
  const all = n.toString().padStart(places + 1, '0');
  return { int: all.slice(0, all.length - places), frac: all.slice(all.length - places) };
}

/** x/text rounds the shortest decimal representation of the double. */
function roundShortest(x: number, places: number): { int: string; frac: string } {
  const [mant, exp] = Math.abs(x).toExponential().split('e') as [string, string];
  return roundDecimal(mant.replace('.', ''), Number(exp) + 1, places);
}

/** Go's fmt rounds the exact binary value of the double. */
function roundExact(x: number, places: number): { int: string; frac: string } {
  const a = Math.abs(x);
  if (a >= 1e21) return roundDecimal(BigInt(a).toString(), BigInt(a).toString().length, places);
  const [int, frac = ''] = a.toFixed(100).split('.') as [string, string?];
  return roundDecimal(int + frac, int.length, places);
}

const group = (int: string): string => int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** x/text's en_US `%.Nf`: grouped thousands, half-even rounding of the shortest digits, ∞ for infinity. */
function localeFixed(x: number, places: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x < 0 ? '-∞' : '∞';
  const { int, frac } = roundShortest(x, places);
  const sign = x < 0 && /[1-9]/.test(int + frac) ? '-' : '';
  return `${sign}${group(int)}${places > 0 ? '.' + frac : ''}`;
}

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** x/text's en_US `%.Ne`: `2.718280 × 10⁰⁰` (narrow no-break spaces, superscript exponent of two digits at least). */
function localeScientific(x: number, places: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x < 0 ? '-∞' : '∞';
  const [mant, expText] = Math.abs(x).toExponential().split('e') as [string, string];
  let exp = Number(expText);
  let { int, frac } = roundDecimal(mant.replace('.', ''), 1, places);
  if (int.length > 1) {
    // 9.99… rounded up to 10: one more in the exponent.
    exp += 1;
    ({ int, frac } = roundDecimal(int + frac, 1, places));
  }
  const sign = x < 0 ? '-' : '';
  const e = String(Math.abs(exp)).padStart(2, '0').replace(/\d/g, (d) => SUPERSCRIPT[Number(d)]!);
  return `${sign}${int}${places > 0 ? '.' + frac : ''}\u202f×\u202f10${exp < 0 ? '⁻' : ''}${e}`;
}

function bytesToString(b: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    throw new FormatError('invalid UTF-8 in bytes, cannot convert to string');
  }
}

const STRING_CLAUSE = 'string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given';

/** FormatString: `%s`. */
function formatS(v: unknown): string {
  if (isList(v)) return formatList(v);
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return v;
    case 'bigint':
    case 'boolean':
      return String(v);
    case 'number':
      return goG(v);
  }
  if (v instanceof UnsignedInt) return v.valueOf().toString();
  if (v instanceof Uint8Array) return bytesToString(v);
  if (v instanceof Date) return formatTimestamp(v);
  if (v instanceof Duration) return formatDuration(v);
  if (isType(v)) return v.name;
  if (isMap(v)) return formatMap(v);
  throw new FormatError(`${STRING_CLAUSE} ${typeName(v)}`);
}

/** clauseForType + quoteForCEL: a list member or map value, as a CEL literal where it can be one. */
function formatMember(v: unknown): string {
  if (typeof v === 'number') return Number.isFinite(v) ? goFixed(v, 6) : goQuote(goG(v));
  if (typeof v === 'string') return goQuote(v);
  if (v instanceof Uint8Array) return 'b' + goQuote(bytesToString(v));
  if (v instanceof Date) return `timestamp(${goQuote(formatTimestamp(v))})`;
  if (v instanceof Duration) return `duration(${goQuote(formatDuration(v))})`;
  if (v === null || v === undefined || typeof v === 'bigint' || typeof v === 'boolean' || v instanceof UnsignedInt || isType(v) || isList(v) || isMap(v)) return formatS(v);
  throw new FormatError(`no formatting function for ${typeName(v)}`);
}

function formatList(list: Iterable<unknown>): string {
  return `[${[...list].map(formatMember).join(', ')}]`;
}

function formatMap(map: unknown): string {
  const pairs = entriesOf(map).map(([k, v]) => {
    let key: string;
    if (typeof k === 'string') key = goQuote(k);
    else if (typeof k === 'boolean' || typeof k === 'bigint') key = String(k);
    else if (k instanceof UnsignedInt) key = k.valueOf().toString();
    else throw new FormatError(`no formatting function for map key of type ${typeName(k)}`);
    return [key, formatMember(v)] as const;
  });
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `{${pairs.map(([k, v]) => `${k}:${v}`).join(', ')}}`;
}

/** Go's fmt `%.Nf`, for doubles inside lists and maps. */
function goFixed(x: number, places: number): string {
  const { int, frac } = roundExact(x, places);
  return `${x < 0 || Object.is(x, -0) ? '-' : ''}${int}${places > 0 ? '.' + frac : ''}`;
}

function decimal(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof UnsignedInt) return v.valueOf().toString();
  throw new FormatError(`decimal clause can only be used on integers, was given ${typeName(v)}`);
}

/** %f / %e accept doubles and the strings NaN, Infinity and -Infinity. */
function floatArg(v: unknown, clause: string): number {
  if (typeof v === 'number') return v;
  if (v === 'NaN' || v === 'Infinity' || v === '-Infinity') return Number(v);
  throw new FormatError(`${clause} clause can only be used on doubles, was given ${typeName(v)}`);
}

function binary(v: unknown): string {
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'bigint') return v.toString(2);
  if (v instanceof UnsignedInt) return v.valueOf().toString(2);
  throw new FormatError(`only integers and bools can be formatted as binary, was given ${typeName(v)}`);
}

function hex(v: unknown, upper: boolean): string {
  let s: string;
  if (typeof v === 'string') s = Buffer.from(v, 'utf8').toString('hex');
  else if (v instanceof Uint8Array) s = Buffer.from(v).toString('hex');
  else if (typeof v === 'bigint') s = v.toString(16);
  else if (v instanceof UnsignedInt) s = v.valueOf().toString(16);
  else throw new FormatError(`only integers, byte buffers, and strings can be formatted as hex, was given ${typeName(v)}`);
  return upper ? s.toUpperCase() : s;
}

function octal(v: unknown): string {
  if (typeof v === 'bigint') return v.toString(8);
  if (v instanceof UnsignedInt) return v.valueOf().toString(8);
  throw new FormatError(`octal clause can only be used on integers, was given ${typeName(v)}`);
}

/** parseFormatString: the same order of checks and the same error texts. */
export function formatString(format: string, args: unknown[]): string {
  let out = '';
  let argIndex = 0;
  for (let i = 0; i < format.length; ) {
    if (format[i] !== '%') {
      out += format[i++];
      continue;
    }
    if (format[i + 1] === '%') {
      out += '%';
      i += 2;
      continue;
    }
    if (argIndex >= args.length) throw new EvaluationError(`index ${argIndex} out of range`);
    if (i + 1 >= format.length) throw new EvaluationError('unexpected end of string');
    const arg = args[argIndex];
    let j = i + 1;
    let precision: number | undefined;
    if (format[j] === '.') {
      j++;
      let digits = '';
      for (;;) {
        if (j >= format.length) throw new EvaluationError('could not parse formatting clause: error while parsing precision: could not find end of precision specifier');
        if (!/[0-9]/.test(format[j]!)) break;
        digits += format[j++];
      }
      if (digits === '') throw new EvaluationError('could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax');
      precision = Number(digits);
    }
    const verb = format[j]!;
    let text: string;
    try {
      switch (verb) {
        case 's':
          text = formatS(arg);
          break;
        case 'd':
          text = decimal(arg);
          break;
        case 'f':
          text = localeFixed(floatArg(arg, 'fixed-point'), precision ?? 6);
          break;
        case 'e':
          text = localeScientific(floatArg(arg, 'scientific'), precision ?? 6);
          break;
        case 'b':
          text = binary(arg);
          break;
        case 'x':
        case 'X':
          text = hex(arg, verb === 'X');
          break;
        case 'o':
          text = octal(arg);
          break;
        default:
          throw new EvaluationError(`could not parse formatting clause: unrecognized formatting clause "${verb}"`);
      }
    } catch (e) {
      if (e instanceof FormatError) throw new EvaluationError(`error during formatting: ${e.message}`);
      throw e;
    }
    out += text;
    i = j + 1;
    argIndex++;
  }
  return out;
}
