import { describe, expect, it } from 'vitest';
import { deepCopyJson } from './json-value.ts';

describe('deepCopyJson', () => {
  it('copies nested records and arrays, sharing nothing with the original', () => {
    const original = { a: [1, { b: 'c' }], d: { e: null, f: true } };
    const copy = deepCopyJson(original);
    expect(copy).toStrictEqual(original);
    expect(copy.a).not.toBe(original.a);
    expect(copy.a[1]).not.toBe(original.a[1]);
    expect(copy.d).not.toBe(original.d);
  });

  it('keeps a __proto__ key an own data property, not the copy’s prototype', () => {
    const original = JSON.parse('{"data":{"__proto__":{"polluted":"yes"},"x":"1"}}') as { data: Record<string, unknown> };
    const copy = deepCopyJson(original);
    expect(Object.getPrototypeOf(copy.data)).toBe(Object.prototype);
    expect(Object.keys(copy.data)).toEqual(['__proto__', 'x']);
    expect(Object.getOwnPropertyDescriptor(copy.data, '__proto__')?.value).toStrictEqual({ polluted: 'yes' });
    expect((copy.data as { polluted?: string }).polluted).toBeUndefined();
  });

  it('copies a frozen stored object into one that may be changed', () => {
    const frozen = Object.freeze({ spec: Object.freeze({ replicas: 1 }) });
    const copy = deepCopyJson(frozen) as { spec: { replicas: number } };
    copy.spec.replicas = 2;
    expect(frozen.spec.replicas).toBe(1);
  });
});
