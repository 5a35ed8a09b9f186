// ReplicaSets, ReplicationControllers and Deployments that progress (createFakeCluster({ workloads:
// true })), through @kubernetes/client-node and kubectl on a frozen clock: pods from templates with
// owner references, scaling, status counts, rolling updates within maxSurge/maxUnavailable,
// Recreate, pause, rollback by template, the progress deadline, `kubectl rollout status` and
// `kubectl get pods --watch`.
import { spawn } from 'node:child_process';
import * as k8s from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterInternals } from '../src/cluster/internals.ts';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlEnv, kubectlRunner } from './support/kubectl.ts';

let cluster: FakeCluster;
let apps: k8s.AppsV1Api;
let core: k8s.CoreV1Api;
afterEach(() => cluster?.close());

async function start(nodes = 2): Promise<void> {
  cluster = await createFakeCluster({ deterministic: true, workloads: true, nodes });
  apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
}

const namespace = 'default';
const template = (image: string, labels: Record<string, string> = { app: 'web' }): k8s.V1PodTemplateSpec => ({ metadata: { labels }, spec: { containers: [{ name: 'app', image }] } });
const deployment = (spec: Partial<k8s.V1DeploymentSpec> = {}, image = 'nginx:1.27'): k8s.V1Deployment => ({
  metadata: { name: 'web' },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: template(image), ...spec },
});
const setImage = async (image: string) => {
  await apps.patchNamespacedDeployment(
    { name: 'web', namespace, body: { spec: { template: { spec: { containers: [{ name: 'app', image }] } } } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
  );
};
const readDeployment = () => apps.readNamespacedDeployment({ name: 'web', namespace });
const replicaSets = async () => (await apps.listNamespacedReplicaSet({ namespace })).items;
const activePods = async () => (await core.listNamespacedPod({ namespace })).items.filter((p) => !p.metadata?.deletionTimestamp);
const conditionOf = (d: k8s.V1Deployment, type: string) => d.status?.conditions?.find((c) => c.type === type);

describe('ReplicaSet', () => {
  it('creates pods from its template with a controller reference and reports their counts', async () => {
    await start();
    const rs = await apps.createNamespacedReplicaSet({ namespace, body: { metadata: { name: 'front' }, spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: template('nginx') } } });
    await cluster.settle();
    const pods = await activePods();
    expect(pods).toHaveLength(3);
    for (const pod of pods) {
      expect(pod.metadata?.name).toMatch(/^front-[a-z0-9]{5}$/);
      expect(pod.metadata?.labels).toEqual({ app: 'web' });
      expect(pod.metadata?.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'front', uid: rs.metadata!.uid!, controller: true, blockOwnerDeletion: true }]);
      expect(pod.status?.phase).toBe('Running');
    }
    const status = (await apps.readNamespacedReplicaSet({ name: 'front', namespace })).status;
    expect(status).toEqual({ replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 });
  });

  it('scales down deleting pods not ready before ready ones, and recreates a deleted pod', async () => {
    await start();
    cluster.kubelet.on({ selector: 'slow=true' }, { ready: false });
    await apps.createNamespacedReplicaSet({ namespace, body: { metadata: { name: 'front' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: template('nginx') } } });
    await cluster.settle();
    const [first] = await activePods();
    await core.deleteNamespacedPod({ name: first!.metadata!.name!, namespace, body: { gracePeriodSeconds: 0 } });
    await cluster.settle();
    expect((await activePods()).map((p) => p.metadata?.name)).not.toContain(first!.metadata!.name);
    expect(await activePods()).toHaveLength(2);

    // One pod that will never be ready: a scale-down to 2 picks it.
    await apps.patchNamespacedReplicaSet({ name: 'front', namespace, body: { spec: { template: { metadata: { labels: { app: 'web', slow: 'true' } } } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await apps.patchNamespacedReplicaSetScale({ name: 'front', namespace, body: { spec: { replicas: 3 } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await cluster.settle();
    const slow = (await activePods()).find((p) => p.metadata?.labels?.slow === 'true')!;
    expect(slow.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    expect((await apps.readNamespacedReplicaSet({ name: 'front', namespace })).status).toMatchObject({ replicas: 3, fullyLabeledReplicas: 1, readyReplicas: 2, availableReplicas: 2, observedGeneration: 3 });
    await apps.patchNamespacedReplicaSetScale({ name: 'front', namespace, body: { spec: { replicas: 2 } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await cluster.settle();
    const remaining = await activePods();
    expect(remaining.map((p) => p.metadata?.name)).not.toContain(slow.metadata!.name);
    expect(remaining.every((p) => p.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True')).toBe(true);
  });

  it('reports availableReplicas only once pods have been ready for minReadySeconds', async () => {
    await start();
    await apps.createNamespacedReplicaSet({ namespace, body: { metadata: { name: 'front' }, spec: { replicas: 2, minReadySeconds: 10, selector: { matchLabels: { app: 'web' } }, template: template('nginx') } } });
    await cluster.settle();
    expect((await apps.readNamespacedReplicaSet({ name: 'front', namespace })).status).toEqual({ replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, observedGeneration: 1 });
    cluster.clock.advance(10_000);
    await cluster.settle();
    expect((await apps.readNamespacedReplicaSet({ name: 'front', namespace })).status?.availableReplicas).toBe(2);
  });
});

describe('ReplicationController', () => {
  it('keeps its replicas and reports their counts', async () => {
    await start();
    const rc = await core.createNamespacedReplicationController({ namespace, body: { metadata: { name: 'legacy' }, spec: { replicas: 2, template: template('nginx', { app: 'legacy' }) } } });
    await cluster.settle();
    const pods = await activePods();
    expect(pods).toHaveLength(2);
    expect(pods[0]!.metadata?.ownerReferences?.[0]).toMatchObject({ apiVersion: 'v1', kind: 'ReplicationController', name: 'legacy', uid: rc.metadata!.uid! });
    expect((await core.readNamespacedReplicationController({ name: 'legacy', namespace })).status).toEqual({ replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 });
  });
});

describe('Deployment', () => {
  it('becomes Available with a ReplicaSet named by its pod-template-hash', async () => {
    await start();
    const created = await apps.createNamespacedDeployment({ namespace, body: deployment() });
    await cluster.settle();
    const d = await readDeployment();
    expect(d.metadata?.annotations).toEqual({ 'deployment.kubernetes.io/revision': '1' });
    expect(d.status).toMatchObject({ observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 });
    expect(d.status?.unavailableReplicas).toBeUndefined();
    const [rs] = await replicaSets();
    const hash = rs!.metadata!.labels!['pod-template-hash']!;
    expect(rs!.metadata?.name).toBe(`web-${hash}`);
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(rs!.metadata?.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: created.metadata!.uid!, controller: true, blockOwnerDeletion: true }]);
    expect(rs!.metadata?.annotations).toEqual({ 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4', 'deployment.kubernetes.io/revision': '1' });
    expect(rs!.spec?.selector).toEqual({ matchLabels: { app: 'web', 'pod-template-hash': hash } });
    expect(conditionOf(d, 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' });
    expect(conditionOf(d, 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "web-${hash}" has successfully progressed.` });
    expect(d.status?.conditions?.map((c) => c.type)).toEqual(['Available', 'Progressing']);
    for (const pod of await activePods()) expect(pod.metadata?.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
  });

  it('rolls out within maxSurge and maxUnavailable, one pod at a time as new pods become available', async () => {
    await start(3);
    await apps.createNamespacedDeployment({ namespace, body: deployment({ replicas: 4, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }, 'nginx:1') });
    await cluster.settle();
    cluster.kubelet.on({}, { startAfter: 5000 });
    await setImage('nginx:2');
    await cluster.settle();
    const counts = async () => {
      const all = await activePods();
      const isNew = (p: k8s.V1Pod) => p.spec?.containers[0]?.image === 'nginx:2';
      return { old: all.filter((p) => !isNew(p)).length, new: all.filter(isNew).length, ready: all.filter((p) => p.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True').length };
    };
    expect(await counts()).toEqual({ old: 4, new: 1, ready: 4 });
    // The new ReplicaSet's first pod counts as progress (progress.go DeploymentProgressing).
    expect(conditionOf(await readDeployment(), 'Progressing')).toMatchObject({ status: 'True', reason: 'ReplicaSetUpdated', message: expect.stringMatching(/^ReplicaSet "web-[a-z0-9]+" is progressing\.$/) });
    for (const expected of [
      { old: 3, new: 2, ready: 4 },
      { old: 2, new: 3, ready: 4 },
      { old: 1, new: 4, ready: 4 },
      { old: 0, new: 4, ready: 4 },
    ]) {
      cluster.clock.advance(5000);
      await cluster.settle();
      expect(await counts()).toEqual(expected);
    }
    const d = await readDeployment();
    expect(d.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(d.status).toMatchObject({ observedGeneration: 2, replicas: 4, updatedReplicas: 4, availableReplicas: 4 });
    expect(conditionOf(d, 'Progressing')?.reason).toBe('NewReplicaSetAvailable');
    const sets = await replicaSets();
    expect(sets.map((rs) => [rs.metadata?.annotations?.['deployment.kubernetes.io/revision'], rs.spec?.replicas])).toEqual(expect.arrayContaining([['1', 0], ['2', 4]]));
  });

  it('Recreate scales the old ReplicaSet to zero and creates the new one once its pods are gone', async () => {
    await start();
    await apps.createNamespacedDeployment({ namespace, body: deployment({ replicas: 2, strategy: { type: 'Recreate' } }, 'nginx:1') });
    await cluster.settle();
    await setImage('nginx:2');
    await cluster.settle();
    expect(await replicaSets()).toHaveLength(1);
    expect((await replicaSets())[0]!.spec?.replicas).toBe(0);
    // The old pods are terminating for their 30 s grace period.
    expect((await core.listNamespacedPod({ namespace })).items.filter((p) => p.metadata?.deletionTimestamp)).toHaveLength(2);
    cluster.clock.advance(30_000);
    await cluster.settle();
    const sets = await replicaSets();
    expect(sets).toHaveLength(2);
    expect((await activePods()).map((p) => p.spec?.containers[0]?.image)).toEqual(['nginx:2', 'nginx:2']);
    expect((await readDeployment()).status).toMatchObject({ replicas: 2, updatedReplicas: 2, availableReplicas: 2 });
  });

  it('does not roll out while paused, says so, and rolls out once resumed', async () => {
    await start();
    await apps.createNamespacedDeployment({ namespace, body: deployment({ replicas: 1 }) });
    await cluster.settle();
    await apps.patchNamespacedDeployment({ name: 'web', namespace, body: { spec: { paused: true } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await setImage('nginx:1.28');
    await cluster.settle();
    expect(await replicaSets()).toHaveLength(1);
    expect(conditionOf(await readDeployment(), 'Progressing')).toMatchObject({ status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' });
    await apps.patchNamespacedDeployment({ name: 'web', namespace, body: { spec: { paused: false } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await cluster.settle();
    expect(await replicaSets()).toHaveLength(2);
    cluster.clock.advance(30_000);
    await cluster.settle();
    const d = await readDeployment();
    expect((await activePods()).map((p) => p.spec?.containers[0]?.image)).toEqual(['nginx:1.28']);
    expect(conditionOf(d, 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' });
  });

  it('rolls back by template: the old ReplicaSet becomes the new one with the next revision', async () => {
    await start();
    await apps.createNamespacedDeployment({ namespace, body: deployment({ replicas: 1 }, 'nginx:1') });
    await cluster.settle();
    const [first] = await replicaSets();
    await setImage('nginx:2');
    await cluster.settle();
    await setImage('nginx:1');
    await cluster.settle();
    const again = await apps.readNamespacedReplicaSet({ name: first!.metadata!.name!, namespace });
    expect(again.metadata?.uid).toBe(first!.metadata?.uid);
    expect(again.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
    expect(again.metadata?.annotations?.['deployment.kubernetes.io/revision-history']).toBe('1');
    expect(again.spec?.replicas).toBe(1);
    expect((await readDeployment()).metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
  });

  it('reports ProgressDeadlineExceeded when pods never become ready within progressDeadlineSeconds', async () => {
    await start();
    cluster.kubelet.on({ selector: { app: 'web' } }, { ready: false });
    await apps.createNamespacedDeployment({ namespace, body: deployment({ replicas: 1, progressDeadlineSeconds: 60 }) });
    await cluster.settle();
    let d = await readDeployment();
    const rsName = (await replicaSets())[0]!.metadata!.name!;
    expect(conditionOf(d, 'Available')).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' });
    expect(conditionOf(d, 'Progressing')).toMatchObject({ status: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "${rsName}" is progressing.` });
    expect(d.status?.unavailableReplicas).toBe(1);
    cluster.clock.advance(60_000);
    await cluster.settle();
    d = await readDeployment();
    expect(conditionOf(d, 'Progressing')).toMatchObject({ status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${rsName}" has timed out progressing.` });
  });

  it('keeps only revisionHistoryLimit old ReplicaSets', async () => {
    await start();
    await apps.createNamespacedDeployment({ namespace, body: deployment({ replicas: 1, revisionHistoryLimit: 1 }, 'nginx:1') });
    await cluster.settle();
    for (const image of ['nginx:2', 'nginx:3']) {
      await setImage(image);
      await cluster.settle();
    }
    const sets = await replicaSets();
    expect(sets.map((rs) => rs.metadata?.annotations?.['deployment.kubernetes.io/revision']).sort()).toEqual(['2', '3']);
  });

  it('deletes its ReplicaSets and pods through the garbage collector', async () => {
    await start();
    await apps.createNamespacedDeployment({ namespace, body: deployment({ replicas: 2 }) });
    await cluster.settle();
    await apps.deleteNamespacedDeployment({ name: 'web', namespace });
    await cluster.settle();
    expect(await replicaSets()).toEqual([]);
    cluster.clock.advance(30_000);
    await cluster.settle();
    expect((await core.listNamespacedPod({ namespace })).items).toEqual([]);
  });
});

describe('determinism', () => {
  it('stores byte-identical objects on every run of the same rollout', async () => {
    const run = async () => {
      await start(2);
      cluster.kubelet.on({ selector: { app: 'web' } }, { startAfter: 2000 });
      await apps.createNamespacedDeployment({ namespace, body: deployment({ replicas: 3 }, 'nginx:1') });
      await cluster.settle();
      cluster.clock.advance(2000);
      await cluster.settle();
      await setImage('nginx:2');
      for (let i = 0; i < 6; i++) {
        await cluster.settle();
        cluster.clock.advance(10_000);
      }
      await cluster.settle();
      const snapshot = cluster.snapshot({ format: 'yaml' });
      await cluster.close();
      return snapshot;
    };
    const first = await run();
    expect(first).toContain('kind: ReplicaSet');
    expect(await run()).toBe(first);
  });
});

describe.skipIf(!kubectlAvailable)('kubectl', () => {
  it('rollout status waits for the rollout and reports success', async () => {
    await start();
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    cluster.kubelet.on({ selector: { app: 'web' } }, { startAfter: 1000 });
    await apps.createNamespacedDeployment({ namespace, body: deployment({ replicas: 2 }) });
    const status = kubectl(['rollout', 'status', 'deployment/web', '--timeout=30s']);
    await cluster.settle();
    cluster.clock.advance(1000);
    await cluster.settle();
    const result = await status;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n').at(-1)).toBe('deployment "web" successfully rolled out');
  }, 60_000);

  it('rollout history lists the revisions and rollout undo brings the previous template back', async () => {
    await start();
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    await apps.createNamespacedDeployment({ namespace, body: deployment({ replicas: 1 }, 'nginx:1') });
    await cluster.settle();
    expect(await kubectl(['set', 'image', 'deployment/web', 'app=nginx:2'])).toMatchObject({ code: 0 });
    await cluster.settle();
    const history = await kubectl(['rollout', 'history', 'deployment/web']);
    expect(history.code).toBe(0);
    expect(history.stdout.split('\n').filter((l) => /^\d/.test(l)).map((l) => l.split(/\s+/)[0])).toEqual(['1', '2']);
    expect(await kubectl(['rollout', 'undo', 'deployment/web'])).toMatchObject({ code: 0, stdout: 'deployment.apps/web rolled back\n' });
    await cluster.settle();
    cluster.clock.advance(30_000);
    await cluster.settle();
    expect((await activePods()).map((p) => p.spec?.containers[0]?.image)).toEqual(['nginx:1']);
    expect((await readDeployment()).metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
  }, 60_000);

  it('get pods --watch shows a pod go from ContainerCreating to Running', async () => {
    await start();
    const { kubeconfig } = await cluster.listen();
    cluster.kubelet.on({ name: 'web' }, { startAfter: 1000 });
    const child = spawn('kubectl', ['get', 'pods', '--watch', '--output-watch-events'], { env: kubectlEnv(kubeconfig) });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const until = async (check: () => boolean) => {
      const started = Date.now();
      while (!check()) {
        if (Date.now() - started > 30_000) throw new Error(`not seen in time; kubectl printed:\n${stdout}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    try {
      // kubectl lists (nothing yet), then watches: create the pod once its watch is open.
      await until(() => clusterInternals(cluster).servedWatches.size === 1);
      await core.createNamespacedPod({ namespace, body: { metadata: { name: 'web' }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } });
      await cluster.settle();
      cluster.clock.advance(1000);
      await cluster.settle();
      await until(() => stdout.includes('Running'));
    } finally {
      child.kill();
    }
    const rows = stdout
      .trim()
      .split('\n')
      .map((l) => l.trim().split(/\s+/).slice(0, 5));
    expect(rows[0]).toEqual(['EVENT', 'NAME', 'READY', 'STATUS', 'RESTARTS']);
    const statuses = rows.slice(1).map((r) => `${r[2]} ${r[3]}`);
    expect(statuses[0]).toBe('0/1 Pending');
    expect(statuses).toContain('0/1 ContainerCreating');
    expect(statuses.at(-1)).toBe('1/1 Running');
  }, 60_000);
});
