// StatefulSets on a workloads cluster (createFakeCluster({ workloads: true })), through
// @kubernetes/client-node on a frozen clock: ordinal pods with stable identity, OrderedReady and
// Parallel management, claims from volumeClaimTemplates, scale-down from the highest ordinal, and
// rolling updates from the highest ordinal down to the partition.
import * as k8s from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

let cluster: FakeCluster;
let apps: k8s.AppsV1Api;
let core: k8s.CoreV1Api;
afterEach(() => cluster?.close());

const namespace = 'default';

async function start(): Promise<void> {
  cluster = await createFakeCluster({ deterministic: true, workloads: true, nodes: 2 });
  apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
}

const statefulSet = (spec: Partial<k8s.V1StatefulSetSpec> = {}, image = 'postgres:16'): k8s.V1StatefulSet => ({
  metadata: { name: 'db' },
  spec: { serviceName: 'db', replicas: 3, selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'pg', image }] } }, ...spec },
});
const podNames = async () =>
  (await core.listNamespacedPod({ namespace })).items
    .filter((p) => !p.metadata?.deletionTimestamp)
    .map((p) => p.metadata!.name!)
    .sort();

describe('StatefulSet', () => {
  it('creates ordinal pods in order, each once the one before is Running and Ready', async () => {
    await start();
    cluster.kubelet.on({ selector: { app: 'db' } }, { startAfter: 5000 });
    await apps.createNamespacedStatefulSet({ namespace, body: statefulSet() });
    await cluster.settle();
    expect(await podNames()).toEqual(['db-0']);
    cluster.clock.advance(5000);
    await cluster.settle();
    expect(await podNames()).toEqual(['db-0', 'db-1']);
    cluster.clock.advance(5000);
    await cluster.settle();
    cluster.clock.advance(5000);
    await cluster.settle();
    expect(await podNames()).toEqual(['db-0', 'db-1', 'db-2']);
    const pod = await core.readNamespacedPod({ name: 'db-1', namespace });
    expect(pod.spec?.hostname).toBe('db-1');
    expect(pod.spec?.subdomain).toBe('db');
    expect(pod.metadata?.labels).toMatchObject({ app: 'db', 'statefulset.kubernetes.io/pod-name': 'db-1', 'apps.kubernetes.io/pod-index': '1' });
    const status = (await apps.readNamespacedStatefulSet({ name: 'db', namespace })).status!;
    expect(status).toMatchObject({ observedGeneration: 1, replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3, availableReplicas: 3, collisionCount: 0 });
    expect(status.currentRevision).toBe(status.updateRevision);
    expect(pod.metadata?.labels?.['controller-revision-hash']).toBe(status.updateRevision);
    const revisions = (await apps.listNamespacedControllerRevision({ namespace })).items;
    expect(revisions.map((r) => [r.metadata?.name, r.revision])).toEqual([[status.updateRevision, 1]]);
    // history.NewControllerRevision: the template's labels and the hash alone (the pods carry the whole name).
    expect(revisions[0]!.metadata?.labels).toEqual({ app: 'db', 'controller-revision-hash': status.updateRevision!.slice('db-'.length) });
  });

  it('creates every pod at once with Parallel', async () => {
    await start();
    cluster.kubelet.on({ selector: { app: 'db' } }, { startAfter: 5000 });
    await apps.createNamespacedStatefulSet({ namespace, body: statefulSet({ podManagementPolicy: 'Parallel' }) });
    await cluster.settle();
    expect(await podNames()).toEqual(['db-0', 'db-1', 'db-2']);
  });

  it('creates a claim per pod from volumeClaimTemplates and mounts it', async () => {
    await start();
    await apps.createNamespacedStatefulSet({
      namespace,
      body: statefulSet({ replicas: 2, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] }),
    });
    await cluster.settle();
    const claims = (await core.listNamespacedPersistentVolumeClaim({ namespace })).items;
    expect(claims.map((c) => c.metadata?.name)).toEqual(['data-db-0', 'data-db-1']);
    expect(claims[0]!.metadata?.labels).toEqual({ app: 'db' });
    const pod = await core.readNamespacedPod({ name: 'db-0', namespace });
    expect(pod.spec?.volumes).toContainEqual({ name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } });
  });

  it('scales down from the highest ordinal, one pod at a time', async () => {
    await start();
    await apps.createNamespacedStatefulSet({ namespace, body: statefulSet() });
    await cluster.settle();
    await apps.patchNamespacedStatefulSetScale({ name: 'db', namespace, body: { spec: { replicas: 1 } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await cluster.settle();
    expect(await podNames()).toEqual(['db-0', 'db-1']);
    // db-2 terminates for its 30 s grace period before db-1 goes.
    cluster.clock.advance(30_000);
    await cluster.settle();
    expect(await podNames()).toEqual(['db-0']);
  });

  it('rolls an update from the highest ordinal down to the partition', async () => {
    await start();
    await apps.createNamespacedStatefulSet({ namespace, body: statefulSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } }, 'postgres:16') });
    await cluster.settle();
    const first = (await apps.readNamespacedStatefulSet({ name: 'db', namespace })).status!.updateRevision;
    await apps.patchNamespacedStatefulSet(
      { name: 'db', namespace, body: { spec: { template: { spec: { containers: [{ name: 'pg', image: 'postgres:17' }] } } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
    for (let i = 0; i < 4; i++) {
      await cluster.settle();
      cluster.clock.advance(30_000);
    }
    await cluster.settle();
    const images = Object.fromEntries((await core.listNamespacedPod({ namespace })).items.map((p) => [p.metadata!.name!, p.spec!.containers[0]!.image]));
    expect(images).toEqual({ 'db-0': 'postgres:16', 'db-1': 'postgres:17', 'db-2': 'postgres:17' });
    const status = (await apps.readNamespacedStatefulSet({ name: 'db', namespace })).status!;
    expect(status.updateRevision).not.toBe(first);
    expect(status.currentRevision).toBe(first);
    expect(status).toMatchObject({ replicas: 3, updatedReplicas: 2, currentReplicas: 1 });
  });
});
