// A kind's schema with every $ref inlined, as a JSONSchemaProps for the CEL type of its objects:
// what the ValidatingAdmissionPolicy type check reads through its schema resolver
// (k8s.io/apiserver pkg/cel/openapi/resolver DefinitionsSchemaResolver, populating the refs of the
// kind's definition). A type that contains itself (JSONSchemaProps) is cut at the repetition to an
// open object; IntOrString (format int-or-string) reads as x-kubernetes-int-or-string.
import { OPENAPI_DEFINITIONS } from '../../generated/openapi-definitions.generated.ts';
import type { JSONSchemaProps } from '../../schema/types.ts';
import type { ResourceType } from '../resource-type.ts';
import { typeDefinitions } from './definitions.ts';
import { META_SCHEMAS } from './meta-schemas.ts';
import { definitionName, type Json } from './names.ts';
import { V3_PREFIX } from './schema-helpers.ts';
import { isPlainObject } from '../object.ts';

/** The kind's schema with references resolved, or undefined when the type has none. */
export function resolvedKindSchema(type: ResourceType): JSONSchemaProps | undefined {
  const { definitions } = typeDefinitions(type);
  const lookup = (name: string): Json | undefined => (definitions[name] ?? OPENAPI_DEFINITIONS[name] ?? META_SCHEMAS[name]) as Json | undefined;
  const root = definitionName(type, type.kind);
  const rootSchema = lookup(root);
  if (!rootSchema) return undefined;
  return inline(rootSchema, lookup, [root]) as JSONSchemaProps;
}

function refName(node: Json): string | undefined {
  if (typeof node.$ref === 'string') return node.$ref.startsWith(V3_PREFIX) ? node.$ref.slice(V3_PREFIX.length) : undefined;
  if (Array.isArray(node.allOf) && node.allOf.length === 1 && isPlainObject(node.allOf[0]) && typeof node.allOf[0].$ref === 'string') return refName(node.allOf[0]);
  return undefined;
}

function inline(node: Json, lookup: (name: string) => Json | undefined, stack: string[]): Json {
  const name = refName(node);
  if (name !== undefined) {
    const { $ref: _ref, allOf: _allOf, ...rest } = node;
    if (stack.includes(name)) return { ...rest, type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    const target = lookup(name);
    if (!target) return { ...rest, 'x-kubernetes-preserve-unknown-fields': true };
    return { ...inline(target, lookup, [...stack, name]), ...rest };
  }
  const out: Json = { ...node };
  if (out.format === 'int-or-string') out['x-kubernetes-int-or-string'] = true;
  if (isPlainObject(node.properties)) out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, isPlainObject(v) ? inline(v, lookup, stack) : v]));
  if (isPlainObject(node.items)) out.items = inline(node.items, lookup, stack);
  if (isPlainObject(node.additionalProperties)) out.additionalProperties = inline(node.additionalProperties, lookup, stack);
  return out;
}
