// The Job controller (pkg/controller/job/job_controller.go), reduced: pods from the template up to
// parallelism while completions remain (NonIndexed, or Indexed with one pod per index carrying its
// completion index), failed pods replaced after the pod-failure back-off on the clock (per index
// with backoffLimitPerIndex) until backoffLimit is exceeded, podFailurePolicy (FailJob, FailIndex,
// Ignore, Count on exit codes and pod conditions), successPolicy, podReplacementPolicy,
// activeDeadlineSeconds, suspend, and the terminal conditions in the v1.36 order:
// SuccessCriteriaMet then Complete, FailureTarget then Failed, each once no pod of the job is
// still terminating. A finished job is deleted ttlSecondsAfterFinished later (the TTL controller).
// Status: startTime, completionTime, active, ready, succeeded, failed, terminating,
// completedIndexes, failedIndexes, uncountedTerminatedPods.
//
// The real controller holds each pod with the batch.kubernetes.io/job-tracking finalizer until it
// has counted how the pod ended. Here the controller remembers instead: the pods it has accounted
// for, and the last state of pods that went before it could (a deleted pod's final object).
import type { KubeObject, StoredObject } from '../../apis/object.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import { StatusError } from '../../errors/status-error.ts';
import { formatTimestamp } from '../../go/time.ts';
import type { StoreEvent } from '../../storage/versioned-store.ts';
import type { ControllerContext } from '../context.ts';
import { controllerRecorder, type EventRecorder } from '../events/event-broadcaster.ts';
import { QueueController } from '../queue-controller.ts';
import { CONTROLLER_MANAGER, OwnedIndex, updateStatus, KeyWakeups, controllerKeyOf } from './controller-support.ts';
import { countIndexes, formatIntervals, hasIndex, mergeIndexes, parseIndexes, type Interval } from './job-indexes.ts';
import { matchPodFailurePolicy, matchSuccessPolicy, podFinishedTime, remainingBackoffMs } from './job-policies.ts';
import { controllerRefOf, isPodActive, isPodReady, isTerminal, newControllerRef, numberOr, specOf, statusOf, type Condition, type Json } from './objects.ts';
import type { ClockTimers } from './timers.ts';

const JOBS = 'batch/jobs';
const PODS = '/pods';
const INDEX_KEY = 'batch.kubernetes.io/job-completion-index';
const FAILURE_COUNT_KEY = 'batch.kubernetes.io/job-index-failure-count';
const IGNORED_FAILURE_COUNT_KEY = 'batch.kubernetes.io/job-index-ignored-failure-count';

/** The condition that ends the job: the interim one to add now, or the final one it leads to. */
interface Finish {
  type: 'SuccessCriteriaMet' | 'FailureTarget' | 'Complete' | 'Failed';
  reason: string;
  message: string;
}

/** The global pod-failure back-off of a job (backoff_utils.go backoffRecord). */
interface BackoffRecord {
  failuresAfterLastSuccess: number;
  lastFailureAt?: number;
}

const phaseOf = (pod: KubeObject): string => (statusOf(pod).phase as string | undefined) ?? 'Pending';
/** getCompletionIndex: the annotation as a non-negative number, else undefined. */
const indexOf = (pod: KubeObject): number | undefined => {
  const v = pod.metadata?.annotations?.[INDEX_KEY];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
};
/** parseInt32 of an index failure count annotation: 0 unless a number in int32 range. */
const annotationCount = (pod: KubeObject, key: string): number => {
  const v = pod.metadata?.annotations?.[key];
  const n = v !== undefined && /^[+-]?\d+$/.test(v) ? Number(v) : 0;
  return n < 0 || n > 2147483647 ? 0 : n;
};
const absoluteFailureCount = (pod: KubeObject): number => annotationCount(pod, FAILURE_COUNT_KEY) + annotationCount(pod, IGNORED_FAILURE_COUNT_KEY);

