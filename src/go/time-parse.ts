// time.Parse for the two layouts metav1.Time and metav1.MicroTime decode with (time.RFC3339 and
// RFC3339Micro), walking the layout as Go's general parser does so a bad value fails with Go's
// text: `parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`, or
// `parsing time "2024-13-01T00:00:00Z": month out of range`.

import { goTimeQuote } from './time-quote.ts';
import { daysIn } from './time.ts';

export const RFC3339 = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

/** Milliseconds since the epoch plus the sub-millisecond nanoseconds, or Go's error text. */
export type GoTimeResult = { ok: true; epochMs: number; nanos: number } | { ok: false; error: string };

// time.ParseError quotes with time's own quote (format.go), not strconv.Quote.
const quote = goTimeQuote;

const ELEMENTS: Record<string, string[]> = {
  [RFC3339]: ['2006', '-', '01', '-', '02', 'T', '15', ':', '04', ':', '05', 'Z07:00'],
  [RFC3339_MICRO]: ['2006', '-', '01', '-', '02', 'T', '15', ':', '04', ':', '05', '.000000', 'Z07:00'],
};

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** time.Parse(layout, value) for RFC3339 / RFC3339Micro. */
export function goParseTime(layout: typeof RFC3339 | typeof RFC3339_MICRO, value: string): GoTimeResult {
  const cannot = (rest: string, elem: string): GoTimeResult => ({
    ok: false,
    error: `parsing time ${quote(value)} as ${quote(layout)}: cannot parse ${quote(rest)} as ${quote(elem)}`,
  });
  const range = (what: string): GoTimeResult => ({ ok: false, error: `parsing time ${quote(value)}: ${what} out of range` });
  let rest = value;
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let nanos = 0;
  let offsetMinutes = 0;
  /** getnum / getnum3: one or two digits (exactly two when fixed). */
  const num = (fixed: boolean): number | undefined => {
    if (!isDigit(rest[0])) return undefined;
    if (!isDigit(rest[1])) {
      if (fixed) return undefined;
      const n = Number(rest[0]);
      rest = rest.slice(1);
      return n;
    }
    const n = Number(rest.slice(0, 2));
    rest = rest.slice(2);
    return n;
  };
  const elements = ELEMENTS[layout]!;
  for (let k = 0; k < elements.length; k++) {
    const elem = elements[k]!;
    const before = rest;
    switch (elem) {
      case '2006': {
        if (rest.length < 4 || ![0, 1, 2, 3].every((j) => isDigit(rest[j]))) return cannot(before, elem);
        year = Number(rest.slice(0, 4));
        rest = rest.slice(4);
        break;
      }
      case '01': {
        const n = num(true);
        if (n === undefined) return cannot(before, elem);
        if (n <= 0 || n > 12) return range('month');
        month = n;
        break;
      }
      case '02': {
        const n = num(true);
        if (n === undefined) return cannot(before, elem);
        if (n > 31) return range('day');
        day = n;
        break;
      }
      case '15': {
        const n = num(false);
        if (n === undefined) return cannot(before, elem);
        if (n >= 24) return range('hour');
        hour = n;
        break;
      }
      case '04': {
        const n = num(true);
        if (n === undefined) return cannot(before, elem);
        if (n >= 60) return range('minute');
        minute = n;
        break;
      }
      case '05': {
        const n = num(true);
        if (n === undefined) return cannot(before, elem);
        if (n >= 60) return range('second');
        second = n;
        // A fraction the layout does not name is taken anyway (unless a fraction element follows).
        if (elements[k + 1] !== '.000000' && (rest[0] === '.' || rest[0] === ',') && isDigit(rest[1])) {
          let j = 1;
          while (isDigit(rest[j])) j++;
          // parseNanoseconds: the first nine digits, the rest cut off (never rounded).
          nanos = Number(rest.slice(1, Math.min(j, 10)).padEnd(9, '0'));
          rest = rest.slice(j);
        }
        break;
      }
      case '.000000': {
        if (rest.length < 7 || rest[0] !== '.' || ![1, 2, 3, 4, 5, 6].every((j) => isDigit(rest[j]))) return cannot(before, elem);
        nanos = Number(rest.slice(1, 7)) * 1000;
        rest = rest.slice(7);
        break;
      }
      case 'Z07:00': {
        if (rest[0] === 'Z') {
          rest = rest.slice(1);
          break;
        }
        if (rest.length < 6 || (rest[0] !== '+' && rest[0] !== '-') || rest[3] !== ':') return cannot(before, elem);
        const hh = rest.slice(1, 3);
        const mm = rest.slice(4, 6);
        if (![...hh, ...mm].every(isDigit)) return cannot(before, elem);
        offsetMinutes = (rest[0] === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm));
        // `>` rather than `>=`, "as some people do write offsets of 24 hours or 60 minutes"
        // (time/format.go); the minute's error is the one reported when both are out of range.
        if (Number(mm) > 60) return range('time zone offset minute');
        if (Number(hh) > 24) return range('time zone offset hour');
        rest = rest.slice(6);
        break;
      }
      default: {
        if (!rest.startsWith(elem)) return cannot(before, elem);
        rest = rest.slice(elem.length);
      }
    }
  }
  if (rest.length > 0) return { ok: false, error: `parsing time ${quote(value)}: extra text: ${quote(rest)}` };
  if (day < 1 || day > daysIn(month, year)) return { ok: false, error: `parsing time ${quote(value)}: day out of range` };
  const utc = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * 60_000;
  // Date.UTC maps years 0-99 to 1900-1999; Go does not.
  const epochMs = year < 100 ? new Date(utc).setUTCFullYear(year) : utc;
  return { ok: true, epochMs: epochMs + Math.floor(nanos / 1e6), nanos: nanos % 1e6 };
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** t.UTC().Format(RFC3339), or RFC3339Micro with `micro`: what metav1.Time/MicroTime MarshalJSON write. */
export function goFormatTimeUtc(epochMs: number, nanos: number, micro: boolean): string {
  const d = new Date(epochMs);
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
  if (!micro) return `${base}Z`;
  const micros = (((epochMs % 1000) + 1000) % 1000) * 1000 + Math.floor(nanos / 1000);
  return `${base}.${pad(micros, 6)}Z`;
}
