// Catalogs for the OpenAPI tests: the built-ins plus a hand-made CronTab custom resource with the
// schema of the Kubernetes CRD walkthrough.
import { builtinResourceTypes } from '../builtin/index.ts';
import { ApiCatalog } from '../catalog.ts';
import type { ResourceType } from '../resource-type.ts';
import type { JSONSchemaProps } from '../../schema/types.ts';

export const CRONTAB_SCHEMA: JSONSchemaProps = {
  type: 'object',
  description: 'CronTab is the Schema for the crontabs API',
  properties: {
    spec: {
      type: 'object',
      description: 'CronTabSpec is the desired state',
      properties: {
        cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
        image: { type: 'string', default: 'nginx' },
        replicas: { type: 'integer', minimum: 1, maximum: 10 },
        port: { 'x-kubernetes-int-or-string': true },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        note: { type: 'string', nullable: true, example: 'ignored by the builder' },
      },
      required: ['image', 'note'],
    },
    status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  },
};

export function cronTabType(overrides: Partial<ResourceType> = {}): ResourceType {
  return {
    group: 'stable.example.com',
    version: 'v1',
    kind: 'CronTab',
    listKind: 'CronTabList',
    plural: 'crontabs',
    singular: 'crontab',
    namespaced: true,
    shortNames: ['ct'],
    categories: ['all'],
    verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
    subresources: ['status', 'scale'],
    nameRule: 'path-segment',
    fieldSelectors: null,
    allowUnconditionalUpdate: false,
    allowCreateOnUpdate: false,
    returnDeletedObject: true,
    unstructured: true,
    strategy: {},
    schema: CRONTAB_SCHEMA,
    ...overrides,
  };
}

export function testCatalog(...extra: ResourceType[]): ApiCatalog {
  const catalog = new ApiCatalog();
  for (const t of builtinResourceTypes()) catalog.add(t);
  for (const t of extra) catalog.add(t);
  return catalog;
}
