import { describe, expect, it } from 'vitest';
import type { ObjectMeta } from '../apis/object.ts';
import { aggregateMessages, fieldErrorMessage, type FieldError } from '../errors/field-error.ts';
import { validateObjectMeta, validateObjectMetaAccessorUpdate, validateObjectMetaUpdate, type ObjectMetaRules } from './object-meta.ts';

const messages = (errs: FieldError[]): string[] => errs.map(fieldErrorMessage);

const CR: ObjectMetaRules = { namespaced: true, nameRule: 'dns1123-subdomain' };
const CLUSTER: ObjectMetaRules = { namespaced: false, nameRule: 'dns1123-subdomain' };

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('validateObjectMeta (create)', () => {
  it('accepts a well-formed object', () => {
    expect(validateObjectMeta({ name: 'my-obj.v1', namespace: 'default', labels: { app: 'x' }, finalizers: ['example.com/f'] }, CR)).toEqual([]);
  });
  it('requires a name, then a namespace for namespaced kinds', () => {
    expect(messages(validateObjectMeta({}, CR))).toEqual(['metadata.name: Required value: name or generateName is required', 'metadata.namespace: Required value']);
    expect(messages(validateObjectMeta(undefined, CLUSTER))).toEqual(['metadata.name: Required value: name or generateName is required']);
  });
  it('still requires a name when only generateName is given (names are generated before validation)', () => {
    expect(messages(validateObjectMeta({ generateName: 'foo-', namespace: 'ns' }, CR))).toEqual([
      'metadata.name: Required value: name or generateName is required',
    ]);
  });
  it('renders the §4.2 name vector', () => {
    expect(messages(validateObjectMeta({ name: 'Bad_Name', namespace: 'default' }, CR))).toEqual([`metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN_MSG}`]);
  });
  it('reports a too-long name in characters, then its format', () => {
    expect(messages(validateObjectMeta({ name: 'a'.repeat(254) }, CLUSTER))).toEqual([
      `metadata.name: Invalid value: "${'a'.repeat(254)}": must be no more than 253 characters`,
    ]);
  });
  it('validates generateName with the trailing dash masked, before the name', () => {
    expect(validateObjectMeta({ generateName: 'foo-', name: 'foo-x7k2p' }, CLUSTER)).toEqual([]);
    expect(messages(validateObjectMeta({ generateName: 'Foo-', name: 'Foo-x7k2p' }, CLUSTER))).toEqual([
      `metadata.generateName: Invalid value: "Foo-": ${SUBDOMAIN_MSG}`,
      `metadata.name: Invalid value: "Foo-x7k2p": ${SUBDOMAIN_MSG}`,
    ]);
  });
  it('uses the kind\'s name rule', () => {
    expect(messages(validateObjectMeta({ name: 'a.b' }, { namespaced: false, nameRule: 'dns1123-label' }))).toEqual([
      'metadata.name: Invalid value: "a.b": must not contain dots',
    ]);
    expect(messages(validateObjectMeta({ name: '.' }, { namespaced: false, nameRule: 'path-segment' }))).toEqual(["metadata.name: Invalid value: \".\": may not be '.'"]);
    expect(messages(validateObjectMeta({ name: 'a/b%c' }, { namespaced: false, nameRule: 'path-segment' }))).toEqual([
      "metadata.name: Invalid value: \"a/b%c\": may not contain '/'",
      "metadata.name: Invalid value: \"a/b%c\": may not contain '%'",
    ]);
    expect(validateObjectMeta({ name: 'Any_Name.Works' }, { namespaced: false, nameRule: 'path-segment' })).toEqual([]);
  });
  it('forbids a namespace on cluster-scoped kinds', () => {
    expect(messages(validateObjectMeta({ name: 'x', namespace: 'default' }, CLUSTER))).toEqual(['metadata.namespace: Forbidden: not allowed on this type']);
  });
  it('checks the namespace as a DNS-1123 label', () => {
    expect(messages(validateObjectMeta({ name: 'x', namespace: 'foo.bar' }, CR))).toEqual(['metadata.namespace: Invalid value: "foo.bar": must not contain dots']);
    expect(messages(validateObjectMeta({ name: 'x', namespace: 'Foo' }, CR))).toEqual([`metadata.namespace: Invalid value: "Foo": ${LABEL_MSG}`]);
    expect(messages(validateObjectMeta({ name: 'x', namespace: 'A'.repeat(64) }, CR))).toEqual([
      `metadata.namespace: Invalid value: "${'A'.repeat(64)}": must be no more than 63 characters`,
      `metadata.namespace: Invalid value: "${'A'.repeat(64)}": ${LABEL_MSG}`,
    ]);
  });
  it('keeps the Go order across all fields', () => {
    const meta = {
      name: 'Bad',
      namespace: 'Bad',
      generation: -1,
      labels: { 'bad key': 'ok' },
      annotations: { 'a/b/c': 'v' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: '' }],
      finalizers: ['orphan', 'foregroundDeletion'],
      managedFields: [{ manager: 'm', operation: 'Patch' }],
    } as ObjectMeta;
    expect(messages(validateObjectMeta(meta, CR))).toEqual([
      `metadata.name: Invalid value: "Bad": ${SUBDOMAIN_MSG}`,
      `metadata.namespace: Invalid value: "Bad": ${LABEL_MSG}`,
      'metadata.generation: Invalid value: -1: must be greater than or equal to 0',
      `metadata.labels: Invalid value: "bad key": ${NAME_PART_MSG}`,
      expect.stringMatching(/^metadata\.annotations: Invalid value: "a\/b\/c": a valid label key must consist/),
      'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
      'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
      'metadata.managedFields[0].operation: Invalid value: "Patch": must be `Apply` or `Update`',
    ]);
  });
  it('aggregates into the message a client sees', () => {
    const errs = validateObjectMeta({ name: 'x', namespace: 'ns', annotations: { big: 'v'.repeat(262144) } }, CR);
    expect(aggregateMessages(messages(errs))).toBe('metadata.annotations: Too long: may not be more than 262144 bytes');
  });
  it('honours a custom metadata path', () => {
    expect(messages(validateObjectMeta({ labels: { x: '-' } }, { namespaced: false, nameRule: 'dns1123-subdomain', path: 'spec.template.metadata' }))[0]).toBe(
      'spec.template.metadata.name: Required value: name or generateName is required',
    );
  });
});

