// DaemonSets on a workloads cluster (createFakeCluster({ workloads: true })), through
// @kubernetes/client-node on a frozen clock: one pod per eligible node, pinned by node affinity,
// with the daemon tolerations; nodes it may not run on; rolling updates maxUnavailable at a time.
import * as k8s from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

let cluster: FakeCluster;
let apps: k8s.AppsV1Api;
let core: k8s.CoreV1Api;
afterEach(() => cluster?.close());

const namespace = 'default';
const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

async function start(nodes = 3): Promise<void> {
  cluster = await createFakeCluster({ deterministic: true, workloads: true, nodes });
  apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
}

const daemonSet = (spec: Partial<k8s.V1DaemonSetSpec> = {}, image = 'agent:1'): k8s.V1DaemonSet => ({
  metadata: { name: 'agent' },
  spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image }] } }, ...spec },
});
const livePods = async () => (await core.listNamespacedPod({ namespace })).items.filter((p) => !p.metadata?.deletionTimestamp);

describe('DaemonSet', () => {
  it('runs one pod on each node, pinned there and tolerating what daemon pods tolerate', async () => {
    await start(3);
    await apps.createNamespacedDaemonSet({ namespace, body: daemonSet() });
    await cluster.settle();
    const pods = await livePods();
    expect(pods.map((p) => p.spec?.nodeName).sort()).toEqual(['kubefake-node-1', 'kubefake-node-2', 'kubefake-node-3']);
    const pod = pods.find((p) => p.spec?.nodeName === 'kubefake-node-2')!;
    expect(pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms).toEqual([
      { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['kubefake-node-2'] }] },
    ]);
    expect(pod.spec?.tolerations).toEqual(
      expect.arrayContaining([
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
      ]),
    );
    expect(pod.metadata?.labels).toMatchObject({ app: 'agent', 'pod-template-generation': '1' });
    expect(pod.metadata?.labels?.['controller-revision-hash']).toMatch(/^[a-z0-9]+$/);
    const status = (await apps.readNamespacedDaemonSet({ name: 'agent', namespace })).status;
    expect(status).toEqual({ currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 3, observedGeneration: 1, updatedNumberScheduled: 3, numberAvailable: 3 });
    // daemon/update.go snapshot: one revision named for the pods' hash, labelled with the template's labels and the hash.
    const hash = pod.metadata!.labels!['controller-revision-hash']!;
    const revisions = (await apps.listNamespacedControllerRevision({ namespace })).items;
    expect(revisions.map((r) => [r.metadata?.name, r.revision, r.metadata?.labels])).toEqual([[`agent-${hash}`, 1, { app: 'agent', 'controller-revision-hash': hash }]]);
  });

  it("replaces a template toleration the daemon's matches, in place (AddOrUpdateTolerationInPodSpec)", async () => {
    await start(1);
    const own = [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Equal', value: 'x', effect: 'NoExecute' },
    ];
    const body = daemonSet();
    body.spec!.template.spec!.tolerations = own;
    await apps.createNamespacedDaemonSet({ namespace, body });
    await cluster.settle();
    const [pod] = await livePods();
    expect(pod!.spec?.tolerations?.slice(0, 3)).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
      own[1],
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    ]);
  });

  it('skips nodes with a taint it does not tolerate or outside its nodeSelector, and follows node changes', async () => {
    await start(3);
    await core.patchNode({ name: 'kubefake-node-1', body: { spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] } } }, merge);
    await core.patchNode({ name: 'kubefake-node-2', body: { metadata: { labels: { role: 'edge' } } } }, merge);
    await core.patchNode({ name: 'kubefake-node-3', body: { metadata: { labels: { role: 'edge' } } } }, merge);
    await apps.createNamespacedDaemonSet({ namespace, body: daemonSet({ template: { metadata: { labels: { app: 'agent' } }, spec: { nodeSelector: { role: 'edge' }, containers: [{ name: 'agent', image: 'agent:1' }] } } }) });
    await cluster.settle();
    expect((await livePods()).map((p) => p.spec?.nodeName).sort()).toEqual(['kubefake-node-2', 'kubefake-node-3']);
    await core.patchNode({ name: 'kubefake-node-3', body: { metadata: { labels: { role: null } } } }, merge);
    await cluster.settle();
    expect((await livePods()).map((p) => p.spec?.nodeName)).toEqual(['kubefake-node-2']);
    expect((await apps.readNamespacedDaemonSet({ name: 'agent', namespace })).status?.desiredNumberScheduled).toBe(1);
  });

  it('replaces pods of an old template one node at a time', async () => {
    await start(3);
    await apps.createNamespacedDaemonSet({ namespace, body: daemonSet() });
    await cluster.settle();
    await apps.patchNamespacedDaemonSet(
      { name: 'agent', namespace, body: { spec: { template: { spec: { containers: [{ name: 'agent', image: 'agent:2' }] } } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
    const images = async () => (await livePods()).map((p) => p.spec!.containers[0]!.image).sort();
    await cluster.settle();
    expect(await images()).toEqual(['agent:1', 'agent:1']);
    // Each old pod terminates for its 30 s grace period; its replacement follows, and once it is
    // available the next old pod goes (maxUnavailable 1).
    for (const expected of [
      ['agent:1', 'agent:2'],
      ['agent:2', 'agent:2'],
      ['agent:2', 'agent:2', 'agent:2'],
    ]) {
      cluster.clock.advance(30_000);
      await cluster.settle();
      expect(await images()).toEqual(expected);
    }
    expect((await apps.readNamespacedDaemonSet({ name: 'agent', namespace })).status).toMatchObject({ updatedNumberScheduled: 3, numberAvailable: 3, observedGeneration: 2 });
  });

  it('rounds a percent maxUnavailable up (UnavailableCount): 50% of 3 nodes replaces 2 at a time', async () => {
    await start(3);
    await apps.createNamespacedDaemonSet({ namespace, body: daemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%' } } }) });
    await cluster.settle();
    await apps.patchNamespacedDaemonSet(
      { name: 'agent', namespace, body: { spec: { template: { spec: { containers: [{ name: 'agent', image: 'agent:2' }] } } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
    await cluster.settle();
    expect((await livePods()).map((p) => p.spec!.containers[0]!.image)).toEqual(['agent:1']);
  });

  it('with OnDelete replaces only the pods the user deletes', async () => {
    await start(2);
    await apps.createNamespacedDaemonSet({ namespace, body: daemonSet({ updateStrategy: { type: 'OnDelete' } }) });
    await cluster.settle();
    await apps.patchNamespacedDaemonSet(
      { name: 'agent', namespace, body: { spec: { template: { spec: { containers: [{ name: 'agent', image: 'agent:2' }] } } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
    const images = async () => Object.fromEntries((await livePods()).map((p) => [p.spec!.nodeName!, p.spec!.containers[0]!.image]));
    await cluster.settle();
    cluster.clock.advance(60_000);
    await cluster.settle();
    expect(await images()).toEqual({ 'kubefake-node-1': 'agent:1', 'kubefake-node-2': 'agent:1' });
    let status = (await apps.readNamespacedDaemonSet({ name: 'agent', namespace })).status!;
    expect(status).toMatchObject({ desiredNumberScheduled: 2, numberAvailable: 2, observedGeneration: 2 });
    expect(status.updatedNumberScheduled).toBeUndefined();
    const onNode2 = (await livePods()).find((p) => p.spec?.nodeName === 'kubefake-node-2')!;
    await core.deleteNamespacedPod({ name: onNode2.metadata!.name!, namespace });
    cluster.clock.advance(30_000);
    await cluster.settle();
    expect(await images()).toEqual({ 'kubefake-node-1': 'agent:1', 'kubefake-node-2': 'agent:2' });
    const replacement = (await livePods()).find((p) => p.spec?.nodeName === 'kubefake-node-2')!;
    expect(replacement.metadata?.labels?.['pod-template-generation']).toBe('2');
    status = (await apps.readNamespacedDaemonSet({ name: 'agent', namespace })).status!;
    expect(status).toMatchObject({ updatedNumberScheduled: 1, numberAvailable: 2 });
  });
});
