// RFC 7386 appendix A vectors, and where evanphx json-patch (what the apiserver runs) departs
// from the RFC and from applyMergePatch.
import { describe, expect, it } from 'vitest';
import { isPlainObject } from '../apis/object.ts';
import { applyMergePatch, evanphxMergePatch } from './merge-patch.ts';

/** RFC 7386 appendix A: [target, patch, result]. */
const RFC_VECTORS: Array<[unknown, unknown, unknown]> = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [['a', 'b'], ['c', 'd'], ['c', 'd']],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

describe('applyMergePatch (RFC 7386)', () => {
  it.each(RFC_VECTORS)('%j + %j', (target, patch, expected) => {
    expect(applyMergePatch(target, patch)).toEqual(expected);
  });
  it('does not mutate the target', () => {
    const target = Object.freeze({ a: Object.freeze({ b: 1 }) });
    expect(applyMergePatch(target, { a: { c: 2 } })).toEqual({ a: { b: 1, c: 2 } });
    expect(target).toEqual({ a: { b: 1 } });
  });
});

describe('evanphxMergePatch', () => {
  // The apiserver patches objects: the vectors whose document and patch are both objects.
  const objectVectors = RFC_VECTORS.filter(([t, p]) => isPlainObject(t) && isPlainObject(p)) as [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>][];
  it.each(objectVectors)('RFC 7386: %j + %j', (doc, patch, want) => {
    expect(evanphxMergePatch(doc, patch)).toEqual(want);
  });

  it('prunes nulls inside objects in arrays unless the value lands on an existing object', () => {
    const patch = { a: [{ x: null, y: 1 }, null] };
    expect(evanphxMergePatch({}, patch)).toEqual({ a: [{ y: 1 }, null] });
    expect(evanphxMergePatch({ a: [1] }, patch)).toEqual({ a: [{ y: 1 }, null] });
    expect(evanphxMergePatch({ a: { z: 1 } }, patch)).toEqual({ a: [{ x: null, y: 1 }, null] });
    // The RFC (and applyMergePatch) keeps array contents verbatim.
    expect(applyMergePatch({}, patch)).toEqual({ a: [{ x: null, y: 1 }, null] });
  });

  it('does not mutate its inputs', () => {
    const doc = { a: { b: 1 } };
    const patch = { a: { b: null, c: [{ d: null }] } };
    expect(evanphxMergePatch(doc, patch)).toEqual({ a: { c: [{}] } });
    expect(doc).toEqual({ a: { b: 1 } });
    expect(patch).toEqual({ a: { b: null, c: [{ d: null }] } });
  });
});
