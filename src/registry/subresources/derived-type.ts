// The ResourceTypes derived from a resource's for its subresources (the status store copy, the
// scale type, the types admission is asked about): made once per resource type and key, so the
// registries and admission state cached per type are shared by every request.
import type { ResourceType } from '../../apis/resource-type.ts';

const derived = new WeakMap<ResourceType, Map<string, ResourceType>>();

/** The type derived from `parent` under `key`, built by `build` on first use. */
export function derivedType(parent: ResourceType, key: string, build: () => ResourceType): ResourceType {
  let byKey = derived.get(parent);
  if (!byKey) derived.set(parent, (byKey = new Map()));
  let type = byKey.get(key);
  if (!type) byKey.set(key, (type = build()));
  return type;
}
