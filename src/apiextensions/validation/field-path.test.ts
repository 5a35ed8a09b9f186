import { describe, expect, it } from 'vitest';
import { FieldPathError, pathString, validFieldPath } from './field-path.ts';
import { toSchema } from './internal-types.ts';
import { newStructural } from './structural.ts';

// TestValidateFieldPath (validation_test.go).
const schema = newStructural(
  toSchema({
    type: 'object',
    properties: {
      foo: { type: 'object', additionalProperties: { type: 'object', properties: { f1: { type: 'number' } } } },
      a: {
        type: 'object',
        properties: {
          bbb: { type: 'object', properties: { c: { type: 'number' }, '34': { type: 'number' } } },
          'bbb.c': { type: 'object', properties: { 'a-b34': { type: 'number' } } },
        },
      },
      list: { type: 'array', items: { type: 'object', properties: { a: { type: 'number' }, 'a-b.34': { type: 'number' } } } },
    },
  }),
);

const error = (path: string): string | undefined => {
  try {
    validFieldPath(path, schema);
    return undefined;
  } catch (e) {
    if (e instanceof FieldPathError) return e.message;
    throw e;
  }
};

describe('validFieldPath', () => {
  it.each(['.a', '.a.bbb', '.foo.f1', ".a['bbb']", ".a['bbb.c']", ".a['bbb.c'].a-b34", ".a['bbb.c']['a-b34']", '.a.bbb.c', ".a.bbb['34']", '.a.bbb.34', '.list'])(
    'accepts %s',
    (p) => expect(error(p)).toBeUndefined(),
  );

  it.each([
    ['.a.foo', 'does not refer to a valid field'],
    ['.a.bbb[0]', 'expected single quoted string but got 0'],
    ['.list[1]', 'expected single quoted string but got 1'],
    ['.list.a', 'does not refer to a valid field'],
    [".list['a-b.34']", 'does not refer to a valid field'],
    ['.list.a-b.34', 'does not refer to a valid field'],
    ['a', 'expected [ or . but got: a'],
    ['.c', 'does not refer to a valid field'],
    ['.a..b', 'does not refer to a valid field'],
    ['.list[-1]', 'expected single quoted string but got -1'],
    ['.list[1.0]', 'expected single quoted string but got 1'],
    ['.a.', 'unexpected end of JSON path'],
    [".a['x\\q']", 'invalid string literal: invalid escape char \\q'],
  ])('rejects %s: %s', (p, msg) => expect(error(p)).toBe(msg));

  it('renders map keys the way field.Path does and returns the schema found', () => {
    const r = validFieldPath(".foo['k'].f1", schema);
    expect(pathString(r.elems)).toBe('foo[k].f1');
    expect(r.schema?.type).toBe('number');
  });

  it('refuses array notation when asked to (selectableFields)', () => {
    expect(() => validFieldPath(".a['bbb']", schema, false)).toThrow('array notation is not allowed');
  });
});
