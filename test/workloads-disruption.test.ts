// PodDisruptionBudget status on a workloads cluster (createFakeCluster({ workloads: true })): the
// disruption controller counts expected and healthy pods and allows disruptions, so evictions
// through pods/eviction spend and recover the budget as against a real cluster.
import * as k8s from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let apps: k8s.AppsV1Api;
let core: k8s.CoreV1Api;
let policy: k8s.PolicyV1Api;
afterEach(() => cluster?.close());

const namespace = 'default';

async function start(): Promise<void> {
  cluster = await createFakeCluster({ deterministic: true, workloads: true, nodes: 2 });
  apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  policy = cluster.kubeConfig.makeApiClient(k8s.PolicyV1Api);
}

const deployment = (replicas: number): k8s.V1Deployment => ({
  metadata: { name: 'web' },
  spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
});
const readBudget = () => policy.readNamespacedPodDisruptionBudget({ name: 'web', namespace });

describe('PodDisruptionBudget status', () => {
  it('counts the pods of an integer minAvailable and allows what is above it', async () => {
    await start();
    await apps.createNamespacedDeployment({ namespace, body: deployment(3) });
    await policy.createNamespacedPodDisruptionBudget({ namespace, body: { metadata: { name: 'web' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } } } });
    await cluster.settle();
    const { status } = await readBudget();
    expect(status).toMatchObject({ observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 });
    expect(status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message, c.observedGeneration])).toEqual([['DisruptionAllowed', 'True', 'SufficientPods', '', 1]]);
  });

  it('takes the expected count from the Deployment for maxUnavailable', async () => {
    await start();
    cluster.kubelet.on({ selector: 'app=web' }, { startAfter: 10_000 });
    await apps.createNamespacedDeployment({ namespace, body: deployment(4) });
    await policy.createNamespacedPodDisruptionBudget({ namespace, body: { metadata: { name: 'web' }, spec: { maxUnavailable: '50%', selector: { matchLabels: { app: 'web' } } } } });
    await cluster.settle();
    expect((await readBudget()).status).toMatchObject({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 2, expectedPods: 4 });
    expect((await readBudget()).status?.conditions?.[0]).toMatchObject({ status: 'False', reason: 'InsufficientPods' });
    cluster.clock.advance(10_000);
    await cluster.settle();
    expect((await readBudget()).status).toMatchObject({ disruptionsAllowed: 2, currentHealthy: 4, desiredHealthy: 2, expectedPods: 4 });
  });

  it('lets evictions spend the budget, refuses the next one, and recovers once a replacement is ready', async () => {
    await start();
    await apps.createNamespacedDeployment({ namespace, body: deployment(2) });
    await policy.createNamespacedPodDisruptionBudget({ namespace, body: { metadata: { name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } } });
    await cluster.settle();
    const [first, second] = (await core.listNamespacedPod({ namespace })).items;
    await core.createNamespacedPodEviction({ name: first!.metadata!.name!, namespace, body: { metadata: { name: first!.metadata!.name! } } });
    await cluster.settle();
    // The evicted pod terminates for its grace period; its replacement is Ready at once.
    expect((await readBudget()).status).toMatchObject({ currentHealthy: 2, desiredHealthy: 1, expectedPods: 3, disruptionsAllowed: 1 });
    await core.createNamespacedPodEviction({ name: second!.metadata!.name!, namespace, body: { metadata: { name: second!.metadata!.name! } } });
    await cluster.settle();
    const third = (await core.listNamespacedPod({ namespace })).items.find((p) => !p.metadata?.deletionTimestamp && p.metadata?.name !== second!.metadata!.name)!;
    const status = (await readBudget()).status!;
    expect(status.disruptionsAllowed).toBe(1);
    expect(status.currentHealthy).toBe(2);
    cluster.clock.advance(30_000);
    await cluster.settle();
    expect((await readBudget()).status).toMatchObject({ currentHealthy: 2, expectedPods: 2, disruptionsAllowed: 1 });
    // From here on replacements never become ready, so the budget stays spent whatever runs between the evictions.
    cluster.kubelet.on({ selector: { app: 'web' } }, { ready: false });
    await core.createNamespacedPodEviction({ name: third.metadata!.name!, namespace, body: { metadata: { name: third.metadata!.name! } } });
    await cluster.settle();
    const remaining = (await core.listNamespacedPod({ namespace })).items.filter((p) => !p.metadata?.deletionTimestamp && p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
    await expectStatus(core.createNamespacedPodEviction({ name: remaining[0]!.metadata!.name!, namespace, body: { metadata: { name: remaining[0]!.metadata!.name! } } }), {
      code: 429,
      reason: 'TooManyRequests',
      message: 'Cannot evict pod as it would violate the pod\'s disruption budget.',
    });
  });
});
