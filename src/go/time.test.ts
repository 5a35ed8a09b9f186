import { describe, expect, it } from 'vitest';
import { formatTimestamp } from './time.ts';

describe('formatTimestamp (metav1.Time)', () => {
  it('truncates to the second, also when the same second or a different one is formatted in a row', () => {
    expect(formatTimestamp(new Date('2026-01-02T03:04:05.999Z'))).toBe('2026-01-02T03:04:05Z');
    expect(formatTimestamp(new Date('2026-01-02T03:04:05.001Z'))).toBe('2026-01-02T03:04:05Z');
    expect(formatTimestamp(new Date('2026-01-02T03:04:06.000Z'))).toBe('2026-01-02T03:04:06Z');
    expect(formatTimestamp(new Date('2026-01-02T03:04:05.500Z'))).toBe('2026-01-02T03:04:05Z');
    expect(formatTimestamp(new Date('1969-12-31T23:59:59.500Z'))).toBe('1969-12-31T23:59:59Z');
  });

  it('refuses an invalid date every time, as toISOString does', () => {
    expect(() => formatTimestamp(new Date(NaN))).toThrow(RangeError);
    expect(() => formatTimestamp(new Date(NaN))).toThrow(RangeError);
  });
});
