// The StatefulSet controller (pkg/controller/statefulset), reduced: pods `<set>-<ordinal>` from
// spec.ordinals.start, each with its stable hostname, the set's service as subdomain, the pod-name,
// pod-index and controller-revision-hash labels, and one PersistentVolumeClaim per
// volumeClaimTemplate (`<template>-<pod>`); OrderedReady creates in order, each once the one before
// is Running and Ready, and removes from the highest ordinal one at a time; Parallel does both at
// once. Revisions are ControllerRevisions; a RollingUpdate replaces pods at or above the partition
// from the highest ordinal, one at a time, each once the previous replacement is ready. Status:
// replicas, readyReplicas, currentReplicas, updatedReplicas, availableReplicas, the revisions.
import type { KubeObject, StoredObject } from '../../apis/object.ts';
import { StatusError } from '../../errors/status-error.ts';
import type { StoreEvent } from '../../storage/versioned-store.ts';
import { controllerRecorder, type EventRecorder } from '../events/event-broadcaster.ts';
import { QueueController } from '../queue-controller.ts';
import { CONTROLLER_MANAGER, ensureControllerRevision, REVISION_LABEL, OwnedIndex, updateStatus, controllerKeyOf } from './controller-support.ts';
import { isPodAvailable, isPodReady, isTerminal, newControllerRef, numberOr, specOf, statusOf, type Json } from './objects.ts';

const SETS = 'apps/statefulsets';
const PODS = '/pods';
const REVISIONS = 'apps/controllerrevisions';
const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';

const ordinalOf = (set: KubeObject, pod: KubeObject): number | undefined => {
  const prefix = `${set.metadata!.name}-`;
  const name = pod.metadata?.name ?? '';
  const rest = name.startsWith(prefix) ? name.slice(prefix.length) : '';
  return /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : undefined;
};

export class StatefulSetController extends QueueController {
  readonly name = 'statefulset';
  private readonly pods = new OwnedIndex(PODS);
  private readonly revisions = new OwnedIndex(REVISIONS);
  private events: EventRecorder | undefined;

  /** stateful_pod_control.go's recorder (recordPodEvent, recordClaimEvent). */
  private get recorder(): EventRecorder {
    return (this.events ??= controllerRecorder(this.ctx, 'statefulset-controller'));
  }

  protected observe(event: StoreEvent): void {
    if (event.bucket === SETS) this.queue.add(event.key);
    else if (event.bucket === REVISIONS) this.revisions.observe(event);
    else if (event.bucket === PODS) {
      this.pods.observe(event);
      const owner = controllerKeyOf(event.object, 'StatefulSet');
      if (owner) this.queue.add(owner);
    }
  }

