// A custom resource's published schema, as apiextensions-apiserver's OpenAPI builder makes it
// (controller/openapi/builder/builder.go): the structural subset of the CRD version's
// openAPIV3Schema, int-or-string unfolded, apiVersion/kind/metadata set at the root and on
// embedded resources, and the GVK extension. The v2 variant is what the published swagger gets
// (builder Options{V2: true}, openapi/v2 ToStructuralOpenAPIV2, handler.PruneDefaults): no
// allOf/anyOf/oneOf/not, no nullable, no defaults, and open objects without properties.
import type { JSONSchemaProps } from '../../schema/types.ts';
import type { ResourceType } from '../resource-type.ts';
import { definitionName, type Json } from './names.ts';
import { API_VERSION_DESCRIPTION, gvkList, KIND_DESCRIPTION, LIST_METADATA_DESCRIPTION, OBJECT_METADATA_DESCRIPTION, ref, sortKeys, str } from './schema-helpers.ts';
import { isPlainObject } from '../object.ts';

/** The structural schema's generic and value-validation keywords, in the order kube-openapi writes them. */
const GENERIC = ['description', 'type', 'title', 'default', 'nullable'];
const VALUE_VALIDATION = [
  'format', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern',
  'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'enum', 'maxProperties', 'minProperties', 'required',
];
const NESTED = ['allOf', 'oneOf', 'anyOf', 'not'];
const EXTENSIONS = [
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-validations',
];

export interface CustomSchemaOptions {
  /** Swagger 2.0 flavour: no nested value validations, nullable or defaults; open objects without properties. */
  v2: boolean;
}

/** The kind definition and the list definition of a custom resource, by name. */
export function customKindSchemas(type: ResourceType, options: CustomSchemaOptions): Record<string, Json> {
  const name = definitionName(type, type.kind);
  return { [name]: kindSchema(type, options), [definitionName(type, type.listKind)]: listSchema(type, name) };
}

function kindSchema(type: ResourceType, { v2 }: CustomSchemaOptions): Json {
  const gvk = { 'x-kubernetes-group-version-kind': gvkList(type.group, type.version, type.kind) };
  const schema = type.schema;
  // Without a schema, or (for v2) with an open root, kubectl must not assume a closed object.
  if (!schema || (v2 && schema['x-kubernetes-preserve-unknown-fields'] === true)) return { type: 'object', ...gvk };
  let out = structural(schema, v2);
  out = { ...out, properties: sortKeys({ ...(out.properties as Record<string, Json> | undefined), ...typeAndMetadata() }) };
  return { ...addEmbedded(out, v2), ...gvk };
}

const typeAndMetadata = (): Record<string, Json> => ({
  apiVersion: str(API_VERSION_DESCRIPTION),
  kind: str(KIND_DESCRIPTION),
  metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', { description: OBJECT_METADATA_DESCRIPTION }),
});

function listSchema(type: ResourceType, itemName: string): Json {
  return {
    description: `${type.listKind} is a list of ${type.kind}`,
    required: ['items'],
    properties: sortKeys({
      items: { description: `List of ${type.plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`, type: 'array', items: ref(itemName) },
      metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta', { description: LIST_METADATA_DESCRIPTION }),
      apiVersion: str(API_VERSION_DESCRIPTION),
      kind: str(KIND_DESCRIPTION),
    }),
    'x-kubernetes-group-version-kind': gvkList(type.group, type.version, type.listKind),
  };
}

/** Structural projection of one node (NewStructural + Unfold + ToKubeOpenAPI), then the v2 filters. */
function structural(s: JSONSchemaProps, v2: boolean): Json {
  const out: Json = {};
  for (const k of GENERIC) if (s[k] !== undefined && !(v2 && k === 'default')) out[k] = s[k];
  for (const k of VALUE_VALIDATION) if (s[k] !== undefined) out[k] = s[k];
  // v2: a nullable property cannot be required (kubectl would reject the null).
  if (v2 && Array.isArray(out.required) && s.properties) out.required = out.required.filter((f) => s.properties![f as string]?.nullable !== true);
  if (!v2) {
    for (const k of NESTED) {
      const v = s[k];
      if (Array.isArray(v)) out[k] = v.map((x) => nested(x as JSONSchemaProps));
      else if (isPlainObject(v)) out[k] = nested(v as JSONSchemaProps);
    }
  }
  if (isPlainObject(s.items)) out.items = structural(s.items as JSONSchemaProps, v2);
  if (s.properties) out.properties = sortKeys(Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, structural(v, v2)])));
  if (isPlainObject(s.additionalProperties)) out.additionalProperties = structural(s.additionalProperties as JSONSchemaProps, v2);
  else if (typeof s.additionalProperties === 'boolean') out.additionalProperties = s.additionalProperties;
  for (const k of EXTENSIONS) if (s[k] !== undefined && s[k] !== false) out[k] = s[k];
  if (!v2) return unfoldIntOrString(out);
  return toOpenAPIV2(out);
}

