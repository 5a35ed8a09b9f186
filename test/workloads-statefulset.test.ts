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

  it('recreates a deleted pod below the partition at the current revision', async () => {
    await start();
    await apps.createNamespacedStatefulSet({ namespace, body: statefulSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }) });
    await cluster.settle();
    await apps.patchNamespacedStatefulSet(
      { name: 'db', namespace, body: { spec: { template: { spec: { containers: [{ name: 'pg', image: 'postgres:17' }] } } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
    await cluster.settle();
    cluster.clock.advance(30_000);
    await cluster.settle();
    await core.deleteNamespacedPod({ name: 'db-0', namespace });
    cluster.clock.advance(30_000);
    await cluster.settle();
    const pods = (await core.listNamespacedPod({ namespace })).items;
    const images = Object.fromEntries(pods.map((p) => [p.metadata!.name!, p.spec!.containers[0]!.image]));
    expect(images).toEqual({ 'db-0': 'postgres:16', 'db-1': 'postgres:16', 'db-2': 'postgres:17' });
    const status = (await apps.readNamespacedStatefulSet({ name: 'db', namespace })).status!;
    expect(pods.find((p) => p.metadata?.name === 'db-0')!.metadata?.labels?.['controller-revision-hash']).toBe(status.currentRevision);
    expect(status).toMatchObject({ replicas: 3, currentReplicas: 2, updatedReplicas: 1 });
  });
});

