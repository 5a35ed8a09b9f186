// time.Duration's String() for the kubelet's pull times ("in 1.5s (1.5s including waiting)").
import { describe, expect, it } from 'vitest';
import { goDurationString } from './duration.ts';

describe('goDurationString', () => {
  it('prints milliseconds as Go prints a Duration', () => {
    expect([0, 1, 313, 1000, 1500, 5025, 60_000, 65_500, 3_600_000, 3_723_004].map(goDurationString)).toEqual([
      '0s',
      '1ms',
      '313ms',
      '1s',
      '1.5s',
      '5.025s',
      '1m0s',
      '1m5.5s',
      '1h0m0s',
      '1h2m3.004s',
    ]);
  });
});
