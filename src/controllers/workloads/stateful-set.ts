// The StatefulSet controller (pkg/controller/statefulset), reduced: pods `<set>-<ordinal>` from
// spec.ordinals.start, each with its stable hostname, the set's service as subdomain, the pod-name,
// pod-index and controller-revision-hash labels, and one PersistentVolumeClaim per
// volumeClaimTemplate (`<template>-<set>-<ordinal>`, created before the pod and again while the pod
// is Pending, never deleted by the set itself; persistentVolumeClaimRetentionPolicy hands them to
// the garbage collector through owner references). OrderedReady creates in order, each once the one before is Running and Ready,
// and removes from the highest ordinal one at a time; Parallel does both at once. Revisions are
// ControllerRevisions; a RollingUpdate replaces pods at or above the partition from the highest
// ordinal, one at a time, each once the previous replacement is ready (pods below the partition
// are recreated at the current revision); OnDelete replaces nothing, a deleted pod comes back at
// the update revision. Status: replicas, readyReplicas, currentReplicas, updatedReplicas,
// availableReplicas, the revisions.
import type { KubeObject, OwnerReference, StoredObject } from '../../apis/object.ts';
import { StatusError } from '../../errors/status-error.ts';
import type { StoreEvent } from '../../storage/versioned-store.ts';
import { CONTROLLER_MANAGER, ensureControllerRevision, PodSetController, REVISION_LABEL, updateObject, updateStatus } from './controller-support.ts';
import { isPodAvailable, isPodReady, isTerminal, newControllerRef, numberOr, specOf, statusOf, type Json } from './objects.ts';
import { deepEqual } from '../../util/deep-equal.ts';

const SETS = 'apps/statefulsets';
const CLAIMS = '/persistentvolumeclaims';
const REVISIONS = 'apps/controllerrevisions';
const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';

const ordinalOf = (set: KubeObject, pod: KubeObject): number | undefined => {
  const prefix = `${set.metadata!.name}-`;
  const name = pod.metadata?.name ?? '';
  const rest = name.startsWith(prefix) ? name.slice(prefix.length) : '';
  return /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : undefined;
};

/** getPersistentVolumeClaimName. */
const claimNameOf = (template: Json, set: KubeObject, ordinal: number): string => `${(template.metadata as Json | undefined)?.name}-${set.metadata!.name}-${ordinal}`;

interface RetentionPolicy {
  whenDeleted: string;
  whenScaled: string;
}

const retentionOf = (set: KubeObject): RetentionPolicy => {
  const policy = (specOf(set).persistentVolumeClaimRetentionPolicy ?? {}) as Json;
  return { whenDeleted: String(policy.whenDeleted ?? 'Retain'), whenScaled: String(policy.whenScaled ?? 'Retain') };
};

/** matchesRef: the reference names the object by group-version, kind and name (whatever its uid). */
const matchesRef = (ref: OwnerReference, obj: KubeObject, apiVersion: string, kind: string) => ref.apiVersion === apiVersion && ref.kind === kind && ref.name === obj.metadata?.name;

/**
 * The claim's owner references as the retention policy wants them (stateful_set_utils.go,
 * updateClaimOwnerRefForSetAndPod): the set and pod references are scrubbed, then WhenDeleted:
 * Delete makes the set the claim's controller while the pod is in range, and WhenScaled: Delete
 * makes the pod its controller once the pod is scaled down. A claim another controller already
 * controls (hasUnexpectedController) keeps no reference to either. Undefined: leave it as it is
 * (isClaimOwnerUpToDate's stale references, a previous set or pod of the same name).
 */
export function claimOwnerRefs(claim: KubeObject, set: KubeObject, pod: KubeObject, inRange: boolean): OwnerReference[] | undefined {
  const refs = claim.metadata?.ownerReferences ?? [];
  const isSet = (r: OwnerReference) => matchesRef(r, set, 'apps/v1', 'StatefulSet');
  const isPod = (r: OwnerReference) => matchesRef(r, pod, 'v1', 'Pod');
  if (refs.some((r) => (isSet(r) && r.uid !== set.metadata!.uid) || (isPod(r) && r.uid !== pod.metadata!.uid))) return undefined;
  const policy = retentionOf(set);
  const retainAll = policy.whenDeleted !== 'Delete' && policy.whenScaled !== 'Delete';
  const unexpectedController = !retainAll && refs.some((r) => !isSet(r) && !isPod(r) && r.controller === true);
  const kept = refs.filter((r) => !isSet(r) && !isPod(r));
  if (unexpectedController) return kept;
  if (policy.whenScaled === 'Delete' && !inRange) kept.push(newControllerRef(pod, 'v1', 'Pod'));
  if (policy.whenDeleted === 'Delete' && (policy.whenScaled !== 'Delete' || inRange)) kept.push(newControllerRef(set, 'apps/v1', 'StatefulSet'));
  return kept;
}

