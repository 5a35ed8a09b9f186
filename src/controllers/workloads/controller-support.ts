// What the workload controllers share: an index of the objects each controller owns (the
// informers' ownerReference lookups), and writing a status through the status subresource as a
// controller's UpdateStatus does, retrying on conflicts; the ControllerRevisions of the sets, and
// the scaffolding the DaemonSet and StatefulSet controllers share (PodSetController).
import { controllerRecorder, type EventRecorder } from '../events/event-broadcaster.ts';
import type { KubeObject, StoredObject } from '../../apis/object.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import { StatusError } from '../../errors/status-error.ts';
import { statusTypeOf } from '../../registry/subresources/status.ts';
import type { StoreEvent } from '../../storage/versioned-store.ts';
import type { ControllerContext } from '../context.ts';
import { computeHash, controllerRefOf, newControllerRef, numberOr, specOf, type Json } from './objects.ts';
import type { ClockTimers } from './timers.ts';
import type { WorkQueue } from '../work-queue.ts';
import { QueueController } from '../queue-controller.ts';
import { CONTROLLER_MANAGER } from '../namespace-objects.ts';
import { deepEqual } from '../../util/deep-equal.ts';

const PODS = '/pods';

/**
 * A controller's timed requeues (the workqueue's AddAfter on the cluster clock): a key queued
 * again at an instant, once per key and instant however often it is asked for.
 */
export class KeyWakeups {
  private readonly pending = new Set<string>();
  private readonly timers: ClockTimers;
  private readonly queue: WorkQueue;

  constructor(timers: ClockTimers, queue: WorkQueue) {
    this.timers = timers;
    this.queue = queue;
  }

  at(key: string, at: number): void {
    const id = `${key}@${at}`;
    if (this.pending.has(id)) return;
    this.pending.add(id);
    this.timers.at(at, () => {
      this.pending.delete(id);
      this.queue.add(key);
    });
  }
}

/** The `namespace/name` key of the `kind` owner that controls `obj`, if one does (what an owned object's event queues). */
export function controllerKeyOf(obj: KubeObject, kind: string): string | undefined {
  const ref = controllerRefOf(obj);
  return ref?.kind === kind ? `${obj.metadata?.namespace}/${ref.name}` : undefined;
}

// The field manager the controllers of kube-controller-manager write as: one constant for all controllers.
export { CONTROLLER_MANAGER };

/** Keys of one bucket's objects by the uid of their controller owner, kept current from store events. */
export class OwnedIndex {
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly ownerOf = new Map<string, string>();
  readonly bucket: string;

  constructor(bucket: string) {
    this.bucket = bucket;
  }

  /** Updates the index for an event of its bucket; answers the controller reference before and after the change. */
  observe(event: StoreEvent): void {
    if (event.bucket !== this.bucket) return;
    const before = this.ownerOf.get(event.key);
    const after = event.type === 'DELETED' ? undefined : controllerRefOf(event.object)?.uid;
    if (before === after) return;
    if (before) {
      const keys = this.byOwner.get(before);
      keys?.delete(event.key);
      // A deleted owner's entry goes with its last object (owners come and go with uids never reused).
      if (keys?.size === 0) this.byOwner.delete(before);
    }
    if (after) {
      let keys = this.byOwner.get(after);
      if (!keys) this.byOwner.set(after, (keys = new Set()));
      keys.add(event.key);
      this.ownerOf.set(event.key, after);
    } else this.ownerOf.delete(event.key);
  }

  /** Keys of the objects the owner controls, in the order they appeared. */
  keysOf(ownerUid: string): string[] {
    return [...(this.byOwner.get(ownerUid) ?? [])];
  }
}

/**
 * Writes the object's status as UpdateStatus would: `mutate` edits a copy of the stored object
 * (its status, and the annotations a status strategy lets through); nothing is written when
 * neither changed; conflicts read again and retry. Answers the
 * stored object after the write (or as it was).
 */