/** Value validations nested in allOf/anyOf/oneOf/not keep only validation keywords and structure. */
function nested(s: JSONSchemaProps): Json {
  const out: Json = {};
  for (const k of [...VALUE_VALIDATION, 'description', 'type']) if (s[k] !== undefined) out[k] = s[k];
  for (const k of NESTED) {
    const v = s[k];
    if (Array.isArray(v)) out[k] = v.map((x) => nested(x as JSONSchemaProps));
    else if (isPlainObject(v)) out[k] = nested(v as JSONSchemaProps);
  }
  if (isPlainObject(s.items)) out.items = nested(s.items as JSONSchemaProps);
  if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, nested(v)]));
  if (isPlainObject(s.additionalProperties)) out.additionalProperties = nested(s.additionalProperties as JSONSchemaProps);
  return out;
}

const INT_OR_STRING_ANY_OF = (): Json[] => [{ type: 'integer' }, { type: 'string' }];

const isIntOrStringAnyOf = (anyOf: unknown): boolean =>
  Array.isArray(anyOf) && anyOf.length === 2 && (anyOf[0] as Json).type === 'integer' && (anyOf[1] as Json).type === 'string';

/** structural.Unfold: an int-or-string node gains anyOf [integer, string] unless it already says so. */
function unfoldIntOrString(s: Json): Json {
  if (s['x-kubernetes-int-or-string'] !== true) return s;
  const allOf = s.allOf as Json[] | undefined;
  if (isIntOrStringAnyOf(s.anyOf) || (allOf && isIntOrStringAnyOf(allOf[0]?.anyOf))) return s;
  if (s.anyOf === undefined) return { ...s, anyOf: INT_OR_STRING_ANY_OF() };
  return { ...s, allOf: [{ anyOf: INT_OR_STRING_ANY_OF() }, ...(allOf ?? [])] };
}

/** openapi/v2 ToStructuralOpenAPIV2 plus StripNullable, applied bottom-up. */
function toOpenAPIV2(s: Json): Json {
  const out = { ...s };
  if (out.nullable === true) {
    // Untyped values break kubectl if items or properties are set.
    delete out.type;
    delete out.items;
    delete out.properties;
  }
  delete out.nullable;
  if (out['x-kubernetes-preserve-unknown-fields'] === true) {
    delete out.items;
    delete out.properties;
  }
  if (out.items === undefined && out.type === 'array') delete out.type;
  return out;
}

/** addEmbeddedProperties: embedded resources get apiVersion, kind and metadata, and require the first two. */
function addEmbedded(s: Json, v2: boolean): Json {
  let out = s;
  const props = s.properties as Record<string, Json> | undefined;
  if (props) out = { ...out, properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, addEmbedded(v, v2)])) };
  if (isPlainObject(s.items)) out = { ...out, items: addEmbedded(s.items as Json, v2) };
  if (isPlainObject(s.additionalProperties)) out = { ...out, additionalProperties: addEmbedded(s.additionalProperties as Json, v2) };
  if (v2 && s['x-kubernetes-preserve-unknown-fields'] === true) return out;
  if (s['x-kubernetes-embedded-resource'] !== true) return out;
  const required = [...((s.required as string[] | undefined) ?? [])];
  for (const k of ['kind', 'apiVersion']) if (!required.includes(k)) required.push(k);
  return {
    ...out,
    properties: sortKeys({
      ...(out.properties as Record<string, Json> | undefined),
      apiVersion: str('apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources'),
      kind: str('kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds'),
      metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', { description: OBJECT_METADATA_DESCRIPTION }),
    }),
    required,
  };
}

