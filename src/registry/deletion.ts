// The decision part of Store.Delete (apiserver registry/rest/delete.go BeforeDelete, and
// registry/generic/registry/store.go Delete + updateForGracefulDeletionAndFinalizers):
// preconditions, graceful deletion, garbage-collection finalizers from the propagation policy,
// and whether the object is removed now, updated as deleting, or left as it is.
import type { KubeObject, StoredObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import { conflict } from '../errors/status-error.ts';
import { formatTimestamp } from '../go/time.ts';
import type { Clock } from '../util/clock-and-random.ts';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER, type DeletionOutcome } from '../apis/deletion-strategy.ts';
import type { DeleteOptions } from '../apis/options.ts';

export function applyDeletion(existing: StoredObject, options: DeleteOptions, type: ResourceType, clock: Clock): DeletionOutcome {
  // A REST storage that wraps Delete (namespaces) runs its own checks first.
  const override = type.strategy.beforeDelete?.(existing, options, clock.now());
  if (override) return override;
  checkPreconditions(existing, options, type);
  return genericDeletion(existing, options, type, clock);
}

/** Store.Delete without the per-type override (namespaces fall through to it once finalized). */
export function genericDeletion(existing: StoredObject, options: DeleteOptions, type: ResourceType, clock: Clock): DeletionOutcome {
  const obj = structuredClone(existing) as KubeObject;
  const meta = obj.metadata!;
  const now = clock.now();
  const grace = beforeDelete(obj, options, type, now);
  if (grace === 'pending') return { kind: 'pending' };
  const finalizers = gcFinalizers(meta.finalizers ?? [], options);
  if (finalizers.length || meta.finalizers !== undefined) meta.finalizers = finalizers;
  const pendingFinalizers = finalizers.length > 0;
  if (grace === undefined) {
    if (!pendingFinalizers) return { kind: 'remove' };
    markAsDeleting(obj, now);
    return { kind: 'update', object: obj };
  }
  if (pendingFinalizers || grace > 0) return { kind: 'update', object: obj };
  return { kind: 'remove', write: obj };
}

/**
 * rest.BeforeDelete for strategies with graceful deletion: sets deletionTimestamp and
 * deletionGracePeriodSeconds on `obj` and answers the period, `pending` when a graceful deletion
 * is already running and is not shortened, or undefined when the delete is not graceful.
 */
function beforeDelete(obj: KubeObject, options: DeleteOptions, type: ResourceType, now: Date): number | 'pending' | undefined {
  const check = type.strategy.checkGracefulDelete;
  if (!check) return undefined;
  const meta = obj.metadata!;
  // Negative values are treated as 1s on the delete path.
  const requested = options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds < 0 ? 1 : options.gracePeriodSeconds;
  if (meta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds < 0) meta.deletionGracePeriodSeconds = 1;
  if (meta.deletionTimestamp) {
    const current = meta.deletionGracePeriodSeconds;
    if (!current) return undefined;
    if (requested === undefined || requested >= current) return 'pending';
    // Only a shorter period may be given: move the timestamp back by the difference, never before now.
    let timestamp = Date.parse(meta.deletionTimestamp) - current * 1000 + requested * 1000;
    let period = requested;
    if (timestamp < now.getTime()) {
      timestamp = now.getTime();
      if (period !== 0) period = 1;
    }
    meta.deletionTimestamp = formatTimestamp(new Date(timestamp));
    meta.deletionGracePeriodSeconds = period;
    return period;
  }
  const period = check(obj, requested);
  if (period === undefined) return undefined;
  meta.deletionTimestamp = formatTimestamp(new Date(now.getTime() + period * 1000));
  meta.deletionGracePeriodSeconds = period;
  if ((meta.generation ?? 0) > 0) meta.generation = meta.generation! + 1;
  return period;
}

/** markAsDeleting: generation bumps once, the timestamp is kept unless it lies in the future. */
export function markAsDeleting(obj: KubeObject, now: Date): void {
  const meta = obj.metadata!;
  if (!meta.deletionTimestamp && (meta.generation ?? 0) > 0) meta.generation = meta.generation! + 1;
  if (!meta.deletionTimestamp || Date.parse(meta.deletionTimestamp) > now.getTime()) meta.deletionTimestamp = formatTimestamp(now);
  meta.deletionGracePeriodSeconds = 0;
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
export function gcFinalizers(current: readonly string[], options: DeleteOptions): string[] {
  const policy = options.propagationPolicy;
  const orphan =
    options.orphanDependents !== undefined ? options.orphanDependents : policy !== undefined ? policy === 'Orphan' : current.includes(ORPHAN_FINALIZER);
  const foreground =
    options.orphanDependents !== undefined ? false : policy !== undefined ? policy === 'Foreground' : current.includes(FOREGROUND_FINALIZER);
  const out = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (orphan) out.push(ORPHAN_FINALIZER);
  if (foreground) out.push(FOREGROUND_FINALIZER);
  // An unchanged set keeps its original order.
  const same = out.length === new Set(current).size && out.every((f) => current.includes(f));
  return same ? [...current] : out;
}

/**
 * ShouldDeleteDuringUpdate: an update that leaves a deleting object without finalizers (and
 * with no grace period running) completes its deletion; types may add conditions.
 */
export function completesDeletion(obj: KubeObject, old: StoredObject, type: ResourceType): boolean {
  if (obj.metadata?.finalizers?.length) return false;
  if (!old.metadata.deletionTimestamp) return false;
  if (old.metadata.deletionGracePeriodSeconds) return false;
  return type.strategy.canCompleteDeletion?.(obj) ?? true;
}
