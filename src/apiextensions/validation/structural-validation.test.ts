// ValidateStructural on its own, with vectors from test/integration/validation_test.go
// ("forbidden in nested value validation", reported there under the per-version path).
import { describe, expect, it } from 'vitest';
import { toSchema } from './internal-types.ts';
import { newStructural } from './structural.ts';
import { validateStructural } from './structural-validation.ts';
import { messages, type Json } from './test-support.ts';

const P = 'spec.versions[0].schema.openAPIV3Schema';
const check = (schema: Json) => messages(validateStructural(P, newStructural(toSchema(schema))));
const forbiddenGenerics = { type: 'string', additionalProperties: true, title: 'hello', description: 'world', nullable: true };

describe('validateStructural', () => {
  it('forbids generics in nested value validations and wants their fields specified outside', () => {
    const got = check({
      type: 'object',
      properties: { foo: { type: 'string' } },
      not: forbiddenGenerics,
      allOf: [{ properties: { foo: forbiddenGenerics } }],
      anyOf: [{ items: forbiddenGenerics }],
      oneOf: [{ properties: { foo: forbiddenGenerics } }],
    });
    const nested = (at: string) => [
      `${P}.${at}.type: Forbidden: must be empty to be structural`,
      `${P}.${at}.additionalProperties: Forbidden: must be undefined to be structural`,
      `${P}.${at}.title: Forbidden: must be empty to be structural`,
      `${P}.${at}.description: Forbidden: must be empty to be structural`,
      `${P}.${at}.nullable: Forbidden: must be false to be structural`,
    ];
    const expected = [
      ...nested('anyOf[0].items'),
      ...nested('allOf[0].properties[foo]'),
      ...nested('oneOf[0].properties[foo]'),
      ...nested('not'),
      `${P}.items: Required value: because it is defined in ${P}.anyOf[0].items`,
    ];
    // Go sorts the list by its text.
    expect(got).toEqual([...expected].sort());
  });

  it('metadata at the root may only restrict name and generateName', () => {
    expect(check({ type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 }, generateName: { type: 'string' } } } } })).toEqual([]);
    // The type is checked on its own and then ignored by the "anything else" comparison.
    expect(check({ type: 'object', properties: { metadata: { type: 'string' } } })).toEqual([`${P}.properties[metadata].type: Invalid value: "string": must be object`]);
    expect(check({ type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string' }, labels: { type: 'object' } } } } })).toEqual([
      `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ]);
  });

  it('kind and apiVersion must be strings at resource roots', () => {
    expect(check({ type: 'object', properties: { kind: { type: 'integer' }, apiVersion: { type: 'string' } } })).toEqual([
      `${P}.properties[kind].type: Invalid value: "integer": must be string`,
    ]);
  });

  it('arrays need items', () => {
    expect(check({ type: 'object', properties: { a: { type: 'array' } } })).toEqual([`${P}.properties[a].items: Required value: must be specified`]);
  });

  it('metadata in a nested context is forbidden', () => {
    expect(check({ type: 'object', properties: { metadata: { type: 'object' } }, allOf: [{ properties: { metadata: {} } }] })).toEqual([
      `${P}.allOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
    ]);
  });
});
