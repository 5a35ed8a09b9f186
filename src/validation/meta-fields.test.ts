import { describe, expect, it } from 'vitest';
import { fieldErrorMessage, type FieldError } from '../errors/field-error.ts';
import {
  invalidWithJson,
  ownerReferenceJson,
  validateAnnotations,
  validateFieldManager,
  validateFinalizers,
  validateLabels,
  validateManagedFields,
  validateNoNewFinalizers,
  validateNonnegativeField,
  validateOwnerReferences,
  type ManagedFieldsEntryValue,
} from './meta-fields.ts';

const messages = (errs: FieldError[]): string[] => errs.map(fieldErrorMessage);

const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('validateLabels', () => {
  it('accepts valid labels', () => {
    expect(validateLabels({ app: 'web', 'example.com/tier': '', 'a.b_c-d': 'X_1' }, 'metadata.labels')).toEqual([]);
  });
  it('puts key and value errors on the map path, valued by the offending string', () => {
    expect(messages(validateLabels({ 'bad key!': 'ok', good: '-bad', x: 'a'.repeat(64) }, 'metadata.labels'))).toEqual([
      `metadata.labels: Invalid value: "bad key!": ${NAME_PART_MSG}`,
      `metadata.labels: Invalid value: "-bad": ${LABEL_VALUE_MSG}`,
      `metadata.labels: Invalid value: "${'a'.repeat(64)}": must be no more than 63 bytes`,
    ]);
  });
  it('reports a key error before the value error of the same label', () => {
    expect(messages(validateLabels({ '/x': '-' }, 'metadata.labels'))).toEqual([
      'metadata.labels: Invalid value: "/x": prefix part must be non-empty',
      `metadata.labels: Invalid value: "-": ${LABEL_VALUE_MSG}`,
    ]);
  });
});

describe('validateAnnotations', () => {
  it('checks keys case-insensitively but shows the original key', () => {
    expect(validateAnnotations({ UpperCase123: 'anything at all', 'Example.COM/Key': 'v' }, 'metadata.annotations')).toEqual([]);
    expect(messages(validateAnnotations({ 'Bad Key': 'v', 'cantendwithadash-': 'v' }, 'metadata.annotations'))).toEqual([
      `metadata.annotations: Invalid value: "Bad Key": ${NAME_PART_MSG}`,
      `metadata.annotations: Invalid value: "cantendwithadash-": ${NAME_PART_MSG}`,
    ]);
  });
  it('caps keys plus values at 262144 bytes', () => {
    expect(validateAnnotations({ a: 'b'.repeat(262143) }, 'metadata.annotations')).toEqual([]);
    expect(validateAnnotations({ a: 'b'.repeat(131071), c: 'd'.repeat(131071) }, 'metadata.annotations')).toEqual([]);
    expect(messages(validateAnnotations({ a: 'b'.repeat(262144) }, 'metadata.annotations'))).toEqual([
      'metadata.annotations: Too long: may not be more than 262144 bytes',
    ]);
    expect(messages(validateAnnotations({ a: 'b'.repeat(131072), c: 'd'.repeat(131072) }, 'metadata.annotations'))).toEqual([
      'metadata.annotations: Too long: may not be more than 262144 bytes',
    ]);
    // Multi-byte characters count as their UTF-8 length.
    expect(messages(validateAnnotations({ a: 'é'.repeat(131072) }, 'metadata.annotations'))).toHaveLength(1);
  });
  it('reports key errors before the size', () => {
    expect(messages(validateAnnotations({ 'a/b/c': 'x'.repeat(262144) }, 'metadata.annotations'))[1]).toBe(
      'metadata.annotations: Too long: may not be more than 262144 bytes',
    );
  });
});

