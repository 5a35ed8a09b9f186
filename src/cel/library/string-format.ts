// `<string>.format(<list>)` of ext.Strings: %s %d %f %e %x %X %o %b and %%, with an optional
// precision for %f and %e (`%.3f`).
import { EvaluationError } from '@marcbachmann/cel-js';
import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { Duration } from '@marcbachmann/cel-js/evaluator';

function asString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : v === Infinity ? '+Inf' : v === -Infinity ? '-Inf' : String(v);
  if (v === null) return 'null';
  if (v instanceof UnsignedInt) return v.toString();
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  if (v instanceof Date) return v.toISOString().replace('.000Z', 'Z');
  if (v instanceof Duration) return v.toString();
  if (Array.isArray(v) || v instanceof Set) return `[${[...v].map(asQuoted).join(', ')}]`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${asQuoted(k)}: ${asQuoted(x)}`).join(', ')}}`;
  throw new EvaluationError(`error during formatting: unsupported type`);
}

const asQuoted = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : asString(v));

function integer(v: unknown, clause: string): bigint {
  if (typeof v === 'bigint') return v;
  if (v instanceof UnsignedInt) return v.valueOf();
  throw new EvaluationError(`error during formatting: ${clause} clause can only be used on integers, was given ${typeof v}`);
}

function radix(v: unknown, base: number, clause: string, upper = false): string {
  let s: string;
  if (typeof v === 'string' && base === 16) s = [...new TextEncoder().encode(v)].map((b) => b.toString(16).padStart(2, '0')).join('');
  else if (v instanceof Uint8Array && base === 16) s = [...v].map((b) => b.toString(16).padStart(2, '0')).join('');
  else {
    const n = integer(v, clause);
    s = (n < 0n ? '-' : '') + (n < 0n ? -n : n).toString(base);
  }
  return upper ? s.toUpperCase() : s;
}

function double(v: unknown, clause: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  throw new EvaluationError(`error during formatting: ${clause} clause can only be used on doubles, was given ${typeof v}`);
}

export function formatString(format: string, args: unknown[]): string {
  let out = '';
  let next = 0;
  for (let i = 0; i < format.length; i++) {
    const c = format[i];
    if (c !== '%') {
      out += c;
      continue;
    }
    let j = i + 1;
    let precision: number | undefined;
    if (format[j] === '.') {
      const m = /^\.(\d+)/.exec(format.slice(j));
      if (!m) throw new EvaluationError('could not parse formatting clause: malformed precision');
      precision = Number(m[1]);
      j += m[0].length;
    }
    const verb = format[j];
    if (verb === undefined) throw new EvaluationError('could not parse formatting clause: unexpected end of string');
    i = j;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (next >= args.length) throw new EvaluationError(`index ${next} out of range`);
    const v = args[next++];
    switch (verb) {
      case 's':
        out += asString(v);
        break;
      case 'd':
        out += integer(v, 'decimal').toString();
        break;
      case 'f':
        out += double(v, 'fixed-point').toFixed(precision ?? 6);
        break;
      case 'e':
        out += double(v, 'scientific').toExponential(precision ?? 6).replace(/e([+-])(\d)$/, 'e$10$2');
        break;
      case 'x':
      case 'X':
        out += radix(v, 16, 'hex', verb === 'X');
        break;
      case 'o':
        out += radix(v, 8, 'octal');
        break;
      case 'b':
        out += typeof v === 'boolean' ? String(v) : radix(v, 2, 'binary');
        break;
      default:
        throw new EvaluationError(`could not parse formatting clause: unrecognized formatting clause "${verb}"`);
    }
  }
  return out;
}