/** newBackoffRecord: failures since the last success, and when the latest of them finished. */
function nextBackoff(record: BackoffRecord | undefined, succeeded: KubeObject[], failed: KubeObject[]): BackoffRecord {
  const next: BackoffRecord = { failuresAfterLastSuccess: record?.failuresAfterLastSuccess ?? 0, lastFailureAt: record?.lastFailureAt };
  const failedTimes = failed.map(podFinishedTime).sort((x, y) => x - y);
  if (succeeded.length === 0) {
    if (failedTimes.length === 0) return next;
    return { failuresAfterLastSuccess: next.failuresAfterLastSuccess + failedTimes.length, lastFailureAt: failedTimes.at(-1) };
  }
  const lastSuccess = Math.max(...succeeded.map(podFinishedTime));
  const after = failedTimes.filter((t) => t > lastSuccess);
  return { failuresAfterLastSuccess: after.length, lastFailureAt: after.at(-1) };
}

/** names.MaxGeneratedNameLength: what the registry keeps of a generateName. */
const MAX_GENERATED_NAME_LENGTH = 58;

/** podGenerateNameWithIndex (indexed_job_utils.go): a long Job name is cut, never the `-<index>-` after it. */
function generateNameWithIndex(jobName: string, index: number): string {
  const suffix = `-${index}-`;
  const prefix = jobName + suffix;
  return prefix.length > MAX_GENERATED_NAME_LENGTH ? prefix.slice(0, MAX_GENERATED_NAME_LENGTH - suffix.length) + suffix : prefix;
}

export class JobController extends QueueController {
  readonly name = 'job';
  private readonly pods = new OwnedIndex(PODS);
  private readonly wakeups: KeyWakeups;
  /** Pods whose end the job's status holds, or never will (the tracking finalizer removed). */
  private readonly accounted = new Set<string>();
  /** By job uid: pods deleted before the controller accounted for them, as they were last seen. */
  private readonly gone = new Map<string, Map<string, KubeObject>>();
  private readonly backoffs = new Map<string, BackoffRecord>();
  private readonly events: EventRecorder;

  constructor(ctx: ControllerContext, onError: (err: unknown, key: string) => void, timers: ClockTimers) {
    super(ctx, onError);
    this.wakeups = new KeyWakeups(timers, this.queue);
    this.events = controllerRecorder(ctx, 'job-controller');
  }

  private type(resource: 'jobs' | 'pods'): ResourceType {
    return resource === 'jobs' ? this.ctx.catalog.find('batch', 'v1', 'jobs')! : this.ctx.catalog.find('', 'v1', 'pods')!;
  }

  protected observe(event: StoreEvent): void {
    if (event.bucket === JOBS) {
      if (event.type === 'DELETED') {
        this.gone.delete(event.object.metadata.uid!);
        this.backoffs.delete(event.key);
      }
      this.queue.add(event.key);
    } else if (event.bucket === PODS) {
      this.pods.observe(event);
      const ref = controllerRefOf(event.object);
      // A pod that goes before it was accounted for is remembered, while its job is still there.
      const jobKey = `${event.object.metadata.namespace}/${ref?.name}`;
      if (event.type === 'DELETED' && ref?.kind === 'Job' && !this.accounted.delete(event.object.metadata.uid!) && this.ctx.store.get(JOBS, jobKey)?.metadata.uid === ref.uid) {
        let byPod = this.gone.get(ref.uid);
        if (!byPod) this.gone.set(ref.uid, (byPod = new Map()));
        byPod.set(event.object.metadata.uid!, goneCopy(event.object, this.ctx.clock.now()));
      }
      const owner = controllerKeyOf(event.object, 'Job');
      if (owner) this.queue.add(owner);
    }
  }

