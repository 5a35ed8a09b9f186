// Schemas of the built-in kinds, from the definitions openapi-gen derives from the Go types
// (src/generated/openapi-definitions.generated.ts, by scripts/gen-openapi-definitions.py): every
// field with its description, type and the patch/list markers. Completeness matters for
// client-side apply: kubectl computes a strategic merge patch from the schema when the PATCH
// operation lists SMP, with the merge keys of `x-kubernetes-patch-merge-key`; a kind the Go types
// do not cover keeps an open schema and is not offered SMP.
import { OPENAPI_DEFINITIONS, OPENAPI_KINDS, OPENAPI_V2_DEFINITIONS } from '../../generated/openapi-definitions.generated.ts';
import type { ResourceType } from '../resource-type.ts';
import { definitionName, type Json } from './names.ts';
import { gvkList, object, typeAndObjectMeta, V3_PREFIX } from './schema-helpers.ts';

export interface KindSchemas {
  /** The kind's definition and the definitions it refers to, by name. */
  definitions: Record<string, Json>;
  /** Every field is described, so a strategic merge patch computed from the schema is exact. */
  complete: boolean;
}

/** Generated definition names reachable from `root`, itself included. */
const closures = new Map<string, string[]>();
function closure(root: string): string[] {
  let names = closures.get(root);
  if (names) return names;
  const seen = new Set<string>([root]);
  const pending: unknown[] = [OPENAPI_DEFINITIONS[root]];
  while (pending.length) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') {
          const name = v.slice(V3_PREFIX.length);
          if (!seen.has(name) && OPENAPI_DEFINITIONS[name]) {
            seen.add(name);
            pending.push(OPENAPI_DEFINITIONS[name]);
          }
        } else if (typeof v === 'object') pending.push(v);
      }
    }
  }
  closures.set(root, (names = [...seen]));
  return names;
}

/** The generated definition of `group/version/Kind` and what it refers to, or undefined. */
export function generatedKindSchemas(group: string, version: string, kind: string, v2 = false): Record<string, Json> | undefined {
  const root = OPENAPI_KINDS[`${group}/${version}/${kind}`];
  if (!root) return undefined;
  return Object.fromEntries(closure(root).map((name) => [name, (v2 && OPENAPI_V2_DEFINITIONS[name]) || OPENAPI_DEFINITIONS[name]!]));
}

export function builtinKindSchemas(type: ResourceType, v2 = false): KindSchemas {
  const generated = generatedKindSchemas(type.group, type.version, type.kind, v2);
  if (generated) return { definitions: generated, complete: true };
  const description = `${type.kind} is served by kubefake; its schema is not described.`;
  const extra: Json = { 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-group-version-kind': gvkList(type.group, type.version, type.kind) };
  return { definitions: { [definitionName(type, type.kind)]: object(description, typeAndObjectMeta(), extra) }, complete: false };
}