export class StatefulSetController extends PodSetController {
  readonly name = 'statefulset';
  protected readonly setBucket = SETS;
  protected readonly setKind = 'StatefulSet';
  /** stateful_pod_control.go's recorder (recordPodEvent, recordClaimEvent). */
  protected readonly eventComponent = 'statefulset-controller';
  protected deletedPodMessage(set: StoredObject, pod: StoredObject): string {
    return `delete Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`;
  }
  protected failedDeletePodMessage(set: StoredObject, pod: StoredObject, err: StatusError): string {
    return `delete Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${err.message}`;
  }

  /** A claim that goes may let a pod waiting for it be created: the namespace's sets look again. */
  protected override observeMore(event: StoreEvent): void {
    if (event.bucket !== CLAIMS || event.type !== 'DELETED') return;
    for (const { key } of this.ctx.store.list(SETS, event.object.metadata.namespace!)) this.queue.add(key);
  }

  protected async sync(key: string): Promise<void> {
    const set = this.ctx.store.get(SETS, key);
    if (!set || set.metadata.deletionTimestamp) return;
    const spec = specOf(set);
    const namespace = set.metadata.namespace!;
    const oldStatus = statusOf(set);
    const { name: updateRevision } = await ensureControllerRevision(this.ctx, set, 'StatefulSet', this.revisions);
    // getStatefulSetRevisions: the current revision is the status's while it exists, else the update revision.
    const recorded = oldStatus.currentRevision as string | undefined;
    const currentRevision = recorded && this.ctx.store.get(REVISIONS, `${namespace}/${recorded}`) ? recorded : updateRevision;
    const owned = this.ownedPods(set);
    const start = numberOr((spec.ordinals as Json | undefined)?.start, 0);
    const replicas = numberOr(spec.replicas, 1);
    const inRange = (ordinal: number) => ordinal >= start && ordinal < start + replicas;
    const parallel = spec.podManagementPolicy === 'Parallel';
    const strategy = (spec.updateStrategy ?? {}) as Json;
    const rollingUpdate = (strategy.type ?? 'RollingUpdate') === 'RollingUpdate';
    const partition = numberOr((strategy.rollingUpdate as Json | undefined)?.partition, 0);
    const byOrdinal = new Map<number, StoredObject>();
    for (const pod of owned) {
      const ordinal = ordinalOf(set, pod);
      if (ordinal !== undefined) byOrdinal.set(ordinal, pod);
    }
    const healthy = (pod: StoredObject | undefined) => !!pod && !pod.metadata.deletionTimestamp && statusOf(pod).phase === 'Running' && isPodReady(pod);

    // The claims of every pod, in range or condemned, carry the owners the retention policy asks
    // for before anything is deleted (ClaimsMatchRetentionPolicy / UpdatePodClaimForRetentionPolicy).
    for (const [ordinal, pod] of byOrdinal) if (!pod.metadata.deletionTimestamp) await this.fixClaimOwners(set, pod, ordinal, inRange(ordinal));

    // A Pending pod whose claim went gets it again (createMissingPersistentVolumeClaims).
    for (const [ordinal, pod] of byOrdinal) if (inRange(ordinal) && !pod.metadata.deletionTimestamp && statusOf(pod).phase === 'Pending') await this.ensureClaims(set, ordinal);

    // Failed or succeeded pods are replaced (isFailed/isSucceeded in stateful_set_control.go).
    for (const pod of byOrdinal.values()) if (isTerminal(pod) && !pod.metadata.deletionTimestamp) await this.deletePod(set, pod);

    // Create the missing pods of [start, start+replicas): in order, stopping at the first not healthy (OrderedReady).
    // newVersionedStatefulSetPod: below a RollingUpdate's partition a pod comes back at the current revision.
    let blocked = false;
    for (let ordinal = start; ordinal < start + replicas; ordinal++) {
      const pod = byOrdinal.get(ordinal);
      if (!pod) {
        if (blocked && !parallel) break;
        const revision = rollingUpdate && ordinal < start + partition ? currentRevision : updateRevision;
        await this.createPod(set, ordinal, revision);
        if (!parallel) blocked = true;
        continue;
      }
      if (!healthy(pod) && !parallel) blocked = true;
    }
    // Condemned pods (beyond the replicas): from the highest ordinal, one at a time unless Parallel.
    const condemned = [...byOrdinal.entries()].filter(([o]) => !inRange(o)).sort((a, b) => b[0] - a[0]);
    for (const [, pod] of condemned) {
      if (pod.metadata.deletionTimestamp) {
        if (parallel) continue;
        break;
      }
      if (!parallel && blocked) break;
      await this.deletePod(set, pod);
      if (!parallel) break;
    }
    // RollingUpdate (updateStatefulSet's last loop): from the highest ordinal down to the partition,
    // the first pod not on the update revision is deleted; an unhealthy pod on the way waits.
    // OnDelete leaves the pods alone: a pod the user deletes is recreated above at the update revision.
    if (rollingUpdate && (parallel || !blocked)) {
      for (let ordinal = start + replicas - 1; ordinal >= start + partition; ordinal--) {
        const pod = byOrdinal.get(ordinal);
        if (!pod) break;
        if (pod.metadata.labels?.[REVISION_LABEL] !== updateRevision && !pod.metadata.deletionTimestamp) {
          await this.deletePod(set, pod);
          break;
        }
        if (!healthy(pod)) break;
      }
    }

    const current = this.ownedPods(set).filter((p) => !isTerminal(p));
    const live = current.filter((p) => !p.metadata.deletionTimestamp);
    const revisionCount = (revision: string) => live.filter((p) => p.metadata.labels?.[REVISION_LABEL] === revision).length;
    const now = this.ctx.clock.now();
    const minReadySeconds = numberOr(spec.minReadySeconds, 0);
    const counts = {
      replicas: current.length,
      ready: current.filter((p) => statusOf(p).phase === 'Running' && isPodReady(p)).length,
      current: revisionCount(currentRevision),
      updated: revisionCount(updateRevision),
    };
    // completeRollingUpdate: a RollingUpdate is complete once every wanted pod runs the update
    // revision and is ready; an OnDelete set keeps reporting the revision it started from.
    const complete = rollingUpdate && counts.updated === replicas && counts.ready === replicas && counts.replicas === replicas;
    await updateStatus(this.ctx, this.resourceType('apps', 'statefulsets'), namespace, set.metadata.name!, set.metadata.uid!, (obj) => {
      const omitZero = (field: string, n: number) => (n ? { [field]: n } : {});
      obj.status = {
        observedGeneration: obj.metadata?.generation,
        replicas: counts.replicas,
        ...omitZero('readyReplicas', counts.ready),
        ...omitZero('currentReplicas', complete ? counts.updated : counts.current),
        ...omitZero('updatedReplicas', counts.updated),
        currentRevision: complete ? updateRevision : currentRevision,
        updateRevision,
        collisionCount: numberOr(oldStatus.collisionCount, 0),
        availableReplicas: current.filter((p) => isPodAvailable(p, minReadySeconds, now)).length,
      };
    });
  }

