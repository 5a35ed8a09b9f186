import { describe, expect, it } from 'vitest';
import { fieldErrorMessage } from '../errors/field-error.ts';
import { compileSchema } from './compile.ts';
import { decodeCustomResource } from './decode.ts';
import { validateEmbeddedResources } from './embedded.ts';
import { unknownFieldMessages } from './unknown-fields.ts';

const schema = compileSchema({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        foo: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        bar: { type: 'string' },
      },
    },
  },
});

describe('embedded resources', () => {
  it('requires apiVersion and kind, validates kind and metadata', () => {
    expect(validateEmbeddedResources(schema, { spec: { foo: { metadata: { name: 'p' } } } }).map(fieldErrorMessage)).toEqual([
      'spec.foo.apiVersion: Required value',
      'spec.foo.kind: Required value',
    ]);
    expect(validateEmbeddedResources(schema, { spec: { foo: { apiVersion: 'a/b/c', kind: 'Pod_x' } } }).map(fieldErrorMessage)).toEqual([
      'spec.foo.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      "spec.foo.kind: Invalid value: \"Pod_x\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
    // Embedded names only follow the path-segment rule.
    expect(validateEmbeddedResources(schema, { spec: { foo: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'Bad Name' } } } })).toEqual([]);
    expect(validateEmbeddedResources(schema, { spec: { foo: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a/b' } } } }).map((e) => e.field)).toEqual(['spec.foo.metadata.name']);
  });
  it('decode reports unknown fields in the real order: root metadata, pruned (sorted), embedded metadata', () => {
    const obj: Record<string, unknown> = {
      apiVersion: 'g/v1',
      kind: 'K',
      metadata: { name: 'x', zzz: 1, aaa: 2 },
      spec: { foo: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', unknownMeta: 1 }, anything: 1 }, z: 1, a: 2 },
    };
    const r = decodeCustomResource(schema, obj);
    expect(unknownFieldMessages(r.unknownFields)).toEqual([
      'unknown field "metadata.aaa"',
      'unknown field "metadata.zzz"',
      'unknown field "spec.a"',
      'unknown field "spec.z"',
      'unknown field "spec.foo.metadata.unknownMeta"',
    ]);
    expect(obj).toEqual({ apiVersion: 'g/v1', kind: 'K', metadata: { name: 'x' }, spec: { foo: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, anything: 1 } } });
  });
  it('a non-string embedded kind aborts decoding', () => {
    const r = decodeCustomResource(schema, { spec: { foo: { kind: 1 } } });
    expect(r.error).toEqual({ type: 'FieldValueInvalid', field: 'spec.foo.kind', value: 1, detail: 'must be a string' });
  });
});