  protected async sync(key: string): Promise<void> {
    const job = this.ctx.store.get(JOBS, key);
    if (!job || job.metadata.deletionTimestamp) return;
    // managedByExternalController: a job another controller manages is left to it.
    if (typeof specOf(job).managedBy === 'string' && specOf(job).managedBy !== 'kubernetes.io/job-controller') return;
    const jobUid = job.metadata.uid!;
    const now = this.ctx.clock.now();
    const nowMs = now.getTime();
    const spec = specOf(job);
    const old = statusOf(job);
    const conditions = ((old.conditions as Condition[] | undefined) ?? []).map((c) => ({ ...c }));
    if (conditions.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')) {
      this.gone.delete(jobUid);
      this.backoffs.delete(key);
      return this.expireFinished(job, key, now);
    }

    const live = this.pods
      .keysOf(jobUid)
      .map((k) => this.ctx.store.get(PODS, k))
      .filter((p): p is StoredObject => p !== undefined);
    const pods: KubeObject[] = [...live, ...(this.gone.get(jobUid)?.values() ?? [])];
    const indexed = spec.completionMode === 'Indexed';
    const completions = typeof spec.completions === 'number' ? spec.completions : undefined;
    const parallelism = numberOr(spec.parallelism, 1);
    const backoffLimit = numberOr(spec.backoffLimit, 6);
    const perIndex = indexed && typeof spec.backoffLimitPerIndex === 'number';
    const backoffLimitPerIndex = numberOr(spec.backoffLimitPerIndex, 0);
    const failurePolicy = spec.podFailurePolicy as Json | undefined;
    const successPolicy = spec.successPolicy as Json | undefined;
    const suspended = spec.suspend === true;
    // onlyReplaceFailedPods: a pod failure policy, or podReplacementPolicy Failed.
    const onlyReplaceFailed = failurePolicy !== undefined || spec.podReplacementPolicy === 'Failed';
    /** isPodFailed: Failed, or (unless only failed pods are replaced) deleted before it succeeded. */
    const isFailed = (p: KubeObject) => phaseOf(p) === 'Failed' || (!onlyReplaceFailed && !!p.metadata?.deletionTimestamp && phaseOf(p) !== 'Succeeded');
    const validIndex = (p: KubeObject) => !indexed || (indexOf(p) !== undefined && indexOf(p)! < (completions ?? 0));

    const tracked = pods.filter((p) => !this.accounted.has(p.metadata!.uid!));
    const active = live.filter(isPodActive);
    let terminating = live.filter((p) => p.metadata.deletionTimestamp && !isTerminal(p)).length;
    const newSucceeded = tracked.filter((p) => validIndex(p) && phaseOf(p) === 'Succeeded');
    const newFailed = tracked.filter((p) => validIndex(p) && isFailed(p));
    let succeeded = numberOr(old.succeeded, 0) + newSucceeded.length;
    const failed = numberOr(old.failed, 0) + newFailed.filter((p) => matchPodFailurePolicy(failurePolicy, p).countFailed).length;

    const status: Json = { ...old };
    if (!suspended && !old.startTime) status.startTime = formatTimestamp(now);
    const startTime = Date.parse((status.startTime as string | undefined) ?? '');
    const backoff = nextBackoff(this.backoffs.get(key), newSucceeded, newFailed);

    // What ends the job, if anything does now: a condition already set, a FailJob rule, the limits.
    let finish: Finish | undefined;
    const met = conditions.find((c) => c.type === 'SuccessCriteriaMet' && c.status === 'True');
    const target = conditions.find((c) => c.type === 'FailureTarget' && c.status === 'True');
    if (met) finish = { type: 'Complete', reason: met.reason ?? '', message: met.message ?? '' };
    else if (target) finish = { type: 'Failed', reason: target.reason ?? '', message: target.message ?? '' };
    else if (failurePolicy) {
      const message = pods.filter(isFailed).map((p) => matchPodFailurePolicy(failurePolicy, p).failJobMessage).find((m) => m !== undefined);
      if (message !== undefined) finish = { type: 'FailureTarget', reason: 'PodFailurePolicy', message };
    }
    if (!finish) {
      if (failed > backoffLimit || this.pastBackoffLimitOnFailure(spec, live, backoffLimit)) finish = { type: 'FailureTarget', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' };
      else if (spec.activeDeadlineSeconds !== undefined && Number.isFinite(startTime) && !suspended) {
        const deadline = startTime + numberOr(spec.activeDeadlineSeconds, 0) * 1000;
        if (deadline <= nowMs) finish = { type: 'FailureTarget', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };
        else this.wakeups.at(key, deadline);
      }
    }

    const prevSucceededIndexes = indexed ? parseIndexes(old.completedIndexes as string | undefined, completions ?? 0) : [];
    let succeededIndexes: Interval[] = prevSucceededIndexes;
    let failedIndexes: Interval[] | undefined;
    const delayed = new Map<number, KubeObject>();
    if (indexed) {
      succeededIndexes = mergeIndexes(prevSucceededIndexes, newSucceeded.map((p) => indexOf(p)!));
      succeeded = countIndexes(succeededIndexes);
      if (perIndex) {
        failedIndexes = mergeIndexes(
          parseIndexes((old.failedIndexes as string | undefined) ?? '', completions ?? 0),
          tracked.filter((p) => validIndex(p) && this.isIndexFailed(failurePolicy, backoffLimitPerIndex, p, isFailed)).map((p) => indexOf(p)!),
        );
        if (!finish) {
          if (typeof spec.maxFailedIndexes === 'number' && countIndexes(failedIndexes) > spec.maxFailedIndexes) {
            finish = { type: 'FailureTarget', reason: 'MaxFailedIndexesExceeded', message: 'Job has exceeded the specified maximal number of failed indexes' };
          } else if (countIndexes(failedIndexes) > 0 && countIndexes(failedIndexes) + countIndexes(succeededIndexes) >= (completions ?? 0)) {
            finish = { type: 'FailureTarget', reason: 'FailedIndexes', message: 'Job has failed indexes' };
          }
        }
        // getPodsWithDelayedDeletionPerIndex: the latest failed pod of each index still to retry,
        // kept (uncounted) until its replacement exists and inherits its failure count.
        const activeIndexes = new Set(active.map(indexOf));
        for (const p of tracked) {
          const ix = indexOf(p);
          if (!validIndex(p) || !isFailed(p) || ix === undefined) continue;
          if (hasIndex(succeededIndexes, ix) || hasIndex(failedIndexes, ix) || activeIndexes.has(ix)) continue;
          const last = delayed.get(ix);
          if (!last || (absoluteFailureCount(last) <= absoluteFailureCount(p) && podFinishedTime(p) >= podFinishedTime(last))) delayed.set(ix, p);
        }
      }
      if (!finish) {
        const message = matchSuccessPolicy(successPolicy, completions ?? 0, succeededIndexes);
        if (message !== undefined) finish = { type: 'SuccessCriteriaMet', reason: 'SuccessPolicy', message };
      }
    }

    const podRegistry = this.ctx.registryFor(this.type('pods'));
    const deletePod = async (pod: KubeObject) => {
      try {
        await podRegistry.delete(pod.metadata!.namespace, pod.metadata!.name!, { preconditions: { uid: pod.metadata!.uid! } });
        this.events.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata!.name}`);
      } catch (err) {
        if (err instanceof StatusError && err.code !== 404) this.events.event(job, 'Warning', 'FailedDelete', `Error deleting: ${err.message}`);
        if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
      }
    };
    let activeCount = active.length;
    let ready = active.filter(isPodReady).length;
    /** The suspension change this sync makes (recorded after the status write). */
    let suspension: 'Suspended' | 'Resumed' | undefined;
    if (finish) {
      // deleteActivePods: the job's end stops its running pods; they are accounted for below.
      for (const pod of active) await deletePod(pod);
      activeCount = 0;
      terminating += active.length;
      ready = 0;
    } else {
      const removed = await this.manageJob(job, key, {
        active,
        live,
        indexed,
        completions,
        parallelism,
        succeeded,
        terminating,
        onlyReplaceFailed,
        perIndex,
        succeededIndexes,
        failedIndexes,
        delayed,
        backoff,
        failurePolicy,
        now: nowMs,
        deletePod,
      });
      activeCount = removed.active;
      terminating += removed.deleted;
      ready -= removed.deletedReady;
      const complete = completions === undefined ? succeeded > 0 && activeCount === 0 : succeeded >= completions && activeCount === 0;
      if (complete) finish = { type: 'SuccessCriteriaMet', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' };
      else if (suspended) {
        if (!conditions.some((c) => c.type === 'Suspended' && c.status === 'True')) suspension = 'Suspended';
        setJobCondition(conditions, 'Suspended', 'True', 'JobSuspended', 'Job suspended', now);
      } else if (conditions.some((c) => c.type === 'Suspended' && c.status === 'True')) {
        setJobCondition(conditions, 'Suspended', 'False', 'JobResumed', 'Job resumed', now);
        suspension = 'Resumed';
        // A resumed job's activeDeadlineSeconds counts from now.
        status.startTime = formatTimestamp(now);
      }
    }

    // trackJobStatusAndRemoveFinalizers: account for the pods that ended (or, when the job ends,
    // for all of them): succeeded ones count, failed ones unless an Ignore rule matched, and
    // running ones stopped by a failing job count as failed.
    const failing = finish?.type === 'FailureTarget' || finish?.type === 'Failed';
    const accountedNow: KubeObject[] = [];
    let countedFailed = 0;
    let countedSucceeded = 0;
    for (const p of tracked) {
      const failedPod = isFailed(p);
      const ix = indexOf(p);
      const canAccount = finish !== undefined || phaseOf(p) === 'Succeeded' || (failedPod && !(ix !== undefined && delayed.get(ix) === p));
      if (!canAccount) continue;
      accountedNow.push(p);
      if (phaseOf(p) === 'Succeeded') {
        if (!indexed) countedSucceeded++;
      } else if ((failedPod || failing) && validIndex(p) && matchPodFailurePolicy(failurePolicy, p).countFailed) countedFailed++;
    }
    if (finish?.type === 'FailureTarget' || finish?.type === 'SuccessCriteriaMet') {
      setJobCondition(conditions, finish.type, 'True', finish.reason, finish.message, now);
      finish = { type: finish.type === 'FailureTarget' ? 'Failed' : 'Complete', reason: finish.reason, message: finish.message };
    }
    // enactJobFinished: the final condition once no pod of the job is still terminating.
    let finishedNow: Finish | undefined;
    if (finish && terminating === 0) {
      setJobCondition(conditions, finish.type, 'True', finish.reason, finish.message, now);
      if (finish.type === 'Complete') status.completionTime = formatTimestamp(now);
      finishedNow = finish;
    }

    status.active = activeCount;
    status.succeeded = indexed ? succeeded : numberOr(old.succeeded, 0) + countedSucceeded;
    status.failed = numberOr(old.failed, 0) + countedFailed;
    if (indexed) status.completedIndexes = formatIntervals(succeededIndexes);
    if (failedIndexes) status.failedIndexes = formatIntervals(failedIndexes);
    status.conditions = conditions;
    status.ready = ready;
    status.terminating = terminating;
    const written = await updateStatus(this.ctx, this.type('jobs'), job.metadata.namespace, job.metadata.name!, jobUid, (obj) => {
      obj.status = jobStatusShape(status);
    });
    if (!written) return;
    // After the status write: the suspension change (syncJob) and the end (recordJobFinished).
    if (suspension) this.events.event(job, 'Normal', suspension, suspension === 'Suspended' ? 'Job suspended' : 'Job resumed');
    if (finishedNow?.type === 'Complete') {
      if (completions !== undefined && numberOr(status.succeeded, 0) > completions) this.events.event(job, 'Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached');
      this.events.event(job, 'Normal', 'Completed', 'Job completed');
    } else if (finishedNow) this.events.event(job, 'Warning', finishedNow.reason, finishedNow.message);
    // What the status now holds is not counted again.
    const goneOfJob = this.gone.get(jobUid);
    for (const p of accountedNow) {
      const uid = p.metadata!.uid!;
      if (goneOfJob?.delete(uid)) continue;
      this.accounted.add(uid);
    }
    if (goneOfJob?.size === 0) this.gone.delete(jobUid);
    this.backoffs.set(key, backoff);
    if ((statusOf(written).conditions as Condition[] | undefined)?.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')) await this.expireFinished(written, key, now);
  }

  /**
   * manageJob: stops all active pods of a suspended job, or the surplus over what parallelism and
   * the remaining completions want (for an Indexed job also duplicates and indexes out of range);
   * else creates the missing pods once the back-off allows. Answers the active count and what it
   * deleted.
   */
  private async manageJob(job: StoredObject, key: string, c: ManageContext): Promise<{ active: number; deleted: number; deletedReady: number }> {
    const spec = specOf(job);
    let active = c.active.length;
    // deleteJobPods: pods the controller removes itself are never counted (their finalizer goes first).
    const remove = async (pods: StoredObject[]) => {
      for (const p of pods) {
        this.accounted.add(p.metadata.uid!);
        await c.deletePod(p);
      }
      return { active: active - pods.length, deleted: pods.length, deletedReady: pods.filter(isPodReady).length };
    };
    if (spec.suspend === true) return remove(c.active);
    let wantActive: number;
    if (c.completions === undefined) wantActive = c.succeeded > 0 ? active : c.parallelism;
    else wantActive = Math.max(0, Math.min(c.completions - c.succeeded, c.parallelism));
    const toRemove = activePodsForRemoval(c.active, c.indexed, c.completions ?? 0, Math.max(0, active - wantActive));
    if (toRemove.length) return remove(toRemove);

    const diff = wantActive - (c.onlyReplaceFailed ? c.terminating : 0) - active;
    if (diff <= 0) return { active, deleted: 0, deletedReady: 0 };
    if (!c.perIndex) {
      const remaining = remainingBackoffMs(c.backoff.failuresAfterLastSuccess, c.backoff.lastFailureAt, c.now);
      // While it waits out the back-off manageJob answers the pods that still run (kubernetes
      // #139457, in v1.36.x: answering 0 made status.ready exceed status.active, which the
      // status strategy refuses).
      if (remaining > 0) {
        this.wakeups.at(key, c.now + remaining);
        return { active, deleted: 0, deletedReady: 0 };
      }
    }
    if (!c.indexed) {
      for (let i = 0; i < diff; i++) if (await this.createPod(job)) active++;
      return { active, deleted: 0, deletedReady: 0 };
    }
    let indexes = firstPendingIndexes(c, diff);
    if (c.perIndex) {
      // getPodCreationInfoForIndependentIndexes: each index waits out its own back-off.
      const waits = indexes.map((ix) => {
        const last = c.delayed.get(ix);
        return last ? remainingBackoffMs(absoluteFailureCount(last) + 1, podFinishedTime(last), c.now) : 0;
      });
      const now = indexes.filter((_, i) => waits[i] === 0);
      if (now.length === 0 && indexes.length > 0) {
        this.wakeups.at(key, c.now + Math.min(...waits));
        return { active, deleted: 0, deletedReady: 0 };
      }
      indexes = now;
    }
    for (const index of indexes) if (await this.createPod(job, index, c.perIndex ? indexFailureCounts(c.failurePolicy, c.delayed.get(index)) : undefined)) active++;
    return { active, deleted: 0, deletedReady: 0 };
  }

  /** isIndexFailed: a FailIndex rule matched, or a counted failure reached backoffLimitPerIndex. */
  private isIndexFailed(policy: Json | undefined, limit: number, pod: KubeObject, isFailed: (p: KubeObject) => boolean): boolean {
    if (!isFailed(pod)) return false;
    const match = matchPodFailurePolicy(policy, pod);
    if (match.action === 'FailIndex') return true;
    return match.countFailed && annotationCount(pod, FAILURE_COUNT_KEY) >= limit;
  }

  /**
   * pastBackoffLimitOnFailure: with restartPolicy OnFailure failing containers restart in place, and
   * the restarts of the job's Running and Pending pods count against backoffLimit.
   */
  private pastBackoffLimitOnFailure(spec: Json, pods: StoredObject[], backoffLimit: number): boolean {
    if (((spec.template as Json | undefined)?.spec as Json | undefined)?.restartPolicy !== 'OnFailure') return false;
    let restarts = 0;
    for (const pod of pods) {
      if (phaseOf(pod) !== 'Running' && phaseOf(pod) !== 'Pending') continue;
      const status = statusOf(pod);
      for (const c of [...((status.initContainerStatuses as Json[] | undefined) ?? []), ...((status.containerStatuses as Json[] | undefined) ?? [])]) restarts += numberOr(c.restartCount, 0);
    }
    return backoffLimit === 0 ? restarts > 0 : restarts >= backoffLimit;
  }

  /** The TTL-after-finished controller: a finished job with ttlSecondsAfterFinished goes that long after it finished. */
  private async expireFinished(job: StoredObject, key: string, now: Date): Promise<void> {
    const ttl = specOf(job).ttlSecondsAfterFinished;
    if (typeof ttl !== 'number') return;
    const end = (statusOf(job).conditions as Condition[] | undefined)?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
    const finishedAtMs = Date.parse(end?.lastTransitionTime ?? '');
    if (!Number.isFinite(finishedAtMs)) return;
    const expireAt = finishedAtMs + ttl * 1000;
    if (expireAt > now.getTime()) return this.wakeups.at(key, expireAt);
    try {
      await this.ctx.registryFor(this.type('jobs')).delete(job.metadata.namespace, job.metadata.name!, { propagationPolicy: 'Background', preconditions: { uid: job.metadata.uid! } });
    } catch (err) {
      if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
    }
  }

  /** One pod from the template (with its completion index for Indexed jobs); false when the create was refused. */
  private async createPod(job: StoredObject, index?: number, failureCounts?: { failed: number; ignored: number }): Promise<boolean> {
    const template = (specOf(job).template ?? {}) as Json;
    const meta = (template.metadata ?? {}) as Json;
    const podSpec = structuredClone((template.spec ?? {}) as Json);
    const labels = { ...((meta.labels as Record<string, string> | undefined) ?? {}) };
    const annotations = { ...((meta.annotations as Record<string, string> | undefined) ?? {}) };
    if (index !== undefined) {
      annotations[INDEX_KEY] = String(index);
      labels[INDEX_KEY] = String(index);
      // addCompletionIndexEnvVariables (a container's own JOB_COMPLETION_INDEX is kept) and the stable hostname of an indexed pod.
      for (const c of [...((podSpec.initContainers as Json[] | undefined) ?? []), ...((podSpec.containers as Json[] | undefined) ?? [])]) {
        const env = (c.env as Json[] | undefined) ?? [];
        if (!env.some((e) => e.name === 'JOB_COMPLETION_INDEX')) c.env = [...env, { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: `metadata.labels['${INDEX_KEY}']` } } }];
      }
      podSpec.hostname = `${job.metadata.name}-${index}`;
      // addIndexFailureCountAnnotation: the failures of the index so far, carried from the pod it replaces.
      if (failureCounts) {
        annotations[FAILURE_COUNT_KEY] = String(failureCounts.failed);
        if (failureCounts.ignored > 0) annotations[IGNORED_FAILURE_COUNT_KEY] = String(failureCounts.ignored);
      }
    }
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: index === undefined ? `${job.metadata.name}-` : generateNameWithIndex(job.metadata.name!, index),
        namespace: job.metadata.namespace,
        labels,
        ...(Object.keys(annotations).length ? { annotations } : {}),
        ownerReferences: [newControllerRef(job, 'batch/v1', 'Job')],
      },
      spec: podSpec,
    };
    try {
      const created = await this.ctx.registryFor(this.type('pods')).create(job.metadata.namespace, pod, { fieldManager: CONTROLLER_MANAGER });
      this.events.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${created.object.metadata!.name}`);
      return true;
    } catch (err) {
      if (err instanceof StatusError) {
        this.events.event(job, 'Warning', 'FailedCreate', `Error creating: ${err.message}`);
        return false;
      }
      throw err;
    }
  }
}