  /** The set's claim templates, each with the claim it makes for one ordinal (getPersistentVolumeClaims). */
  private claimsOf(set: StoredObject, ordinal: number): { template: Json; name: string }[] {
    return ((specOf(set).volumeClaimTemplates as Json[] | undefined) ?? []).map((template) => ({ template, name: claimNameOf(template, set, ordinal) }));
  }

  /** Brings the owner references of a pod's claims in line with the retention policy. */
  private async fixClaimOwners(set: StoredObject, pod: StoredObject, ordinal: number, inRange: boolean): Promise<void> {
    const claimType = this.resourceType('', 'persistentvolumeclaims');
    for (const { name } of this.claimsOf(set, ordinal)) {
      const claim = this.ctx.store.get(CLAIMS, `${set.metadata.namespace}/${name}`);
      if (!claim || claim.metadata.deletionTimestamp) continue;
      const wanted = claimOwnerRefs(claim, set, pod, inRange);
      if (!wanted || deepEqual(wanted, claim.metadata.ownerReferences ?? [])) continue;
      await updateObject(this.ctx, claimType, claim.metadata.namespace, name, claim.metadata.uid!, (obj) => {
        const refs = claimOwnerRefs(obj, set, pod, inRange);
        if (!refs || deepEqual(refs, obj.metadata?.ownerReferences ?? [])) return false;
        if (refs.length) obj.metadata!.ownerReferences = refs;
        else delete obj.metadata!.ownerReferences;
        return true;
      });
    }
  }