export async function updateStatus(
  ctx: ControllerContext,
  type: ResourceType,
  namespace: string | undefined,
  name: string,
  uid: string,
  mutate: (obj: KubeObject) => void,
): Promise<StoredObject | undefined> {
  return writeRetryingConflicts(ctx.registryFor(statusTypeOf(type)!), namespace, name, uid, `status of ${name}`, (stored) => {
    const copy = structuredClone(stored) as KubeObject;
    copy.status = structuredClone(stored.status ?? {});
    mutate(copy);
    const unchanged = deepEqual(copy.status, stored.status ?? {}) && deepEqual(copy.metadata?.annotations, stored.metadata.annotations);
    return unchanged ? undefined : copy;
  });
}

/**
 * A component's status patch (the kubelet's and the scheduler's PatchPodStatus, the kubelet's
 * PatchNodeStatus): `mutate` edits a copy of the stored object past the status strategy (see
 * systemUpdate), and the change is recorded as `manager`'s Update of the status subresource, as
 * the apiserver's field manager records a strategic merge patch of `/status`. Answers the stored
 * object after the write (or as it was; undefined when gone or replaced).
 */
export function patchStatusAs(
  ctx: ControllerContext,
  type: ResourceType,
  manager: string,
  namespace: string | undefined,
  name: string,
  mutate: (obj: KubeObject) => boolean,
  uid?: string,
): StoredObject | undefined {
  return ctx.registryFor(statusTypeOf(type)!).systemUpdate(namespace, name, mutate, uid, manager);
}

/** Updates the whole object (spec, metadata) as a controller's Update does, retrying conflicts; `manager` names the writer (kube-controller-manager unless said). */
export async function updateObject(
  ctx: ControllerContext,
  type: ResourceType,
  namespace: string | undefined,
  name: string,
  uid: string,
  mutate: (obj: KubeObject) => boolean,
  manager: string = CONTROLLER_MANAGER,
): Promise<StoredObject | undefined> {
  return writeRetryingConflicts(
    ctx.registryFor(type),
    namespace,
    name,
    uid,
    name,
    (stored) => {
      const copy = structuredClone(stored) as KubeObject;
      return mutate(copy) ? copy : undefined;
    },
    manager,
  );
}

/**
 * A controller's update with retry.RetryOnConflict: `edit` answers the object to write from the
 * stored one (undefined: nothing to write); a conflict reads again, a vanished or replaced
 * object (another uid) ends it. Answers the stored object after the write, or as it was.
 */
async function writeRetryingConflicts(
  registry: ReturnType<ControllerContext['registryFor']>,
  namespace: string | undefined,
  name: string,
  uid: string,
  what: string,
  edit: (stored: StoredObject) => KubeObject | undefined,
  manager: string = CONTROLLER_MANAGER,
): Promise<StoredObject | undefined> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const stored = registry.peek(namespace, name);
    if (!stored || stored.metadata.uid !== uid) return undefined;
    const next = edit(stored);
    if (!next) return stored;
    try {
      return (await registry.update(namespace, name, next, { fieldManager: manager })).object as StoredObject;
    } catch (err) {
      if (err instanceof StatusError && err.code === 409) continue;
      if (err instanceof StatusError && err.code === 404) return undefined;
      throw err;
    }
  }
  throw new Error(`kubefake: ${what} kept conflicting`);
}

const REVISIONS = 'apps/controllerrevisions';
export const REVISION_LABEL = 'controller-revision-hash';

/**
 * The ControllerRevision of a set's current pod template, created when new (the StatefulSet's
 * history.NewControllerRevision, the DaemonSet's snapshot in daemon/update.go): named
 * `<set>-<hash>`, labelled with the template's labels and controller-revision-hash=<hash>, its data
 * the template as a replace patch (getPatch), its revision one past the set's highest. The
 * DaemonSet's also carries the set's annotations. Answers its name and hash.
 */