/** What manageJob works from. */
interface ManageContext {
  active: StoredObject[];
  live: StoredObject[];
  indexed: boolean;
  completions: number | undefined;
  parallelism: number;
  succeeded: number;
  terminating: number;
  onlyReplaceFailed: boolean;
  perIndex: boolean;
  succeededIndexes: Interval[];
  failedIndexes: Interval[] | undefined;
  delayed: Map<number, KubeObject>;
  backoff: BackoffRecord;
  failurePolicy: Json | undefined;
  now: number;
  deletePod: (pod: KubeObject) => Promise<void>;
}

/**
 * A deleted pod as the controller keeps it until accounted for: marked deleted (now, when it went
 * at once), and Failed unless it had ended (PodGC marks a pod that vanished while running Failed).
 */
function goneCopy(pod: StoredObject, now: Date): KubeObject {
  const copy = structuredClone(pod) as KubeObject;
  if (!copy.metadata!.deletionTimestamp) {
    copy.metadata!.deletionTimestamp = formatTimestamp(now);
    copy.metadata!.deletionGracePeriodSeconds = 0;
  }
  if (!isTerminal(copy)) copy.status = { ...statusOf(copy), phase: 'Failed' };
  return copy;
}

/**
 * activePodsForRemoval: for an Indexed job, pods without a valid index and all but one pod of a
 * repeated index; then, to reach `atLeast`, the pods furthest from running (not ready before
 * ready, newest first; controller.ActivePods, reduced).
 */
