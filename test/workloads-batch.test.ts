// Jobs and CronJobs on a workloads cluster (createFakeCluster({ workloads: true })), through
// @kubernetes/client-node on a frozen clock: completions and parallelism, Indexed jobs, the
// backoff limit with the pod-failure back-off, the terminal conditions in v1.36's order, the TTL
// after finishing, and CronJobs firing on the clock, in a time zone, with their concurrency policy.
import * as k8s from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

let cluster: FakeCluster;
let batch: k8s.BatchV1Api;
let core: k8s.CoreV1Api;
afterEach(() => cluster?.close());

async function start(): Promise<void> {
  cluster = await createFakeCluster({ deterministic: true, workloads: true, nodes: 2 });
  batch = cluster.kubeConfig.makeApiClient(k8s.BatchV1Api);
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
}

const namespace = 'default';
const podTemplate = (labels: Record<string, string> = { app: 'task' }): k8s.V1PodTemplateSpec => ({ metadata: { labels }, spec: { restartPolicy: 'Never', containers: [{ name: 'work', image: 'busybox' }] } });
const readJob = (name: string) => batch.readNamespacedJob({ name, namespace });
const podsOf = async (job: string) => (await core.listNamespacedPod({ namespace, labelSelector: `batch.kubernetes.io/job-name=${job}` })).items;
const conditions = (job: k8s.V1Job) => job.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]);

