import { describe, expect, it } from 'vitest';
import { fieldErrorMessage } from '../errors/field-error.ts';
import { compileSchema } from './compile.ts';
import type { JSONSchemaProps } from './types.ts';
import { validateValue } from './validate.ts';

const spec = (props: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'object',
  properties: { spec: { type: 'object', properties: props, ...extra } },
});
const messages = (schema: JSONSchemaProps, obj: unknown, old?: unknown): string[] =>
  validateValue(compileSchema(schema), obj, old === undefined ? {} : { old }).map(fieldErrorMessage).sort();

describe('numeric bounds', () => {
  it('maximum with integer data prints digits', () => {
    expect(messages(spec({ replicas: { type: 'integer', maximum: 10 } }), { spec: { replicas: 15 } })).toEqual([
      'spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10',
    ]);
  });
  it('exclusive bounds and float data use %v of the float bound', () => {
    expect(messages(spec({ n: { type: 'number', minimum: 1.5, exclusiveMinimum: true } }), { spec: { n: 1.5 } })).toEqual([
      'spec.n: Invalid value: 1.5: spec.n in body should be greater than 1.5',
    ]);
    expect(messages(spec({ n: { type: 'number', maximum: 1e6, exclusiveMaximum: true } }), { spec: { n: 2000000.5 } })).toEqual([
      // Both the value and the bound are float64s printed with %v (shortest %g).
      'spec.n: Invalid value: 2.0000005e+06: spec.n in body should be less than 1e+06',
    ]);
  });
  it('integer bound is truncated for integer data', () => {
    // MinimumInt(data, int64(2.5)): 2 passes a minimum of 2.5, 1 fails against "2".
    expect(messages(spec({ n: { type: 'number', minimum: 2.5 } }), { spec: { n: 2 } })).toEqual([]);
    expect(messages(spec({ n: { type: 'number', minimum: 2.5 } }), { spec: { n: 1 } })).toEqual([
      'spec.n: Invalid value: 1: spec.n in body should be greater than or equal to 2',
    ]);
  });
  it('multipleOf', () => {
    expect(messages(spec({ n: { type: 'integer', multipleOf: 3 } }), { spec: { n: 10 } })).toEqual([
      'spec.n: Invalid value: 10: spec.n in body should be a multiple of 3',
    ]);
    expect(messages(spec({ n: { type: 'number', multipleOf: 0.1 } }), { spec: { n: 0.3 } })).toEqual([]);
  });
  it('int32 format range is checked', () => {
    expect(messages(spec({ n: { type: 'integer', format: 'int32' } }), { spec: { n: 2 ** 31 } })).toEqual([
      '<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.n',
    ]);
  });
});

describe('types', () => {
  it('type mismatch is TypeInvalid with the actual type', () => {
    const errs = validateValue(compileSchema(spec({ replicas: { type: 'integer' } })), { spec: { replicas: 'x' } });
    expect(errs).toEqual([{ type: 'FieldValueTypeInvalid', field: 'spec.replicas', value: 'string', detail: 'spec.replicas in body must be of type integer: "string"' }]);
  });
  it('a float where an integer is expected fails the type and the range check', () => {
    expect(messages(spec({ n: { type: 'integer' } }), { spec: { n: 1.5 } })).toEqual([
      '<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.n',
      'spec.n: Invalid value: "number": spec.n in body must be of type integer: "number"',
    ]);
  });
  it('int-or-string', () => {
    const s = spec({ foo: { 'x-kubernetes-int-or-string': true } });
    expect(messages(s, { spec: { foo: 42 } })).toEqual([]);
    expect(messages(s, { spec: { foo: '42%' } })).toEqual([]);
    expect(messages(s, { spec: { foo: true } })).toEqual(['spec.foo: Invalid value: "boolean": spec.foo in body must be of type integer,string: "boolean"']);
  });
  it('null in a non-nullable array item', () => {
    expect(messages(spec({ l: { type: 'array', items: { type: 'string' } } }), { spec: { l: [null] } })).toEqual([
      'spec.l[0]: Invalid value: "null": spec.l[0] in body must be of type string: "null"',
    ]);
    expect(messages(spec({ l: { type: 'array', items: { type: 'string', nullable: true } } }), { spec: { l: [null] } })).toEqual([]);
  });
  it('a number is a valid number and an integer is a valid number', () => {
    expect(messages(spec({ n: { type: 'number' } }), { spec: { n: 3 } })).toEqual([]);
  });
});

