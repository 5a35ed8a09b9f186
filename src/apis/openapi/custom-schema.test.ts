import { describe, expect, it } from 'vitest';
import { customKindSchemas } from './custom-schema.ts';
import type { Json } from './names.ts';
import { cronTabType } from './test-fixtures.ts';

const OBJECT_META = '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

describe('custom resource schemas (apiextensions builder)', () => {
  const v3 = customKindSchemas(cronTabType(), { v2: false });
  const kind = v3['com.example.stable.v1.CronTab'] as Json & { properties: Record<string, Json> };
  const spec = kind.properties.spec as Json & { properties: Record<string, Json> };

  it('adds the GVK, apiVersion, kind and an ObjectMeta metadata to the CRD schema', () => {
    expect(kind['x-kubernetes-group-version-kind']).toEqual([{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
    expect(Object.keys(kind.properties)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    expect(kind.properties.metadata).toEqual({ allOf: [{ $ref: OBJECT_META }], description: expect.stringContaining("Standard object's metadata") });
    expect(kind.properties.apiVersion).toMatchObject({ type: 'string' });
    expect(kind.description).toBe('CronTab is the Schema for the crontabs API');
  });

  it('keeps the structural keywords and validations, drops the rest', () => {
    expect(spec.required).toEqual(['image', 'note']);
    expect(spec.properties.image).toEqual({ type: 'string', default: 'nginx' });
    expect(spec.properties.replicas).toEqual({ type: 'integer', minimum: 1, maximum: 10 });
    expect(spec.properties.note).toEqual({ type: 'string', nullable: true });
  });

  it('unfolds int-or-string into anyOf integer/string', () => {
    expect(spec.properties.port).toEqual({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });
  });

  it('gives embedded resources apiVersion, kind and metadata and requires the first two', () => {
    const template = spec.properties.template as Json & { properties: Record<string, Json> };
    expect(Object.keys(template.properties)).toEqual(['apiVersion', 'kind', 'metadata']);
    expect(template.required).toEqual(['kind', 'apiVersion']);
  });

  it('builds <Kind>List with items referring to the kind', () => {
    const list = v3['com.example.stable.v1.CronTabList'] as Json & { properties: Record<string, Json> };
    expect(list.required).toEqual(['items']);
    expect(list['x-kubernetes-group-version-kind']).toEqual([{ group: 'stable.example.com', kind: 'CronTabList', version: 'v1' }]);
    expect(list.properties.items).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/com.example.stable.v1.CronTab' } });
    expect(list.properties.metadata).toMatchObject({ allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta' }] });
  });

  it('publishes an open object when there is no schema', () => {
    const none = customKindSchemas(cronTabType({ schema: undefined }), { v2: false });
    expect(none['com.example.stable.v1.CronTab']).toEqual({ type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }] });
  });

  describe('the swagger 2.0 flavour', () => {
    const v2 = customKindSchemas(cronTabType(), { v2: true })['com.example.stable.v1.CronTab'] as Json & { properties: Record<string, Json> };
    const v2spec = v2.properties.spec as Json & { properties: Record<string, Json> };

    it('keeps flat validations, drops anyOf, nullable and defaults, and empties open objects', () => {
      expect(v2spec.required).toEqual(['image']);
      expect(v2spec.properties.image).toEqual({ type: 'string' });
      expect(v2spec.properties.replicas).toEqual({ type: 'integer', minimum: 1, maximum: 10 });
      expect(v2spec.properties.note).toEqual({});
      expect(v2spec.properties.port).toEqual({ 'x-kubernetes-int-or-string': true });
      expect(v2.properties.status).toEqual({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    });

    it('collapses a root that preserves unknown fields to a bare object', () => {
      const open = customKindSchemas(cronTabType({ schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }), { v2: true });
      expect(open['com.example.stable.v1.CronTab']).toEqual({ type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }] });
    });
  });
});
