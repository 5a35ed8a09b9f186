// Small builders for OpenAPI v3 schema objects in the shape kube-openapi emits: a $ref with
// siblings (description, default) is wrapped in allOf, because OpenAPI 3.0 ignores $ref siblings.
import type { Json } from './names.ts';

export const V3_PREFIX = '#/components/schemas/';

export function ref(name: string, extra: Json = {}): Json {
  const target = { $ref: V3_PREFIX + name };
  return Object.keys(extra).length === 0 ? target : { allOf: [target], ...extra };
}

const withDescription = (schema: Json, description?: string): Json => (description ? { description, ...schema } : schema);

export const str = (description?: string, extra: Json = {}): Json => withDescription({ type: 'string', ...extra }, description);
export const bool = (description?: string): Json => withDescription({ type: 'boolean' }, description);
export const int32 = (description?: string, extra: Json = {}): Json => withDescription({ type: 'integer', format: 'int32', ...extra }, description);
export const int64 = (description?: string, extra: Json = {}): Json => withDescription({ type: 'integer', format: 'int64', ...extra }, description);
export const time = (description?: string): Json => ref(`io.k8s.apimachinery.pkg.apis.meta.v1.Time`, description ? { description } : {});

export const stringMap = (description?: string, format?: string): Json =>
  withDescription({ type: 'object', additionalProperties: format ? { type: 'string', format } : { type: 'string', default: '' } }, description);

export const stringList = (description?: string, listType: 'atomic' | 'set' = 'atomic', extra: Json = {}): Json =>
  withDescription({ type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': listType, ...extra }, description);

export const refList = (name: string, description?: string, extra: Json = {}): Json =>
  withDescription({ type: 'array', items: ref(name, { default: {} }), ...extra }, description);

/** An object schema; properties are emitted in sorted order, as Go marshals maps. */
export function object(description: string | undefined, properties: Record<string, Json>, extra: Json = {}): Json {
  return withDescription({ type: 'object', properties: sortKeys(properties), ...extra }, description);
}

export function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export const gvkList = (group: string, version: string, kind: string): Json[] => [{ group, kind, version }];

export const API_VERSION_DESCRIPTION =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
export const KIND_DESCRIPTION =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
export const OBJECT_METADATA_DESCRIPTION = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
export const LIST_METADATA_DESCRIPTION = 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** apiVersion, kind and metadata, the TypeMeta/ObjectMeta properties every top-level kind has. */
export function typeAndObjectMeta(): Record<string, Json> {
  return {
    apiVersion: str(API_VERSION_DESCRIPTION),
    kind: str(KIND_DESCRIPTION),
    metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', { default: {}, description: OBJECT_METADATA_DESCRIPTION }),
  };
}
