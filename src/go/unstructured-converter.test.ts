// runtime.DefaultUnstructuredConverter's rules (converter.go fromUnstructured) over hand-written facts.
import { describe, expect, it } from 'vitest';
import { GoTypeSystem } from './typed-json.ts';
import { convertFromUnstructured } from './unstructured-converter.ts';

const facts = {
  named: {},
  structs: {
    'pkg.v1.Thing': [
      ['spec', 'pkg.v1.Spec', 1],
      ['data', 'map[string]string', 1],
    ],
    'pkg.v1.Spec': [
      ['count', '*int32', 1],
      ['ratio', 'float64', 1],
      ['name', 'string', 1],
      ['items', '[]pkg.v1.Item', 1],
    ],
    'pkg.v1.Item': [['a', 'string', 1]],
  },
} as const;
const types = new GoTypeSystem(facts as never, new Set());
const convert = (value: Record<string, unknown>, returnUnknownFields = true) =>
  convertFromUnstructured(types, value, 'pkg.v1.Thing', { returnUnknownFields, special: {}, base64Error: () => undefined });

describe('FromUnstructuredWithValidation', () => {
  it('refuses what JSON cannot convert, with the converter’s texts', () => {
    expect(convert({ spec: { count: 'three' } })).toEqual({ ok: false, error: 'unrecognized type: int32' });
    expect(convert({ spec: { count: 1.5 } })).toEqual({ ok: false, error: 'cannot convert float64 to int32' });
    expect(convert({ spec: { name: 5 } })).toEqual({ ok: false, error: 'cannot convert int64 to string' });
    expect(convert({ spec: 'x' })).toEqual({ ok: false, error: 'cannot restore struct from: string' });
    expect(convert({ spec: { items: {} } })).toEqual({ ok: false, error: 'cannot restore slice from map' });
    expect(convert({ data: [] })).toEqual({ ok: false, error: 'cannot restore map from slice' });
  });

  it('converts as reflect does: a whole float into an int, an int into a float, an int32 overflow wrapping', () => {
    expect(convert({ spec: { count: 3_000_000_000, ratio: 2 } })).toEqual({ ok: true, value: { spec: { count: -1294967296, ratio: 2 } }, unknownFields: [] });
  });

  it('reports the first error in struct field order, not document order', () => {
    expect(convert({ spec: { name: 1, count: 'x' } })).toEqual({ ok: false, error: 'unrecognized type: int32' });
  });

  it('collects unknown fields with indexes but no map keys, sorted by text', () => {
    const r = convert({ zz: 1, spec: { items: [{ a: 'x', b: 1 }], y: 1 }, aa: 2 });
    expect(r).toEqual({ ok: true, value: { spec: { items: [{ a: 'x' }] } }, unknownFields: ['unknown field "aa"', 'unknown field "spec.items[0].b"', 'unknown field "spec.y"', 'unknown field "zz"'] });
    expect(convert({ zz: 1 }, false)).toEqual({ ok: true, value: {}, unknownFields: [] });
  });
});
