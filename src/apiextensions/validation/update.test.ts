// Update vectors after TestValidateCustomResourceDefinitionUpdate and TestValidateCustomResourceDefinitionStatusUpdate
// (validation_test.go): immutable fields, dropped stored versions, and the ratchets computed from
// the old object.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../apis/object.ts';
import { validateCustomResourceDefinition, validateCustomResourceDefinitionStatusUpdate, validateCustomResourceDefinitionUpdate } from './index.ts';
import { crontab, messages, type Json } from './test-support.ts';

const update = (next: KubeObject, old: KubeObject) => messages(validateCustomResourceDefinitionUpdate(next, old));
const established = (crd: KubeObject): KubeObject => ({ ...crd, status: { ...(crd.status as Json), conditions: [{ type: 'Established', status: 'True' }] } });
const version = (spec: Json) => (spec.versions as Json[])[0]!;

describe('immutability', () => {
  it('group and plural never change; kind and scope only before the CRD is established', () => {
    const old = crontab();
    const next = crontab(undefined, (spec) => {
      spec.group = 'other.example.com';
      spec.scope = 'Cluster';
      spec.names = { plural: 'crons', singular: 'crontab', kind: 'Cron' };
    });
    expect(update(next, old)).toEqual([
      'spec.group: Invalid value: "other.example.com": field is immutable',
      'spec.names.plural: Invalid value: "crons": field is immutable',
    ]);
    expect(update(established(next), established(old))).toEqual([
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Cron": field is immutable',
      'spec.group: Invalid value: "other.example.com": field is immutable',
      'spec.names.plural: Invalid value: "crons": field is immutable',
    ]);
  });
});

describe('stored versions', () => {
  it('a version still in status.storedVersions cannot be dropped', () => {
    const twoVersions = (spec: Json) => (spec.versions = [{ name: 'v1beta1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } }, version(spec)]);
    const old = crontab(undefined, twoVersions);
    old.status = { storedVersions: ['v1beta1', 'v1'] };
    const next = crontab();
    next.status = { storedVersions: ['v1beta1', 'v1'] };
    expect(update(next, old)).toEqual([
      'status.storedVersions[0]: Invalid value: "v1beta1": missing from spec.versions; v1beta1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1beta1 and removes v1beta1 from status.storedVersions',
    ]);
  });

  it('/status writes check acceptedNames only', () => {
    const next = crontab();
    next.status = { storedVersions: ['v1'], acceptedNames: { plural: 'Bad_Plural', kind: 'CronTab' } };
    expect(messages(validateCustomResourceDefinitionStatusUpdate(next, crontab()))).toEqual([
      "status.acceptedNames.plural: Invalid value: \"Bad_Plural\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });
});

describe('ratcheting', () => {
  it('invalid property types are allowed only if the old object had them', () => {
    const schema = { type: 'object', properties: { a: { type: 'bogus' } } };
    const bogus = crontab(schema);
    expect(messages(validateCustomResourceDefinition(bogus))).toEqual([
      'spec.validation.openAPIV3Schema.properties[a].type: Unsupported value: "bogus": supported values: "array", "boolean", "integer", "number", "object", "string"',
    ]);
    expect(update(crontab({ ...schema, description: 'changed' }), bogus)).toEqual([]);
    expect(update(bogus, crontab())).toHaveLength(1);
  });

  it('non-atomic set items are allowed only if pre-existing', () => {
    const schema = { type: 'object', properties: { s: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' } } } };
    const bad = crontab(schema);
    expect(update(bad, crontab())).toEqual([
      'spec.validation.openAPIV3Schema.properties[s].items.x-kubernetes-list-type: Invalid value: "set": must be atomic as item of a list with x-kubernetes-list-type=set',
    ]);
    expect(update(bad, bad)).toEqual([]);
  });

  it('map keys without default are allowed only if pre-existing', () => {
    const schema = { type: 'object', properties: { m: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', properties: { k: { type: 'string' } } } } } };
    const bad = crontab(schema);
    expect(update(bad, crontab())).toEqual([
      'spec.validation.openAPIV3Schema.properties[m].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
    ]);
    expect(update(bad, bad)).toEqual([]);
  });

  it('schemas stay optional if the old object lacked them, but served versions need one for pruning', () => {
    const noSchema = crontab(undefined, (spec) => delete version(spec).schema);
    expect(update(noSchema, noSchema)).toEqual(['spec.versions[0].schema.openAPIV3Schema: Required value: because otherwise all fields are pruned']);
    const unserved = crontab(undefined, (spec) => {
      delete version(spec).schema;
      version(spec).served = false;
    });
    expect(update(unserved, unserved)).toEqual([]);
  });

  it('unrecognized conversionReviewVersions are allowed only if the old ones were unrecognized too', () => {
    const webhook = (versions: string[]) => crontab(undefined, (spec) => (spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://a.example.com' }, conversionReviewVersions: versions } }));
    expect(update(webhook(['v3']), webhook(['v2']))).toEqual([]);
    expect(update(webhook(['v3']), webhook(['v1']))).toEqual(['spec.conversion.conversionReviewVersions: Invalid value: ["v3"]: must include at least one of v1, v1beta1']);
  });

  it('an invalid caBundle is refused once the CRD is established, unless it was invalid already', () => {
    const withBundle = (caBundle?: string) =>
      crontab(undefined, (spec) => (spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://a.example.com', ...(caBundle ? { caBundle } : {}) }, conversionReviewVersions: ['v1'] } }));
    expect(update(withBundle('Zm9v'), withBundle())).toEqual([]);
    expect(update(withBundle('Zm9v'), established(withBundle()))).toEqual([
      'spec.conversion.webhookClientConfig.caBundle: Invalid value: "Zm9v": unable to load root certificates: unable to parse bytes as PEM block',
    ]);
    expect(update(withBundle('YmFy'), established(withBundle('Zm9v')))).toEqual([]);
  });

  it('too many selectableFields are allowed only if unchanged from an old list that was too long', () => {
    const props = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, { type: 'string' }]));
    const schema = { type: 'object', properties: { spec: { type: 'object', properties: props } } };
    const withFields = (n: number) => crontab(schema, (spec) => (version(spec).selectableFields = Object.keys(props).slice(0, n).map((k) => ({ jsonPath: `.spec.${k}` }))));
    expect(update(withFields(9), withFields(9))).toEqual([]);
    expect(update(withFields(10), withFields(9))).toEqual(['spec.selectableFields: Too many: 10: must have at most 8 items']);
    expect(update(withFields(9), withFields(8))).toEqual(['spec.selectableFields: Too many: 9: must have at most 8 items']);
  });

  it('preserveUnknownFields may stay true but not be switched on', () => {
    const preserving = crontab(undefined, (spec) => (spec.preserveUnknownFields = true));
    expect(update(preserving, preserving)).toEqual([]);
    expect(update(preserving, crontab())).toEqual([
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ]);
  });
});
