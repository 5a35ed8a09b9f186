import { describe, expect, it } from 'vitest';
import { fieldErrorMessage } from '../errors/field-error.ts';
import { compileSchema } from './compile.ts';
import { validateListTypes, validateListTypesUpdate } from './list-type.ts';

const schema = compileSchema({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object' } },
        multi: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a', 'b'], items: { type: 'object' } },
        m: { type: 'object', additionalProperties: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } } },
      },
    },
  },
});
const msgs = (obj: unknown) => validateListTypes(schema, obj).map(fieldErrorMessage);

describe('list types', () => {
  it('set: the second occurrence of each repeated value', () => {
    expect(msgs({ spec: { tags: ['a', 'b', 'a', 'a', 'b'] } })).toEqual(['spec.tags[2]: Duplicate value: "a"', 'spec.tags[4]: Duplicate value: "b"']);
  });
  it('map with one key, a missing key, and a non-object', () => {
    expect(msgs({ spec: { ports: [{ name: 'http' }, { name: 'http', p: 1 }, {}, null] } })).toEqual([
      'spec.ports[1]: Duplicate value: {"name":"http"}',
      'spec.ports[3]: Duplicate value: {}',
    ]);
    expect(msgs({ spec: { ports: [{ name: 'a' }, 'x'] } })).toEqual(['spec.ports[1]: Invalid value: "x": must be an object for an array of list-type map']);
  });
  it('map with several keys; map values use [key] paths', () => {
    expect(msgs({ spec: { multi: [{ a: 1, b: 2 }, { b: 2, a: 1 }, { a: 1 }] } })).toEqual(['spec.multi[1]: Duplicate value: {"a":1,"b":2}']);
    expect(msgs({ spec: { m: { k: [1, 1] } } })).toEqual(['spec.m[k][1]: Duplicate value: 1']);
  });
  it('on update, errors only count when the old object had none', () => {
    const bad = { spec: { tags: ['a', 'a'] } };
    expect(validateListTypesUpdate(schema, bad, bad)).toEqual([]);
    expect(validateListTypesUpdate(schema, bad, { spec: {} })).toHaveLength(1);
  });
});
