// The ReplicaSet and ReplicationController controller (pkg/controller/replicaset, which runs RCs
// too): keeps spec.replicas active pods from the template, owned through a controller reference;
// deletes the least valuable pods first when there are too many (controller.ActivePodsWithRanks);
// reports replicas, fullyLabeledReplicas, readyReplicas, availableReplicas and observedGeneration,
// and a ReplicaFailure condition when pods cannot be created.
import { deepCopyJson } from '../../schema/json-value.ts';
import type { KubeObject, StoredObject } from '../../apis/object.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import { StatusError } from '../../errors/status-error.ts';
import type { LabelSelector } from '../../selectors/label-selector.ts';
import type { StoreEvent } from '../../storage/versioned-store.ts';
import type { ControllerContext } from '../context.ts';
import { controllerRecorder, type EventRecorder } from '../events/event-broadcaster.ts';
import { QueueController } from '../queue-controller.ts';
import { CONTROLLER_MANAGER, KeyWakeups, OwnedIndex, updateStatus } from './controller-support.ts';
import {
  availableAt,
  controllerRefOf,
  findCondition,
  isPodActive,
  isPodAvailable,
  isPodReady,
  labelsOf,
  newControllerRef,
  numberOr,
  selectorOf,
  selectorOfSet,
  setCondition,
  specOf,
  statusOf,
  type Condition,
  type Json,
} from './objects.ts';
import type { ClockTimers } from './timers.ts';

const PODS = '/pods';
/** replicaset.BurstReplicas: the most pods one sync creates or deletes. */
const BURST_REPLICAS = 500;

interface Kind {
  kind: 'ReplicaSet' | 'ReplicationController';
  apiVersion: string;
  group: string;
  version: string;
  plural: string;
  /** An RC's selector is a plain label map. */
  selectorOf(obj: KubeObject): LabelSelector | undefined;
}

export const REPLICA_SET: Kind = { kind: 'ReplicaSet', apiVersion: 'apps/v1', group: 'apps', version: 'v1', plural: 'replicasets', selectorOf: (rs) => selectorOf(specOf(rs).selector) };
export const REPLICATION_CONTROLLER: Kind = {
  kind: 'ReplicationController',
  apiVersion: 'v1',
  group: '',
  version: 'v1',
  plural: 'replicationcontrollers',
  selectorOf: (rc) => selectorOfSet(specOf(rc).selector),
};

/** controller.ActivePodsWithRanks' order: the pods to delete first come first. */
function deletionOrder(a: KubeObject, b: KubeObject): number {
  const assigned = (p: KubeObject) => (specOf(p).nodeName ? 1 : 0);
  const phaseRank = (p: KubeObject) => ({ Pending: 0, Unknown: 1, Running: 2 })[statusOf(p).phase as string] ?? 0;
  const ready = (p: KubeObject) => (isPodReady(p) ? 1 : 0);
  const restarts = (p: KubeObject) => Math.max(0, ...((statusOf(p).containerStatuses as Json[] | undefined) ?? []).map((c) => numberOr(c.restartCount, 0)));
  const readySince = (p: KubeObject) => Date.parse(findCondition(p, 'Ready')?.lastTransitionTime ?? '') || 0;
  const created = (p: KubeObject) => Date.parse(p.metadata?.creationTimestamp ?? '') || 0;
  return (
    assigned(a) - assigned(b) ||
    phaseRank(a) - phaseRank(b) ||
    ready(a) - ready(b) ||
    // Ready for less time, more restarts, newer: deleted first.
    (ready(a) && ready(b) ? readySince(b) - readySince(a) : 0) ||
    restarts(b) - restarts(a) ||
    created(b) - created(a) ||
    (a.metadata!.name! < b.metadata!.name! ? 1 : -1)
  );
}

export class ReplicaSetController extends QueueController {
  readonly name: string;
  private readonly kind: Kind;
  private readonly bucket: string;
  private readonly pods = new OwnedIndex(PODS);
  private readonly wakeups: KeyWakeups;
  private readonly events: EventRecorder;

  constructor(ctx: ControllerContext, onError: (err: unknown, key: string) => void, kind: Kind, timers: ClockTimers) {
    super(ctx, onError);
    this.kind = kind;
    this.name = kind.kind === 'ReplicaSet' ? 'replicaset' : 'replicationcontroller';
    this.bucket = `${kind.group}/${kind.plural}`;
    this.wakeups = new KeyWakeups(timers, this.queue);
    this.events = controllerRecorder(ctx, kind.kind === 'ReplicaSet' ? 'replicaset-controller' : 'replication-controller');
  }

  private type(): ResourceType {
    return this.ctx.catalog.find(this.kind.group, this.kind.version, this.kind.plural)!;
  }

  protected observe(event: StoreEvent): void {
    if (event.bucket === this.bucket) {
      this.queue.add(event.key);
      return;
    }
    if (event.bucket !== PODS) return;
    this.pods.observe(event);
    this.queueOwner(event.object);
    if (event.previous && event.previous.metadata.ownerReferences !== event.object.metadata.ownerReferences) this.queueOwner(event.previous);
  }

  /** Queues the pod's controller when it is one of this controller's kind. */
  private queueOwner(pod: StoredObject): void {
    const ref = controllerRefOf(pod);
    if (ref?.kind === this.kind.kind && ref.apiVersion === this.kind.apiVersion) this.queue.add(`${pod.metadata.namespace}/${ref.name}`);
  }

