// A Job's policies on a workloads cluster (createFakeCluster({ workloads: true })), through
// @kubernetes/client-node on a frozen clock, as kube-controller-manager v1.36 applies them:
// podFailurePolicy (FailJob, Ignore, Count, FailIndex; exit codes and pod conditions such as the
// DisruptionTarget an eviction sets), backoffLimitPerIndex with maxFailedIndexes, successPolicy,
// and podReplacementPolicy.
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
const INDEX = 'batch.kubernetes.io/job-completion-index';
const template = (): k8s.V1PodTemplateSpec => ({ metadata: { labels: { app: 'task' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } });
const createJob = (name: string, spec: Partial<k8s.V1JobSpec>) => batch.createNamespacedJob({ namespace, body: { metadata: { name }, spec: { template: template(), ...spec } } });
const readJob = (name: string) => batch.readNamespacedJob({ name, namespace });
const podsOf = async (job: string) => (await core.listNamespacedPod({ namespace, labelSelector: `batch.kubernetes.io/job-name=${job}` })).items;
const conditions = (job: k8s.V1Job) => job.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]);
const step = async (ms: number) => {
  cluster.clock.advance(ms);
  await cluster.settle();
};
/** The kubelet rule for the pods of one completion index. */
const onIndex = (index: number, behavior: Parameters<FakeCluster['kubelet']['on']>[1]) => cluster.kubelet.on({ selector: `${INDEX}=${index}` }, behavior);

