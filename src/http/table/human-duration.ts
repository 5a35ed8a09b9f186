// apimachinery/pkg/util/duration HumanDuration and the printers' translateTimestampSince: the
// "AGE" texts of tables (`5m`, `3d4h`). Go truncates toward zero at each step; so do we.
import { daysIn } from '../../go/time.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** A duration in milliseconds as HumanDuration prints it. */
export function humanDuration(ms: number): string {
  // A deviation under 2 s is tolerated as clock skew: it reads as "0s".
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/**
 * An RFC 3339 timestamp as the age printers show (`<unknown>` when unset, the zero time included);
 * undefined when the text does not parse (the caller decides what that means).
 */
export function ageSince(timestamp: unknown, now: Date): string | undefined {
  if (timestamp === undefined || timestamp === null || timestamp === '') return '<unknown>';
  const t = parseRfc3339(timestamp);
  if (t === undefined) return undefined;
  if (t === ZERO_TIME) return '<unknown>';
  return humanDuration(now.getTime() - t);
}

/** Milliseconds since the epoch of Go's zero time.Time (0001-01-01T00:00:00Z). */
const ZERO_TIME = utc(1, 1, 1);

// metav1.Time.UnmarshalQueryParameter: time.Parse(time.RFC3339, s). RFC3339 in Go accepts an
// optional fractional second and requires a zone (Z or ±hh:mm).
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Epoch milliseconds of an RFC 3339 text, or undefined when Go's time.Parse(RFC3339) rejects it. */
export function parseRfc3339(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y), month = Number(mo), day = Number(d), hour = Number(h), minute = Number(mi), second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || hour > 23 || minute > 59 || second > 59) return undefined;
  let ms = utc(year, month, day) + hour * HOUR + minute * MINUTE + second * SECOND + (frac ? Math.trunc(Number(`0${frac}`) * 1000) : 0);
  if (zone && zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const zh = Number(zone.slice(1, 3)), zm = Number(zone.slice(4, 6));
    if (zh > 23 || zm > 59) return undefined;
    ms -= sign * (zh * HOUR + zm * MINUTE);
  }
  return ms;
}

/** Epoch milliseconds of a UTC midnight; setUTCFullYear because Date.UTC maps years 0-99 to 19xx. */
function utc(year: number, month: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getTime();
}