describe('Job', () => {
  it('runs completions pods, parallelism at a time, and completes with SuccessCriteriaMet then Complete', async () => {
    await start();
    cluster.kubelet.on({ selector: { app: 'task' } }, { runFor: 10_000 });
    await batch.createNamespacedJob({ namespace, body: { metadata: { name: 'crunch' }, spec: { completions: 3, parallelism: 2, template: podTemplate() } } });
    await cluster.settle();
    let job = await readJob('crunch');
    expect(job.status).toMatchObject({ active: 2, ready: 2, terminating: 0, uncountedTerminatedPods: {} });
    expect(job.status?.startTime?.toISOString()).toBe('2025-01-01T00:00:00.000Z');
    const pods = await podsOf('crunch');
    expect(pods).toHaveLength(2);
    expect(pods[0]!.metadata?.name).toMatch(/^crunch-[a-z0-9]{5}$/);
    expect(pods[0]!.metadata?.ownerReferences?.[0]).toMatchObject({ apiVersion: 'batch/v1', kind: 'Job', name: 'crunch', controller: true });
    cluster.clock.advance(10_000);
    await cluster.settle();
    job = await readJob('crunch');
    expect(job.status).toMatchObject({ active: 1, succeeded: 2 });
    cluster.clock.advance(10_000);
    await cluster.settle();
    job = await readJob('crunch');
    expect(job.status?.succeeded).toBe(3);
    expect(job.status?.active).toBeUndefined();
    expect(conditions(job)).toEqual([
      ['SuccessCriteriaMet', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
      ['Complete', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
    ]);
    expect(job.status?.completionTime?.toISOString()).toBe('2025-01-01T00:00:20.000Z');
  });

  it('gives Indexed pods their completion index and reports completedIndexes', async () => {
    await start();
    await batch.createNamespacedJob({ namespace, body: { metadata: { name: 'shards' }, spec: { completions: 3, parallelism: 3, completionMode: 'Indexed', template: podTemplate() } } });
    await cluster.settle();
    const pods = await podsOf('shards');
    expect(pods.map((p) => p.metadata?.annotations?.['batch.kubernetes.io/job-completion-index']).sort()).toEqual(['0', '1', '2']);
    const first = pods.find((p) => p.metadata?.labels?.['batch.kubernetes.io/job-completion-index'] === '1')!;
    expect(first.metadata?.name).toMatch(/^shards-1-[a-z0-9]{5}$/);
    expect(first.spec?.hostname).toBe('shards-1');
    expect(first.spec?.containers[0]?.env).toContainEqual({ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']" } } });
    const job = await readJob('shards');
    expect(job.status?.completedIndexes).toBe('0-2');
    expect(job.status?.succeeded).toBe(3);
    expect(conditions(job)?.map((c) => c[0])).toEqual(['SuccessCriteriaMet', 'Complete']);
    // podGenerateNameWithIndex: a long Job name is cut so that the index stays in the pod name.
    const long = 'a'.repeat(56);
    await batch.createNamespacedJob({ namespace, body: { metadata: { name: long }, spec: { completions: 1, completionMode: 'Indexed', template: podTemplate() } } });
    await cluster.settle();
    expect((await podsOf(long))[0]?.metadata?.name).toMatch(new RegExp(`^${'a'.repeat(55)}-0-[a-z0-9]{5}$`));
  });

  it('replaces failed pods after the back-off until backoffLimit is exceeded, then fails with FailureTarget then Failed', async () => {
    await start();
    cluster.kubelet.on({ selector: { app: 'task' } }, { exitCode: 1 });
    await batch.createNamespacedJob({ namespace, body: { metadata: { name: 'flaky' }, spec: { backoffLimit: 1, template: podTemplate() } } });
    await cluster.settle();
    let job = await readJob('flaky');
    expect(job.status).toMatchObject({ failed: 1 });
    expect(job.status?.active).toBeUndefined();
    expect(await podsOf('flaky')).toHaveLength(1);
    // The replacement waits for the 10 s back-off.
    cluster.clock.advance(10_000);
    await cluster.settle();
    job = await readJob('flaky');
    expect(await podsOf('flaky')).toHaveLength(2);
    expect(job.status?.failed).toBe(2);
    expect(conditions(job)).toEqual([
      ['FailureTarget', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
      ['Failed', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
    ]);
  });

  it('reports the pods that still run while it waits out the back-off (kubernetes#139457), and the replacement after', async () => {
    await start();
    const failing = cluster.kubelet.on({ selector: { 'batch.kubernetes.io/job-completion-index': '0' } }, { exitCode: 1 });
    cluster.kubelet.on({ selector: { 'batch.kubernetes.io/job-completion-index': '1' } }, { runFor: 3_600_000 });
    await batch.createNamespacedJob({ namespace, body: { metadata: { name: 'pair' }, spec: { completions: 2, parallelism: 2, completionMode: 'Indexed', template: podTemplate() } } });
    await cluster.settle();
    let job = await readJob('pair');
    // Index 1 runs and is ready during the 10 s back-off: active 1, never fewer than ready.
    expect(job.status).toMatchObject({ active: 1, failed: 1, ready: 1 });
    // The retry of index 0 runs.
    failing();
    cluster.kubelet.on({ selector: { 'batch.kubernetes.io/job-completion-index': '0' } }, { runFor: 3_600_000 });
    cluster.clock.advance(10_000);
    await cluster.settle();
    job = await readJob('pair');
    expect(job.status).toMatchObject({ active: 2, ready: 2, failed: 1 });
  });

  it('counts the restarts of an OnFailure pod against backoffLimit', async () => {
    await start();
    cluster.kubelet.on({ selector: { app: 'task' } }, { exitCode: 1, runFor: 1000 });
    await batch.createNamespacedJob({ namespace, body: { metadata: { name: 'retry' }, spec: { backoffLimit: 2, template: { ...podTemplate(), spec: { ...podTemplate().spec!, restartPolicy: 'OnFailure' } } } } });
    await cluster.settle();
    // Exits after 1 s and restarts at once (restart 1); exits again at 2 s and restarts after the 10 s back-off (restart 2, at 12 s).
    cluster.clock.advance(2000);
    await cluster.settle();
    expect((await readJob('retry')).status?.conditions).toBeUndefined();
    cluster.clock.advance(11_000);
    await cluster.settle();
    let job = await readJob('retry');
    // The job's end stops its pod; Failed waits until the pod is gone (the 30 s grace period).
    expect(conditions(job)).toEqual([['FailureTarget', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit']]);
    expect(job.status).toMatchObject({ terminating: 1, failed: 1 });
    cluster.clock.advance(30_000);
    await cluster.settle();
    job = await readJob('retry');
    expect(job.status?.terminating).toBe(0);
    expect(conditions(job)).toEqual([
      ['FailureTarget', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
      ['Failed', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
    ]);
  });

  it('fails a job active longer than activeDeadlineSeconds once its pods are gone', async () => {
    await start();
    cluster.kubelet.on({ selector: { app: 'task' } }, { runFor: 3_600_000, stopAfter: 0 });
    await batch.createNamespacedJob({ namespace, body: { metadata: { name: 'slow' }, spec: { activeDeadlineSeconds: 60, template: podTemplate() } } });
    await cluster.settle();
    cluster.clock.advance(60_000);
    await cluster.settle();
    const job = await readJob('slow');
    expect(conditions(job)).toEqual([
      ['FailureTarget', 'True', 'DeadlineExceeded', 'Job was active longer than specified deadline'],
      ['Failed', 'True', 'DeadlineExceeded', 'Job was active longer than specified deadline'],
    ]);
    expect(await podsOf('slow')).toEqual([]);
  });

  it('stops its pods while suspended without counting them failed, and restarts its deadline on resume', async () => {
    await start();
    cluster.kubelet.on({ selector: { app: 'task' } }, { runFor: 3_600_000, stopAfter: 0 });
    await batch.createNamespacedJob({ namespace, body: { metadata: { name: 'paused' }, spec: { activeDeadlineSeconds: 100, template: podTemplate() } } });
    await cluster.settle();
    const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
    await batch.patchNamespacedJob({ name: 'paused', namespace, body: { spec: { suspend: true } } }, merge);
    await cluster.settle();
    let job = await readJob('paused');
    expect(conditions(job)).toEqual([['Suspended', 'True', 'JobSuspended', 'Job suspended']]);
    expect(job.status?.failed).toBeUndefined();
    expect(job.status?.active).toBeUndefined();
    expect(await podsOf('paused')).toEqual([]);
    cluster.clock.advance(90_000);
    await cluster.settle();
    await batch.patchNamespacedJob({ name: 'paused', namespace, body: { spec: { suspend: false } } }, merge);
    await cluster.settle();
    job = await readJob('paused');
    expect(conditions(job)).toEqual([['Suspended', 'False', 'JobResumed', 'Job resumed']]);
    expect(job.status?.startTime?.toISOString()).toBe('2025-01-01T00:01:30.000Z');
    expect(job.status?.active).toBe(1);
    // The deadline counts from the resume: 100 s after it, not after the creation.
    cluster.clock.advance(20_000);
    await cluster.settle();
    expect((await readJob('paused')).status?.conditions?.map((c) => c.type)).toEqual(['Suspended']);
    cluster.clock.advance(80_000);
    await cluster.settle();
    expect(conditions(await readJob('paused'))?.slice(1).map((c) => c[2])).toEqual(['DeadlineExceeded', 'DeadlineExceeded']);
  });

  it('is deleted ttlSecondsAfterFinished after it finishes', async () => {
    await start();
    await batch.createNamespacedJob({ namespace, body: { metadata: { name: 'brief' }, spec: { ttlSecondsAfterFinished: 100, template: podTemplate() } } });
    await cluster.settle();
    expect(conditions(await readJob('brief'))?.map((c) => c[0])).toEqual(['SuccessCriteriaMet', 'Complete']);
    cluster.clock.advance(99_000);
    await cluster.settle();
    await readJob('brief');
    cluster.clock.advance(1000);
    await cluster.settle();
    expect((await batch.listNamespacedJob({ namespace })).items).toEqual([]);
  });
});

describe('CronJob', () => {
  const cronJob = (spec: Partial<k8s.V1CronJobSpec>): k8s.V1CronJob => ({
    metadata: { name: 'tick' },
    spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: podTemplate() } }, ...spec },
  });

  it('fires three schedules as the clock moves, naming each job by its scheduled minute', async () => {
    await start();
    await batch.createNamespacedCronJob({ namespace, body: cronJob({}) });
    await cluster.settle();
    expect((await batch.listNamespacedJob({ namespace })).items).toEqual([]);
    for (let i = 1; i <= 3; i++) {
      cluster.clock.advance(5 * 60_000);
      await cluster.settle();
    }
    const jobs = (await batch.listNamespacedJob({ namespace })).items;
    // 2025-01-01T00:05Z is minute 28,928,165 since the epoch.
    expect(jobs.map((j) => j.metadata?.name)).toEqual(['tick-28928165', 'tick-28928170', 'tick-28928175']);
    expect(jobs[0]!.metadata?.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe('2025-01-01T00:05:00Z');
    expect(jobs[0]!.metadata?.ownerReferences?.[0]).toMatchObject({ apiVersion: 'batch/v1', kind: 'CronJob', name: 'tick', controller: true });
    const status = (await batch.readNamespacedCronJob({ name: 'tick', namespace })).status;
    expect(status?.lastScheduleTime?.toISOString()).toBe('2025-01-01T00:15:00.000Z');
    expect(status?.lastSuccessfulTime?.toISOString()).toBe('2025-01-01T00:15:00.000Z');
    expect(status?.active).toBeUndefined();
  });

  it('reads the schedule in spec.timeZone and runs only the latest missed time', async () => {
    await start();
    // 01:00 in Tokyo is 16:00 UTC the day before: three days on, the latest is 2025-01-04 01:00 in Tokyo.
    await batch.createNamespacedCronJob({ namespace, body: cronJob({ schedule: '0 1 * * *', timeZone: 'Asia/Tokyo' }) });
    await cluster.settle();
    cluster.clock.advance(3 * 24 * 3_600_000);
    await cluster.settle();
    const jobs = (await batch.listNamespacedJob({ namespace })).items;
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.metadata?.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe('2025-01-04T01:00:00+09:00');
    expect((await batch.readNamespacedCronJob({ name: 'tick', namespace })).status?.lastScheduleTime?.toISOString()).toBe('2025-01-03T16:00:00.000Z');
  });

  it('skips a schedule while a job runs under Forbid, and keeps it in status.active', async () => {
    await start();
    cluster.kubelet.on({ selector: { app: 'task' } }, { runFor: 3_600_000 });
    await batch.createNamespacedCronJob({ namespace, body: cronJob({ concurrencyPolicy: 'Forbid' }) });
    await cluster.settle();
    cluster.clock.advance(5 * 60_000);
    await cluster.settle();
    cluster.clock.advance(5 * 60_000);
    await cluster.settle();
    const jobs = (await batch.listNamespacedJob({ namespace })).items;
    expect(jobs.map((j) => j.metadata?.name)).toEqual(['tick-28928165']);
    const status = (await batch.readNamespacedCronJob({ name: 'tick', namespace })).status;
    expect(status?.active).toEqual([expect.objectContaining({ kind: 'Job', namespace, name: 'tick-28928165', apiVersion: 'batch/v1', uid: jobs[0]!.metadata!.uid })]);
  });

  it('creates nothing while suspended', async () => {
    await start();
    await batch.createNamespacedCronJob({ namespace, body: cronJob({ suspend: true }) });
    await cluster.settle();
    cluster.clock.advance(60 * 60_000);
    await cluster.settle();
    expect((await batch.listNamespacedJob({ namespace })).items).toEqual([]);
  });

  // cronjob_controllerv2.go syncCronJob: nextScheduleTime fails for a schedule that never comes
  // round (utils.go mostRecentScheduleTime); kubectl's test/cmd/events.sh waits for this event.
  it('reports a schedule that never fires ("59 23 31 2 *") as a Warning InvalidSchedule event and makes no job', async () => {
    await start();
    await batch.createNamespacedCronJob({ namespace, body: cronJob({ schedule: '59 23 31 2 *' }) });
    await cluster.settle();
    cluster.clock.advance(60 * 60_000);
    await cluster.settle();
    expect((await batch.listNamespacedJob({ namespace })).items).toEqual([]);
    const events = (await core.listNamespacedEvent({ namespace, fieldSelector: 'involvedObject.kind=CronJob,involvedObject.name=tick' })).items;
    expect(events.map((e) => [e.type, e.reason, e.message, e.source?.component])).toEqual([
      ['Warning', 'InvalidSchedule', 'invalid schedule: 59 23 31 2 * : time difference between two schedules is less than 1 second', 'cronjob-controller'],
    ]);
    expect((await batch.readNamespacedCronJob({ name: 'tick', namespace })).status?.lastScheduleTime).toBeUndefined();
  });

  it('reports nothing for a schedule that fires, nor for a never-firing one while suspended', async () => {
    await start();
    await batch.createNamespacedCronJob({ namespace, body: cronJob({}) });
    await batch.createNamespacedCronJob({ namespace, body: { ...cronJob({ schedule: '59 23 31 2 *', suspend: true }), metadata: { name: 'never' } } });
    await cluster.settle();
    cluster.clock.advance(5 * 60_000);
    await cluster.settle();
    const reasons = (await core.listNamespacedEvent({ namespace, fieldSelector: 'involvedObject.kind=CronJob' })).items.map((e) => `${e.involvedObject.name}:${e.reason}`);
    expect(reasons).toContain('tick:SuccessfulCreate');
    expect(reasons.filter((r) => r.endsWith(':InvalidSchedule'))).toEqual([]);
  });

  it('keeps successfulJobsHistoryLimit finished jobs', async () => {
    await start();
    await batch.createNamespacedCronJob({ namespace, body: cronJob({ successfulJobsHistoryLimit: 1 }) });
    await cluster.settle();
    for (let i = 0; i < 3; i++) {
      cluster.clock.advance(5 * 60_000);
      await cluster.settle();
    }
    expect((await batch.listNamespacedJob({ namespace })).items.map((j) => j.metadata?.name)).toEqual(['tick-28928175']);
  });
});