describe('validateObjectMetaAccessorUpdate', () => {
  const base: ObjectMeta = {
    name: 'test',
    namespace: 'ns',
    uid: 'uid-1',
    resourceVersion: '7',
    generation: 5,
    creationTimestamp: '2024-05-01T12:00:00Z',
  };
  const update = (over: Partial<ObjectMeta>, old: Partial<ObjectMeta> = {}) => messages(validateObjectMetaAccessorUpdate({ ...base, ...over }, { ...base, ...old }));

  it('accepts an unchanged object', () => {
    expect(update({})).toEqual([]);
    expect(update({ creationTimestamp: '2024-05-01T14:00:00+02:00' })).toEqual([]);
  });
  it('requires a resourceVersion', () => {
    expect(update({ resourceVersion: '' })).toEqual(['metadata.resourceVersion: Invalid value: "": must be specified for an update']);
  });
  it('forbids decrementing generation', () => {
    expect(update({ generation: 4 })).toEqual(['metadata.generation: Invalid value: 4: must not be decremented']);
    expect(update({ generation: 6 })).toEqual([]);
  });
  it('keeps name, namespace and uid immutable', () => {
    expect(update({ name: 'other', namespace: 'ns2', uid: 'uid-2' })).toEqual([
      'metadata.name: Invalid value: "other": field is immutable',
      'metadata.namespace: Invalid value: "ns2": field is immutable',
      'metadata.uid: Invalid value: "uid-2": field is immutable',
    ]);
    // types.UID prints as JSON, so HTML characters are escaped.
    expect(update({ uid: 'a<b' })).toEqual(['metadata.uid: Invalid value: "a\\u003cb": field is immutable']);
  });
  it('prints timestamps as metav1.Time JSON', () => {
    expect(update({ creationTimestamp: '2024-05-01T14:00:01+02:00' })).toEqual(['metadata.creationTimestamp: Invalid value: "2024-05-01T12:00:01Z": field is immutable']);
    expect(update({ creationTimestamp: undefined })).toEqual(['metadata.creationTimestamp: Invalid value: null: field is immutable']);
  });
  it('matches upstream TestValidateObjectMetaUpdatePreventsDeletionFieldMutation', () => {
    const now = '1970-01-01T00:16:40Z';
    const later = '1970-01-01T00:33:20Z';
    expect(update({ deletionTimestamp: now })).toEqual([`metadata.deletionTimestamp: Invalid value: "${now}": field is immutable`]);
    expect(update({}, { deletionTimestamp: now })).toEqual(['metadata.deletionTimestamp: Invalid value: null: field is immutable']);
    expect(update({ deletionTimestamp: later }, { deletionTimestamp: now })).toEqual([`metadata.deletionTimestamp: Invalid value: "${later}": field is immutable`]);
    expect(update({ deletionGracePeriodSeconds: 30 })).toEqual(['metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable']);
    expect(update({}, { deletionGracePeriodSeconds: 30 })).toEqual(['metadata.deletionGracePeriodSeconds: Invalid value: null: field is immutable']);
    expect(update({ deletionGracePeriodSeconds: 40 }, { deletionGracePeriodSeconds: 30 })).toEqual([
      'metadata.deletionGracePeriodSeconds: Invalid value: 40: field is immutable',
    ]);
    expect(update({ deletionTimestamp: now, deletionGracePeriodSeconds: 30 }, { deletionTimestamp: now, deletionGracePeriodSeconds: 30 })).toEqual([]);
  });
  it('forbids new finalizers once the old object is being deleted (§4.3)', () => {
    const deleting = { deletionTimestamp: '2024-05-01T13:00:00Z', finalizers: ['x/a'] };
    expect(update({ ...deleting, finalizers: ['x/a', 'foo'] }, deleting)).toEqual([
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"foo"}',
    ]);
    expect(update({ ...deleting, finalizers: [] }, deleting)).toEqual([]);
    expect(update({ finalizers: ['x/a', 'y/b'] }, { finalizers: ['x/a'] })).toEqual([]);
  });
  it('does not re-check name format, namespace, generation sign or finalizer names', () => {
    expect(update({ name: 'Bad_Name' }, { name: 'Bad_Name' })).toEqual([]);
    expect(update({ finalizers: ['a/b/c'] })).toEqual([]);
    expect(update({ generation: -1 }, { generation: -1 })).toEqual([]);
  });
  it('checks labels, annotations, ownerReferences and managedFields after immutability, in Go order', () => {
    expect(
      update(
        {
          resourceVersion: '',
          uid: 'uid-2',
          labels: { x: '-' },
          annotations: { 'a b': '' },
          ownerReferences: [{ apiVersion: '', kind: 'K', name: 'n', uid: 'u' }],
          managedFields: [{ manager: 'm', operation: 'Update', fieldsType: 'X' }],
        },
        { deletionTimestamp: '2024-05-01T13:00:00Z' },
      ),
    ).toEqual([
      'metadata.resourceVersion: Invalid value: "": must be specified for an update',
      'metadata.uid: Invalid value: "uid-2": field is immutable',
      'metadata.deletionTimestamp: Invalid value: null: field is immutable',
      expect.stringMatching(/^metadata\.labels: Invalid value: "-": a valid label must be an empty string/),
      `metadata.annotations: Invalid value: "a b": ${NAME_PART_MSG}`,
      'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
      'metadata.managedFields[0].fieldsType: Invalid value: "X": must be `FieldsV1`',
    ]);
  });
});

