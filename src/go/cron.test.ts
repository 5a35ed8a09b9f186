// cronSchedule/cronNext: the activations robfig/cron's SpecSchedule.Next gives, in UTC and in a
// TZ= location, with the day-of-month/day-of-week rule and the descriptors.
import { describe, expect, it } from 'vitest';
import { cronNext, cronParseStandardError, cronSchedule } from './cron.ts';

const next = (spec: string, after: string) => {
  const t = cronNext(cronSchedule(spec), Date.parse(after));
  return t === undefined ? undefined : new Date(t).toISOString();
};

describe('cronNext', () => {
  it('steps through minutes, hours and ranges', () => {
    expect(next('*/15 * * * *', '2025-01-01T00:07:00Z')).toBe('2025-01-01T00:15:00.000Z');
    expect(next('*/15 * * * *', '2025-01-01T00:15:00Z')).toBe('2025-01-01T00:30:00.000Z');
    expect(next('5 4 * * *', '2025-01-01T04:05:30Z')).toBe('2025-01-02T04:05:00.000Z');
    expect(next('0 0 1 1 *', '2025-03-01T00:00:00Z')).toBe('2026-01-01T00:00:00.000Z');
  });

  it('matches either day field when both are restricted, both when one is a star', () => {
    // 2025-01-01 is a Wednesday: the 13th or any Friday.
    expect(next('0 0 13 * 5', '2025-01-01T00:00:00Z')).toBe('2025-01-03T00:00:00.000Z');
    expect(next('0 0 * * 5', '2025-01-01T00:00:00Z')).toBe('2025-01-03T00:00:00.000Z');
    expect(next('0 0 13 * *', '2025-01-01T00:00:00Z')).toBe('2025-01-13T00:00:00.000Z');
  });

  it('reads the wall clock of a TZ= location, and names of months and days', () => {
    // 09:00 in New York is 14:00 UTC in January (EST).
    expect(next('TZ=America/New_York 0 9 * * mon-fri', '2025-01-01T00:00:00Z')).toBe('2025-01-01T14:00:00.000Z');
    expect(next('0 12 * jun *', '2025-01-01T00:00:00Z')).toBe('2025-06-01T12:00:00.000Z');
  });

  it('expands descriptors and @every', () => {
    expect(next('@hourly', '2025-01-01T00:30:00Z')).toBe('2025-01-01T01:00:00.000Z');
    expect(next('@weekly', '2025-01-01T00:00:00Z')).toBe('2025-01-05T00:00:00.000Z');
    expect(next('@every 90s', '2025-01-01T00:00:00Z')).toBe('2025-01-01T00:01:30.000Z');
  });

  it('still reports what does not parse', () => {
    expect(cronParseStandardError('* * *')).toBe('expected exactly 5 fields, found 3: [* * *]');
    expect(cronParseStandardError('*/5 * * * *')).toBeUndefined();
  });
});
