// The Job controller (pkg/controller/job/job_controller.go), reduced: pods from the template up to
// parallelism while completions remain (NonIndexed, or Indexed with one pod per index carrying its
// completion index), failed pods replaced after the pod-failure back-off on the clock until
// backoffLimit is exceeded, activeDeadlineSeconds, suspend, and the terminal conditions in the
// v1.36 order: SuccessCriteriaMet then Complete, FailureTarget then Failed, each once no pod of
// the job is still running. A finished job is deleted ttlSecondsAfterFinished later (the TTL
// controller). Status: startTime, completionTime, active, ready, succeeded, failed, terminating,
// completedIndexes, uncountedTerminatedPods.
import type { KubeObject, StoredObject } from '../../apis/object.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import { StatusError } from '../../errors/status-error.ts';
import { formatTimestamp } from '../../go/time.ts';
import type { StoreEvent } from '../../storage/versioned-store.ts';
import type { ControllerContext } from '../context.ts';
import { controllerRecorder, type EventRecorder } from '../events/event-broadcaster.ts';
import { QueueController } from '../queue-controller.ts';
import { CONTROLLER_MANAGER, OwnedIndex, updateStatus, KeyWakeups, controllerKeyOf } from './controller-support.ts';
import { isPodReady, newControllerRef, numberOr, specOf, statusOf, type Condition, type Json } from './objects.ts';
import type { ClockTimers } from './timers.ts';

const JOBS = 'batch/jobs';
const PODS = '/pods';
const INDEX_KEY = 'batch.kubernetes.io/job-completion-index';
/** The pod-failure back-off: 10 s doubling per failure, at most 6 minutes (DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff). */
const backoffMs = (failures: number): number => (failures <= 0 ? 0 : Math.min(10_000 * 2 ** (failures - 1), 360_000));

interface Terminal {
  type: 'Complete' | 'Failed';
  interim: 'SuccessCriteriaMet' | 'FailureTarget';
  reason: string;
  message: string;
}

