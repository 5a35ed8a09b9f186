// The decision part of Store.Delete (registry/rest/delete.go, registry/generic/registry/store.go):
// preconditions, garbage-collection finalizers from the propagation policy, and whether the object
// is removed now or marked as deleting until its finalizers are gone.
import type { KubeObject, StoredObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import { conflict } from '../errors/status-error.ts';
import { formatTimestamp, type Clock } from './context.ts';
import type { DeleteOptions } from './options.ts';

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

export type DeletionOutcome = { kind: 'remove' } | { kind: 'mark'; object: KubeObject };

export function applyDeletion(existing: StoredObject, options: DeleteOptions, type: ResourceType, clock: Clock): DeletionOutcome {
  checkPreconditions(existing, options, type);
  const finalizers = gcFinalizers(existing.metadata.finalizers ?? [], options);
  if (finalizers.length === 0) return { kind: 'remove' };
  const obj = structuredClone(existing) as KubeObject;
  const meta = obj.metadata!;
  meta.finalizers = finalizers;
  // markAsDeleting: generation bumps once, the timestamp is kept unless it lies in the future.
  const now = clock.now();
  if (!meta.deletionTimestamp && (meta.generation ?? 0) > 0) meta.generation = meta.generation! + 1;
  if (!meta.deletionTimestamp || Date.parse(meta.deletionTimestamp) > now.getTime()) meta.deletionTimestamp = formatTimestamp(now);
  meta.deletionGracePeriodSeconds = 0;
  return { kind: 'mark', object: obj };
}

function checkPreconditions(existing: StoredObject, options: DeleteOptions, type: ResourceType): void {
  const pre = options.preconditions;
  if (!pre) return;
  // These messages name the Kind, not the resource (rest.BeforeDelete builds the GroupResource from the GVK).
  const gr = { group: type.group, resource: type.kind };
  const { name, uid, resourceVersion } = existing.metadata;
  if (pre.uid !== undefined && pre.uid !== uid) {
    throw conflict(gr, name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`);
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== resourceVersion) {
    throw conflict(gr, name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${resourceVersion}). The object might have been modified`);
  }
}

/** deletionFinalizersForGarbageCollection: both GC finalizers are recomputed from the options. */
function gcFinalizers(current: readonly string[], options: DeleteOptions): string[] {
  const policy = options.propagationPolicy;
  const orphan =
    policy !== undefined ? policy === 'Orphan' : options.orphanDependents !== undefined ? options.orphanDependents : current.includes(ORPHAN_FINALIZER);
  const foreground = policy !== undefined ? policy === 'Foreground' : options.orphanDependents !== undefined ? false : current.includes(FOREGROUND_FINALIZER);
  const out = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (orphan) out.push(ORPHAN_FINALIZER);
  if (foreground) out.push(FOREGROUND_FINALIZER);
  return out;
}
