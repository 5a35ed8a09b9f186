// metav1.PartialObjectMetadata(List): an object reduced to its ObjectMeta, as
// meta.AsPartialObjectMetadata builds it and encoding/json writes it (Go field order; unknown
// metadata keys dropped; a missing creationTimestamp is the zero metav1.Time, written null).
import type { KubeObject, ListMeta } from '../../apis/object.ts';

export type MetaVersion = 'v1' | 'v1beta1';

/** ObjectMeta's JSON fields in struct order (selfLink is never set by the server). */
const OBJECT_META_FIELDS = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
] as const;

/** Empty strings, zero numbers and empty maps/slices are omitempty in ObjectMeta. */
function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

export function objectMetaOf(obj: KubeObject): Record<string, unknown> {
  const meta = (obj.metadata ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of OBJECT_META_FIELDS) {
    const v = meta[key];
    if (key === 'creationTimestamp') out[key] = v ?? null; // metav1.Time is a struct: never omitted
    else if (!isEmpty(v)) out[key] = v;
  }
  return out;
}

export function partialObjectMetadata(obj: KubeObject, version: MetaVersion): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: objectMetaOf(obj) };
}

/** ListMeta with its omitempty fields, as Table and PartialObjectMetadataList carry it. */
export function listMetaOf(list: ListMeta | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (list?.resourceVersion) out.resourceVersion = list.resourceVersion;
  if (list?.continue) out.continue = list.continue;
  if (list?.remainingItemCount !== undefined && list.remainingItemCount !== null) out.remainingItemCount = list.remainingItemCount;
  return out;
}

/**
 * asPartialObjectMetadataList. Items start as a nil slice in Go, so an empty list serialises
 * `"items":null`.
 */
export function partialObjectMetadataList(items: readonly KubeObject[], list: ListMeta | undefined, version: MetaVersion): Record<string, unknown> {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: listMetaOf(list),
    items: items.length === 0 ? null : items.map((i) => partialObjectMetadata(i, version)),
  };
}
