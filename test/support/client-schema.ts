// client-node's typed models name the OpenAPI extensions with underscores (`x_kubernetes_validations`)
// and drop keys they do not know when serializing, so raw `x-kubernetes-*` keys must be renamed
// before a CRD goes through ApiextensionsV1Api. `items` and `additionalProperties` are untyped
// (`any`) in the models and pass through unchanged, so their content keeps the raw names.
import type * as k8s from '@kubernetes/client-node';

const UNTYPED = new Set(['items', 'additionalProperties', 'default', 'example', 'enum']);

function rename(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(rename);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.startsWith('x-kubernetes-') ? k.replace(/-/g, '_') : k, UNTYPED.has(k) ? x : rename(x)]));
}

/** A raw CRD manifest as a client-node V1CustomResourceDefinition. */
export const clientCrd = (crd: unknown): k8s.V1CustomResourceDefinition => rename(crd) as k8s.V1CustomResourceDefinition;