describe('strings', () => {
  it('pattern (RE2, unanchored)', () => {
    const s = spec({ a: { type: 'string', pattern: '^[a-zA-Z0-9_]*$' } });
    expect(messages(s, { spec: { a: 'foo_123!' } })).toEqual(["spec.a: Invalid value: \"foo_123!\": spec.a in body should match '^[a-zA-Z0-9_]*$'"]);
    expect(messages(spec({ a: { type: 'string', pattern: 'b' } }), { spec: { a: 'abc' } })).toEqual([]);
  });
  it('maxLength counts runes; minLength', () => {
    const s = spec({ a: { type: 'string', maxLength: 2, minLength: 2 } });
    expect(messages(s, { spec: { a: 'éé' } })).toEqual([]);
    expect(messages(s, { spec: { a: 'abc' } })).toEqual(['spec.a: Too long: may not be more than 2 bytes']);
    expect(messages(s, { spec: { a: 'a' } })).toEqual(['spec.a: Invalid value: "a": spec.a in body should be at least 2 chars long']);
  });
  it('formats: supported ones checked, others stripped', () => {
    expect(messages(spec({ d: { type: 'string', format: 'date' } }), { spec: { d: '2024-02-30' } })).toEqual([
      'spec.d: Invalid value: "2024-02-30": spec.d in body must be of type date: "2024-02-30"',
    ]);
    expect(messages(spec({ d: { type: 'string', format: 'date-time' } }), { spec: { d: '2024-01-01T10:00:00Z' } })).toEqual([]);
    expect(messages(spec({ d: { type: 'string', format: 'unknown-thing' } }), { spec: { d: 'x' } })).toEqual([]);
    expect(messages(spec({ d: { type: 'string', format: 'uuid' } }), { spec: { d: 'nope' } })).toEqual([
      'spec.d: Invalid value: "nope": spec.d in body must be of type uuid: "nope"',
    ]);
    expect(messages(spec({ d: { type: 'string', format: 'k8s-short-name' } }), { spec: { d: 'Abc' } })).toHaveLength(1);
  });
  it('a number where a formatted string is expected reports the format', () => {
    expect(messages(spec({ d: { type: 'string', format: 'date' } }), { spec: { d: 5 } })).toEqual([
      'spec.d: Invalid value: "int64": spec.d in body must be of type date: "int64"',
    ]);
  });
});

describe('enum', () => {
  it('renders supported values, non-strings as JSON', () => {
    expect(messages(spec({ g: { type: 'string', enum: ['foo', 'bar', 'baz'] } }), { spec: { g: 'qux' } })).toEqual([
      'spec.g: Unsupported value: "qux": supported values: "foo", "bar", "baz"',
    ]);
    expect(messages(spec({ g: { type: 'integer', enum: [1, 2] } }), { spec: { g: 3 } })).toEqual([
      'spec.g: Unsupported value: 3: supported values: "1", "2"',
    ]);
  });
  it('Go conversions: a float matches a truncated integer entry', () => {
    expect(messages(spec({ g: { type: 'number', enum: [1] } }), { spec: { g: 1.5 } })).toEqual([]);
  });
});

describe('arrays and objects', () => {
  it('minItems / maxItems', () => {
    const s = spec({ l: { type: 'array', minItems: 2, maxItems: 3, items: { type: 'integer' } } });
    expect(messages(s, { spec: { l: [1] } })).toEqual(['spec.l: Invalid value: 1: spec.l in body should have at least 2 items']);
    expect(messages(s, { spec: { l: [1, 2, 3, 4] } })).toEqual(['spec.l: Too many: 4: must have at most 3 items']);
  });
  it('minProperties / maxProperties on a map', () => {
    const s = spec({ m: { type: 'object', minProperties: 2, maxProperties: 2, additionalProperties: { type: 'string' } } });
    expect(messages(s, { spec: { m: { a: 'x' } } })).toEqual(['spec.m: Invalid value: 1: spec.m in body should have at least 2 properties']);
    expect(messages(s, { spec: { m: { a: 'x', b: 'y', c: 'z' } } })).toEqual(['spec.m: Too many: 3: must have at most 2 items']);
  });
  it('additionalProperties paths use dots', () => {
    const s = spec({ m: { type: 'object', additionalProperties: { type: 'string', maxLength: 1 } } });
    expect(messages(s, { spec: { m: { key: 'xx' } } })).toEqual(['spec.m.key: Too long: may not be more than 1 byte']);
  });
  it('required, at the root and nested', () => {
    const s: JSONSchemaProps = { type: 'object', required: ['alpha', 'beta'], properties: { alpha: { type: 'string' }, beta: { type: 'integer' } } };
    expect(messages(s, {})).toEqual(['alpha: Required value', 'beta: Required value']);
    expect(messages(spec({ a: { type: 'string' } }, { required: ['a'] }), { spec: {} })).toEqual(['spec.a: Required value']);
  });
  it('a constructor-named key is not taken as present', () => {
    expect(messages(spec({ constructor: { type: 'string' } }, { required: ['constructor'] }), { spec: {} })).toEqual(['spec.constructor: Required value']);
  });
});

