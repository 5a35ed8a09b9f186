// What a type's strategy may decide about a delete, below the registry that carries it out
// (registry/deletion.ts): the outcome a REST storage wrapping Delete returns, the garbage
// collection finalizer names, and the precondition check those wrapping storages run first.
import type { KubeObject, StoredObject } from './object.ts';
import type { DeleteOptions } from './options.ts';
import { conflict, type GroupResource } from '../errors/status-error.ts';

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

export type DeletionOutcome =
  /**
   * Remove from storage now; with `write`, first store this state (a graceful delete with period
   * 0 records deletionTimestamp before removing, so watchers see MODIFIED then DELETED).
   */
  | { kind: 'remove'; write?: KubeObject }
  /** Write this object (deletion marked, grace period set or shortened) and keep it. */
  | { kind: 'update'; object: KubeObject }
  /** A graceful deletion is already under way with a shorter or equal period: nothing changes. */
  | { kind: 'pending' };

/**
 * The precondition checks of REST storages that wrap Delete (namespaces, CRDs): they run before
 * the generic ones and word the conflict after the storage layer, naming the resource.
 */
export function checkWrappedPreconditions(gr: GroupResource, existing: StoredObject, options: DeleteOptions): void {
  const { name, uid, resourceVersion } = existing.metadata;
  const pre = options.preconditions;
  if (pre?.uid !== undefined && pre.uid !== uid) throw conflict(gr, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${uid}`);
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== resourceVersion) {
    throw conflict(gr, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${resourceVersion}`);
  }
}
