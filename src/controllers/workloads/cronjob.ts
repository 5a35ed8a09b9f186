// The CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go), on the cluster clock:
// at each schedule time (spec.schedule in spec.timeZone, else UTC) it creates a Job named by the
// scheduled minute, unless suspended, past startingDeadlineSeconds, or forbidden by the
// concurrency policy (Forbid skips, Replace deletes the running jobs first). Only the most recent
// missed time is run, as the real controller does after downtime. It keeps status.active,
// lastScheduleTime and lastSuccessfulTime, and deletes finished jobs beyond the history limits.
import type { KubeObject, StoredObject } from '../../apis/object.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import { StatusError } from '../../errors/status-error.ts';
import { cronNext, cronSchedule, type CronSpec } from '../../go/cron.ts';
import { formatTimestamp } from '../../go/time.ts';
import type { StoreEvent } from '../../storage/versioned-store.ts';
import type { ControllerContext } from '../context.ts';
import { controllerRecorder, type EventRecorder } from '../events/event-broadcaster.ts';
import { QueueController } from '../queue-controller.ts';
import { CONTROLLER_MANAGER, OwnedIndex, updateStatus, KeyWakeups, controllerKeyOf } from './controller-support.ts';
import { controllerRefOf, newControllerRef, numberOr, specOf, statusOf, type Condition, type Json } from './objects.ts';
import type { ClockTimers } from './timers.ts';