function activePodsForRemoval(active: StoredObject[], indexed: boolean, completions: number, atLeast: number): StoredObject[] {
  const rm: StoredObject[] = [];
  let left = active;
  if (indexed) {
    left = [];
    const seen = new Set<number>();
    for (const p of [...active].sort((a, b) => (indexOf(a) ?? -1) - (indexOf(b) ?? -1) || (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''))) {
      const ix = indexOf(p);
      if (ix === undefined || ix >= completions || seen.has(ix)) rm.push(p);
      else {
        seen.add(ix);
        left.push(p);
      }
    }
  }
  if (rm.length < atLeast) {
    const order = [...left].sort((a, b) => Number(isPodReady(a)) - Number(isPodReady(b)) || (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? ''));
    rm.push(...order.slice(0, atLeast - rm.length));
  }
  return rm;
}

/** firstPendingIndexes: the lowest `count` indexes not succeeded, failed, running (or, replacing only failed pods, terminating). */
function firstPendingIndexes(c: ManageContext, count: number): number[] {
  const busy = [...c.active, ...(c.onlyReplaceFailed ? c.live.filter((p) => p.metadata.deletionTimestamp && !isTerminal(p)) : [])].map(indexOf).filter((i): i is number => i !== undefined);
  const nonPending = mergeIndexes(mergeIndexes(c.succeededIndexes, busy), c.failedIndexes ?? []);
  const result: number[] = [];
  for (let i = 0; i < (c.completions ?? 0) && result.length < count; i++) if (!hasIndex(nonPending, i)) result.push(i);
  return result;
}

