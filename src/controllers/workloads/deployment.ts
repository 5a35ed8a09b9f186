// The Deployment controller (pkg/controller/deployment): one ReplicaSet per pod template, named
// and labelled by its pod-template-hash, with the revision annotations; rolling updates within
// maxSurge/maxUnavailable (rolling.go) and Recreate (recreate.go); scaling; pause; a rollback is a
// template equal to an old ReplicaSet's, which becomes the new one again with the next revision;
// old ReplicaSets beyond revisionHistoryLimit are deleted; status and the Available/Progressing
// conditions as sync.go and progress.go compute them, with the progress deadline on the clock.
import type { KubeObject, StoredObject } from '../../apis/object.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import { StatusError } from '../../errors/status-error.ts';
import type { StoreEvent } from '../../storage/versioned-store.ts';
import type { ControllerContext } from '../context.ts';
import { controllerRecorder, type EventRecorder } from '../events/event-broadcaster.ts';
import { QueueController } from '../queue-controller.ts';
import { CONTROLLER_MANAGER, OwnedIndex, updateObject, updateStatus, KeyWakeups, controllerKeyOf } from './controller-support.ts';
import { computeHash, controllerRefOf, isTerminal, newControllerRef, numberOr, scaledIntOrPercent, specOf, stableJson, statusOf, type Condition, type Json } from './objects.ts';
import type { ClockTimers } from './timers.ts';
import { formatTimestamp } from '../../go/time.ts';
import { deepEqual } from '../../util/deep-equal.ts';

const DEPLOYMENTS = 'apps/deployments';
const REPLICA_SETS = 'apps/replicasets';
const PODS = '/pods';
export const HASH_LABEL = 'pod-template-hash';
const REVISION = 'deployment.kubernetes.io/revision';
const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';
const DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas';
const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas';
/** Annotations a Deployment does not copy to its ReplicaSets (deployment_util.go annotationsToSkip). */
const SKIPPED_ANNOTATIONS = new Set(['kubectl.kubernetes.io/last-applied-configuration', REVISION, REVISION_HISTORY, DESIRED_REPLICAS, MAX_REPLICAS, 'deprecated.deployment.rollback.to']);
/** progressDeadlineSeconds of math.MaxInt32 means no deadline. */
const NO_DEADLINE = 2147483647;

const replicasOf = (obj: KubeObject): number => numberOr(specOf(obj).replicas, 1);
const statusCount = (obj: KubeObject, field: string): number => numberOr(statusOf(obj)[field], 0);
const revisionOf = (rs: KubeObject): number => Number(rs.metadata?.annotations?.[REVISION] ?? 0) || 0;
const created = (obj: KubeObject): number => Date.parse(obj.metadata?.creationTimestamp ?? '') || 0;
/** controller.ReplicaSetsByCreationTimestamp: oldest first, then by name. */
const byCreation = (a: KubeObject, b: KubeObject) => created(a) - created(b) || (a.metadata!.name! < b.metadata!.name! ? -1 : 1);

