import { describe, expect, it } from 'vitest';
import { BoundedLog } from './bounded-log.ts';

describe('BoundedLog', () => {
  it('keeps the newest entries up to its limit, across many pushes', () => {
    const log = new BoundedLog<number>(3);
    for (let i = 0; i < 1000; i++) log.push(i);
    expect(log.toArray()).toEqual([997, 998, 999]);
    expect(log.length).toBe(3);
    log.clear();
    expect(log.toArray()).toEqual([]);
  });

  it('keeps nothing with a limit of 0 and refuses a bad limit', () => {
    const log = new BoundedLog<number>(0);
    log.push(1);
    expect(log.length).toBe(0);
    expect(() => new BoundedLog(1.5)).toThrow('kubefake: a log limit must be a non-negative integer, got 1.5');
  });
});