describe('validateOwnerReferences', () => {
  const path = 'metadata.ownerReferences';
  const ref = (over: Partial<Parameters<typeof ownerReferenceJson>[0]> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'u1', ...over });

  it('accepts complete references', () => {
    expect(validateOwnerReferences([ref(), ref({ apiVersion: 'apps/v1', kind: 'Deployment', controller: true })], path)).toEqual([]);
  });
  it('reports empty fields on the un-indexed list path (v1.36)', () => {
    expect(messages(validateOwnerReferences([{ apiVersion: '', kind: '', name: '', uid: '' }], path))).toEqual([
      'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
      'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
    ]);
  });
  it('treats apiVersions without a version as empty', () => {
    expect(messages(validateOwnerReferences([ref({ apiVersion: 'apps/' }), ref({ apiVersion: 'a/b/c' }), ref({ apiVersion: '/' })], path))).toEqual([
      'metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty',
      'metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty',
      'metadata.ownerReferences.apiVersion: Invalid value: "/": version must not be empty',
    ]);
  });
  it('bans v1 Event as an owner, printing the reference as struct-ordered JSON', () => {
    expect(messages(validateOwnerReferences([ref({ kind: 'Event', name: 'e', blockOwnerDeletion: false })], path))).toEqual([
      'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u1","blockOwnerDeletion":false}: /v1, Kind=Event is disallowed from being an owner',
    ]);
    expect(validateOwnerReferences([ref({ apiVersion: 'events.k8s.io/v1', kind: 'Event' })], path)).toEqual([]);
    expect(messages(validateOwnerReferences([ref({ apiVersion: '/v1', kind: 'Event' })], path))[0]).toContain('/v1, Kind=Event is disallowed from being an owner');
  });
  it('allows only one controller, with the upstream text', () => {
    const refs = [
      ref({ kind: 'customresourceKind1', name: 'name', controller: false }),
      ref({ kind: 'customresourceKind2', name: 'name', controller: true }),
      ref({ kind: 'customresourceKind3', name: 'name', controller: true, blockOwnerDeletion: true }),
    ];
    expect(messages(validateOwnerReferences(refs, path))).toEqual([
      'metadata.ownerReferences: Invalid value: [' +
        '{"apiVersion":"v1","kind":"customresourceKind1","name":"name","uid":"u1","controller":false},' +
        '{"apiVersion":"v1","kind":"customresourceKind2","name":"name","uid":"u1","controller":true},' +
        '{"apiVersion":"v1","kind":"customresourceKind3","name":"name","uid":"u1","controller":true,"blockOwnerDeletion":true}' +
        ']: Only one reference can have Controller set to true. Found "true" in references for customresourceKind2/name and customresourceKind3/name',
    ]);
  });
  it('names the first controller in every later complaint, after that reference\'s own errors', () => {
    const errs = messages(validateOwnerReferences([ref({ kind: 'A', name: 'a', controller: true }), ref({ kind: 'B', name: '', controller: true }), ref({ kind: 'C', name: 'c', controller: true })], path));
    expect(errs).toHaveLength(3);
    expect(errs[0]).toBe('metadata.ownerReferences.name: Invalid value: "": must not be empty');
    expect(errs[1]).toMatch(/Found "true" in references for A\/a and B\/$/);
    expect(errs[2]).toMatch(/Found "true" in references for A\/a and C\/c$/);
  });
});

describe('invalidWithJson', () => {
  it('keeps the value when renderValue already prints Go\'s text', () => {
    expect(invalidWithJson('f', 'abc', '"abc"', 'd')).toEqual({ type: 'FieldValueInvalid', field: 'f', value: 'abc', detail: 'd' });
  });
  it('escapes HTML characters in JSON strings as Go does', () => {
    expect(fieldErrorMessage(invalidWithJson('f', 'a<b', '"a\\u003cb"', 'd'))).toBe('f: Invalid value: "a\\u003cb": d');
  });
});

describe('validateFinalizers', () => {
  it('accepts qualified names', () => {
    expect(validateFinalizers(['kubernetes.io/pv-protection', 'foregroundDeletion', 'example.com/Fin_1'], 'metadata.finalizers')).toEqual([]);
  });
  it('reports each bad name', () => {
    expect(messages(validateFinalizers(['a/b/c', 'x/'], 'metadata.finalizers'))).toEqual([
      expect.stringMatching(/^metadata\.finalizers: Invalid value: "a\/b\/c": a valid label key must consist/),
      'metadata.finalizers: Invalid value: "x/": name part must be non-empty',
      `metadata.finalizers: Invalid value: "x/": ${NAME_PART_MSG}`,
    ]);
  });
  it('rejects orphan together with foregroundDeletion', () => {
    expect(messages(validateFinalizers(['orphan', 'x/y', 'foregroundDeletion'], 'metadata.finalizers'))).toEqual([
      'metadata.finalizers: Invalid value: ["orphan","x/y","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
    ]);
  });
});