  /** The pod template of a revision: the ControllerRevision's replace patch (the set's own template when missing). */
  private templateOf(set: StoredObject, revision: string): Json {
    const stored = this.ctx.store.get(REVISIONS, `${set.metadata.namespace}/${revision}`) as (StoredObject & { data?: Json }) | undefined;
    const patched = ((stored?.data?.spec as Json | undefined)?.template ?? undefined) as Json | undefined;
    if (!patched) return (specOf(set).template ?? {}) as Json;
    const { $patch: _, ...template } = patched;
    return template;
  }

  /**
   * createPersistentVolumeClaims: the claims of one ordinal that do not exist yet are created from
   * the templates, labelled with the template's and the selector's labels. Answers false when one
   * is being deleted ("pvc ... is being deleted"): its pod must wait until it is gone.
   */
  private async ensureClaims(set: StoredObject, ordinal: number): Promise<boolean> {
    const namespace = set.metadata.namespace!;
    const pvcs = this.ctx.registryFor(this.resourceType('', 'persistentvolumeclaims'));
    const selectorLabels = ((specOf(set).selector as Json | undefined)?.matchLabels ?? {}) as Record<string, string>;
    // The pod the claims are for, as recordClaimEvent names it.
    const name = `${set.metadata.name}-${ordinal}`;
    for (const { template: claimTemplate, name: claimName } of this.claimsOf(set, ordinal)) {
      const existing = pvcs.peek(namespace, claimName);
      if (existing?.metadata.deletionTimestamp) return false;
      if (existing) continue;
      const claimMeta = (claimTemplate.metadata ?? {}) as Json;
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
            },
            spec: structuredClone(claimTemplate.spec ?? {}) as Json,
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
    return true;
  }

  /**
   * newVersionedStatefulSetPod and CreateStatefulPod: the claims come first (one being deleted
   * holds the pod back until it is gone), then the pod with its identity, the claim volumes ahead
   * of the template's (updateStorage) and the revision label.
   */
  private async createPod(set: StoredObject, ordinal: number, revision: string): Promise<void> {
    const spec = specOf(set);
    const template = this.templateOf(set, revision);
    const meta = (template.metadata ?? {}) as Json;
    const namespace = set.metadata.namespace!;
    const name = `${set.metadata.name}-${ordinal}`;
    const podSpec = structuredClone((template.spec ?? {}) as Json);
    const claims = this.claimsOf(set, ordinal);
    const templateNames = new Set(claims.map(({ template: t }) => (t.metadata as Json | undefined)?.name));
    const volumes = [
      ...claims.map(({ template: t, name: claimName }) => ({ name: (t.metadata as Json | undefined)?.name, persistentVolumeClaim: { claimName } })),
      ...((podSpec.volumes as Json[] | undefined) ?? []).filter((v) => !templateNames.has(v.name)),
    ];
    if (!(await this.ensureClaims(set, ordinal))) return;
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
      const created = (await this.ctx.registryFor(this.resourceType('', 'pods')).create(namespace, pod, { fieldManager: CONTROLLER_MANAGER })).object as StoredObject;
      // The claims get their owners as soon as the pod exists (UpdatePodClaimForRetentionPolicy).
      await this.fixClaimOwners(set, created, ordinal, true);
      this.recorder.event(set, 'Normal', 'SuccessfulCreate', `create Pod ${name} in StatefulSet ${set.metadata.name} successful`);
    } catch (err) {
      // The previous pod of that ordinal is still terminating: it is created once that one is gone.
      if (err instanceof StatusError && err.status.reason === 'AlreadyExists') return;
      if (err instanceof StatusError) this.recorder.event(set, 'Warning', 'FailedCreate', `create Pod ${name} in StatefulSet ${set.metadata.name} failed error: ${err.message}`);
      throw err;
    }
  }
}
