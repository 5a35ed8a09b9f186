// Spec-level vectors after TestValidateCustomResourceDefinition (validation_test.go), on v1 input.
import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinition } from './index.ts';
import { crontab, defaulted, messages, type Json } from './test-support.ts';

const validate = (edit: (spec: Json, crd: Json) => void, schema: Json = { type: 'object' }) => messages(validateCustomResourceDefinition(crontab(schema, edit as never)));
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const version = (spec: Json) => (spec.versions as Json[])[0]!;

describe('names and group', () => {
  it('the CRD name must be plural.group', () => {
    expect(validate((_s, crd) => ((crd.metadata as Json).name = 'cron.stable.example.com'))).toEqual([
      'metadata.name: Invalid value: "cron.stable.example.com": must be spec.names.plural+"."+spec.group',
    ]);
  });

  it('the group needs a dot', () => {
    expect(
      validate((spec, crd) => {
        spec.group = 'example';
        (crd.metadata as Json).name = 'crontabs.example';
      }),
    ).toEqual(['spec.group: Invalid value: "example": should be a domain with at least one dot']);
  });

  it('scope is required and an enum', () => {
    expect(validate((spec) => delete spec.scope)).toEqual(['spec.scope: Required value']);
    expect(validate((spec) => (spec.scope = 'Bogus'))).toEqual(['spec.scope: Unsupported value: "Bogus": supported values: "Cluster", "Namespaced"']);
  });

  it('names are DNS-1035 labels; kind and listKind may not be equal', () => {
    expect(
      validate((spec) => {
        spec.names = { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTab', shortNames: ['c_t'], categories: ['all'] };
      }),
    ).toEqual([
      `spec.names.shortNames[0]: Invalid value: "c_t": ${DNS1035}`,
      'spec.names.listKind: Invalid value: "CronTab": kind and listKind may not be the same',
    ]);
    expect(validate((spec) => (spec.names = { plural: 'crontabs', singular: 'crontab', kind: 'Cron_Tab', listKind: 'CronTabList' }))).toEqual([
      `spec.names.kind: Invalid value: "Cron_Tab": may have mixed case, but should otherwise match: ${DNS1035}`,
    ]);
  });
});

describe('versions', () => {
  it('exactly one storage version; the value is the internal version list as JSON', () => {
    expect(validate((spec) => (version(spec).storage = false))).toEqual([
      'spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must have exactly one version marked as storage version',
      'status.storedVersions: Invalid value: null: must have at least one stored version',
    ]);
  });

  it('version names are DNS-1035 labels (and spec.version mirrors versions[0])', () => {
    expect(validate((spec) => (version(spec).name = 'V1'))).toEqual([
      `spec.versions[0].name: Invalid value: "V1": ${DNS1035}`,
      `spec.version: Invalid value: "V1": ${DNS1035}`,
    ]);
  });

  it('unique names', () => {
    const errs = validate((spec) => (spec.versions = [version(spec), { ...version(spec), storage: false }]));
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatch(/^spec\.versions: Invalid value: \[\{"Name":"v1",.*\}\]: must contain unique version names$/);
  });

  it('deprecationWarning only on deprecated versions, at most 256 bytes, printable', () => {
    expect(validate((spec) => (version(spec).deprecationWarning = 'x'))).toEqual([
      'spec.versions[0].deprecationWarning: Invalid value: "x": can only be set for deprecated versions',
    ]);
    expect(validate((spec) => Object.assign(version(spec), { deprecated: true, deprecationWarning: 'é\u0007' }))).toEqual([
      // A *string bad value goes through encoding/json, not %q.
      'spec.versions[0].deprecationWarning: Invalid value: "é\\u0007": must only contain printable UTF-8 characters; non-printable character found at index 2',
    ]);
  });
});

describe('printer columns and subresources', () => {
  it('columns: name, type, format and JSONPath', () => {
    expect(validate((spec) => (version(spec).additionalPrinterColumns = [{ name: '', type: 'bogus', format: 'x', jsonPath: 'spec' }]))).toEqual([
      'spec.additionalPrinterColumns[0].name: Required value',
      'spec.additionalPrinterColumns[0].type: Invalid value: "bogus": must be one of boolean,date,integer,number,string',
      'spec.additionalPrinterColumns[0].format: Invalid value: "x": must be one of byte,date,date-time,double,float,int32,int64,password',
      'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec": must be a simple json path starting with .',
    ]);
  });

  it('scale paths: spec replicas under .spec, status replicas under .status, selector under either', () => {
    expect(validate((spec) => (version(spec).subresources = { scale: { specReplicasPath: '.status.replicas', statusReplicasPath: '', labelSelectorPath: '.metadata.x' } }))).toEqual([
      'spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
      'spec.subresources.scale.statusReplicasPath: Required value',
      'spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.x": should be a json path under either .spec or .status',
    ]);
  });
});

describe('selectableFields', () => {
  const schema = { type: 'object', properties: { metadata: { type: 'object' }, spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'object' }, n: { type: 'integer' } } } } };

  it('paths must exist, point to scalars outside metadata, and not repeat', () => {
    const fields = ['.spec.color', '.spec.size', '.metadata.name', '.spec.color', '.spec.nope', "['spec']", ''].map((jsonPath) => ({ jsonPath }));
    expect(validate((spec) => (version(spec).selectableFields = fields), schema)).toEqual([
      'spec.selectableFields[1].jsonPath: Invalid value: ".spec.size": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
      'spec.selectableFields[2].jsonPath: Invalid value: ".metadata.name": is an invalid path: does not refer to a valid field',
      'spec.selectableFields[3].jsonPath: Duplicate value: ".spec.color"',
      'spec.selectableFields[4].jsonPath: Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field',
      `spec.selectableFields[5].jsonPath: Invalid value: "['spec']": is an invalid path: array notation is not allowed`,
      'spec.selectableFields[6].jsonPath: Required value',
    ]);
  });

  it('at most 8', () => {
    const props = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`f${i}`, { type: 'string' }]));
    const fields = Object.keys(props).map((k) => ({ jsonPath: `.spec.${k}` }));
    expect(validate((spec) => (version(spec).selectableFields = fields), { type: 'object', properties: { spec: { type: 'object', properties: props } } })).toEqual([
      'spec.selectableFields: Too many: 9: must have at most 8 items',
    ]);
  });
});

