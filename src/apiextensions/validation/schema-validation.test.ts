// Schema vectors after TestValidateCustomResourceDefinitionValidation, TestValidateCustomResourceDefinition
// (validation_test.go) and test/integration/validation_test.go, with the real texts.
import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinition } from './index.ts';
import { crontab, messages, type Json } from './test-support.ts';

const P = 'spec.validation.openAPIV3Schema';
const errorsFor = (schema: Json, edit?: (spec: Json) => void) => messages(validateCustomResourceDefinition(crontab(schema, edit)));
const withStatus = (spec: Json) => {
  (spec.versions as Json[])[0]!.subresources = { status: {} };
};

describe('root of the schema', () => {
  it('must be an object when the status subresource is enabled', () => {
    expect(errorsFor({ type: 'string' }, withStatus)).toEqual([
      `${P}.type: Invalid value: "string": only "object" is allowed as the type at the root of the schema if the status subresource is enabled`,
      `${P}.type: Invalid value: "string": must be object at the root`,
    ]);
  });

  it('may only hold fields that survive status extraction; the value is the internal struct as JSON', () => {
    expect(errorsFor({ type: 'object', nullable: true }, withStatus)).toEqual([
      `${P}: Invalid value: {"ID":"","Schema":"","Ref":null,"Description":"","Type":"object","Nullable":true,"Format":"","Title":"","Default":null,` +
        `"Maximum":null,"ExclusiveMaximum":false,"Minimum":null,"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"",` +
        `"MaxItems":null,"MinItems":null,"UniqueItems":false,"MultipleOf":null,"Enum":null,"MaxProperties":null,"MinProperties":null,"Required":null,` +
        `"Items":null,"AllOf":null,"OneOf":null,"AnyOf":null,"Not":null,"Properties":null,"AdditionalProperties":null,"PatternProperties":null,` +
        `"Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,"Example":null,"XPreserveUnknownFields":null,` +
        `"XEmbeddedResource":false,"XIntOrString":false,"XListMapKeys":null,"XListType":null,"XMapType":null,"XValidations":null}: ` +
        'only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems ' +
        'UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root ' +
        'of the schema if the status subresource is enabled',
      `${P}.nullable: Forbidden: nullable cannot be true at the root`,
    ]);
  });

  it('allows any root type without status, but structural rules want an object', () => {
    expect(errorsFor({ type: 'string' })).toEqual([`${P}.type: Invalid value: "string": must be object at the root`]);
  });

  it('forbids additionalProperties at the root', () => {
    expect(errorsFor({ type: 'object', additionalProperties: { type: 'string' } })).toEqual([`${P}.additionalProperties: Forbidden: must not be used at the root`]);
  });

  it("shows NewStructural's error only when nothing else is wrong", () => {
    expect(errorsFor({ type: 'object', $schema: 'http://json-schema.org/draft-04/schema#' })).toEqual([
      `${P}: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`,
    ]);
    expect(errorsFor({ type: 'object', 'x-kubernetes-preserve-unknown-fields': false })).toEqual([
      `${P}.x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
    ]);
  });

  it('requires a schema per version', () => {
    expect(messages(validateCustomResourceDefinition(crontab(undefined, (spec) => delete (spec.versions as Json[])[0]!.schema)))).toEqual([
      'spec.versions[0].schema.openAPIV3Schema: Required value',
    ]);
  });
});

describe('keywords', () => {
  it('type null: unsupported and forbidden', () => {
    expect(errorsFor({ type: 'object', properties: { null: { type: 'null' } } })).toEqual([
      `${P}.properties[null].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
      `${P}.properties[null].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
    ]);
  });

  it('id, patternProperties, definitions, dependencies, additionalItems and items arrays', () => {
    expect(errorsFor({ type: 'object', properties: { a: { type: 'object', id: 'x', patternProperties: { '^a': { type: 'string' } } } } })).toEqual([
      `${P}.properties[a].id: Forbidden: id is not supported`,
      `${P}.properties[a].patternProperties: Forbidden: patternProperties is not supported`,
    ]);
    expect(errorsFor({ type: 'object', properties: { a: { type: 'array', items: [{ type: 'string' }], additionalItems: false } } })).toEqual([
      `${P}.properties[a].additionalItems: Forbidden: additionalItems is not supported`,
      `${P}.properties[a].items: Forbidden: items must be a schema object and not an array`,
    ]);
    expect(errorsFor({ type: 'object', properties: { a: { type: 'object', dependencies: { b: ['c'] }, definitions: { d: { type: 'string' } } } } })).toEqual([
      `${P}.properties[a].definitions: Forbidden: definitions is not supported`,
      `${P}.properties[a].dependencies: Forbidden: dependencies is not supported`,
    ]);
  });

  it('an invalid pattern', () => {
    expect(errorsFor({ type: 'object', properties: { foo: { type: 'string', pattern: '+' } } })).toEqual([
      `${P}.properties[foo].pattern: Invalid value: "+": must be a valid regular expression, but isn't: error parsing regexp: missing argument to repetition operator: \`+\``,
    ]);
  });
});

