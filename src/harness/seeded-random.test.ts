import { describe, expect, it } from 'vitest';
import { seededRandom } from './seeded-random.ts';

describe('seededRandom', () => {
  it('gives v4-shaped uuids, repeatable per seed', () => {
    const a = seededRandom('x');
    const b = seededRandom('x');
    const uids = Array.from({ length: 50 }, () => a.uid());
    expect(uids).toEqual(Array.from({ length: 50 }, () => b.uid()));
    for (const uid of uids) expect(uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(uids).size).toBe(50);
    expect(seededRandom(0).uid()).not.toBe(seededRandom(1).uid());
  });

  it('picks every character of an alphabet', () => {
    const random = seededRandom(42);
    const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
    const seen = new Set(Array.from({ length: 2000 }, () => random.pick(alphabet)));
    expect([...seen].sort().join('')).toBe([...alphabet].sort().join(''));
  });

  it('refuses a seed that is not a finite number or a string', () => {
    expect(() => seededRandom(Number.NaN)).toThrow('kubefake: seed must be a finite number or a string, got NaN');
  });
});