describe('podFailurePolicy', () => {
  it('FailJob on an exit code: FailureTarget with the rule, the other pods stopped and counted failed, then Failed', async () => {
    await start();
    onIndex(0, { runFor: 5000, exitCode: 42 });
    onIndex(1, { runFor: 3_600_000 });
    await createJob('fail-fast', {
      completions: 2,
      parallelism: 2,
      completionMode: 'Indexed',
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } }] },
    });
    await cluster.settle();
    const failing = (await podsOf('fail-fast')).find((p) => p.metadata?.labels?.[INDEX] === '0')!;
    await step(5000);
    let job = await readJob('fail-fast');
    const message = `Container main for pod default/${failing.metadata!.name} failed with exit code 42 matching FailJob rule at index 0`;
    expect(conditions(job)).toEqual([['FailureTarget', 'True', 'PodFailurePolicy', message]]);
    // The running pod is stopped: it terminates for its grace period and counts as failed.
    expect(job.status).toMatchObject({ failed: 2, terminating: 1, ready: 0, uncountedTerminatedPods: {} });
    expect(job.status?.active).toBeUndefined();
    await step(30_000);
    job = await readJob('fail-fast');
    expect(conditions(job)).toEqual([
      ['FailureTarget', 'True', 'PodFailurePolicy', message],
      ['Failed', 'True', 'PodFailurePolicy', message],
    ]);
    expect(job.status).toMatchObject({ failed: 2, terminating: 0 });
    expect(job.status?.conditions?.[1]?.lastTransitionTime?.toISOString()).toBe('2025-01-01T00:00:35.000Z');
  });

  it('never matches exit code 0: NotIn rules fail the job on a failure but let successes complete it', async () => {
    await start();
    onIndex(1, { exitCode: 3 });
    const policy = { rules: [{ action: 'FailJob', onExitCodes: { operator: 'NotIn', values: [42] } }] };
    await createJob('clean', { completions: 1, template: { ...template(), metadata: { labels: { app: 'clean' } } }, podFailurePolicy: policy });
    await cluster.settle();
    expect(conditions(await readJob('clean'))?.map((c) => c[2])).toEqual(['CompletionsReached', 'CompletionsReached']);
    await createJob('dirty', { completions: 2, parallelism: 2, completionMode: 'Indexed', podFailurePolicy: policy });
    await cluster.settle();
    const job = await readJob('dirty');
    const pod = (await podsOf('dirty')).find((p) => p.metadata?.labels?.[INDEX] === '1')!;
    expect(conditions(job)).toEqual([
      ['FailureTarget', 'True', 'PodFailurePolicy', `Container main for pod default/${pod.metadata!.name} failed with exit code 3 matching FailJob rule at index 0`],
      ['Failed', 'True', 'PodFailurePolicy', `Container main for pod default/${pod.metadata!.name} failed with exit code 3 matching FailJob rule at index 0`],
    ]);
    expect(job.status).toMatchObject({ succeeded: 1, failed: 1, completedIndexes: '0' });
  });

  it('Ignore on DisruptionTarget: an evicted pod is replaced and does not count toward backoffLimit', async () => {
    await start();
    cluster.kubelet.on({ selector: { app: 'task' } }, { runFor: 3_600_000, stopAfter: 0 });
    await createJob('tolerant', {
      backoffLimit: 0,
      podFailurePolicy: {
        rules: [
          { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] },
          { action: 'FailJob', onExitCodes: { operator: 'In', values: [137] } },
        ],
      },
    });
    await cluster.settle();
    const [first] = await podsOf('tolerant');
    await core.createNamespacedPodEviction({ name: first!.metadata!.name!, namespace, body: { metadata: { name: first!.metadata!.name } } });
    await cluster.settle();
    let job = await readJob('tolerant');
    // The evicted pod ended Failed with DisruptionTarget: ignored, but the back-off still applies.
    expect(job.status?.failed).toBeUndefined();
    expect(job.status?.conditions).toBeUndefined();
    expect(await podsOf('tolerant')).toEqual([]);
    await step(10_000);
    job = await readJob('tolerant');
    const pods = await podsOf('tolerant');
    expect(pods).toHaveLength(1);
    expect(pods[0]!.metadata?.name).not.toBe(first!.metadata?.name);
    expect(job.status).toMatchObject({ active: 1, ready: 1 });
    expect(job.status?.failed).toBeUndefined();
  });

  it('a matching pod condition fails the job with its own message; Count counts a failure toward backoffLimit', async () => {
    await start();
    cluster.kubelet.on({ selector: { app: 'task' } }, { runFor: 3_600_000, stopAfter: 0 });
    const rules = [
      { action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
      { action: 'Count', onExitCodes: { operator: 'In', values: [137] } },
    ];
    await createJob('strict', { backoffLimit: 0, podFailurePolicy: { rules } });
    await cluster.settle();
    const [pod] = await podsOf('strict');
    await core.createNamespacedPodEviction({ name: pod!.metadata!.name!, namespace, body: { metadata: { name: pod!.metadata!.name } } });
    await cluster.settle();
    const message = `Pod default/${pod!.metadata!.name} has condition DisruptionTarget matching FailJob rule at index 0`;
    expect(conditions(await readJob('strict'))).toEqual([
      ['FailureTarget', 'True', 'PodFailurePolicy', message],
      ['Failed', 'True', 'PodFailurePolicy', message],
    ]);

    await createJob('counted', { backoffLimit: 0, podFailurePolicy: { rules: rules.slice(1) } });
    await cluster.settle();
    const [counted] = await podsOf('counted');
    // Deleted by a user: no DisruptionTarget; the kubelet kills it (137) and the Count rule applies.
    await core.deleteNamespacedPod({ name: counted!.metadata!.name!, namespace });
    await cluster.settle();
    const job = await readJob('counted');
    expect(job.status?.failed).toBe(1);
    expect(conditions(job)?.map((c) => c.slice(0, 3))).toEqual([
      ['FailureTarget', 'True', 'BackoffLimitExceeded'],
      ['Failed', 'True', 'BackoffLimitExceeded'],
    ]);
  });
});