  protected async sync(key: string): Promise<void> {
    const set = this.ctx.store.get(SETS, key);
    if (!set || set.metadata.deletionTimestamp) return;
    const spec = specOf(set);
    const namespace = set.metadata.namespace!;
    const { name: updateRevision } = await ensureControllerRevision(this.ctx, set, 'StatefulSet', this.revisions);
    const owned = this.pods
      .keysOf(set.metadata.uid!)
      .map((k) => this.ctx.store.get(PODS, k))
      .filter((p): p is StoredObject => p !== undefined);
    const start = numberOr((spec.ordinals as Json | undefined)?.start, 0);
    const replicas = numberOr(spec.replicas, 1);
    const parallel = spec.podManagementPolicy === 'Parallel';
    const byOrdinal = new Map<number, StoredObject>();
    for (const pod of owned) {
      const ordinal = ordinalOf(set, pod);
      if (ordinal !== undefined) byOrdinal.set(ordinal, pod);
    }
    const podRegistry = this.ctx.registryFor(this.resourceType('', 'pods'));
    const deletePod = async (pod: StoredObject) => {
      try {
        await podRegistry.delete(namespace, pod.metadata.name!, { preconditions: { uid: pod.metadata.uid! } });
        this.recorder.event(set, 'Normal', 'SuccessfulDelete', `delete Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`);
      } catch (err) {
        if (err instanceof StatusError && err.code !== 404) this.recorder.event(set, 'Warning', 'FailedDelete', `delete Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${err.message}`);
        if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
      }
    };
    const healthy = (pod: StoredObject | undefined) => !!pod && !pod.metadata.deletionTimestamp && statusOf(pod).phase === 'Running' && isPodReady(pod);

    // Failed or succeeded pods are replaced (isFailed/isSucceeded in stateful_set_control.go).
    for (const pod of byOrdinal.values()) if (isTerminal(pod) && !pod.metadata.deletionTimestamp) await deletePod(pod);

    // Create the missing pods of [start, start+replicas): in order, stopping at the first not healthy (OrderedReady).
    let blocked = false;
    for (let ordinal = start; ordinal < start + replicas; ordinal++) {
      const pod = byOrdinal.get(ordinal);
      if (!pod) {
        if (blocked && !parallel) break;
        await this.createPod(set, ordinal, updateRevision);
        if (!parallel) blocked = true;
        continue;
      }
      if (!healthy(pod) && !parallel) blocked = true;
    }
    // Condemned pods (beyond the replicas): from the highest ordinal, one at a time unless Parallel.
    const condemned = [...byOrdinal.entries()].filter(([o]) => o < start || o >= start + replicas).sort((a, b) => b[0] - a[0]);
    for (const [, pod] of condemned) {
      if (pod.metadata.deletionTimestamp) {
        if (parallel) continue;
        break;
      }
      if (!parallel && blocked) break;
      await deletePod(pod);
      if (!parallel) break;
    }
    // RollingUpdate (updateStatefulSet's last loop): from the highest ordinal down to the partition,
    // the first pod not on the update revision is deleted; an unhealthy pod on the way waits.
    const strategy = (spec.updateStrategy ?? {}) as Json;
    if ((strategy.type ?? 'RollingUpdate') === 'RollingUpdate' && (parallel || !blocked)) {
      const partition = numberOr((strategy.rollingUpdate as Json | undefined)?.partition, 0);
      for (let ordinal = start + replicas - 1; ordinal >= start + partition; ordinal--) {
        const pod = byOrdinal.get(ordinal);
        if (!pod) break;
        if (pod.metadata.labels?.[REVISION_LABEL] !== updateRevision && !pod.metadata.deletionTimestamp) {
          await deletePod(pod);
          break;
        }
        if (!healthy(pod)) break;
      }
    }

    const current = this.pods
      .keysOf(set.metadata.uid!)
      .map((k) => this.ctx.store.get(PODS, k))
      .filter((p): p is StoredObject => p !== undefined && !isTerminal(p));
    const oldStatus = statusOf(set);
    const updated = current.filter((p) => p.metadata.labels?.[REVISION_LABEL] === updateRevision);
    // The current revision catches up once every pod runs the update revision.
    const currentRevision = updated.length === current.length && current.length === replicas ? updateRevision : ((oldStatus.currentRevision as string | undefined) ?? updateRevision);
    const now = this.ctx.clock.now();
    const minReadySeconds = numberOr(spec.minReadySeconds, 0);
    await updateStatus(this.ctx, this.resourceType('apps', 'statefulsets'), namespace, set.metadata.name!, set.metadata.uid!, (obj) => {
      const omitZero = (field: string, n: number) => (n ? { [field]: n } : {});
      obj.status = {
        observedGeneration: obj.metadata?.generation,
        replicas: current.length,
        ...omitZero('readyReplicas', current.filter(isPodReady).length),
        ...omitZero('currentReplicas', current.filter((p) => p.metadata.labels?.[REVISION_LABEL] === currentRevision).length),
        ...omitZero('updatedReplicas', updated.length),
        currentRevision,
        updateRevision,
        collisionCount: numberOr(oldStatus.collisionCount, 0),
        availableReplicas: current.filter((p) => isPodAvailable(p, minReadySeconds, now)).length,
      };
    });
  }

