// The garbage collector (pkg/controller/garbagecollector): deletes dependents whose owners are
// all gone, finishes Foreground deletions once blocking dependents are gone, and strips owner
// references for Orphan deletions. It works from store events and writes through the registries.
import { parseApiVersion, type OwnerReference, type StoredObject } from '../apis/object.ts';
import { storageKeyOf } from '../apis/resource-type.ts';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../apis/deletion-strategy.ts';
import type { StoreEvent } from '../storage/versioned-store.ts';
import { StatusError } from '../errors/status-error.ts';
import { splitKey, typeForBucket, type Controller, type ControllerContext } from './context.ts';
import { objectRef, OwnerIndex, ownerReferences, parseObjectRef, type ObjectRef } from './owner-index.ts';
import { WorkQueue } from './work-queue.ts';

type OwnerState = 'solid' | 'dangling' | 'waiting' | 'unresolvable';

const hasFinalizer = (obj: StoredObject, f: string) => (obj.metadata.finalizers ?? []).includes(f);
const deleting = (obj: StoredObject) => !!obj.metadata.deletionTimestamp;

export class GarbageCollector implements Controller {
  readonly name = 'garbage-collector';
  private readonly ctx: ControllerContext;
  private readonly index = new OwnerIndex();
  private readonly attemptToDelete: WorkQueue;
  private readonly attemptToOrphan: WorkQueue;
  private unsubscribe: (() => void) | undefined;

  constructor(ctx: ControllerContext, onError: (err: unknown, key: string) => void) {
    this.ctx = ctx;
    this.attemptToDelete = new WorkQueue((ref) => this.processItem(ref), { onError });
    this.attemptToOrphan = new WorkQueue((ref) => this.orphanDependents(ref), { onError });
  }

  start(): void {
    // Objects stored before the collector started (boot namespaces) have no owners worth watching.
    this.unsubscribe = this.ctx.store.subscribe((event) => this.observe(event));
  }

  stop(): void {
    this.unsubscribe?.();
    this.attemptToDelete.stop();
    this.attemptToOrphan.stop();
  }

  get idle(): boolean {
    return this.attemptToDelete.idle && this.attemptToOrphan.idle;
  }

  async whenIdle(): Promise<void> {
    await Promise.all([this.attemptToDelete.whenIdle(), this.attemptToOrphan.whenIdle()]);
  }

  /** processGraphChanges, reduced: decide which items need attention after one change. */
  private observe(event: StoreEvent): void {
    const ref = objectRef(event.bucket, event.key);
    const obj = event.object;
    const ownersBefore = this.index.ownersOf(ref);
    if (event.type === 'DELETED') {
      this.index.set(ref, undefined);
      // Its dependents may now have no owner left; owners waiting on it may now finish.
      for (const dep of this.index.dependentsOf(obj.metadata.uid ?? '')) this.attemptToDelete.add(dep);
      for (const owner of ownersBefore) this.enqueueOwner(owner);
      return;
    }
    this.index.set(ref, obj);
    const refsChanged = event.type === 'ADDED' || !sameOwners(event.previous, obj);
    if (refsChanged && ownerReferences(obj).length) this.attemptToDelete.add(ref);
    if (deleting(obj)) {
      if (hasFinalizer(obj, ORPHAN_FINALIZER)) this.attemptToOrphan.add(ref);
      if (hasFinalizer(obj, FOREGROUND_FINALIZER)) this.attemptToDelete.add(ref);
      // A dependent that starts deleting can unblock nothing yet, but an owner waiting on it rechecks.
      if (!event.previous?.metadata.deletionTimestamp) for (const owner of this.index.ownersOf(ref)) this.enqueueOwner(owner);
    }
    if (refsChanged) for (const owner of ownersBefore) this.enqueueOwner(owner);
  }