export async function ensureControllerRevision(
  ctx: ControllerContext,
  set: StoredObject,
  setKind: 'DaemonSet' | 'StatefulSet',
  owned: OwnedIndex,
): Promise<{ name: string; hash: string }> {
  const template = (specOf(set).template ?? {}) as Json;
  const hash = computeHash(template);
  const name = `${set.metadata.name}-${hash}`;
  const namespace = set.metadata.namespace!;
  if (ctx.store.get(REVISIONS, `${namespace}/${name}`)) return { name, hash };
  const revisions = owned.keysOf(set.metadata.uid!).map((k) => ctx.store.get(REVISIONS, k));
  const templateLabels = ((template.metadata as Json | undefined)?.labels ?? {}) as Record<string, string>;
  const annotations = setKind === 'DaemonSet' ? set.metadata.annotations : undefined;
  try {
    await ctx.registryFor(ctx.catalog.find('apps', 'v1', 'controllerrevisions')!).create(
      namespace,
      {
        apiVersion: 'apps/v1',
        kind: 'ControllerRevision',
        metadata: { name, namespace, labels: { ...templateLabels, [REVISION_LABEL]: hash }, ...(annotations ? { annotations } : {}), ownerReferences: [newControllerRef(set, 'apps/v1', setKind)] },
        data: { spec: { template: { ...structuredClone(template), $patch: 'replace' } } },
        revision: Math.max(0, ...revisions.map((r) => numberOr(r?.revision, 0))) + 1,
      } as KubeObject,
      { fieldManager: CONTROLLER_MANAGER },
    );
  } catch (err) {
    if (!(err instanceof StatusError && err.status.reason === 'AlreadyExists')) throw err;
  }
  return { name, hash };
}

/**
 * What the DaemonSet and StatefulSet controllers share: the set bucket queued on every change,
 * the pods and ControllerRevisions they control indexed by owner, and a pod event queuing its
 * controlling set. A subclass watches more buckets through observeMore.
 */
export abstract class PodSetController extends QueueController {
  protected abstract readonly setBucket: string;
  protected abstract readonly setKind: 'DaemonSet' | 'StatefulSet';
  protected readonly pods = new OwnedIndex(PODS);
  protected readonly revisions = new OwnedIndex(REVISIONS);

  protected observe(event: StoreEvent): void {
    if (event.bucket === this.setBucket) this.queue.add(event.key);
    else if (event.bucket === REVISIONS) this.revisions.observe(event);
    else if (event.bucket === PODS) {
      this.pods.observe(event);
      const owner = controllerKeyOf(event.object, this.setKind);
      if (owner) this.queue.add(owner);
    } else this.observeMore(event);
  }

  /** Events of the buckets other than the set's, its pods' and the revisions'. */
  protected observeMore(_event: StoreEvent): void {}

  /** The stored pods the set controls. */
  protected ownedPods(set: StoredObject): StoredObject[] {
    return this.pods
      .keysOf(set.metadata.uid!)
      .map((k) => this.ctx.store.get(PODS, k))
      .filter((p): p is StoredObject => p !== undefined);
  }

  /** The component the set's events name (`daemonset-controller`, `statefulset-controller`). */
  protected abstract readonly eventComponent: string;
  private events: EventRecorder | undefined;

  /** The pod control's recorder. */
  protected get recorder(): EventRecorder {
    return (this.events ??= controllerRecorder(this.ctx, this.eventComponent));
  }

  /** The event texts of a pod deletion: RealPodControl's for DaemonSets, stateful_pod_control.go's for StatefulSets. */
  protected abstract deletedPodMessage(set: StoredObject, pod: StoredObject): string;
  protected abstract failedDeletePodMessage(set: StoredObject, pod: StoredObject, err: StatusError): string;

  /** Deletes one of the set's pods by uid, recording the event; one already gone or replaced is no error. */
  protected async deletePod(set: StoredObject, pod: StoredObject): Promise<void> {
    try {
      await this.ctx.registryFor(this.resourceType('', 'pods')).delete(pod.metadata.namespace, pod.metadata.name!, { preconditions: { uid: pod.metadata.uid! } });
      this.recorder.event(set, 'Normal', 'SuccessfulDelete', this.deletedPodMessage(set, pod));
    } catch (err) {
      if (err instanceof StatusError && err.code !== 404) this.recorder.event(set, 'Warning', 'FailedDelete', this.failedDeletePodMessage(set, pod, err));
      if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
    }
  }
}