  /** newVersionedStatefulSetPod: identity, storage and revision label; its claims are created first. */
  private async createPod(set: StoredObject, ordinal: number, revision: string): Promise<void> {
    const spec = specOf(set);
    const template = (spec.template ?? {}) as Json;
    const meta = (template.metadata ?? {}) as Json;
    const namespace = set.metadata.namespace!;
    const name = `${set.metadata.name}-${ordinal}`;
    const podSpec = structuredClone((template.spec ?? {}) as Json);
    const claims = (spec.volumeClaimTemplates as Json[] | undefined) ?? [];
    const volumes = ((podSpec.volumes as Json[] | undefined) ?? []).filter((v) => !claims.some((c) => (c.metadata as Json | undefined)?.name === v.name));
    const pvcs = this.ctx.registryFor(this.resourceType('', 'persistentvolumeclaims'));
    const selectorLabels = ((spec.selector as Json | undefined)?.matchLabels ?? {}) as Record<string, string>;
    const retention = (spec.persistentVolumeClaimRetentionPolicy ?? {}) as Json;
    for (const claim of claims) {
      const claimMeta = (claim.metadata ?? {}) as Json;
      const claimName = `${claimMeta.name}-${name}`;
      volumes.push({ name: claimMeta.name, persistentVolumeClaim: { claimName } });
      if (pvcs.peek(namespace, claimName)) continue;
      try {
        await pvcs.create(
          namespace,
          {
            apiVersion: 'v1',
            kind: 'PersistentVolumeClaim',
            metadata: {
              name: claimName,
              namespace,
              labels: { ...((claimMeta.labels as Record<string, string> | undefined) ?? {}), ...selectorLabels },
              ...(claimMeta.annotations ? { annotations: structuredClone(claimMeta.annotations) as Record<string, string> } : {}),
              // WhenDeleted: Delete makes the set the claims' owner, so they go with it.
              ...(retention.whenDeleted === 'Delete' ? { ownerReferences: [{ ...newControllerRef(set, 'apps/v1', 'StatefulSet'), controller: false }] } : {}),
            },
            spec: structuredClone(claim.spec ?? {}) as Json,
          },
          { fieldManager: CONTROLLER_MANAGER },
        );
        this.recorder.event(set, 'Normal', 'SuccessfulCreate', `create Claim ${claimName} Pod ${name} in StatefulSet ${set.metadata.name} success`);
      } catch (err) {
        if (err instanceof StatusError && err.status.reason !== 'AlreadyExists') {
          this.recorder.event(set, 'Warning', 'FailedCreate', `create Claim ${claimName} for Pod ${name} in StatefulSet ${set.metadata.name} failed error: ${err.message}`);
        }
        if (!(err instanceof StatusError && err.status.reason === 'AlreadyExists')) throw err;
      }
    }
    if (volumes.length) podSpec.volumes = volumes;
    podSpec.hostname = name;
    if (spec.serviceName) podSpec.subdomain = spec.serviceName;
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace,
        labels: { ...((meta.labels as Record<string, string> | undefined) ?? {}), [POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(ordinal), [REVISION_LABEL]: revision },
        ...(meta.annotations ? { annotations: structuredClone(meta.annotations) as Record<string, string> } : {}),
        ownerReferences: [newControllerRef(set, 'apps/v1', 'StatefulSet')],
      },
      spec: podSpec,
    };
    try {
      await this.ctx.registryFor(this.resourceType('', 'pods')).create(namespace, pod, { fieldManager: CONTROLLER_MANAGER });
      this.recorder.event(set, 'Normal', 'SuccessfulCreate', `create Pod ${name} in StatefulSet ${set.metadata.name} successful`);
    } catch (err) {
      // The previous pod of that ordinal is still terminating: it is created once that one is gone.
      if (err instanceof StatusError && err.status.reason === 'AlreadyExists') return;
      if (err instanceof StatusError) this.recorder.event(set, 'Warning', 'FailedCreate', `create Pod ${name} in StatefulSet ${set.metadata.name} failed error: ${err.message}`);
      throw err;
    }
  }
}