  /** Owners are known here only by uid; the ones that matter (deleting in the foreground) are in the store. */
  private enqueueOwner(uid: string): void {
    const owner = this.ownersByUid.get(uid);
    if (owner) this.attemptToDelete.add(owner);
  }

  /** Objects deleting in the foreground, by uid, so their dependents' changes can wake them. */
  private readonly ownersByUid = new Map<string, ObjectRef>();

  private lookup(ref: ObjectRef): { obj: StoredObject | undefined; bucket: string; key: string } {
    const { bucket, key } = parseObjectRef(ref);
    return { obj: this.ctx.store.get(bucket, key), bucket, key };
  }

  /** attemptToDeleteItem. */
  private async processItem(ref: ObjectRef): Promise<void> {
    const { obj, bucket, key } = this.lookup(ref);
    if (!obj) return;
    const uid = obj.metadata.uid ?? '';
    if (deleting(obj) && !hasFinalizer(obj, FOREGROUND_FINALIZER)) return;
    if (deleting(obj)) {
      this.ownersByUid.set(uid, ref);
      return this.processDeletingDependents(obj, bucket, key);
    }
    const refs = ownerReferences(obj);
    if (!refs.length) return;
    const states = refs.map((r) => ({ ref: r, state: this.classify(obj, r) }));
    if (states.some((s) => s.state === 'unresolvable')) return;
    const solid = states.filter((s) => s.state === 'solid');
    const gone = states.filter((s) => s.state !== 'solid').map((s) => s.ref.uid);
    if (solid.length) {
      // Owned by someone alive: only drop the references to owners that are gone or going.
      if (gone.length) this.update(bucket, key, uid, (o) => removeOwnerRefs(o, new Set(gone)));
      return;
    }
    const waiting = states.some((s) => s.state === 'waiting');
    const dependents = this.index.dependentsOf(uid);
    if (waiting && dependents.length) {
      // An owner waits for this item while one of its own dependents waits for it in turn: a
      // possible cycle, so (like the real collector, false positives included) its references stop
      // blocking their owners before it is deleted in the foreground.
      if (dependents.some((dep) => this.deletingDependents(dep))) this.update(bucket, key, uid, unblockOwnerRefs);
      await this.delete(bucket, key, uid, 'Foreground');
      return;
    }
    const policy = hasFinalizer(obj, ORPHAN_FINALIZER) ? 'Orphan' : hasFinalizer(obj, FOREGROUND_FINALIZER) ? 'Foreground' : 'Background';
    await this.delete(bucket, key, uid, policy);
  }

  /** node.isDeletingDependents: being deleted with the foreground finalizer. */
  private deletingDependents(ref: ObjectRef): boolean {
    const { obj } = this.lookup(ref);
    return !!obj && deleting(obj) && hasFinalizer(obj, FOREGROUND_FINALIZER);
  }

  /** processDeletingDependentsItem: the foreground finalizer goes once no blocking dependent is left. */
  private async processDeletingDependents(owner: StoredObject, bucket: string, key: string): Promise<void> {
    const uid = owner.metadata.uid ?? '';
    const blocking: ObjectRef[] = [];
    for (const dep of this.index.dependentsOf(uid)) {
      const { obj } = this.lookup(dep);
      if (!obj) continue;
      if (ownerReferences(obj).some((r) => r.uid === uid && r.blockOwnerDeletion === true)) blocking.push(dep);
      // Every dependent of a foreground-deleting owner is collected (it sees its owner "waiting").
      if (!deleting(obj)) this.attemptToDelete.add(dep);
    }
    if (blocking.length === 0) {
      this.ownersByUid.delete(uid);
      this.update(bucket, key, uid, (o) => removeFinalizer(o, FOREGROUND_FINALIZER));
    }
  }