describe('StatefulSet OnDelete', () => {
  const onDelete = () => statefulSet({ updateStrategy: { type: 'OnDelete' } });
  const update = () =>
    apps.patchNamespacedStatefulSet(
      { name: 'db', namespace, body: { spec: { template: { spec: { containers: [{ name: 'pg', image: 'postgres:17' }] } } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
  const images = async () => Object.fromEntries((await core.listNamespacedPod({ namespace })).items.map((p) => [p.metadata!.name!, p.spec!.containers[0]!.image]));
  /** Starts the cluster, creates the OnDelete set, settles, updates its template, settles; answers the revision it started from. */
  const startAndUpdateTemplate = async () => {
    await start();
    await apps.createNamespacedStatefulSet({ namespace, body: onDelete() });
    await cluster.settle();
    const first = (await apps.readNamespacedStatefulSet({ name: 'db', namespace })).status!.currentRevision;
    await update();
    await cluster.settle();
    return first;
  };

  it('leaves the pods of the old template running after an update', async () => {
    const first = await startAndUpdateTemplate();
    cluster.clock.advance(60_000);
    await cluster.settle();
    expect(await images()).toEqual({ 'db-0': 'postgres:16', 'db-1': 'postgres:16', 'db-2': 'postgres:16' });
    const status = (await apps.readNamespacedStatefulSet({ name: 'db', namespace })).status!;
    expect(status.updateRevision).not.toBe(first);
    expect(status).toMatchObject({ observedGeneration: 2, replicas: 3, readyReplicas: 3, currentReplicas: 3, currentRevision: first });
    expect(status.updatedReplicas).toBeUndefined();
  });

  it('replaces a pod the user deletes with the update revision, and keeps reporting the revision it started from', async () => {
    const first = await startAndUpdateTemplate();
    await core.deleteNamespacedPod({ name: 'db-1', namespace });
    await cluster.settle();
    cluster.clock.advance(30_000);
    await cluster.settle();
    expect(await images()).toEqual({ 'db-0': 'postgres:16', 'db-1': 'postgres:17', 'db-2': 'postgres:16' });
    let status = (await apps.readNamespacedStatefulSet({ name: 'db', namespace })).status!;
    expect(status).toMatchObject({ replicas: 3, currentReplicas: 2, updatedReplicas: 1, currentRevision: first });
    // Every pod replaced: completeRollingUpdate is for RollingUpdate only, so currentRevision stays.
    await core.deleteCollectionNamespacedPod({ namespace, labelSelector: 'app=db' });
    for (let i = 0; i < 4; i++) {
      cluster.clock.advance(30_000);
      await cluster.settle();
    }
    expect(await images()).toEqual({ 'db-0': 'postgres:17', 'db-1': 'postgres:17', 'db-2': 'postgres:17' });
    status = (await apps.readNamespacedStatefulSet({ name: 'db', namespace })).status!;
    expect(status).toMatchObject({ replicas: 3, updatedReplicas: 3, currentRevision: first });
    expect(status.currentReplicas).toBeUndefined();
  });
});

describe('StatefulSet claims', () => {
  const withClaims = (spec: Partial<k8s.V1StatefulSetSpec> = {}) =>
    statefulSet({
      volumeClaimTemplates: [{ metadata: { name: 'data', labels: { tier: 'storage' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      ...spec,
    });
  const claimNames = async () => (await core.listNamespacedPersistentVolumeClaim({ namespace })).items.map((c) => c.metadata!.name!).sort();
  const ownersOf = async (name: string) => (await core.readNamespacedPersistentVolumeClaim({ name, namespace })).metadata?.ownerReferences;
  const scaleTo = (replicas: number) => apps.patchNamespacedStatefulSetScale({ name: 'db', namespace, body: { spec: { replicas } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
  const drain = async () => {
    for (let i = 0; i < 4; i++) {
      cluster.clock.advance(30_000);
      await cluster.settle();
    }
  };

  it('labels each claim with the template and selector labels, mounts claims ahead of other volumes and keeps them by default', async () => {
    await start();
    const body = withClaims();
    body.spec!.template.spec!.volumes = [{ name: 'scratch', emptyDir: {} }];
    await apps.createNamespacedStatefulSet({ namespace, body });
    await cluster.settle();
    const claim = await core.readNamespacedPersistentVolumeClaim({ name: 'data-db-2', namespace });
    expect(claim.metadata?.labels).toEqual({ tier: 'storage', app: 'db' });
    expect(claim.metadata?.ownerReferences).toBeUndefined();
    const pod = await core.readNamespacedPod({ name: 'db-2', namespace });
    expect(pod.spec?.volumes?.map((v) => v.name).slice(0, 2)).toEqual(['data', 'scratch']);
    await scaleTo(1);
    await drain();
    await apps.deleteNamespacedStatefulSet({ name: 'db', namespace });
    await drain();
    expect(await podNames()).toEqual([]);
    expect(await claimNames()).toEqual(['data-db-0', 'data-db-1', 'data-db-2']);
  });

  it('whenDeleted: Delete makes the set the claims\' controller, so they go with it', async () => {
    await start();
    await apps.createNamespacedStatefulSet({ namespace, body: withClaims({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' } }) });
    await cluster.settle();
    const set = await apps.readNamespacedStatefulSet({ name: 'db', namespace });
    expect(await ownersOf('data-db-0')).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: set.metadata!.uid, controller: true, blockOwnerDeletion: true }]);
    await scaleTo(2);
    await drain();
    expect(await claimNames()).toEqual(['data-db-0', 'data-db-1', 'data-db-2']);
    await apps.deleteNamespacedStatefulSet({ name: 'db', namespace });
    await drain();
    expect(await claimNames()).toEqual([]);
  });

  it('whenScaled: Delete hands a scaled-down pod\'s claims to the pod, so they go with it and the others stay', async () => {
    await start();
    await apps.createNamespacedStatefulSet({ namespace, body: withClaims({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' } }) });
    await cluster.settle();
    expect(await ownersOf('data-db-2')).toBeUndefined();
    await scaleTo(1);
    await cluster.settle();
    const condemned = await core.readNamespacedPod({ name: 'db-2', namespace });
    expect(await ownersOf('data-db-2')).toEqual([{ apiVersion: 'v1', kind: 'Pod', name: 'db-2', uid: condemned.metadata!.uid, controller: true, blockOwnerDeletion: true }]);
    await drain();
    expect(await podNames()).toEqual(['db-0']);
    expect(await claimNames()).toEqual(['data-db-0']);
    await apps.deleteNamespacedStatefulSet({ name: 'db', namespace });
    await drain();
    expect(await claimNames()).toEqual(['data-db-0']);
  });

  it('holds a pod back while its claim is being deleted, and creates both once the claim is gone', async () => {
    await start();
    await apps.createNamespacedStatefulSet({ namespace, body: withClaims({ replicas: 1 }) });
    await cluster.settle();
    const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
    const oldClaim = await core.patchNamespacedPersistentVolumeClaim({ name: 'data-db-0', namespace, body: { metadata: { finalizers: ['example.com/hold'] } } }, merge);
    await core.deleteNamespacedPersistentVolumeClaim({ name: 'data-db-0', namespace });
    await core.deleteNamespacedPod({ name: 'db-0', namespace });
    await drain();
    expect(await podNames()).toEqual([]);
    await core.patchNamespacedPersistentVolumeClaim({ name: 'data-db-0', namespace, body: { metadata: { finalizers: null } } }, merge);
    await cluster.settle();
    expect(await podNames()).toEqual(['db-0']);
    const claim = await core.readNamespacedPersistentVolumeClaim({ name: 'data-db-0', namespace });
    expect(claim.metadata?.uid).not.toBe(oldClaim.metadata?.uid);
  });

  it('creates an unscheduled pod\'s claim again when it is deleted; a scheduled pod\'s claim stays Terminating (pvc-protection)', async () => {
    await start();
    const body = withClaims({ replicas: 1 });
    body.spec!.template.spec!.nodeSelector = { disk: 'ssd' };
    await apps.createNamespacedStatefulSet({ namespace, body });
    await cluster.settle();
    const pending = await core.readNamespacedPod({ name: 'db-0', namespace });
    expect([pending.status?.phase, pending.spec?.nodeName]).toEqual(['Pending', undefined]);
    // No scheduled pod uses the claim, so the pvc-protection controller lets it go, and the
    // StatefulSet controller creates it again for its Pending pod.
    const first = await core.readNamespacedPersistentVolumeClaim({ name: 'data-db-0', namespace });
    await core.deleteNamespacedPersistentVolumeClaim({ name: 'data-db-0', namespace });
    await cluster.settle();
    const again = await core.readNamespacedPersistentVolumeClaim({ name: 'data-db-0', namespace });
    expect(again.metadata?.uid).not.toBe(first.metadata?.uid);
    await core.patchNode({ name: 'kubefake-node-1', body: { metadata: { labels: { disk: 'ssd' } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await drain();
    expect((await core.readNamespacedPod({ name: 'db-0', namespace })).status?.phase).toBe('Running');
    // A claim a scheduled pod mounts is kept, Terminating, while the pod is there.
    await core.deleteNamespacedPersistentVolumeClaim({ name: 'data-db-0', namespace });
    await cluster.settle();
    const held = await core.readNamespacedPersistentVolumeClaim({ name: 'data-db-0', namespace });
    expect(held.metadata?.uid).toBe(again.metadata?.uid);
    expect(held.metadata?.deletionTimestamp).toBeDefined();
    expect(held.metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
  });
});

