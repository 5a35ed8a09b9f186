// The type admission is asked about for a create-only subresource (pods/binding, pods/eviction,
// serviceaccounts/token): the parent resource with the subresource's kind and no strategy of its
// own, as the installer registers it (RegisterKindFor(resource, subresource, kind)). A kind whose
// group or version is not the resource's (policy/v1 Eviction on core pods) is carried beside it
// as the admission attributes' `kind`.
import type { ResourceType } from '../../apis/resource-type.ts';
import type { GroupVersionKind } from '../admission.ts';
import { derivedType } from './derived-type.ts';

/** The derived type of `parent`'s create-only `subresource`, whose body is of kind `kind`. */
export function createSubresourceTypeOf(parent: ResourceType, subresource: string, kind: GroupVersionKind): ResourceType {
  // Typed: the body is a built-in kind even under a custom resource (a CR's Scale). Keyed apart
  // from the types writes of the subresource go through (status.ts, scale.ts).
  return derivedType(parent, `${subresource} as ${kind.kind}`, () => ({ ...parent, kind: kind.kind, listKind: `${kind.kind}List`, subresource, strategy: {}, decodeBody: undefined, unstructured: false }));
}