/** deploymentutil.ResolveFenceposts: maxSurge rounds up, maxUnavailable down; both 0 makes maxUnavailable 1. */
function fenceposts(d: KubeObject): { maxSurge: number; maxUnavailable: number } {
  const rolling = ((specOf(d).strategy as Json | undefined)?.rollingUpdate ?? {}) as Json;
  const replicas = replicasOf(d);
  const maxSurge = scaledIntOrPercent(rolling.maxSurge ?? '25%', replicas, true);
  let maxUnavailable = scaledIntOrPercent(rolling.maxUnavailable ?? '25%', replicas, false);
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

const isRecreate = (d: KubeObject): boolean => ((specOf(d).strategy as Json | undefined)?.type ?? 'RollingUpdate') === 'Recreate';

/** deploymentutil.MaxUnavailable. */
function maxUnavailableOf(d: KubeObject): number {
  if (isRecreate(d) || replicasOf(d) === 0) return 0;
  return Math.min(fenceposts(d).maxUnavailable, replicasOf(d));
}

const maxSurgeOf = (d: KubeObject): number => (isRecreate(d) ? 0 : fenceposts(d).maxSurge);

/** The template without the pod-template-hash label (deploymentutil.EqualIgnoreHash compares these). */
function templateIgnoringHash(template: unknown): string {
  const copy = structuredClone((template ?? {}) as Json);
  const labels = (copy.metadata as Json | undefined)?.labels as Record<string, string> | undefined;
  if (labels) delete labels[HASH_LABEL];
  return stableJson(copy);
}

/** What a sync works with: the ReplicaSet of the current template (if any), the others, and the revision to record. */
interface Rollout {
  newRS?: StoredObject;
  oldRSs: StoredObject[];
  revision?: string;
}

const hasProgressDeadline = (d: KubeObject): boolean => numberOr(specOf(d).progressDeadlineSeconds, 600) !== NO_DEADLINE;

export class DeploymentController extends QueueController {
  readonly name = 'deployment';
  private readonly replicaSets = new OwnedIndex(REPLICA_SETS);
  private readonly pods = new OwnedIndex(PODS);
  private readonly wakeups: KeyWakeups;
  private readonly events: EventRecorder;

  constructor(ctx: ControllerContext, onError: (err: unknown, key: string) => void, timers: ClockTimers) {
    super(ctx, onError);
    this.wakeups = new KeyWakeups(timers, this.queue);
    this.events = controllerRecorder(ctx, 'deployment-controller');
  }

  private type(resource: 'deployments' | 'replicasets'): ResourceType {
    return this.ctx.catalog.find('apps', 'v1', resource)!;
  }

  protected observe(event: StoreEvent): void {
    if (event.bucket === DEPLOYMENTS) this.queue.add(event.key);
    else if (event.bucket === REPLICA_SETS) {
      this.replicaSets.observe(event);
      const owner = controllerKeyOf(event.object, 'Deployment');
      if (owner) this.queue.add(owner);
    } else if (event.bucket === PODS) {
      this.pods.observe(event);
      // Recreate waits for the old pods to be gone.
      if (event.type === 'DELETED' || isTerminal(event.object)) {
        const rsRef = controllerRefOf(event.object);
        const rs = rsRef?.kind === 'ReplicaSet' ? this.ctx.store.get(REPLICA_SETS, `${event.object.metadata.namespace}/${rsRef.name}`) : undefined;
        const ref = rs && controllerRefOf(rs);
        if (ref?.kind === 'Deployment') this.queue.add(`${rs!.metadata.namespace}/${ref.name}`);
      }
    }
  }

  private ownedReplicaSets(d: StoredObject): StoredObject[] {
    return this.replicaSets
      .keysOf(d.metadata.uid!)
      .map((k) => this.ctx.store.get(REPLICA_SETS, k))
      .filter((rs): rs is StoredObject => rs !== undefined);
  }

  protected async sync(key: string): Promise<void> {
    const d = this.ctx.store.get(DEPLOYMENTS, key);
    if (!d || d.metadata.deletionTimestamp) return;
    // A deployment with an empty selector selects nothing and is left alone.
    const selector = specOf(d).selector as Json | undefined;
    if (!selector || (Object.keys((selector.matchLabels as Json | undefined) ?? {}).length === 0 && ((selector.matchExpressions as unknown[] | undefined) ?? []).length === 0)) return;
    const status = structuredClone(statusOf(d)) as Json;
    const paused = specOf(d).paused === true;
    if (paused || isRecreate(d)) {
      if (paused) await this.syncPaused(d, status);
      else await this.rolloutRecreate(d, status);
    } else await this.rolloutRolling(d, status);
  }

  private async syncPaused(d: StoredObject, status: Json): Promise<void> {
    const rollout = await this.replicaSetsAndRevision(d, status, false);
    const { newRS, oldRSs } = rollout;
    if (newRS && oldRSs.every((rs) => replicasOf(rs) === 0)) await this.scaleReplicaSet(newRS, replicasOf(d), d);
    await this.syncStatus(d, status, rollout, this.ownedReplicaSets(d));
  }

  private async rolloutRolling(d: StoredObject, status: Json): Promise<void> {
    const rollout = await this.replicaSetsAndRevision(d, status, true);
    const { newRS, oldRSs } = rollout;
    if (!newRS) return;
    const all = [...oldRSs, newRS];
    if (await this.reconcileNewReplicaSet(all, newRS, d)) return this.syncStatus(d, status, rollout, this.ownedReplicaSets(d));
    if (await this.reconcileOldReplicaSets(all, oldRSs.filter((rs) => replicasOf(rs) > 0), newRS, d)) return this.syncStatus(d, status, rollout, this.ownedReplicaSets(d));
    const fresh = this.ownedReplicaSets(d);
    if (this.complete(d, this.calculateStatus(d, status, fresh, fresh.find((r) => r.metadata.uid === newRS.metadata.uid)))) await this.cleanup(d, oldRSs);
    await this.syncStatus(d, status, rollout, this.ownedReplicaSets(d));
  }

  private async rolloutRecreate(d: StoredObject, status: Json): Promise<void> {
    let rollout = await this.replicaSetsAndRevision(d, status, false);
    const { oldRSs } = rollout;
    let scaledDown = false;
    for (const rs of oldRSs.filter((r) => replicasOf(r) > 0)) scaledDown = (await this.scaleReplicaSet(rs, 0, d)) || scaledDown;
    if (scaledDown) return this.syncStatus(d, status, rollout, this.ownedReplicaSets(d));
    // oldPodsRunning: any pod of an old ReplicaSet not yet finished (terminating ones too).
    const oldPods = oldRSs.flatMap((rs) => this.pods.keysOf(rs.metadata.uid!)).map((k) => this.ctx.store.get(PODS, k));
    if (oldPods.some((p) => p && !isTerminal(p))) return this.syncStatus(d, status, rollout, this.ownedReplicaSets(d));
    if (!rollout.newRS) rollout = await this.replicaSetsAndRevision(d, status, true);
    const newRS = rollout.newRS;
    if (newRS) await this.scaleReplicaSet(newRS, replicasOf(d), d);
    const fresh = this.ownedReplicaSets(d);
    if (this.complete(d, this.calculateStatus(d, status, fresh, newRS && fresh.find((r) => r.metadata.uid === newRS.metadata.uid)))) await this.cleanup(d, oldRSs);
    await this.syncStatus(d, status, rollout, this.ownedReplicaSets(d));
  }

  /**
   * getAllReplicaSetsAndSyncRevision: the ReplicaSet whose template is the deployment's (created
   * when asked and missing) and the others; the new one carries the next revision.
   */
  private async replicaSetsAndRevision(d: StoredObject, status: Json, create: boolean): Promise<Rollout> {
    const owned = this.ownedReplicaSets(d).sort(byCreation);
    const template = templateIgnoringHash(specOf(d).template);
    const existing = owned.find((rs) => templateIgnoringHash(specOf(rs).template) === template);
    const oldRSs = owned.filter((rs) => rs !== existing);
    const newRevision = String(Math.max(0, ...oldRSs.map(revisionOf)) + 1);
    const namespace = d.metadata.namespace!;
    if (existing) {
      const updated = await updateObject(this.ctx, this.type('replicasets'), namespace, existing.metadata.name!, existing.metadata.uid!, (rs) => {
        const changed = this.setNewReplicaSetAnnotations(d, rs, newRevision, true);
        const minReady = numberOr(specOf(d).minReadySeconds, 0);
        if (numberOr(specOf(rs).minReadySeconds, 0) === minReady) return changed;
        (rs.spec as Json).minReadySeconds = minReady;
        return true;
      });
      const newRS = updated ?? existing;
      if (hasProgressDeadline(d) && !(status.conditions as Condition[] | undefined)?.some((c) => c.type === 'Progressing')) {
        this.setCondition(status, { type: 'Progressing', status: 'True', reason: 'FoundNewReplicaSet', message: `Found new replica set ${JSON.stringify(newRS.metadata.name)}` });
      }
      return { newRS, oldRSs, revision: newRS.metadata.annotations?.[REVISION] };
    }
    if (!create) return { oldRSs };
    const spec = specOf(d);
    const hash = computeHash(spec.template, numberOr(status.collisionCount, 0) || undefined);
    const newTemplate = structuredClone(spec.template ?? {}) as Json;
    const templateMeta = (newTemplate.metadata ??= {}) as Json;
    templateMeta.labels = { ...((templateMeta.labels as Record<string, string> | undefined) ?? {}), [HASH_LABEL]: hash };
    const selector = structuredClone(spec.selector) as Json;
    selector.matchLabels = { ...((selector.matchLabels as Record<string, string> | undefined) ?? {}), [HASH_LABEL]: hash };
    const rs: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: `${d.metadata.name}-${hash}`, namespace, labels: templateMeta.labels as Record<string, string>, ownerReferences: [newControllerRef(d, 'apps/v1', 'Deployment')] },
      spec: { replicas: 0, minReadySeconds: numberOr(spec.minReadySeconds, 0), selector, template: newTemplate },
    };
    (rs.spec as Json).replicas = this.newReplicasFor(d, [...oldRSs, rs], rs);
    this.setNewReplicaSetAnnotations(d, rs, newRevision, false);
    let createdRS: StoredObject;
    try {
      createdRS = (await this.ctx.registryFor(this.type('replicasets')).create(namespace, rs, { fieldManager: CONTROLLER_MANAGER })).object as StoredObject;
    } catch (err) {
      if (err instanceof StatusError && err.status.reason === 'AlreadyExists') {
        // A hash collision with a ReplicaSet of another template: the next hash (collisionCount).
        const other = this.ctx.store.get(REPLICA_SETS, `${namespace}/${rs.metadata!.name}`);
        if (other && controllerRefOf(other)?.uid === d.metadata.uid && templateIgnoringHash(specOf(other).template) === template) return { newRS: other, oldRSs };
        status.collisionCount = numberOr(status.collisionCount, 0) + 1;
        await this.writeStatus(d, status);
        return { oldRSs };
      }
      if (err instanceof StatusError) {
        const message = `Failed to create new replica set ${JSON.stringify(rs.metadata!.name)}: ${err.message}`;
        this.events.event(d, 'Warning', 'ReplicaSetCreateError', message);
        this.setCondition(status, { type: 'Progressing', status: 'False', reason: 'ReplicaSetCreateError', message });
        await this.writeStatus(d, status);
        return { oldRSs };
      }
      throw err;
    }
    // getNewReplicaSet: a new ReplicaSet created with replicas counts as scaled up from 0.
    const created = replicasOf(createdRS);
    if (created > 0) this.events.event(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${createdRS.metadata.name} from 0 to ${created}`);
    if (hasProgressDeadline(d)) this.setCondition(status, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', message: `Created new replica set ${JSON.stringify(createdRS.metadata.name)}` });
    return { newRS: createdRS, oldRSs, revision: newRevision };
  }

  /** SetNewReplicaSetAnnotations: the deployment's annotations, the revision (and its history), the replica annotations. */
  private setNewReplicaSetAnnotations(d: KubeObject, rs: KubeObject, newRevision: string, exists: boolean): boolean {
    const annotations = { ...(rs.metadata!.annotations ?? {}) };
    for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) if (!SKIPPED_ANNOTATIONS.has(k)) annotations[k] = v;
    const oldRevision = annotations[REVISION];
    if (oldRevision === undefined || Number(oldRevision) < Number(newRevision)) {
      annotations[REVISION] = newRevision;
      if (exists && oldRevision !== undefined) annotations[REVISION_HISTORY] = annotations[REVISION_HISTORY] ? `${annotations[REVISION_HISTORY]},${oldRevision}` : oldRevision;
    }
    if (!exists) {
      annotations[DESIRED_REPLICAS] = String(replicasOf(d));
      annotations[MAX_REPLICAS] = String(replicasOf(d) + maxSurgeOf(d));
    }
    const changed = !deepEqual(annotations, rs.metadata!.annotations ?? {});
    rs.metadata!.annotations = annotations;
    return changed;
  }

  /** deploymentutil.NewRSNewReplicas. */
  private newReplicasFor(d: KubeObject, all: KubeObject[], newRS: KubeObject): number {
    if (isRecreate(d)) return replicasOf(d);
    const maxTotal = replicasOf(d) + maxSurgeOf(d);
    const current = all.reduce((n, rs) => n + replicasOf(rs), 0);
    if (current >= maxTotal) return replicasOf(newRS);
    return replicasOf(newRS) + Math.min(maxTotal - current, replicasOf(d) - replicasOf(newRS));
  }

  private async reconcileNewReplicaSet(all: StoredObject[], newRS: StoredObject, d: StoredObject): Promise<boolean> {
    if (replicasOf(newRS) === replicasOf(d)) return false;
    if (replicasOf(newRS) > replicasOf(d)) return this.scaleReplicaSet(newRS, replicasOf(d), d);
    return this.scaleReplicaSet(newRS, this.newReplicasFor(d, all, newRS), d);
  }

  /** rolling.go reconcileOldReplicaSets: first the old pods that are not available, then down to minAvailable. */
  private async reconcileOldReplicaSets(all: StoredObject[], activeOld: StoredObject[], newRS: StoredObject, d: StoredObject): Promise<boolean> {
    if (activeOld.reduce((n, rs) => n + replicasOf(rs), 0) === 0) return false;
    const allPods = all.reduce((n, rs) => n + replicasOf(rs), 0);
    const minAvailable = replicasOf(d) - maxUnavailableOf(d);
    const newUnavailable = replicasOf(newRS) - statusCount(newRS, 'availableReplicas');
    const maxScaledDown = allPods - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    let cleaned = 0;
    const old = [...activeOld].sort(byCreation);
    const after = new Map<string, number>();
    for (const rs of old) {
      if (cleaned >= maxScaledDown) break;
      const unhealthy = replicasOf(rs) - statusCount(rs, 'availableReplicas');
      if (unhealthy <= 0 || replicasOf(rs) === 0) continue;
      const down = Math.min(maxScaledDown - cleaned, unhealthy);
      after.set(rs.metadata.uid!, replicasOf(rs) - down);
      cleaned += down;
    }
    const replicasAfter = (rs: StoredObject) => after.get(rs.metadata.uid!) ?? replicasOf(rs);
    // scaleDownOldReplicaSetsForRollingUpdate: available pods above minAvailable may go.
    const available = all.reduce((n, rs) => n + statusCount(rs, 'availableReplicas'), 0);
    let remaining = Math.max(0, Math.min(available - minAvailable, maxScaledDown - cleaned));
    for (const rs of old) {
      if (remaining <= 0) break;
      const current = replicasAfter(rs);
      if (current === 0) continue;
      const down = Math.min(current, remaining);
      after.set(rs.metadata.uid!, current - down);
      remaining -= down;
    }
    let changed = false;
    for (const rs of old) if (after.has(rs.metadata.uid!)) changed = (await this.scaleReplicaSet(rs, after.get(rs.metadata.uid!)!, d)) || changed;
    return changed;
  }

  /** Sets a ReplicaSet's replicas and its desired/max annotations, as scaleReplicaSet does. */
  private async scaleReplicaSet(rs: StoredObject, replicas: number, d: KubeObject): Promise<boolean> {
    const desired = String(replicasOf(d));
    const max = String(replicasOf(d) + maxSurgeOf(d));
    const updated = await updateObject(this.ctx, this.type('replicasets'), rs.metadata.namespace, rs.metadata.name!, rs.metadata.uid!, (copy) => {
      const annotations = copy.metadata!.annotations ?? {};
      if (replicasOf(copy) === replicas && annotations[DESIRED_REPLICAS] === desired && annotations[MAX_REPLICAS] === max) return false;
      (copy.spec as Json).replicas = replicas;
      copy.metadata!.annotations = { ...annotations, [DESIRED_REPLICAS]: desired, [MAX_REPLICAS]: max };
      return true;
    });
    const scaled = updated !== undefined && updated !== rs && replicasOf(rs) !== replicas;
    if (scaled) {
      const from = replicasOf(rs);
      this.events.event(d, 'Normal', 'ScalingReplicaSet', `Scaled ${from < replicas ? 'up' : 'down'} replica set ${rs.metadata.name} from ${from} to ${replicas}`);
    }
    return scaled;
  }

  /** cleanupDeployment: old ReplicaSets scaled to zero beyond revisionHistoryLimit, oldest revision first. */
  private async cleanup(d: StoredObject, oldRSs: StoredObject[]): Promise<void> {
    const limit = numberOr(specOf(d).revisionHistoryLimit, 10);
    const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
    let diff = cleanable.length - limit;
    if (diff <= 0) return;
    cleanable.sort((a, b) => revisionOf(a) - revisionOf(b) || byCreation(a, b));
    for (const rs of cleanable) {
      if (diff <= 0) break;
      const current = this.ctx.store.get(REPLICA_SETS, `${rs.metadata.namespace}/${rs.metadata.name}`);
      if (!current || statusCount(current, 'replicas') !== 0 || replicasOf(current) !== 0 || statusCount(current, 'observedGeneration') < (current.metadata.generation ?? 0)) continue;
      try {
        await this.ctx.registryFor(this.type('replicasets')).delete(rs.metadata.namespace, rs.metadata.name!, { preconditions: { uid: rs.metadata.uid! } });
      } catch (err) {
        if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
      }
      diff--;
    }
  }

  /** sync.go calculateStatus: the counts over the ReplicaSets and the Available condition. */
  private calculateStatus(d: KubeObject, previous: Json, all: StoredObject[], newRS: StoredObject | undefined): Json {
    const available = all.reduce((n, rs) => n + statusCount(rs, 'availableReplicas'), 0);
    const total = all.reduce((n, rs) => n + replicasOf(rs), 0);
    const status: Json = {
      observedGeneration: d.metadata?.generation,
      replicas: all.reduce((n, rs) => n + statusCount(rs, 'replicas'), 0),
      updatedReplicas: newRS ? statusCount(newRS, 'replicas') : 0,
      readyReplicas: all.reduce((n, rs) => n + statusCount(rs, 'readyReplicas'), 0),
      availableReplicas: available,
      unavailableReplicas: Math.max(0, total - available),
      conditions: structuredClone((previous.conditions as Condition[] | undefined) ?? []),
      collisionCount: previous.collisionCount,
    };
    if (available >= replicasOf(d) - maxUnavailableOf(d)) this.setCondition(status, { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' });
    else this.setCondition(status, { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' });
    return status;
  }

  /** deploymentutil.DeploymentComplete. */
  private complete(d: KubeObject, status: Json): boolean {
    const replicas = replicasOf(d);
    return status.updatedReplicas === replicas && status.replicas === replicas && status.availableReplicas === replicas && numberOr(status.observedGeneration, 0) >= (d.metadata?.generation ?? 0);
  }

  /** progress.go syncRolloutStatus (paused: checkPausedConditions), then one status write. */
  private async syncStatus(d: StoredObject, working: Json, rollout: Rollout, all: StoredObject[]): Promise<void> {
    const { newRS, revision } = rollout;
    const fresh = newRS && all.find((rs) => rs.metadata.uid === newRS.metadata.uid);
    const status = this.calculateStatus(d, working, all, fresh);
    const now = this.ctx.clock.now();
    const progressing = () => (status.conditions as Condition[]).find((c) => c.type === 'Progressing');
    if (specOf(d).paused === true) {
      if (progressing()?.reason !== 'DeploymentPaused') this.setCondition(status, { type: 'Progressing', status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' });
    } else if (progressing()?.reason === 'DeploymentPaused') {
      this.setCondition(status, { type: 'Progressing', status: 'Unknown', reason: 'DeploymentResumed', message: 'Deployment is resumed' });
    } else if (!hasProgressDeadline(d)) {
      status.conditions = (status.conditions as Condition[]).filter((c) => c.type !== 'Progressing');
    } else {
      const current = progressing();
      const isComplete = status.replicas === status.updatedReplicas && current?.reason === 'NewReplicaSetAvailable';
      if (!isComplete) {
        const old = statusOf(d);
        const oldOld = numberOr(old.replicas, 0) - numberOr(old.updatedReplicas, 0);
        const newOld = (status.replicas as number) - (status.updatedReplicas as number);
        const movedOn =
          (status.updatedReplicas as number) > numberOr(old.updatedReplicas, 0) ||
          newOld < oldOld ||
          (status.readyReplicas as number) > numberOr(old.readyReplicas, 0) ||
          (status.availableReplicas as number) > numberOr(old.availableReplicas, 0);
        const name = JSON.stringify(fresh?.metadata.name ?? '');
        if (this.complete(d, status)) {
          if (fresh) this.setCondition(status, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet ${name} has successfully progressed.` });
        } else if (movedOn) {
          // Progress moves lastUpdateTime but keeps a True condition's lastTransitionTime.
          const at = formatTimestamp(now);
          const next: Condition = { type: 'Progressing', status: 'True', lastUpdateTime: at, lastTransitionTime: current?.status === 'True' ? current.lastTransitionTime : at, reason: 'ReplicaSetUpdated', message: `ReplicaSet ${name} is progressing.` };
          status.conditions = [...(status.conditions as Condition[]).filter((c) => c.type !== 'Progressing'), next];
        } else if (current && current.reason !== 'NewReplicaSetAvailable' && current.status === 'True') {
          const deadline = Date.parse(current.lastUpdateTime ?? '') + numberOr(specOf(d).progressDeadlineSeconds, 600) * 1000;
          if (deadline <= now.getTime()) this.setCondition(status, { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet ${name} has timed out progressing.` });
          else this.wakeups.at(`${d.metadata.namespace}/${d.metadata.name}`, deadline);
        }
      }
    }
    // getReplicaFailures: the new ReplicaSet's (else an old one's) ReplicaFailure condition.
    const failure = [fresh, ...all.filter((rs) => rs !== fresh)].map((rs) => rs && (statusOf(rs).conditions as Condition[] | undefined)?.find((c) => c.type === 'ReplicaFailure')).find(Boolean);
    if (failure) this.setCondition(status, { type: 'ReplicaFailure', status: failure.status, reason: failure.reason, message: failure.message });
    else status.conditions = (status.conditions as Condition[]).filter((c) => c.type !== 'ReplicaFailure');
    await this.writeStatus(d, status, revision);
  }


  /** deploymentutil.SetDeploymentCondition: unchanged status and reason leave the condition as is; a status change moves lastTransitionTime. */
  private setCondition(status: Json, next: Omit<Condition, 'lastUpdateTime' | 'lastTransitionTime'>): void {
    const conditions = ((status.conditions as Condition[] | undefined) ??= []);
    const at = formatTimestamp(this.ctx.clock.now());
    const current = conditions.find((c) => c.type === next.type);
    if (current && current.status === next.status && current.reason === next.reason) return;
    const condition: Condition = { type: next.type, status: next.status, lastUpdateTime: at, lastTransitionTime: current && current.status === next.status ? current.lastTransitionTime : at, reason: next.reason, message: next.message };
    status.conditions = [...conditions.filter((c) => c.type !== next.type), condition];
  }

  /** DeploymentStatus in Go's field order, counts omitted when zero; the revision annotation goes with it. */
  private async writeStatus(d: StoredObject, status: Json, revision?: string): Promise<void> {
    const omitZero = (field: string) => (numberOr(status[field], 0) ? { [field]: status[field] } : {});
    const conditions = (status.conditions as Condition[] | undefined) ?? [];
    const out: Json = {
      ...omitZero('observedGeneration'),
      ...omitZero('replicas'),
      ...omitZero('updatedReplicas'),
      ...omitZero('readyReplicas'),
      ...omitZero('availableReplicas'),
      ...omitZero('unavailableReplicas'),
      ...(conditions.length ? { conditions } : {}),
      ...(status.collisionCount !== undefined ? { collisionCount: status.collisionCount } : {}),
    };
    await updateStatus(this.ctx, this.type('deployments'), d.metadata.namespace, d.metadata.name!, d.metadata.uid!, (obj) => {
      obj.status = out;
      if (revision !== undefined && obj.metadata!.annotations?.[REVISION] !== revision) obj.metadata!.annotations = { ...obj.metadata!.annotations, [REVISION]: revision };
    });
  }
}
