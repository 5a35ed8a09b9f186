// The server-side apply schema of a custom resource version, from its structural schema, as the
// CRD handler builds it (buildOpenAPIModelsForApply, then kube-openapi's schemaconv): the root and
// every x-kubernetes-embedded-resource get apiVersion, kind and an ObjectMeta-typed metadata;
// x-kubernetes-preserve-unknown-fields makes unknown keys "deduced" below it; lists follow
// x-kubernetes-list-type (atomic when absent), maps x-kubernetes-map-type.
import type { JSONSchemaProps } from '../schema/types.ts';
import { builtinObjectMeta } from './object-meta-schema.ts';
import { DEDUCED, scalarAtom, UNTYPED_ATOMIC, type Atom, type ListType, type MapType, type StructField } from './smd-schema.ts';

const STRING = scalarAtom('string');

/** schemaconv.convertPrimitive. */
function primitive(type: string, format: string | undefined): Atom {
  switch (type) {
    case 'integer':
    case 'number':
      return scalarAtom('numeric');
    case 'boolean':
      return scalarAtom('boolean');
    case 'string':
      return !format || format === 'byte' ? STRING : scalarAtom('untyped');
    default:
      return scalarAtom('untyped');
  }
}

function convert(s: JSONSchemaProps, preserve: boolean, embedded = false): Atom {
  preserve ||= s['x-kubernetes-preserve-unknown-fields'] === true;
  switch (s.type ?? '') {
    case '':
      return { scalar: 'untyped', list: list(s, preserve), map: object(s, preserve, embedded) };
    case 'object':
      return { map: object(s, preserve, embedded || s['x-kubernetes-embedded-resource'] === true) };
    case 'array':
      return { list: list(s, preserve) };
    default:
      return primitive(s.type!, s.format);
  }
}

function object(s: JSONSchemaProps, preserve: boolean, embedded: boolean): MapType {
  const fields = new Map<string, StructField>();
  for (const [name, member] of Object.entries(s.properties ?? {})) {
    const field: StructField = { type: convert(member, preserve) };
    if (member.default !== undefined) field.default = member.default;
    fields.set(name, field);
  }
  // The builder's addEmbeddedProperties / root type meta: metadata is always an ObjectMeta.
  if (embedded || s['x-kubernetes-embedded-resource'] === true) {
    if (!fields.has('apiVersion')) fields.set('apiVersion', { type: STRING });
    if (!fields.has('kind')) fields.set('kind', { type: STRING });
    fields.set('metadata', { type: builtinObjectMeta() });
  }
  const ap = s.additionalProperties;
  let elementType: Atom | undefined;
  if (ap === undefined) elementType = preserve || fields.size === 0 ? DEDUCED : undefined;
  else if (typeof ap === 'object') elementType = convert(ap, preserve);
  else elementType = ap ? DEDUCED : undefined;
  return { fields, elementType, relationship: s['x-kubernetes-map-type'] === 'atomic' ? 'atomic' : 'separable' };
}

function list(s: JSONSchemaProps, preserve: boolean): ListType {
  const items = Array.isArray(s.items) ? s.items[0] : s.items;
  const elementType = items ? convert(items, preserve) : UNTYPED_ATOMIC;
  switch (s['x-kubernetes-list-type']) {
    case 'set':
      return { elementType, relationship: 'associative', keys: [] };
    case 'map':
      return { elementType, relationship: 'associative', keys: s['x-kubernetes-list-map-keys'] ?? [] };
    default:
      return { elementType, relationship: 'atomic', keys: [] };
  }
}

const cache = new WeakMap<JSONSchemaProps, Atom>();

/** The apply schema of a custom resource whose version has `schema` as openAPIV3Schema. */
export function customResourceSchema(schema: JSONSchemaProps | undefined): Atom {
  if (!schema) return DEDUCED;
  let atom = cache.get(schema);
  if (!atom) {
    atom = convert({ ...schema, type: schema.type ?? 'object' }, false, true);
    cache.set(schema, atom);
  }
  return atom;
}