describe('validateObjectMetaUpdate (rest validateCommonFields)', () => {
  const old: ObjectMeta = { name: 'test', namespace: 'ns', uid: 'u', resourceVersion: '3', creationTimestamp: '2024-05-01T12:00:00Z' };

  it('accepts an unchanged object', () => {
    expect(validateObjectMetaUpdate({ ...old, labels: { a: 'b' } }, old, CR)).toEqual([]);
  });
  it('runs the create checks, then the update checks, so shared checks report twice', () => {
    expect(messages(validateObjectMetaUpdate({ ...old, generation: -1, labels: { x: '-' } }, { ...old, generation: 0 }, CR))).toEqual([
      'metadata.generation: Invalid value: -1: must be greater than or equal to 0',
      expect.stringMatching(/^metadata\.labels: Invalid value: "-"/),
      'metadata.generation: Invalid value: -1: must not be decremented',
      expect.stringMatching(/^metadata\.labels: Invalid value: "-"/),
    ]);
  });
  it('checks finalizer names and the namespace scope on update too', () => {
    expect(messages(validateObjectMetaUpdate({ ...old, finalizers: ['orphan', 'foregroundDeletion'] }, old, CR))).toEqual([
      'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
    ]);
    expect(messages(validateObjectMetaUpdate({ ...old, namespace: '' }, old, CR))).toEqual([
      'metadata.namespace: Required value',
      'metadata.namespace: Invalid value: "": field is immutable',
    ]);
  });
});