  /** orphanDependents + removeFinalizer(orphan). */
  private orphanDependents(ref: ObjectRef): void {
    const { obj, bucket, key } = this.lookup(ref);
    if (!obj || !deleting(obj) || !hasFinalizer(obj, ORPHAN_FINALIZER)) return;
    const uid = obj.metadata.uid ?? '';
    for (const dep of this.index.dependentsOf(uid)) {
      const { bucket: depBucket, key: depKey, obj: depObj } = this.lookup(dep);
      if (depObj) this.update(depBucket, depKey, depObj.metadata.uid ?? '', (o) => removeOwnerRefs(o, new Set([uid])));
    }
    this.update(bucket, key, uid, (o) => removeFinalizer(o, ORPHAN_FINALIZER));
  }

  /** isDangling / classifyReferences for one owner reference of `dependent`. */
  private classify(dependent: StoredObject, ref: OwnerReference): OwnerState {
    if (typeof ref.apiVersion !== 'string' || typeof ref.kind !== 'string') return 'unresolvable';
    const { group, version } = parseApiVersion(ref.apiVersion);
    const type = this.ctx.catalog.findKind(group, version, ref.kind);
    if (!type) return 'unresolvable';
    const namespace = dependent.metadata.namespace;
    // A cluster-scoped object cannot be owned by a namespaced one: never collected.
    if (type.namespaced && !namespace) return 'unresolvable';
    const owner = this.ctx.store.get(storageKeyOf(type), type.namespaced ? `${namespace}/${ref.name}` : ref.name);
    if (!owner || owner.metadata.uid !== ref.uid) return 'dangling';
    if (deleting(owner) && hasFinalizer(owner, FOREGROUND_FINALIZER)) return 'waiting';
    return 'solid';
  }

  private update(bucket: string, key: string, uid: string, mutate: (o: StoredObject) => boolean): void {
    const type = typeForBucket(this.ctx.catalog, bucket);
    if (!type) return;
    const { namespace, name } = splitKey(type, key);
    this.ctx.registryFor(type).systemUpdate(namespace, name, (o) => mutate(o as StoredObject), uid);
  }

  private async delete(bucket: string, key: string, uid: string, propagationPolicy: string): Promise<void> {
    const type = typeForBucket(this.ctx.catalog, bucket);
    if (!type) return;
    const { namespace, name } = splitKey(type, key);
    try {
      await this.ctx.registryFor(type).delete(namespace, name, { propagationPolicy, preconditions: { uid } });
    } catch (err) {
      // Gone already, or replaced by a new object of the same name: nothing to collect.
      if (err instanceof StatusError && (err.code === 404 || err.code === 409)) return;
      throw err;
    }
  }
}

function sameOwners(a: StoredObject | undefined, b: StoredObject): boolean {
  const x = a ? ownerReferences(a) : [];
  const y = ownerReferences(b);
  return x.length === y.length && x.every((r, i) => r.uid === y[i]!.uid && r.blockOwnerDeletion === y[i]!.blockOwnerDeletion);
}

function removeOwnerRefs(obj: StoredObject, uids: Set<string>): boolean {
  const refs = ownerReferences(obj);
  const kept = refs.filter((r) => !uids.has(r.uid));
  if (kept.length === refs.length) return false;
  if (kept.length) obj.metadata.ownerReferences = kept;
  else delete obj.metadata.ownerReferences;
  return true;
}

/** unblockOwnerReferences: every blockOwnerDeletion=true reference becomes false. */
function unblockOwnerRefs(obj: StoredObject): boolean {
  const refs = ownerReferences(obj);
  if (!refs.some((r) => r.blockOwnerDeletion === true)) return false;
  obj.metadata.ownerReferences = refs.map((r) => (r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r));
  return true;
}

function removeFinalizer(obj: StoredObject, finalizer: string): boolean {
  const finalizers = obj.metadata.finalizers ?? [];
  if (!finalizers.includes(finalizer)) return false;
  const kept = finalizers.filter((f) => f !== finalizer);
  if (kept.length) obj.metadata.finalizers = kept;
  else delete obj.metadata.finalizers;
  return true;
}