/** Indexes as the status prints them: sorted, runs of three or more... any run of consecutive ones as `a-b` ("0-2,4"). */
export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(j === i ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

const phaseOf = (pod: KubeObject): string => (statusOf(pod).phase as string | undefined) ?? 'Pending';
const indexOf = (pod: KubeObject): number | undefined => {
  const v = pod.metadata?.annotations?.[INDEX_KEY];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
};
const finishedAt = (pod: KubeObject): number => {
  const times = ((statusOf(pod).containerStatuses as Json[] | undefined) ?? []).map((c) => Date.parse((((c.state as Json | undefined)?.terminated as Json | undefined)?.finishedAt as string | undefined) ?? ''));
  const valid = times.filter(Number.isFinite);
  return valid.length ? Math.max(...valid) : 0;
};

export class JobController extends QueueController {
  readonly name = 'job';
  private readonly pods = new OwnedIndex(PODS);
  private readonly wakeups: KeyWakeups;
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
    if (event.bucket === JOBS) this.queue.add(event.key);
    else if (event.bucket === PODS) {
      this.pods.observe(event);
      const owner = controllerKeyOf(event.object, 'Job');
      if (owner) this.queue.add(owner);
    }
  }


  protected async sync(key: string): Promise<void> {
    const job = this.ctx.store.get(JOBS, key);
    if (!job || job.metadata.deletionTimestamp) return;
    const now = this.ctx.clock.now();
    const spec = specOf(job);
    const old = statusOf(job);
    const conditions = ((old.conditions as Condition[] | undefined) ?? []).map((c) => ({ ...c }));
    const finished = conditions.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
    if (finished) return this.expireFinished(job, key, now);

    const pods = this.pods
      .keysOf(job.metadata.uid!)
      .map((k) => this.ctx.store.get(PODS, k))
      .filter((p): p is StoredObject => p !== undefined);
    const indexed = spec.completionMode === 'Indexed';
    const completions = spec.completions === undefined || spec.completions === null ? undefined : numberOr(spec.completions, 1);
    const parallelism = numberOr(spec.parallelism, 1);
    const backoffLimit = numberOr(spec.backoffLimit, 6);
    const suspended = spec.suspend === true;

    const terminating = pods.filter((p) => p.metadata.deletionTimestamp && phaseOf(p) !== 'Succeeded' && phaseOf(p) !== 'Failed');
    const active = pods.filter((p) => !p.metadata.deletionTimestamp && phaseOf(p) !== 'Succeeded' && phaseOf(p) !== 'Failed');
    const succeededPods = pods.filter((p) => phaseOf(p) === 'Succeeded');
    const failedPods = pods.filter((p) => phaseOf(p) === 'Failed');
    // Pods deleted after they were counted stay counted: the counts only grow.
    const succeeded = Math.max(numberOr(old.succeeded, 0), succeededPods.length);
    const failed = Math.max(numberOr(old.failed, 0), failedPods.length);
    const completedIndexes = new Set<number>(indexed ? succeededPods.map(indexOf).filter((i): i is number => i !== undefined && (completions === undefined || i < completions)) : []);
    for (const part of typeof old.completedIndexes === 'string' && old.completedIndexes ? old.completedIndexes.split(',') : []) {
      const [a, b] = part.split('-').map(Number);
      for (let i = a!; i <= (b ?? a!); i++) completedIndexes.add(i);
    }

    const status: Json = { ...old };
    if (!suspended && !old.startTime) status.startTime = formatTimestamp(now);
    const startTime = Date.parse((status.startTime as string | undefined) ?? '');

    // What ends the job, if anything does now.
    let terminal: Terminal | undefined = this.pendingTerminal(conditions);
    if (!terminal) {
      const done = indexed ? completedIndexes.size >= (completions ?? 1) : completions === undefined ? succeeded > 0 && active.length === 0 : succeeded >= completions;
      if (done) terminal = { type: 'Complete', interim: 'SuccessCriteriaMet', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' };
      else if (failed > backoffLimit || this.pastBackoffLimitOnFailure(spec, active, backoffLimit)) terminal = { type: 'Failed', interim: 'FailureTarget', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' };
      else if (spec.activeDeadlineSeconds !== undefined && Number.isFinite(startTime) && !suspended) {
        const deadline = startTime + numberOr(spec.activeDeadlineSeconds, 0) * 1000;
        if (deadline <= now.getTime()) terminal = { type: 'Failed', interim: 'FailureTarget', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };
        else this.wakeups.at(key, deadline);
      }
      if (terminal) setJobCondition(conditions, terminal.interim, 'True', terminal.reason, terminal.message, now);
    }

    const podRegistry = this.ctx.registryFor(this.type('pods'));
    const deletePod = async (pod: StoredObject) => {
      try {
        await podRegistry.delete(pod.metadata.namespace, pod.metadata.name!, { preconditions: { uid: pod.metadata.uid! } });
        this.events.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
      } catch (err) {
        if (err instanceof StatusError && err.code !== 404) this.events.event(job, 'Warning', 'FailedDelete', `Error deleting: ${err.message}`);
        if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
      }
    };
    let stillActive = active.length;
    if (terminal || suspended) {
      // A job that ends or is suspended stops its running pods.
      for (const pod of active) await deletePod(pod);
      stillActive = 0;
    } else {
      // Create what parallelism and the remaining completions allow, after the failure back-off.
      const lastFailure = Math.max(0, ...failedPods.map(finishedAt));
      const createAt = lastFailure + backoffMs(failed);
      if (failed > 0 && createAt > now.getTime()) this.wakeups.at(key, createAt);
      else if (indexed) {
        const running = new Set(active.map(indexOf));
        const wanted: number[] = [];
        for (let i = 0; i < (completions ?? 1) && wanted.length + active.length < parallelism; i++) if (!completedIndexes.has(i) && !running.has(i)) wanted.push(i);
        for (const index of wanted) if (await this.createPod(job, index)) stillActive++;
      } else {
        const remaining = completions === undefined ? (succeeded > 0 ? 0 : parallelism) : completions - succeeded;
        const want = Math.max(0, Math.min(parallelism, remaining) - active.length);
        for (let i = 0; i < want; i++) if (await this.createPod(job)) stillActive++;
      }
    }

    const wasSuspended = conditions.some((c) => c.type === 'Suspended' && c.status === 'True');
    if (suspended) setJobCondition(conditions, 'Suspended', 'True', 'JobSuspended', 'Job suspended', now);
    else if (wasSuspended) setJobCondition(conditions, 'Suspended', 'False', 'JobResumed', 'Job resumed', now);
    let finishedNow: Terminal | undefined;
    // The terminal condition follows its interim one once no pod of the job runs any more.
    if (terminal && stillActive === 0 && terminating.length === 0) {
      setJobCondition(conditions, terminal.type, 'True', terminal.reason, terminal.message, now);
      if (terminal.type === 'Complete') status.completionTime = formatTimestamp(now);
      finishedNow = terminal;
    }

    status.active = stillActive;
    status.succeeded = succeeded;
    status.failed = failed;
    if (indexed) status.completedIndexes = formatIndexes(completedIndexes);
    status.conditions = conditions;
    status.ready = active.filter(isPodReady).length;
    status.terminating = terminating.length + (terminal || suspended ? active.length : 0);
    const written = await updateStatus(this.ctx, this.type('jobs'), job.metadata.namespace, job.metadata.name!, job.metadata.uid!, (obj) => {
      obj.status = jobStatusShape(status);
    });
    // After the status write: suspension changes (syncJob) and the end (recordJobFinished).
    if (written) {
      if (suspended && !wasSuspended) this.events.event(job, 'Normal', 'Suspended', 'Job suspended');
      else if (!suspended && wasSuspended) this.events.event(job, 'Normal', 'Resumed', 'Job resumed');
      if (finishedNow?.type === 'Complete') {
        if (completions !== undefined && succeeded > completions) this.events.event(job, 'Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached');
        this.events.event(job, 'Normal', 'Completed', 'Job completed');
      } else if (finishedNow) this.events.event(job, 'Warning', finishedNow.reason, finishedNow.message);
    }
    const after = this.ctx.store.get(JOBS, key);
    if (after && (statusOf(after).conditions as Condition[] | undefined)?.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')) await this.expireFinished(after, key, now);
  }

  /**
   * pastBackoffLimitOnFailure: with restartPolicy OnFailure failing containers restart in place, and
   * their restarts count against backoffLimit.
   */
  private pastBackoffLimitOnFailure(spec: Json, active: StoredObject[], backoffLimit: number): boolean {
    if (((spec.template as Json | undefined)?.spec as Json | undefined)?.restartPolicy !== 'OnFailure') return false;
    let restarts = 0;
    for (const pod of active) {
      const status = statusOf(pod);
      for (const c of [...((status.initContainerStatuses as Json[] | undefined) ?? []), ...((status.containerStatuses as Json[] | undefined) ?? [])]) restarts += numberOr(c.restartCount, 0);
    }
    return backoffLimit === 0 ? restarts > 0 : restarts >= backoffLimit;
  }

  /** An interim condition already set (SuccessCriteriaMet/FailureTarget) decides how the job ends. */
  private pendingTerminal(conditions: Condition[]): Terminal | undefined {
    const met = conditions.find((c) => c.type === 'SuccessCriteriaMet' && c.status === 'True');
    if (met) return { type: 'Complete', interim: 'SuccessCriteriaMet', reason: met.reason ?? '', message: met.message ?? '' };
    const target = conditions.find((c) => c.type === 'FailureTarget' && c.status === 'True');
    if (target) return { type: 'Failed', interim: 'FailureTarget', reason: target.reason ?? '', message: target.message ?? '' };
    return undefined;
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
  private async createPod(job: StoredObject, index?: number): Promise<boolean> {
    const template = (specOf(job).template ?? {}) as Json;
    const meta = (template.metadata ?? {}) as Json;
    const podSpec = structuredClone((template.spec ?? {}) as Json);
    const labels = { ...((meta.labels as Record<string, string> | undefined) ?? {}) };
    const annotations = { ...((meta.annotations as Record<string, string> | undefined) ?? {}) };
    if (index !== undefined) {
      annotations[INDEX_KEY] = String(index);
      labels[INDEX_KEY] = String(index);
      // addCompletionIndexEnvVariables and the stable hostname of an indexed pod.
      for (const c of [...((podSpec.initContainers as Json[] | undefined) ?? []), ...((podSpec.containers as Json[] | undefined) ?? [])]) {
        const env = ((c.env as Json[] | undefined) ?? []).filter((e) => e.name !== 'JOB_COMPLETION_INDEX');
        c.env = [...env, { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: `metadata.labels['${INDEX_KEY}']` } } }];
      }
      podSpec.hostname = `${job.metadata.name}-${index}`;
    }
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: index === undefined ? `${job.metadata.name}-` : `${job.metadata.name}-${index}-`,
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

/** A job condition as the controller sets it: lastProbeTime and lastTransitionTime now, unless unchanged. */
function setJobCondition(conditions: Condition[], type: string, status: string, reason: string, message: string, now: Date): void {
  const at = formatTimestamp(now);
  const existing = conditions.find((c) => c.type === type);
  if (existing && existing.status === status && existing.reason === reason && existing.message === message) return;
  const next: Condition = { type, status, lastProbeTime: at, lastTransitionTime: existing?.status === status ? existing.lastTransitionTime! : at, reason, message };
  if (existing) conditions[conditions.indexOf(existing)] = next;
  else conditions.push(next);
}

/** JobStatus in Go's field order; counts omitted when zero, ready and terminating always (pointers), uncountedTerminatedPods as an empty object. */
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
    uncountedTerminatedPods: {},
    ready: numberOr(s.ready, 0),
  };
}
