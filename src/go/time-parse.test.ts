import { describe, expect, it } from 'vitest';
import { goFormatTimeUtc, goParseTime, RFC3339, RFC3339_MICRO } from './time-parse.ts';

const formatted = (layout: typeof RFC3339 | typeof RFC3339_MICRO, value: string) => {
  const r = goParseTime(layout, value);
  return r.ok ? goFormatTimeUtc(r.epochMs, r.nanos, layout === RFC3339_MICRO) : r.error;
};

describe('time.Parse(RFC3339)', () => {
  it('accepts offsets and fractions, and formats back in UTC at whole seconds', () => {
    expect(formatted(RFC3339, '2024-05-01T12:00:00.75+02:00')).toBe('2024-05-01T10:00:00Z');
    expect(formatted(RFC3339, '2024-02-29T23:59:59Z')).toBe('2024-02-29T23:59:59Z');
    expect(formatted(RFC3339, '0001-01-01T00:00:00Z')).toBe('0001-01-01T00:00:00Z');
  });

  it('cuts a fraction to nanoseconds without rounding, and takes offsets up to 24 hours and 60 minutes', () => {
    const r = goParseTime(RFC3339, '2024-05-01T12:00:59.9999999999Z');
    expect(r.ok && goFormatTimeUtc(r.epochMs, r.nanos, true)).toBe('2024-05-01T12:00:59.999999Z');
    expect(formatted(RFC3339, '2024-05-01T12:00:00+24:00')).toBe('2024-04-30T12:00:00Z');
    expect(formatted(RFC3339, '2024-05-01T12:00:00+00:60')).toBe('2024-05-01T11:00:00Z');
    expect(formatted(RFC3339, '2024-05-01T12:00:00+25:00')).toBe('parsing time "2024-05-01T12:00:00+25:00": time zone offset hour out of range');
    expect(formatted(RFC3339, '2024-05-01T12:00:00+25:61')).toBe('parsing time "2024-05-01T12:00:00+25:61": time zone offset minute out of range');
  });

  it('names the value and the layout element it could not read', () => {
    expect(formatted(RFC3339, 'yesterday')).toBe('parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"');
    expect(formatted(RFC3339, '2024-05-01 10:00:00Z')).toBe('parsing time "2024-05-01 10:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 10:00:00Z" as "T"');
    expect(formatted(RFC3339, '2024-05-01T10:00:00')).toBe('parsing time "2024-05-01T10:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"');
  });

  it('reports ranges and trailing text', () => {
    expect(formatted(RFC3339, '2024-13-01T00:00:00Z')).toBe('parsing time "2024-13-01T00:00:00Z": month out of range');
    expect(formatted(RFC3339, '2023-02-29T00:00:00Z')).toBe('parsing time "2023-02-29T00:00:00Z": day out of range');
    expect(formatted(RFC3339, '2024-01-01T00:00:00Zjunk')).toBe('parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"');
  });

  it('quotes as time does (format.go quote), not as strconv.Quote: non-ASCII and control bytes as \\xNN', () => {
    expect(formatted(RFC3339, 'é')).toBe('parsing time "\\xc3\\xa9" as "2006-01-02T15:04:05Z07:00": cannot parse "\\xc3\\xa9" as "2006"');
    expect(formatted(RFC3339, '2024-01-01T00:00:00Z\t"\u007f')).toBe('parsing time "2024-01-01T00:00:00Z\\x09\\"\u007f": extra text: "\\x09\\"\u007f"');
    expect(formatted(RFC3339, '\ud83d\ude00')).toBe('parsing time "\\xf0\\x9f\\x98\\x80" as "2006-01-02T15:04:05Z07:00": cannot parse "\\xf0\\x9f\\x98\\x80" as "2006"');
  });
});

describe('time.Parse(RFC3339Micro)', () => {
  it('needs six fractional digits and keeps them', () => {
    expect(formatted(RFC3339_MICRO, '2024-01-01T00:00:00.123456Z')).toBe('2024-01-01T00:00:00.123456Z');
    expect(formatted(RFC3339_MICRO, '2024-01-01T00:00:00Z')).toBe(
      'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    );
  });
});