describe('validateNoNewFinalizers', () => {
  it('lists added names once, sorted, as a Go []string', () => {
    expect(messages(validateNoNewFinalizers(['x/a', 'y/b', 'foo', 'foo'], ['x/a'], 'metadata.finalizers'))).toEqual([
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"foo", "y/b"}',
    ]);
  });
  it('renders the §4.3 vector', () => {
    expect(messages(validateNoNewFinalizers(['foo'], [], 'metadata.finalizers'))).toEqual([
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"foo"}',
    ]);
  });
  it('allows removing and keeping finalizers', () => {
    expect(validateNoNewFinalizers(['x/a'], ['x/a', 'y/b'], 'metadata.finalizers')).toEqual([]);
    expect(validateNoNewFinalizers([], ['x/a'], 'metadata.finalizers')).toEqual([]);
  });
});

describe('validateNonnegativeField', () => {
  it('rejects negatives only', () => {
    expect(validateNonnegativeField(0, 'metadata.generation')).toEqual([]);
    expect(messages(validateNonnegativeField(-1, 'metadata.generation'))).toEqual(['metadata.generation: Invalid value: -1: must be greater than or equal to 0']);
  });
});

describe('validateFieldManager', () => {
  it('caps at 128 bytes', () => {
    expect(validateFieldManager('m'.repeat(128), 'fieldManager')).toEqual([]);
    expect(messages(validateFieldManager('m'.repeat(129), 'fieldManager'))).toEqual(['fieldManager: Too long: may not be more than 128 bytes']);
  });
  it('names each unprintable character with its byte position', () => {
    expect(validateFieldManager('kubectl client-side apply é ✓', 'fieldManager')).toEqual([]);
    expect(messages(validateFieldManager('é\tx\u0000', 'fieldManager'))).toEqual([
      'fieldManager: Invalid value: "é\\tx\\x00": invalid character U+0009 (at position 2)',
      'fieldManager: Invalid value: "é\\tx\\x00": invalid character U+0000 (at position 4)',
    ]);
    expect(messages(validateFieldManager('a\u0085', 'fieldManager'))).toEqual(['fieldManager: Invalid value: "a\\u0085": invalid character U+0085 (at position 1)']);
    // Spaces other than U+0020 are not printable for unicode.IsPrint.
    expect(validateFieldManager('a\u00a0b\u2028', 'fieldManager').map((e) => e.detail)).toEqual([
      'invalid character U+00A0 (at position 1)',
      'invalid character U+2028 (at position 4)',
    ]);
  });
});

describe('validateManagedFields', () => {
  const entry = (over: Partial<ManagedFieldsEntryValue> = {}): ManagedFieldsEntryValue => ({
    manager: 'kubectl',
    operation: 'Apply',
    fieldsType: 'FieldsV1',
    subresource: '',
    ...over,
  });
  it('accepts Apply/Update with FieldsV1 or no fieldsType', () => {
    expect(validateManagedFields([entry(), entry({ operation: 'Update', fieldsType: '', subresource: 'status' })], 'metadata.managedFields')).toEqual([]);
  });
  it('reports each entry at its index, in Go order', () => {
    expect(
      messages(
        validateManagedFields(
          [entry(), entry({ operation: '', fieldsType: 'FieldsV2', manager: 'm'.repeat(129), subresource: 's'.repeat(257) })],
          'metadata.managedFields',
        ),
      ),
    ).toEqual([
      'metadata.managedFields[1].operation: Invalid value: "": must be `Apply` or `Update`',
      'metadata.managedFields[1].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
      'metadata.managedFields[1].manager: Too long: may not be more than 128 bytes',
      'metadata.managedFields[1].subresource: Too long: may not be more than 256 bytes',
    ]);
  });
});