/** getNewIndexFailureCounts: the replaced pod's counts, its own failure added to one of them. */
function indexFailureCounts(policy: Json | undefined, replaced: KubeObject | undefined): { failed: number; ignored: number } {
  if (!replaced) return { failed: 0, ignored: 0 };
  const failed = annotationCount(replaced, FAILURE_COUNT_KEY);
  const ignored = annotationCount(replaced, IGNORED_FAILURE_COUNT_KEY);
  return matchPodFailurePolicy(policy, replaced).countFailed ? { failed: failed + 1, ignored } : { failed, ignored: ignored + 1 };
}

/** A job condition as the controller sets it: lastProbeTime and lastTransitionTime now, unless unchanged. */
function setJobCondition(conditions: Condition[], type: string, status: string, reason: string, message: string, now: Date): void {
  const at = formatTimestamp(now);
  const existing = conditions.find((c) => c.type === type);
  if (existing && existing.status === status && existing.reason === reason && existing.message === message) return;
  const next: Condition = { type, status, lastProbeTime: at, lastTransitionTime: existing?.status === status ? existing.lastTransitionTime! : at, reason, message };
  if (existing) conditions[conditions.indexOf(existing)] = next;
  else conditions.push(next);
}

/** JobStatus in Go's field order; counts omitted when zero, ready and terminating always (pointers), uncountedTerminatedPods as an empty object (nothing is left uncounted between writes here). */
function jobStatusShape(s: Json): Json {
  const conditions = (s.conditions as Condition[] | undefined) ?? [];
  const omitZero = (field: string) => (numberOr(s[field], 0) ? { [field]: s[field] } : {});
  return {
    ...(conditions.length ? { conditions } : {}),
    ...(s.startTime ? { startTime: s.startTime } : {}),
    ...(s.completionTime ? { completionTime: s.completionTime } : {}),
    ...omitZero('active'),
    ...omitZero('succeeded'),
    ...omitZero('failed'),
    terminating: numberOr(s.terminating, 0),
    ...(s.completedIndexes ? { completedIndexes: s.completedIndexes } : {}),
    // A pointer: present (even empty) for a job with backoffLimitPerIndex.
    ...(typeof s.failedIndexes === 'string' ? { failedIndexes: s.failedIndexes } : {}),
    uncountedTerminatedPods: {},
    ready: numberOr(s.ready, 0),
  };
}