describe('Kubernetes extensions', () => {
  it('int-or-string excludes preserve-unknown-fields and embedded-resource', () => {
    expect(errorsFor({ type: 'object', properties: { a: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true } } })).toEqual([
      `${P}.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
    ]);
  });

  it('int-or-string may use the anyOf integer/string pattern', () => {
    expect(errorsFor({ type: 'object', properties: { a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } } })).toEqual([]);
    expect(errorsFor({ type: 'object', properties: { a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'string' }, { type: 'integer' }] } } })).toEqual([
      `${P}.properties[a].anyOf[0].type: Forbidden: must be empty to be structural`,
      `${P}.properties[a].anyOf[1].type: Forbidden: must be empty to be structural`,
    ]);
  });

  it('embedded resources need properties or preserve-unknown-fields, and must be objects', () => {
    expect(errorsFor({ type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true } } })).toEqual([
      `${P}.properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
    ]);
    expect(errorsFor({ type: 'object', properties: { e: { type: 'array', items: { type: 'string' }, 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } })).toEqual([
      `${P}.properties[e].type: Invalid value: "array": must be object if x-kubernetes-embedded-resource is true`,
    ]);
  });

  it('x-kubernetes-embedded-resource inside resource meta', () => {
    expect(
      errorsFor({
        type: 'object',
        properties: { metadata: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } },
      }),
    ).toEqual([
      `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
      `${P}.properties[metadata].x-kubernetes-embedded-resource: Forbidden: must not be used inside of resource meta`,
    ]);
  });

  it('list-type map needs keys and an items schema', () => {
    expect(errorsFor({ type: 'object', properties: { a: { type: 'array', 'x-kubernetes-list-type': 'map' } } })).toEqual([
      `${P}.properties[a].items: Required value: must be specified`,
      `${P}.properties[a].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
      `${P}.properties[a].items: Required value: must have a schema if x-kubernetes-list-type is map`,
    ]);
  });

  it('list-type map keys must be scalar properties, required or defaulted, not nullable', () => {
    const list = (items: Json, keys: string[]) => ({ type: 'object', properties: { a: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys, items } } });
    expect(errorsFor(list({ type: 'object', properties: { k: { type: 'string' } } }, ['k']))).toEqual([
      `${P}.properties[a].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
    ]);
    expect(errorsFor(list({ type: 'object', required: ['k'], properties: { k: { type: 'string', nullable: true } } }, ['k', 'z', 'k']))).toEqual([
      `${P}.properties[a].x-kubernetes-list-map-keys: Invalid value: ["k","z","k"]: entries must all be names of item properties`,
      `${P}.properties[a].x-kubernetes-list-map-keys: Invalid value: ["k","z","k"]: must not contain duplicate entries`,
      // Go walks the key list, so a repeated key is reported twice.
      `${P}.properties[a].items.properties[k].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable`,
      `${P}.properties[a].items.properties[k].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable`,
    ]);
    expect(errorsFor(list({ type: 'string' }, ['k']))).toEqual([`${P}.properties[a].items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`]);
  });

  it('list-type set items must be atomic', () => {
    expect(errorsFor({ type: 'object', properties: { a: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } })).toEqual([
      `${P}.properties[a].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set`,
    ]);
  });

  it('list and map types must match the type and be known', () => {
    expect(errorsFor({ type: 'object', properties: { a: { type: 'object', 'x-kubernetes-list-type': 'set' }, b: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bogus' }, c: { type: 'object', 'x-kubernetes-map-type': 'bogus' } } })).toEqual([
      `${P}.properties[a].type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`,
      `${P}.properties[b].x-kubernetes-list-type: Unsupported value: "bogus": supported values: "atomic", "set", "map"`,
      `${P}.properties[c].x-kubernetes-map-type: Unsupported value: "bogus": supported values: "atomic", "granular"`,
    ]);
  });

  it('x-kubernetes-validations: static checks without a CEL compiler', () => {
    expect(
      errorsFor({
        type: 'object',
        properties: { a: { type: 'string' } },
        'x-kubernetes-validations': [
          { rule: '  ' },
          { rule: 'self.a == "x"', message: 'a\nb', reason: 'Bogus', fieldPath: '.nope' },
          { rule: 'true', messageExpression: ' ', fieldPath: '.a' },
        ],
      }),
    ).toEqual([
      `${P}.x-kubernetes-validations[0].rule: Required value: rule is not specified`,
      `${P}.x-kubernetes-validations[1].message: Invalid value: "a\\nb": must not contain line breaks`,
      `${P}.x-kubernetes-validations[1].reason: Unsupported value: "Bogus": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      `${P}.x-kubernetes-validations[1].fieldPath: Invalid value: ".nope": must be a valid path`,
      `${P}.x-kubernetes-validations[2].messageExpression: Required value: messageExpression must be non-empty if specified`,
    ]);
  });

  it('x-kubernetes-validations are not structural inside junctors', () => {
    expect(errorsFor({ type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ 'x-kubernetes-validations': [{ rule: 'true' }] }] })).toEqual([
      `${P}.anyOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural`,
    ]);
  });
});