  protected async sync(key: string): Promise<void> {
    const owner = this.ctx.store.get(this.bucket, key);
    if (!owner) return;
    const uid = owner.metadata.uid!;
    const namespace = owner.metadata.namespace!;
    const now = this.ctx.clock.now();
    const owned = this.pods
      .keysOf(uid)
      .map((k) => this.ctx.store.get(PODS, k))
      .filter((p): p is StoredObject => p !== undefined);
    const active = owned.filter(isPodActive);
    let failure: string | undefined;
    if (!owner.metadata.deletionTimestamp) failure = await this.manage(owner, active);
    const current = this.pods
      .keysOf(uid)
      .map((k) => this.ctx.store.get(PODS, k))
      .filter((p): p is StoredObject => p !== undefined && isPodActive(p));
    const spec = specOf(owner);
    const minReadySeconds = numberOr(spec.minReadySeconds, 0);
    const templateLabels = ((spec.template as Json | undefined)?.metadata as Json | undefined)?.labels as Record<string, string> | undefined;
    const templateEntries = Object.entries(templateLabels ?? {});
    const matchesTemplate = (p: KubeObject) => {
      const labels = labelsOf(p);
      return templateEntries.every(([k, v]) => labels[k] === v);
    };
    const ready = current.filter(isPodReady);
    const available = ready.filter((p) => isPodAvailable(p, minReadySeconds, now));
    // Pods ready but not yet available for minReadySeconds: look again when they are.
    for (const p of ready) {
      const at = availableAt(p, minReadySeconds);
      if (at !== undefined && at > now.getTime()) this.wakeups.at(key, at);
    }
    await updateStatus(this.ctx, this.type(), namespace, owner.metadata.name!, uid, (obj) => {
      const old = (obj.status ?? {}) as Json;
      const conditions = ((old.conditions as Condition[] | undefined) ?? []).slice();
      if (failure) setCondition(conditions, { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: failure }, now);
      else if (conditions.some((c) => c.type === 'ReplicaFailure')) conditions.splice(conditions.findIndex((c) => c.type === 'ReplicaFailure'), 1);
      // ReplicaSetStatus in Go's field order; the counts but replicas are omitempty.
      const omitZero = (field: string, n: number) => (n ? { [field]: n } : {});
      obj.status = {
        replicas: current.length,
        ...omitZero('fullyLabeledReplicas', current.filter(matchesTemplate).length),
        ...omitZero('readyReplicas', ready.length),
        ...omitZero('availableReplicas', available.length),
        ...omitZero('observedGeneration', obj.metadata?.generation ?? 0),
        ...(conditions.length ? { conditions } : {}),
      };
    });
  }

  /** manageReplicas: creates or deletes the difference; answers the create error's text when one failed. */
  private async manage(owner: StoredObject, active: StoredObject[]): Promise<string | undefined> {
    const spec = specOf(owner);
    const replicas = numberOr(spec.replicas, 1);
    const diff = active.length - replicas;
    const podType = this.ctx.catalog.find('', 'v1', 'pods')!;
    const pods = this.ctx.registryFor(podType);
    const namespace = owner.metadata.namespace!;
    if (diff < 0) {
      const template = (spec.template ?? {}) as Json;
      const templateMeta = (template.metadata ?? {}) as Json;
      for (let i = 0; i < Math.min(-diff, BURST_REPLICAS); i++) {
        // controller.GetPodFromTemplate: the template's labels, annotations and finalizers, a generated name, the owner.
        const pod: KubeObject = {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            generateName: `${owner.metadata.name}-`,
            namespace,
            ...(templateMeta.labels ? { labels: deepCopyJson(templateMeta.labels) as Record<string, string> } : {}),
            ...(templateMeta.annotations ? { annotations: deepCopyJson(templateMeta.annotations) as Record<string, string> } : {}),
            ...(templateMeta.finalizers ? { finalizers: deepCopyJson(templateMeta.finalizers) as string[] } : {}),
            ownerReferences: [newControllerRef(owner, this.kind.apiVersion, this.kind.kind)],
          },
          spec: deepCopyJson(template.spec ?? {}) as Json,
        };
        // RealPodControl.createPods records after the write, with the name the server generated.
        try {
          const created = await pods.create(namespace, pod, { fieldManager: CONTROLLER_MANAGER });
          this.events.event(owner, 'Normal', 'SuccessfulCreate', `Created pod: ${created.object.metadata!.name}`);
        } catch (err) {
          if (err instanceof StatusError) {
            this.events.event(owner, 'Warning', 'FailedCreate', `Error creating: ${err.message}`);
            return err.message;
          }
          throw err;
        }
      }
    } else if (diff > 0) {
      const victims = [...active].sort(deletionOrder).slice(0, Math.min(diff, BURST_REPLICAS));
      for (const pod of victims) {
        try {
          await pods.delete(namespace, pod.metadata.name!, { preconditions: { uid: pod.metadata.uid! } });
          this.events.event(owner, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
        } catch (err) {
          // RealPodControl.DeletePod: a pod already gone is no event; another failure is FailedDelete.
          if (err instanceof StatusError && err.code !== 404) this.events.event(owner, 'Warning', 'FailedDelete', `Error deleting: ${err.message}`);
          if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
        }
      }
    }
    return undefined;
  }
}
