import { describe, expect, it } from 'vitest';
import { RECURSION_ERROR, recursionErrorOnOverflow } from './recursion-depth.ts';

describe('recursionErrorOnOverflow', () => {
  it('answers a pass that overflows the stack with the recursion error (CI met one as a 500 for 3,000 `||` terms)', () => {
    const deep = (n: number): number => (n === 0 ? 0 : 1 + deep(n - 1));
    expect(recursionErrorOnOverflow(() => deep(1e7))).toEqual({ error: RECURSION_ERROR });
    expect(RECURSION_ERROR).toBe('ERROR: <input>:-1:0: max recursion depth exceeded');
  });

  it('answers what a pass that fits returns, and lets its other errors through', () => {
    expect(recursionErrorOnOverflow(() => 42)).toEqual({ value: 42 });
    expect(() => recursionErrorOnOverflow(() => {
      throw new TypeError('not an overflow');
    })).toThrow('not an overflow');
  });
});
