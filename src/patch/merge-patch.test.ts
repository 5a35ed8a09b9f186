// RFC 7386 appendix A vectors, and where evanphx json-patch (what the apiserver runs) departs
// from the RFC and from src/registry/merge-patch.ts.
import { describe, expect, it } from 'vitest';
import { applyMergePatch } from '../registry/merge-patch.ts';
import { evanphxMergePatch } from './merge-patch.ts';

describe('evanphxMergePatch', () => {
  const rfc: [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  it.each(rfc)('RFC 7386: %j + %j', (doc, patch, want) => {
    expect(evanphxMergePatch(doc, patch)).toEqual(want);
  });

  it('prunes nulls inside objects in arrays unless the value lands on an existing object', () => {
    const patch = { a: [{ x: null, y: 1 }, null] };
    expect(evanphxMergePatch({}, patch)).toEqual({ a: [{ y: 1 }, null] });
    expect(evanphxMergePatch({ a: [1] }, patch)).toEqual({ a: [{ y: 1 }, null] });
    expect(evanphxMergePatch({ a: { z: 1 } }, patch)).toEqual({ a: [{ x: null, y: 1 }, null] });
    // The RFC (and src/registry/merge-patch.ts) keeps array contents verbatim.
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