describe('defaults', () => {
  it('are forbidden in top-level metadata', () => {
    expect(errorsFor({ type: 'object', properties: { metadata: { type: 'object', default: { name: 'x' } } } })).toEqual([
      `${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
    ]);
  });

  it('must be pruned', () => {
    expect(errorsFor({ type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 'y' } } } })).toEqual([
      `${P}.properties[spec].default: Invalid value: {"a":"x","b":"y"}: must not have unknown fields`,
    ]);
  });

  it('are not allowed inside junctors', () => {
    expect(errorsFor({ type: 'object', properties: { a: { type: 'string' } }, not: { properties: { a: { default: 'x' } } } })).toEqual([
      `${P}.not.properties[a].default: Forbidden: must be undefined to be structural`,
    ]);
  });

  it('need preserveUnknownFields false', () => {
    const errs = messages(validateCustomResourceDefinition(crontab({ type: 'object', properties: { a: { type: 'string', default: 'x' } } }, (spec) => (spec.preserveUnknownFields = true))));
    expect(errs).toEqual([
      'spec.preserveUnknownFields: Invalid value: true: must be false in order to use defaults in the schema',
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ]);
  });

  it('are handed to checkDefault with the default path and the wire schema', () => {
    const seen: unknown[] = [];
    const errs = validateCustomResourceDefinition(crontab({ type: 'object', properties: { n: { type: 'integer', minimum: 3, default: 1 } } }), {
      checkDefault: (value, schema, path) => {
        seen.push([value, schema, path]);
        return [{ type: 'FieldValueInvalid', field: path, value, detail: 'should be greater than or equal to 3' }];
      },
    });
    expect(seen).toEqual([[1, { type: 'integer', minimum: 3, default: 1 }, `${P}.properties[n].default`]]);
    expect(messages(errs)).toEqual([`${P}.properties[n].default: Invalid value: 1: should be greater than or equal to 3`]);
  });
});