describe('backoffLimitPerIndex', () => {
  it('retries an index on its own back-off, carries the failure count, and fails the job with FailedIndexes', async () => {
    await start();
    onIndex(1, { exitCode: 1 });
    await createJob('shards', { completions: 3, parallelism: 3, completionMode: 'Indexed', backoffLimitPerIndex: 1 });
    await cluster.settle();
    let job = await readJob('shards');
    expect(job.spec?.backoffLimit).toBe(2147483647);
    // Index 1 failed once: not yet a failed index; its replacement waits 10 s.
    expect(job.status).toMatchObject({ completedIndexes: '0,2', failedIndexes: '', succeeded: 2 });
    expect(job.status?.failed).toBeUndefined();
    expect(job.status?.conditions).toBeUndefined();
    await step(9_000);
    expect(await podsOf('shards')).toHaveLength(3);
    await step(1_000);
    const retries = (await podsOf('shards')).filter((p) => p.metadata?.labels?.[INDEX] === '1');
    expect(retries.map((p) => p.metadata?.annotations?.['batch.kubernetes.io/job-index-failure-count']).sort()).toEqual(['0', '1']);
    job = await readJob('shards');
    expect(job.status).toMatchObject({ completedIndexes: '0,2', failedIndexes: '1', succeeded: 2, failed: 2 });
    expect(conditions(job)).toEqual([
      ['FailureTarget', 'True', 'FailedIndexes', 'Job has failed indexes'],
      ['Failed', 'True', 'FailedIndexes', 'Job has failed indexes'],
    ]);
  });

  it('fails the job with MaxFailedIndexesExceeded once more indexes failed than allowed, stopping the rest', async () => {
    await start();
    cluster.kubelet.on({ selector: { app: 'task' } }, { runFor: 3_600_000, stopAfter: 0 });
    onIndex(1, { runFor: 0, exitCode: 1 });
    onIndex(2, { runFor: 0, exitCode: 1 });
    await createJob('many', { completions: 4, parallelism: 4, completionMode: 'Indexed', backoffLimitPerIndex: 0, maxFailedIndexes: 1 });
    await cluster.settle();
    const job = await readJob('many');
    expect(job.status?.failedIndexes).toBe('1,2');
    expect(job.status?.failed).toBe(4);
    expect(conditions(job)).toEqual([
      ['FailureTarget', 'True', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes'],
      ['Failed', 'True', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes'],
    ]);
    expect(await podsOf('many')).toHaveLength(2);
  });

  it('FailIndex fails an index at once, without using its retries; Ignore keeps the count in its own annotation', async () => {
    await start();
    onIndex(0, { exitCode: 42 });
    onIndex(1, { runFor: 5000, exitCode: 7 });
    const rules = [
      { action: 'FailIndex', onExitCodes: { operator: 'In', values: [42] } },
      { action: 'Ignore', onExitCodes: { operator: 'In', values: [7] } },
    ];
    await createJob('picky', { completions: 2, parallelism: 2, completionMode: 'Indexed', backoffLimitPerIndex: 3, podFailurePolicy: { rules } });
    await cluster.settle();
    let job = await readJob('picky');
    expect(job.status).toMatchObject({ failedIndexes: '0', failed: 1, active: 1 });
    await step(5000);
    await step(10_000);
    const index1 = (await podsOf('picky')).filter((p) => p.metadata?.labels?.[INDEX] === '1');
    expect(index1.map((p) => [p.metadata?.annotations?.['batch.kubernetes.io/job-index-failure-count'], p.metadata?.annotations?.['batch.kubernetes.io/job-index-ignored-failure-count']])).toContainEqual(['0', '1']);
    job = await readJob('picky');
    expect(job.status).toMatchObject({ failedIndexes: '0', failed: 1 });
    expect(job.status?.conditions).toBeUndefined();
  });
});

describe('successPolicy', () => {
  it('SuccessCriteriaMet when the named indexes succeeded, the rest stopped uncounted, then Complete', async () => {
    await start();
    cluster.kubelet.on({ selector: { app: 'task' } }, { runFor: 3_600_000 });
    onIndex(0, { runFor: 5000 });
    onIndex(1, { runFor: 8000 });
    await createJob('leader', { completions: 5, parallelism: 5, completionMode: 'Indexed', successPolicy: { rules: [{ succeededIndexes: '0-1' }] } });
    await cluster.settle();
    await step(5000);
    expect((await readJob('leader')).status?.conditions).toBeUndefined();
    await step(3000);
    let job = await readJob('leader');
    expect(conditions(job)).toEqual([['SuccessCriteriaMet', 'True', 'SuccessPolicy', 'Matched rules at index 0']]);
    expect(job.status).toMatchObject({ completedIndexes: '0,1', succeeded: 2, terminating: 3 });
    expect(job.status?.active).toBeUndefined();
    await step(30_000);
    job = await readJob('leader');
    expect(conditions(job)).toEqual([
      ['SuccessCriteriaMet', 'True', 'SuccessPolicy', 'Matched rules at index 0'],
      ['Complete', 'True', 'SuccessPolicy', 'Matched rules at index 0'],
    ]);
    expect(job.status?.failed).toBeUndefined();
    expect(job.status?.completionTime?.toISOString()).toBe('2025-01-01T00:00:38.000Z');
  });

  it('a succeededCount rule matches any that many indexes, and names its own index', async () => {
    await start();
    cluster.kubelet.on({ selector: { app: 'task' } }, { runFor: 3_600_000, stopAfter: 0 });
    onIndex(2, { runFor: 1000 });
    onIndex(3, { runFor: 1000 });
    await createJob('quorum', { completions: 4, parallelism: 4, completionMode: 'Indexed', successPolicy: { rules: [{ succeededIndexes: '0', succeededCount: 1 }, { succeededCount: 2 }] } });
    await cluster.settle();
    await step(1000);
    const job = await readJob('quorum');
    expect(conditions(job)).toEqual([
      ['SuccessCriteriaMet', 'True', 'SuccessPolicy', 'Matched rules at index 1'],
      ['Complete', 'True', 'SuccessPolicy', 'Matched rules at index 1'],
    ]);
    expect(job.status).toMatchObject({ completedIndexes: '2,3', succeeded: 2, terminating: 0 });
  });
});

describe('podReplacementPolicy', () => {
  it('TerminatingOrFailed counts a deleted pod failed and replaces it while it terminates; Failed waits until it has ended', async () => {
    await start();
    cluster.kubelet.on({ selector: { app: 'task' } }, { runFor: 3_600_000 });
    await createJob('eager', { template: { ...template(), metadata: { labels: { app: 'task', job: 'eager' } } } });
    await createJob('patient', { podReplacementPolicy: 'Failed', template: { ...template(), metadata: { labels: { app: 'task', job: 'patient' } } } });
    await cluster.settle();
    for (const name of ['eager', 'patient']) {
      const [pod] = await podsOf(name);
      await core.deleteNamespacedPod({ name: pod!.metadata!.name!, namespace });
    }
    await cluster.settle();
    expect((await readJob('eager')).status).toMatchObject({ failed: 1, terminating: 1 });
    expect((await readJob('patient')).status).toMatchObject({ terminating: 1 });
    expect((await readJob('patient')).status?.failed).toBeUndefined();
    // Both wait out the 10 s pod-failure back-off; only the eager one replaces a pod still terminating.
    await step(10_000);
    expect((await readJob('eager')).status).toMatchObject({ active: 1, failed: 1, terminating: 1 });
    expect(await podsOf('eager')).toHaveLength(2);
    expect(await podsOf('patient')).toHaveLength(1);
    // The pod ends (137) at the end of its grace period, and the back-off runs from then.
    await step(20_000);
    expect((await readJob('patient')).status).toMatchObject({ failed: 1, terminating: 0 });
    expect((await readJob('patient')).status?.active).toBeUndefined();
    await step(10_000);
    expect((await readJob('patient')).status).toMatchObject({ active: 1, failed: 1 });
    expect((await readJob('eager')).status).toMatchObject({ active: 1, failed: 1, terminating: 0 });
  });
});

describe('pod accounting', () => {
  it('counts a pod removed at once (grace 0) as failed from its last state, once, and replaces it after the back-off', async () => {
    await start();
    cluster.kubelet.on({ selector: { app: 'task' } }, { runFor: 3_600_000 });
    await createJob('forced', { backoffLimit: 3 });
    await cluster.settle();
    const [pod] = await podsOf('forced');
    await core.deleteNamespacedPod({ name: pod!.metadata!.name!, namespace, gracePeriodSeconds: 0 });
    await cluster.settle();
    let job = await readJob('forced');
    expect(job.status).toMatchObject({ failed: 1, terminating: 0 });
    expect(await podsOf('forced')).toEqual([]);
    await step(9_000);
    expect(await podsOf('forced')).toEqual([]);
    await step(1_000);
    job = await readJob('forced');
    expect(job.status).toMatchObject({ active: 1, failed: 1 });
    expect(job.status?.conditions).toBeUndefined();
  });
});

describe('managedBy', () => {
  it('leaves a job managed by another controller alone, and runs one naming the job controller', async () => {
    await start();
    await createJob('elsewhere', { managedBy: 'example.com/queue' });
    await createJob('here', { managedBy: 'kubernetes.io/job-controller' });
    await cluster.settle();
    expect(await podsOf('elsewhere')).toEqual([]);
    // Untouched: no startTime, no counts.
    expect((await readJob('elsewhere')).status).toEqual({});
    expect(conditions(await readJob('here'))?.map((c) => c[0])).toEqual(['SuccessCriteriaMet', 'Complete']);
  });
});