const CRONJOBS = 'batch/cronjobs';
const JOBS = 'batch/jobs';
const SCHEDULED_TIMESTAMP = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/** How a finished job ended, if it did. */
function finishedAs(job: KubeObject): 'Complete' | 'Failed' | undefined {
  const c = (statusOf(job).conditions as Condition[] | undefined)?.find((x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True');
  return c?.type as 'Complete' | 'Failed' | undefined;
}

/** The time as RFC 3339 in the schedule's location (the scheduled-timestamp annotation). */
function formatInZone(ms: number, location: string): string {
  if (location === 'UTC') return formatTimestamp(new Date(ms));
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: location, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'longOffset' })
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? 'Z' : (parts.timeZoneName ?? 'GMT').replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

/**
 * Whether mostRecentScheduleTime fails for this schedule: robfig/cron's Next answers the zero time
 * when nothing matches within five years, so once `now` is not before the first activation t1,
 * t2 - t1 is below a second whenever either is missing.
 */
function hasNoNextTime(schedule: CronSpec, earliest: number, now: number): boolean {
  const t1 = cronNext(schedule, earliest);
  if (t1 === undefined) return true;
  return now >= t1 && cronNext(schedule, t1) === undefined;
}

export class CronJobController extends QueueController {
  readonly name = 'cronjob';
  private readonly jobs = new OwnedIndex(JOBS);
  private readonly wakeups: KeyWakeups;
  private readonly events: EventRecorder;

  constructor(ctx: ControllerContext, onError: (err: unknown, key: string) => void, timers: ClockTimers) {
    super(ctx, onError);
    this.wakeups = new KeyWakeups(timers, this.queue);
    this.events = controllerRecorder(ctx, 'cronjob-controller');
  }

  private type(resource: 'cronjobs' | 'jobs'): ResourceType {
    return this.ctx.catalog.find('batch', 'v1', resource)!;
  }

  protected observe(event: StoreEvent): void {
    if (event.bucket === CRONJOBS) this.queue.add(event.key);
    else if (event.bucket === JOBS) {
      this.jobs.observe(event);
      const owner = controllerKeyOf(event.object, 'CronJob');
      if (owner) this.queue.add(owner);
    }
  }


  protected async sync(key: string): Promise<void> {
    const cronJob = this.ctx.store.get(CRONJOBS, key);
    if (!cronJob || cronJob.metadata.deletionTimestamp) return;
    const now = this.ctx.clock.now().getTime();
    const spec = specOf(cronJob);
    const namespace = cronJob.metadata.namespace!;
    const jobs = this.jobs
      .keysOf(cronJob.metadata.uid!)
      .map((k) => this.ctx.store.get(JOBS, k))
      .filter((j): j is StoredObject => j !== undefined);
    const status = { ...statusOf(cronJob) };
    let active = jobs.filter((j) => !finishedAs(j) && !j.metadata.deletionTimestamp);
    // syncCronJob: a job of status.active seen finished, or gone.
    for (const ref of (statusOf(cronJob).active as Json[] | undefined) ?? []) {
      const job = jobs.find((j) => j.metadata.uid === ref.uid);
      const finished = job && finishedAs(job);
      if (finished) this.events.event(cronJob, 'Normal', 'SawCompletedJob', `Saw completed job: ${job.metadata.name}, condition: ${finished}`);
      else if (!job) this.events.event(cronJob, 'Warning', 'MissingJob', `Active job went missing: ${String(ref.name)}`);
    }
    // lastSuccessfulTime: the latest completion among the finished jobs.
    for (const job of jobs) {
      if (finishedAs(job) !== 'Complete') continue;
      const completed = statusOf(job).completionTime as string | undefined;
      if (completed && (!status.lastSuccessfulTime || Date.parse(completed) > Date.parse(status.lastSuccessfulTime as string))) status.lastSuccessfulTime = completed;
    }

    let schedule: CronSpec | undefined;
    const text = typeof spec.timeZone === 'string' && spec.timeZone ? `TZ=${spec.timeZone} ${String(spec.schedule)}` : String(spec.schedule);
    try {
      schedule = cronSchedule(text);
    } catch {
      // An unparsable schedule (validation refuses these on writes) makes nothing.
    }
    const earliest = Math.max(
      Date.parse((status.lastScheduleTime as string | undefined) ?? cronJob.metadata.creationTimestamp!),
      spec.startingDeadlineSeconds !== undefined ? now - numberOr(spec.startingDeadlineSeconds, 0) * 1000 : -Infinity,
    );
    if (schedule && spec.suspend !== true && hasNoNextTime(schedule, earliest, now)) {
      // mostRecentScheduleTime's error (pkg/controller/cronjob/utils.go): a schedule that parses but
      // never comes round, such as "59 23 31 2 *" (February 31st), is reported and not requeued.
      this.events.event(cronJob, 'Warning', 'InvalidSchedule', `invalid schedule: ${String(spec.schedule)} : time difference between two schedules is less than 1 second`);
    } else if (schedule && spec.suspend !== true) {
      // getMostRecentScheduleTime: the latest activation in (earliest, now].
      let mostRecent: number | undefined;
      for (let t = cronNext(schedule, earliest), n = 0; t !== undefined && t <= now && n < 100_000; t = cronNext(schedule, t), n++) mostRecent = t;
      const policy = (spec.concurrencyPolicy as string | undefined) ?? 'Allow';
      if (mostRecent !== undefined && policy === 'Forbid' && active.length > 0) {
        this.events.event(cronJob, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
      }
      if (mostRecent !== undefined && !(policy === 'Forbid' && active.length > 0)) {
        if (policy === 'Replace') {
          for (const job of active) await this.deleteJob(cronJob, job);
          active = [];
        }
        const job = await this.createJob(cronJob, mostRecent, schedule.kind === 'fields' ? schedule.location : 'UTC');
        if (job && !active.some((j) => j.metadata.uid === job.metadata.uid)) active.push(job);
        status.lastScheduleTime = formatTimestamp(new Date(mostRecent));
      }
      const next = cronNext(schedule, now);
      if (next !== undefined) this.wakeups.at(key, next);
    }

    // References as taken when each job was first seen (ref.GetReference), kept while it runs.
    const known = new Map(((statusOf(cronJob).active as Json[] | undefined) ?? []).map((r) => [r.uid as string, r]));
    status.active = active.map((j) => known.get(j.metadata.uid!) ?? { kind: 'Job', namespace, name: j.metadata.name, uid: j.metadata.uid, apiVersion: 'batch/v1', resourceVersion: j.metadata.resourceVersion });
    await updateStatus(this.ctx, this.type('cronjobs'), namespace, cronJob.metadata.name!, cronJob.metadata.uid!, (obj) => {
      const refs = status.active as Json[];
      obj.status = {
        ...(refs.length ? { active: refs } : {}),
        ...(status.lastScheduleTime ? { lastScheduleTime: status.lastScheduleTime } : {}),
        ...(status.lastSuccessfulTime ? { lastSuccessfulTime: status.lastSuccessfulTime } : {}),
      };
    });
    await this.cleanupHistory(cronJob, jobs, numberOr(spec.successfulJobsHistoryLimit, 3), numberOr(spec.failedJobsHistoryLimit, 1));
  }

  /** getJobFromTemplate2: the template's job, named `<cronjob>-<minutes since the epoch>`. */
  private async createJob(cronJob: StoredObject, scheduled: number, location: string): Promise<StoredObject | undefined> {
    const template = (specOf(cronJob).jobTemplate ?? {}) as Json;
    const meta = (template.metadata ?? {}) as Json;
    const name = `${cronJob.metadata.name}-${Math.floor(scheduled / 60_000)}`;
    const job: KubeObject = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name,
        namespace: cronJob.metadata.namespace,
        ...(meta.labels ? { labels: structuredClone(meta.labels) as Record<string, string> } : {}),
        annotations: { ...((meta.annotations as Record<string, string> | undefined) ?? {}), [SCHEDULED_TIMESTAMP]: formatInZone(scheduled, location) },
        ownerReferences: [newControllerRef(cronJob, 'batch/v1', 'CronJob')],
      },
      spec: structuredClone(template.spec ?? {}) as Json,
    };
    try {
      const created = (await this.ctx.registryFor(this.type('jobs')).create(cronJob.metadata.namespace, job, { fieldManager: CONTROLLER_MANAGER })).object as StoredObject;
      this.events.event(cronJob, 'Normal', 'SuccessfulCreate', `Created job ${created.metadata.name}`);
      return created;
    } catch (err) {
      // Created already (this schedule ran before): that job is the one.
      if (err instanceof StatusError && err.status.reason === 'AlreadyExists') {
        const existing = this.ctx.store.get(JOBS, `${cronJob.metadata.namespace}/${name}`);
        return existing && controllerRefOf(existing)?.uid === cronJob.metadata.uid ? existing : undefined;
      }
      if (err instanceof StatusError) {
        this.events.event(cronJob, 'Warning', 'FailedCreate', `Error creating job: ${err.message}`);
        return undefined;
      }
      throw err;
    }
  }

  /** deleteJob: recorded on the CronJob either way. */
  private async deleteJob(cronJob: StoredObject, job: StoredObject): Promise<void> {
    try {
      await this.ctx.registryFor(this.type('jobs')).delete(job.metadata.namespace, job.metadata.name!, { propagationPolicy: 'Background', preconditions: { uid: job.metadata.uid! } });
      this.events.event(cronJob, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name}`);
    } catch (err) {
      if (err instanceof StatusError && err.code !== 404) this.events.event(cronJob, 'Warning', 'FailedDelete', `Deleted job: ${err.message}`);
      if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
    }
  }

  /** cleanupFinishedJobs: the oldest finished jobs beyond successfulJobsHistoryLimit and failedJobsHistoryLimit. */
  private async cleanupHistory(cronJob: StoredObject, jobs: StoredObject[], successfulLimit: number, failedLimit: number): Promise<void> {
    const byStart = (a: KubeObject, b: KubeObject) => Date.parse((statusOf(a).startTime as string) ?? '') - Date.parse((statusOf(b).startTime as string) ?? '') || (a.metadata!.name! < b.metadata!.name! ? -1 : 1);
    for (const [kind, limit] of [['Complete', successfulLimit], ['Failed', failedLimit]] as const) {
      const finished = jobs.filter((j) => finishedAs(j) === kind && !j.metadata.deletionTimestamp).sort(byStart);
      for (const job of finished.slice(0, Math.max(0, finished.length - limit))) await this.deleteJob(cronJob, job);
    }
  }
}
