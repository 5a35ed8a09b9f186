// Plain JSON shapes of Kubernetes objects as kubefake stores and serves them.

/** metav1.OwnerReference: the object that owns this one (the garbage collector deletes dependents of deleted owners). */
export interface OwnerReference {
  /** The owner's apiVersion (`apps/v1`). */
  apiVersion: string;
  /** The owner's kind. */
  kind: string;
  /** The owner's name (same namespace as the dependent, or cluster-scoped). */
  name: string;
  /** The owner's uid: an owner re-created under the same name is another owner. */
  uid: string;
  /** True for the managing controller (at most one reference). */
  controller?: boolean;
  /** With foreground deletion, the owner waits for this dependent to be gone. */
  blockOwnerDeletion?: boolean;
}

/** metav1.ObjectMeta as JSON; the server sets uid, resourceVersion, generation and the timestamps. */
export interface ObjectMeta {
  /** Unique within the namespace (or the cluster, for cluster-scoped kinds). */
  name?: string;
  /** Prefix of a server-generated name (five random characters appended) when `name` is empty. */
  generateName?: string;
  /** Namespace of a namespaced object. */
  namespace?: string;
  /** Set by the server on create; unique for this object's lifetime. */
  uid?: string;
  /** Changes on every write; send it back on update for optimistic concurrency. */
  resourceVersion?: string;
  /** Bumped by the server when the spec (anything but metadata and status) changes. */
  generation?: number;
  /** RFC 3339, set on create from the cluster's clock. */
  creationTimestamp?: string;
  /** RFC 3339, set when deletion starts for an object that must wait (finalizers, graceful pod deletion). */
  deletionTimestamp?: string;
  /** Seconds of grace the deletion was given. */
  deletionGracePeriodSeconds?: number;
  /** Labels, selectable by label selectors. */
  labels?: Record<string, string>;
  /** Annotations: arbitrary non-identifying metadata. */
  annotations?: Record<string, string>;
  /** The objects this one depends on. */
  ownerReferences?: OwnerReference[];
  /** Names of what must happen before the object may be removed. */
  finalizers?: string[];
  /** Server-side apply bookkeeping: which manager owns which fields. */
  managedFields?: unknown[];
  /** Deprecated; the server never sets it. */
  selfLink?: string;
  [key: string]: unknown;
}

/** Any Kubernetes object as plain JSON. */
export interface KubeObject {
  /** `v1`, `apps/v1`, `stable.example.com/v1`… */
  apiVersion?: string;
  /** `ConfigMap`, `Deployment`, `CronTab`… */
  kind?: string;
  /** Name, namespace, labels and the server-managed fields. */
  metadata?: ObjectMeta;
  [key: string]: unknown;
}

/** An object as it sits in the store: always has metadata with name and resourceVersion. */
export type StoredObject = KubeObject & { metadata: ObjectMeta & { name: string; resourceVersion: string } };

/** metav1.ListMeta. */
export interface ListMeta {
  /** The store's revision the list was read at. */
  resourceVersion?: string;
  /** Token for the next page, when `limit` cut the list. */
  continue?: string;
  /** How many items the following pages hold, when known. */
  remainingItemCount?: number;
}

/** A list response (`ConfigMapList`, `CronTabList`…). */
export interface KubeList {
  /** The list's apiVersion (that of its items). */
  apiVersion: string;
  /** `<Kind>List`. */
  kind: string;
  /** Revision and paging. */
  metadata: ListMeta;
  /** The objects. */
  items: KubeObject[];
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** Splits `apps/v1` into group and version; `v1` is the core group. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/** schema.ParseGroupVersion: like parseApiVersion, but undefined where Go errors (more than one '/'). */
export function parseGroupVersion(gv: string): { group: string; version: string } | undefined {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const i = gv.indexOf('/');
  if (i < 0) return { group: '', version: gv };
  if (gv.indexOf('/', i + 1) >= 0) return undefined;
  return { group: gv.slice(0, i), version: gv.slice(i + 1) };
}
