// The sigs.k8s.io/json port over hand-written facts: the texts and value rules of decode.go and
// kubernetes_patch.go, one behaviour per test.
import { describe, expect, it } from 'vitest';
import { decodeTypedJson, GoTypeSystem, type SpecialDecoder, type TypedJsonOptions } from './typed-json.ts';

const facts = {
  named: { 'pkg.v1.Mode': 'string', 'pkg.v1.Labels': 'map[string]string' },
  structs: {
    'pkg.v1.Thing': [
      ['kind', 'string', 1],
      ['spec', 'pkg.v1.Spec', 1],
      ['labels', 'pkg.v1.Labels', 1],
      ['raw', 'x.Special', 1],
    ],
    'pkg.v1.Spec': [
      ['count', '*int32', 1],
      ['small', 'int8', 1],
      ['size', 'uint16', 1],
      ['ratio', 'float32', 1],
      ['name', 'string', 0],
      ['mode', 'pkg.v1.Mode', 1],
      ['on', 'bool', 1],
      ['items', '[]pkg.v1.Item', 1],
      ['bytes', '[]uint8', 1],
      ['item', 'pkg.v1.Item', 0],
    ],
    'pkg.v1.Item': [
      ['a', 'string', 1],
      ['b', 'int64', 0],
    ],
  },
} as const;

const types = new GoTypeSystem(facts as never, new Set(['x.Special']));
const special: SpecialDecoder = (raw) => (raw === '"bad"' ? { error: 'special says no' } : raw === '1' ? { typeError: { value: 'number', type: 'string' } } : { value: `<${raw}>` });
const options = (strict: boolean): TypedJsonOptions => ({
  strict,
  special: { 'x.Special': special },
  base64Error: (s) => (/^[A-Za-z0-9+/]*=*$/.test(s) ? undefined : 'illegal base64 data at input byte 0'),
});
const decode = (json: string, strict = true) => decodeTypedJson(types, json, 'pkg.v1.Thing', options(strict));
const errorOf = (json: string) => {
  const r = decode(json);
  if (r.ok) throw new Error('decoded');
  return r.error;
};

describe('type errors', () => {
  it('names the innermost struct, the JSON field path (no indexes) and the Go type', () => {
    expect(errorOf('{"spec":{"count":"x"}}')).toBe('json: cannot unmarshal string into Go struct field Spec.spec.count of type int32');
    expect(errorOf('{"spec":{"items":[{"b":1},{"b":"2"}]}}')).toBe('json: cannot unmarshal string into Go struct field Item.spec.items.b of type int64');
    expect(errorOf('{"spec":{"mode":true}}')).toBe('json: cannot unmarshal bool into Go struct field Spec.spec.mode of type v1.Mode');
    expect(errorOf('{"spec":[]}')).toBe('json: cannot unmarshal array into Go struct field Thing.spec of type v1.Spec');
    expect(errorOf('{"labels":{"a":{}}}')).toBe('json: cannot unmarshal object into Go struct field Thing.labels of type string');
    expect(errorOf('{"spec":{"items":{}}}')).toBe('json: cannot unmarshal object into Go struct field Spec.spec.items of type []v1.Item');
  });

  it('integers parse as ParseInt does: the literal is named on overflow, on a fraction and on an exponent', () => {
    expect(errorOf('{"spec":{"count":2147483648}}')).toBe('json: cannot unmarshal number 2147483648 into Go struct field Spec.spec.count of type int32');
    expect(errorOf('{"spec":{"small":-129}}')).toBe('json: cannot unmarshal number -129 into Go struct field Spec.spec.small of type int8');
    expect(errorOf('{"spec":{"size":-1}}')).toBe('json: cannot unmarshal number -1 into Go struct field Spec.spec.size of type uint16');
    expect(errorOf('{"spec":{"size":-0}}')).toBe('json: cannot unmarshal number -0 into Go struct field Spec.spec.size of type uint16');
    expect(errorOf('{"spec":{"count":1.0}}')).toBe('json: cannot unmarshal number 1.0 into Go struct field Spec.spec.count of type int32');
    expect(errorOf('{"spec":{"count":1e2}}')).toBe('json: cannot unmarshal number 1e2 into Go struct field Spec.spec.count of type int32');
    expect(errorOf('{"spec":{"ratio":1e39}}')).toBe('json: cannot unmarshal number 1e39 into Go struct field Spec.spec.ratio of type float32');
    expect(decode('{"spec":{"count":-2147483648,"size":65535,"ratio":1.5}}')).toMatchObject({ ok: true, value: { spec: { count: -2147483648, size: 65535, ratio: 1.5 } } });
  });

  it('keeps the first type error and goes on decoding (strict findings after it are not reported)', () => {
    expect(decode('{"spec":{"count":"x","name":5},"zzz":1}')).toEqual({ ok: false, error: 'json: cannot unmarshal string into Go struct field Spec.spec.count of type int32' });
  });

  it('an Unmarshaler error aborts at once and wins over an earlier type error; its type errors get the field context', () => {
    expect(errorOf('{"spec":{"count":"x"},"raw":"bad"}')).toBe('special says no');
    expect(errorOf('{"raw":1}')).toBe('json: cannot unmarshal number into Go struct field Thing.raw of type string');
  });

  it('[]byte takes base64 strings', () => {
    expect(errorOf('{"spec":{"bytes":"!!"}}')).toBe('illegal base64 data at input byte 0');
    expect(decode('{"spec":{"bytes":"YQ=="}}')).toMatchObject({ ok: true, value: { spec: { bytes: 'YQ==' } } });
  });
});

