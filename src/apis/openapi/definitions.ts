// The component schemas of a set of resource types: each kind and its list, plus the
// apimachinery definitions they (transitively) refer to, so every $ref in a document resolves.
import type { ResourceType } from '../resource-type.ts';
import { builtinKindSchemas, generatedKindSchemas } from './builtin-schemas.ts';
import { customKindSchemas } from './custom-schema.ts';
import { OPENAPI_DEFINITIONS } from '../../generated/openapi-definitions.generated.ts';
import { META_SCHEMAS } from './meta-schemas.ts';
import { definitionName, type Json } from './names.ts';
import { API_VERSION_DESCRIPTION, gvkList, KIND_DESCRIPTION, LIST_METADATA_DESCRIPTION, object, ref, sortKeys, str, V3_PREFIX } from './schema-helpers.ts';

/** Kind and list definitions of one type; `complete` says whether SMP can be computed from them. */
export function typeDefinitions(type: ResourceType, v2 = false): { definitions: Record<string, Json>; complete: boolean } {
  if (type.unstructured) return { definitions: customKindSchemas(type, { v2 }), complete: false };
  const { definitions, complete } = builtinKindSchemas(type, v2);
  const list = generatedKindSchemas(type.group, type.version, type.listKind, v2) ?? { [definitionName(type, type.listKind)]: builtinListSchema(type) };
  return { definitions: { ...definitions, ...list }, complete };
}

function builtinListSchema(type: ResourceType): Json {
  return object(
    `${type.listKind} is a list of ${type.kind} objects.`,
    {
      apiVersion: str(API_VERSION_DESCRIPTION),
      items: { description: `List of ${type.plural}.`, type: 'array', items: ref(definitionName(type, type.kind), { default: {} }) },
      kind: str(KIND_DESCRIPTION),
      metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta', { default: {}, description: LIST_METADATA_DESCRIPTION }),
    },
    { required: ['items'], 'x-kubernetes-group-version-kind': gvkList(type.group, type.version, type.listKind) },
  );
}

/**
 * Adds the shared definitions that `roots` (and everything already in `schemas`) refer to, then
 * returns all of them sorted by name.
 */
export function closeOverRefs(schemas: Record<string, Json>, roots: unknown[] = []): Record<string, Json> {
  const out = { ...schemas };
  const pending: unknown[] = [...roots, ...Object.values(out)];
  while (pending.length) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith(V3_PREFIX)) {
          const name = v.slice(V3_PREFIX.length);
          // The apimachinery types the Go types reach are generated; META_SCHEMAS holds the rest (discovery, Status, WatchEvent, ...).
          const shared = OPENAPI_DEFINITIONS[name] ?? META_SCHEMAS[name];
          if (!out[name] && shared) pending.push((out[name] = shared));
        } else if (typeof v === 'object') pending.push(v);
      }
    }
  }
  return sortKeys(out);
}