describe('conversion', () => {
  it('Webhook needs a client config and review versions', () => {
    expect(validate((spec) => (spec.conversion = { strategy: 'Webhook' }))).toEqual([
      'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
      'spec.conversion.conversionReviewVersions: Required value',
    ]);
  });

  it('webhook URL: https only, no query or fragment; review versions must include a known one', () => {
    expect(validate((spec) => (spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'http://example.com/x?y#z' }, conversionReviewVersions: ['v2', 'v2'] } }))).toEqual([
      "spec.conversion.webhookClientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      'spec.conversion.webhookClientConfig.url: Invalid value: "z": fragments are not permitted in the URL',
      'spec.conversion.webhookClientConfig.url: Invalid value: "y": query parameters are not permitted in the URL',
      'spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version',
      'spec.conversion.conversionReviewVersions: Invalid value: ["v2","v2"]: must include at least one of v1, v1beta1',
    ]);
  });

  it('webhook URL that does not parse', () => {
    expect(validate((spec) => (spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://exa mple.com' }, conversionReviewVersions: ['v1'] } }))).toEqual([
      'spec.conversion.webhookClientConfig.url: Required value: url must be a valid URL: parse "https://exa mple.com": invalid character " " in host name; desired format: https://host[/path]',
    ]);
  });

  it('webhook service: name, namespace, port and path segments', () => {
    expect(validate((spec) => (spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { service: { port: 0, path: '/a_b' } }, conversionReviewVersions: ['v1'] } }))).toEqual([
      'spec.conversion.webhookClientConfig.service.name: Required value',
      'spec.conversion.webhookClientConfig.service.namespace: Required value',
      'spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
      "spec.conversion.webhookClientConfig.service.path: Invalid value: \"/a_b\": segment[0]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
  });

  it('both url and service, and an invalid CA bundle (allowed on create)', () => {
    expect(validate((spec) => (spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://a.b', service: { name: 'a', namespace: 'b' }, caBundle: 'Zm9v' }, conversionReviewVersions: ['v1'] } }))).toEqual([
      'spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required',
    ]);
  });

  it('None forbids webhook settings', () => {
    expect(validate((spec) => (spec.conversion = { strategy: 'None', webhook: { clientConfig: { url: 'https://a.b' }, conversionReviewVersions: ['v1'] } }))).toEqual([
      'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
      'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
    ]);
  });
});

describe('status and annotations', () => {
  it('status.storedVersions must contain the storage version and only versions still in spec', () => {
    const crd = crontab();
    crd.status = { storedVersions: ['v1beta1'] };
    expect(messages(validateCustomResourceDefinition(crd))).toEqual([
      'status.storedVersions: Invalid value: ["v1beta1"]: must have the storage version v1',
      'status.storedVersions[0]: Invalid value: "v1beta1": missing from spec.versions; v1beta1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1beta1 and removes v1beta1 from status.storedVersions',
    ]);
  });

  it('protected groups need the api-approved annotation', () => {
    const forGroup = (annotation?: string) =>
      validate((spec, crd) => {
        spec.group = 'stable.k8s.io';
        crd.metadata = { name: 'crontabs.stable.k8s.io', ...(annotation === undefined ? {} : { annotations: { 'api-approved.kubernetes.io': annotation } }) };
      });
    expect(forGroup()).toEqual([
      'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    ]);
    expect(forGroup('bogus')).toEqual([
      'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "bogus": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
    ]);
    expect(forGroup('unapproved, experimental')).toEqual([]);
    expect(forGroup('https://github.com/kubernetes/kubernetes/pull/78458')).toEqual([]);
  });

  it('a valid CRD passes', () => {
    expect(messages(validateCustomResourceDefinition(defaulted(crontab())))).toEqual([]);
  });
});