describe('strict findings', () => {
  it('unknown and duplicate fields, in document order, paths with indexes, a duplicated unknown only as unknown', () => {
    const r = decode('{"spec":{"name":"a","x":1,"items":[{"a":"1","c":2}],"name":"b","x":2},"labels":{"k":"1","k":"2"},"Spec":{}}');
    expect(r).toEqual({
      ok: true,
      value: { spec: { name: 'b', items: [{ a: '1' }] }, labels: { k: '2' } },
      strictErrors: ['unknown field "spec.x"', 'unknown field "spec.items[0].c"', 'duplicate field "spec.name"', 'duplicate field "labels.k"', 'unknown field "Spec"'],
    });
  });

  it('are not looked for when not strict (fieldValidation=Ignore)', () => {
    expect(decode('{"spec":{"name":"a","name":"b","x":1}}', false)).toEqual({ ok: true, value: { spec: { name: 'b' } }, strictErrors: [] });
  });

  it('a repeated struct key decodes into the same struct, as Go does', () => {
    expect(decode('{"spec":{"name":"a"},"spec":{"on":true}}', false)).toMatchObject({ value: { spec: { name: 'a', on: true } } });
  });
});

describe('what is stored', () => {
  it('omitempty fields at their empty value are left out, as the encoder writes them; others stay', () => {
    const r = decode('{"kind":"","spec":{"name":"","on":false,"small":0,"items":[],"count":0,"item":{}},"labels":{}}');
    expect(r).toEqual({ ok: true, value: { spec: { name: '', count: 0, item: {} } }, strictErrors: [] });
  });
});

describe('null', () => {
  it('sets pointers, slices and maps to nil (omitempty: left out, else null)', () => {
    expect(decode('{"spec":{"name":"n","count":null,"items":null},"labels":null}')).toMatchObject({ ok: true, value: { spec: { name: 'n' } } });
  });

  it('leaves other fields as they are: omitempty ones out, others at their Go zero', () => {
    const r = decode('{"spec":{"name":null,"on":null,"item":null}}');
    expect(r).toMatchObject({ ok: true, value: { spec: { name: '', item: { b: 0 } } } });
    if (r.ok) expect(r.value).not.toHaveProperty('spec.on');
  });

  it('in a map value and a list item, gives the element’s zero', () => {
    expect(decode('{"labels":{"a":null},"spec":{"name":"","items":[null]}}')).toMatchObject({ value: { labels: { a: '' }, spec: { items: [{ b: 0 }] } } });
  });
});