describe('quantors', () => {
  it('oneOf none valid lands on <nil> with a quoted path, plus the best failure', () => {
    const s = spec({ f: { type: 'integer', oneOf: [{ minimum: 5 }, { maximum: 1 }] } });
    expect(messages(s, { spec: { f: 3 } })).toEqual([
      '<nil>: Invalid value: "": "spec.f" must validate one and only one schema (oneOf). Found none valid',
      'spec.f: Invalid value: 3: spec.f in body should be greater than or equal to 5',
    ]);
    expect(messages(s, { spec: { f: 7 } })).toEqual([]);
  });
  it('oneOf with two valid', () => {
    const s = spec({ f: { type: 'integer', oneOf: [{ minimum: 1 }, { maximum: 10 }] } });
    expect(messages(s, { spec: { f: 3 } })).toEqual(['<nil>: Invalid value: "": "spec.f" must validate one and only one schema (oneOf). Found 2 valid alternatives']);
  });
  it('anyOf, allOf, not', () => {
    const any = spec({ f: { type: 'string', anyOf: [{ pattern: '^a' }, { pattern: '^b' }] } });
    expect(messages(any, { spec: { f: 'c' } })).toEqual([
      '<nil>: Invalid value: "": "spec.f" must validate at least one schema (anyOf)',
      'spec.f: Invalid value: "c": spec.f in body should match \'^a\'',
    ]);
    const all = spec({ f: { type: 'string', allOf: [{ pattern: '^a' }, { maxLength: 1 }] } });
    expect(messages(all, { spec: { f: 'bb' } })).toEqual([
      '<nil>: Invalid value: "": "spec.f" must validate all the schemas (allOf). None validated',
      'spec.f: Invalid value: "bb": spec.f in body should match \'^a\'',
      'spec.f: Too long: may not be more than 1 byte',
    ]);
    const not = spec({ f: { type: 'string', not: { enum: ['x'] } } });
    expect(messages(not, { spec: { f: 'x' } })).toEqual(['<nil>: Invalid value: "": "spec.f" must not validate the schema (not)']);
  });
  it('status validation prefixes the field path but not the message', () => {
    const status = compileSchema({ type: 'object', properties: { num: { type: 'integer', maximum: 10 } } });
    expect(validateValue(status, { num: 15 }, { basePath: 'status' }).map(fieldErrorMessage)).toEqual([
      'status.num: Invalid value: 15: num in body should be less than or equal to 10',
    ]);
  });
});

describe('ratcheting', () => {
  const s = spec({ a: { type: 'string', maxLength: 2 }, b: { type: 'string', maxLength: 2 } });
  it('drops errors in unchanged subtrees only', () => {
    const old = { spec: { a: 'xxx', b: 'ok' } };
    expect(messages(s, { spec: { a: 'xxx', b: 'ok' } }, old)).toEqual([]);
    expect(messages(s, { spec: { a: 'xxx', b: 'yyy' } }, old)).toEqual(['spec.b: Too long: may not be more than 2 bytes']);
    expect(messages(s, { spec: { a: 'xxxx', b: 'ok' } }, old)).toEqual(['spec.a: Too long: may not be more than 2 bytes']);
  });
  it('does not ratchet required or root kind/apiVersion', () => {
    const r = spec({ a: { type: 'string' } }, { required: ['a'] });
    expect(messages(r, { spec: { b: 1 } }, { spec: { c: 1 } })).toEqual(['spec.a: Required value']);
    const k: JSONSchemaProps = { type: 'object', properties: { kind: { type: 'string', maxLength: 1 }, spec: { type: 'object' } } };
    expect(messages(k, { kind: 'Foo', spec: { x: 1 } }, { kind: 'Foo', spec: {} })).toEqual(['kind: Too long: may not be more than 1 byte']);
  });
  it('list-map items correlate by key, atomic lists only as a whole', () => {
    const lm = spec({
      l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' }, v: { type: 'string', maxLength: 1 } } } },
    });
    const old = { spec: { l: [{ name: 'a', v: 'xx' }] } };
    expect(messages(lm, { spec: { l: [{ name: 'b', v: 'y' }, { name: 'a', v: 'xx' }] } }, old)).toEqual([]);
    const atomic = spec({ l: { type: 'array', items: { type: 'string', maxLength: 1 } } });
    expect(messages(atomic, { spec: { l: ['y', 'xx'] } }, { spec: { l: ['xx'] } })).toEqual(['spec.l[1]: Too long: may not be more than 1 byte']);
  });
  it('quantor descendants are not ratcheted on their own', () => {
    const q = spec({ f: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, allOf: [{ properties: { a: { maxLength: 1 } } }] } });
    expect(messages(q, { spec: { f: { a: 'xx', b: '2' } } }, { spec: { f: { a: 'xx', b: '1' } } })).toHaveLength(2);
  });
});
