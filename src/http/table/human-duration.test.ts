import { describe, expect, it } from 'vitest';
import { ageSince, humanDuration, parseRfc3339 } from './human-duration.ts';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration (util/duration HumanDuration)', () => {
  it.each([
    [-2 * s, '<invalid>'],
    [-1 * s, '0s'],
    [-999, '0s'],
    [0, '0s'],
    [7 * s, '7s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [5 * m + 3 * s, '5m3s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 20 * m, '3h20m'],
    [8 * h + 20 * m, '8h'],
    [47 * h, '47h'],
    [2 * d, '2d'],
    [3 * d + 4 * h, '3d4h'],
    [8 * d + 4 * h, '8d'],
    [729 * d, '729d'],
    [730 * d, '2y'],
    [3 * 365 * d + 12 * d, '3y12d'],
    [9 * 365 * d, '9y'],
  ])('%d ms prints %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});

describe('ageSince', () => {
  const now = new Date('2025-01-10T12:00:00Z');
  it('prints the age of an RFC 3339 time, <unknown> for unset and the zero time', () => {
    expect(ageSince('2025-01-10T11:55:00Z', now)).toBe('5m');
    expect(ageSince('2025-01-10T13:55:00+02:00', now)).toBe('5m');
    expect(ageSince(undefined, now)).toBe('<unknown>');
    expect(ageSince('', now)).toBe('<unknown>');
    expect(ageSince('0001-01-01T00:00:00Z', now)).toBe('<unknown>');
    expect(ageSince('yesterday', now)).toBeUndefined();
  });

  it('parses like time.Parse(RFC3339): zone required, fractions allowed, calendar checked', () => {
    expect(parseRfc3339('2025-01-10T11:55:00.5Z')).toBe(Date.parse('2025-01-10T11:55:00.500Z'));
    expect(parseRfc3339('2025-01-10T11:55:00')).toBeUndefined();
    expect(parseRfc3339('2025-02-30T00:00:00Z')).toBeUndefined();
    expect(parseRfc3339('2024-02-29T00:00:00Z')).toBe(Date.parse('2024-02-29T00:00:00Z'));
  });
});
