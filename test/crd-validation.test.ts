// CustomResourceDefinition validation on the wire: each rule of issue 5's list, through
// ApiextensionsV1Api, with the causes a real kube-apiserver v1.36 reports (texts from
// apiextensions-apiserver pkg/apis/apiextensions/validation; the unit tests beside that port check the
// same texts rule by rule).
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let ext: k8s.ApiextensionsV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster();
  ext = cluster.kubeConfig.makeApiClient(k8s.ApiextensionsV1Api);
});
afterAll(() => cluster.close());

type Json = Record<string, any>;
const DNS1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME = 'widgets.example.com';

function widgetCrd(): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: NAME },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string' } } },
                status: { type: 'object', properties: { replicas: { type: 'integer' } } },
              },
            },
          },
        },
      ],
    },
  };
}

/** `field: message` of every cause of a failed create, after checking it is a 422 Invalid for the CRD. */
async function causesOf(crd: Json): Promise<string[]> {
  const status = await expectStatus(ext.createCustomResourceDefinition({ body: crd as k8s.V1CustomResourceDefinition }), { code: 422, reason: 'Invalid' });
  const details = status.details as { name: string; group: string; kind: string; causes: Array<{ field: string; message: string }> };
  expect(details).toMatchObject({ name: crd.metadata.name, group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' });
  expect(status.message).toMatch(new RegExp(`^CustomResourceDefinition\\.apiextensions\\.k8s\\.io "${crd.metadata.name.replace(/\./g, '\\.')}" is invalid: `));
  return details.causes.map((c) => `${c.field}: ${c.message}`);
}

const mutated = (change: (crd: Json) => void): Json => {
  const crd = widgetCrd();
  change(crd);
  return crd;
};
const schemaOf = (crd: Json): Json => crd.spec.versions[0].schema.openAPIV3Schema;

describe('a valid CRD', () => {
  it('is created (the baseline the other cases break one rule of)', async () => {
    const created = await ext.createCustomResourceDefinition({ body: widgetCrd() as k8s.V1CustomResourceDefinition });
    expect(created.metadata?.name).toBe(NAME);
    await ext.deleteCustomResourceDefinition({ name: NAME });
    await cluster.settle();
  });
});

describe('names and versions', () => {
  it.each<[string, (crd: Json) => void, string[]]>([
    ['the name must be <plural>.<group>', (c) => (c.metadata.name = 'gadgets.example.com'), ['metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group']],
    ['the group needs a dot', (c) => { c.metadata.name = 'widgets.example'; c.spec.group = 'example'; }, ['spec.group: Invalid value: "example": should be a domain with at least one dot']],
    ['scope is an enum', (c) => (c.spec.scope = 'Galaxy'), ['spec.scope: Unsupported value: "Galaxy": supported values: "Cluster", "Namespaced"']],
    ['kind and listKind differ', (c) => (c.spec.names.listKind = 'Widget'), ['spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same']],
    ['shortNames are DNS-1035 labels', (c) => (c.spec.names.shortNames = ['W_1']), [`spec.names.shortNames[0]: Invalid value: "W_1": ${DNS1035}`]],
  ])('%s', async (_title, change, expected) => {
    expect(await causesOf(mutated(change))).toEqual(expected);
  });

  // The value of these causes is the internal version list as Go prints it; its shape is checked, not spelled out.
  it.each<[string, (crd: Json) => void, RegExp]>([
    ['version names are unique', (c) => c.spec.versions.push({ ...c.spec.versions[0], storage: false }), /^spec\.versions: Invalid value: \[\{"Name":"v1",.*\}\]: must contain unique version names$/],
    ['exactly one storage version', (c) => c.spec.versions.push({ ...c.spec.versions[0], name: 'v2' }), /^spec\.versions: Invalid value: \[\{"Name":"v1",.*"Name":"v2".*\}\]: must have exactly one version marked as storage version$/],
  ])('%s', async (_title, change, expected) => {
    const causes = await causesOf(mutated(change));
    expect(causes.filter((c) => expected.test(c))).toHaveLength(1);
  });

  it('with two storage versions, storedVersions (v1, set on create) also lacks the last one marked', async () => {
    const causes = await causesOf(mutated((c) => c.spec.versions.push({ ...c.spec.versions[0], name: 'v2' })));
    expect(causes[1]).toBe('status.storedVersions: Invalid value: ["v1"]: must have the storage version v2');
  });

  it('needs at least one version', async () => {
    expect(await causesOf(mutated((c) => (c.spec.versions = [])))).toContain('spec.versions: Invalid value: null: must have exactly one version marked as storage version');
  });
});

// Paths: with one version (or identical per-version settings) the apiserver converts the CRD to its
// internal form with the schema, subresources, columns and selectable fields hoisted to spec.*, and
// validates that, so errors name spec.validation.openAPIV3Schema and spec.subresources (seen in
// many user reports of v1 CRDs). client-node spells `default` and `$ref` as `_default` and `ref`.
describe('structural schemas', () => {
  it.each<[string, (schema: Json) => void, string[]]>([
    ['every specified field has a type', (s) => delete s.properties.spec.properties.size.type, ['spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields']],
    ['the root has type object', (s) => (s.type = 'array'), ['spec.validation.openAPIV3Schema.items: Required value: must be specified', 'spec.validation.openAPIV3Schema.type: Invalid value: "array": must be object at the root']],
    ['uniqueItems is forbidden', (s) => (s.properties.spec.properties.tags = { type: 'array', items: { type: 'string' }, uniqueItems: true }), ['spec.validation.openAPIV3Schema.properties[spec].properties[tags].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic']],
    ['additionalProperties and properties are exclusive', (s) => (s.properties.spec.additionalProperties = { type: 'string' }), ['spec.validation.openAPIV3Schema.properties[spec].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive']],
    ['$ref is forbidden', (s) => (s.properties.spec.properties.size = { ref: '#/definitions/size' }), ['spec.validation.openAPIV3Schema.properties[spec].properties[size].$ref: Forbidden: $ref is not supported']],
    ['metadata may only restrict name and generateName', (s) => (s.properties.metadata = { type: 'object', properties: { labels: { type: 'object' } } }), ['spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified']],
    ['defaults must validate', (s) => (s.properties.spec.properties.size._default = 'big'), ['spec.validation.openAPIV3Schema.properties[spec].properties[size].default: Invalid value: "string":  in body must be of type integer: "string"']],
    ['defaults must be pruned', (s) => (s.properties.spec._default = { size: 1, extra: true }), ['spec.validation.openAPIV3Schema.properties[spec].default: Invalid value: {"extra":true,"size":1}: must not have unknown fields']],
  ])('%s', async (_title, change, expected) => {
    expect(await causesOf(mutated((c) => change(schemaOf(c))))).toEqual(expected);
  });
});

describe('subresources, printer columns and selectable fields', () => {
  it.each<[string, (version: Json) => void, string[]]>([
    [
      'scale paths',
      (v) => (v.subresources = { scale: { specReplicasPath: '.status.replicas', statusReplicasPath: '.spec.size' } }),
      ['spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec', 'spec.subresources.scale.statusReplicasPath: Invalid value: ".spec.size": should be a json path under .status'],
    ],
    ['printer column JSONPath', (v) => (v.additionalPrinterColumns = [{ name: 'Size', type: 'integer', jsonPath: 'spec.size' }]), ['spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.size": must be a simple json path starting with .']],
    ['printer column type', (v) => (v.additionalPrinterColumns = [{ name: 'Size', type: 'bogus', jsonPath: '.spec.size' }]), ['spec.additionalPrinterColumns[0].type: Invalid value: "bogus": must be one of boolean,date,integer,number,string']],
    ['selectable field path', (v) => (v.selectableFields = [{ jsonPath: '.spec.nope' }]), ['spec.selectableFields[0].jsonPath: Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field']],
  ])('%s', async (_title, change, expected) => {
    expect(await causesOf(mutated((c) => change(c.spec.versions[0])))).toEqual(expected);
  });
});

describe('updates', () => {
  it('refuses to drop a version that is still in status.storedVersions', async () => {
    const crd = mutated((c) => {
      c.metadata.name = 'gizmos.example.com';
      c.spec.names = { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo' };
      c.spec.versions = [{ ...c.spec.versions[0], name: 'v1beta1' }];
    });
    await cluster.apply(crd);
    // Move storage to v1: both versions are now in storedVersions.
    const current = await ext.readCustomResourceDefinition({ name: 'gizmos.example.com' });
    current.spec.versions = [{ ...current.spec.versions[0]!, storage: false }, { ...current.spec.versions[0]!, name: 'v1', storage: true }];
    const moved = await ext.replaceCustomResourceDefinition({ name: 'gizmos.example.com', body: current });
    await cluster.settle();
    const stored = await ext.readCustomResourceDefinition({ name: 'gizmos.example.com' });
    expect(stored.status?.storedVersions).toEqual(['v1beta1', 'v1']);
    stored.spec.versions = stored.spec.versions.filter((v) => v.name === 'v1');
    const status = await expectStatus(ext.replaceCustomResourceDefinition({ name: 'gizmos.example.com', body: stored }), { code: 422, reason: 'Invalid' });
    expect((status.details as { causes: Array<{ field: string; message: string }> }).causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'status.storedVersions[0]: Invalid value: "v1beta1": missing from spec.versions; v1beta1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1beta1 and removes v1beta1 from status.storedVersions',
    ]);
    expect(moved.metadata?.generation).toBe(2);
  });
});

describe('decoding', () => {
  // clientConfig.caBundle is []byte: encoding/json base64-decodes it before any validation runs.
  const withCaBundle = (caBundle: string): Json => {
    const crd = widgetCrd();
    crd.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://convert.example.com/', caBundle } } };
    return crd;
  };

  it('answers 400 for a conversion webhook caBundle that is not base64, and stores nothing', async () => {
    await expectStatus(ext.createCustomResourceDefinition({ body: withCaBundle('not base64!') as k8s.V1CustomResourceDefinition }), {
      code: 400,
      reason: 'BadRequest',
      message: 'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: illegal base64 data at input byte 3',
    });
    await expectStatus(ext.readCustomResourceDefinition({ name: NAME }), { code: 404, reason: 'NotFound' });
  });

  it('accepts a caBundle that is base64', async () => {
    const created = await ext.createCustomResourceDefinition({ body: withCaBundle(Buffer.from('-----BEGIN CERTIFICATE-----').toString('base64')) as k8s.V1CustomResourceDefinition });
    expect(created.spec.conversion?.webhook?.clientConfig?.caBundle).toBe(Buffer.from('-----BEGIN CERTIFICATE-----').toString('base64'));
    await ext.deleteCustomResourceDefinition({ name: NAME });
  });
});
