import { describe, expect, it } from 'vitest';
import { builtinResourceTypes } from './index.ts';

describe('built-in subresources', () => {
  it('every kind that lists status or scale in discovery serves it, and no other kind does', () => {
    for (const type of builtinResourceTypes()) {
      expect(!!type.statusStrategy, `${type.plural} status`).toBe(type.subresources.includes('status'));
      expect(!!type.scale, `${type.plural} scale`).toBe(type.subresources.includes('scale'));
    }
  });
});
