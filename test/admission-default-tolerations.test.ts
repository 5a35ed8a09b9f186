// DefaultTolerationSeconds, as a v1.36 kube-apiserver runs it by default: a pod gets the
// not-ready and unreachable NoExecute tolerations for 300 s unless it already tolerates them.
// And its counterpart on Nodes, TaintNodesByCondition: new nodes start tainted not-ready.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterAll(() => cluster.close());

const notReady = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const unreachable = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const pod = (name: string, tolerations?: k8s.V1Toleration[]): k8s.V1Pod => ({
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...(tolerations ? { tolerations } : {}) },
});

describe('DefaultTolerationSeconds', () => {
  it('adds both tolerations, not-ready first, to a pod with none', async () => {
    const created = await core.createNamespacedPod({ namespace: 'default', body: pod('plain') });
    expect(created.spec!.tolerations).toEqual([notReady, unreachable]);
    const stored = await core.readNamespacedPod({ namespace: 'default', name: 'plain' });
    expect(stored.spec!.tolerations).toEqual([notReady, unreachable]);
  });

  it('keeps a pod’s own toleration for one taint and adds only the other', async () => {
    const own = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 };
    const created = await core.createNamespacedPod({ namespace: 'default', body: pod('own', [own]) });
    expect(created.spec!.tolerations).toEqual([own, notReady]);
  });

  it('adds nothing when a toleration with an empty key and effect tolerates everything', async () => {
    const created = await core.createNamespacedPod({ namespace: 'default', body: pod('all', [{ operator: 'Exists' }]) });
    expect(created.spec!.tolerations).toEqual([{ operator: 'Exists' }]);
  });

  it('shows them in a dry run’s answer without storing the pod', async () => {
    const created = await core.createNamespacedPod({ namespace: 'default', body: pod('dry'), dryRun: 'All' });
    expect(created.spec!.tolerations).toEqual([notReady, unreachable]);
    await expect(core.readNamespacedPod({ namespace: 'default', name: 'dry' })).rejects.toMatchObject({ code: 404 });
  });

  it('leaves other kinds alone: a pod template in a Deployment gets no toleration', async () => {
    const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    const d = await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'd' },
        spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
      },
    });
    expect(d.spec!.template.spec!.tolerations).toBeUndefined();
  });
});

describe('TaintNodesByCondition', () => {
  it('creates a Node with the not-ready NoSchedule taint, once', async () => {
    const plain = await core.createNode({ body: { metadata: { name: 'n1' } } });
    expect(plain.spec!.taints).toEqual([{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
    const own = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
    const tainted = await core.createNode({ body: { metadata: { name: 'n2' }, spec: { taints: [own, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] } } });
    expect(tainted.spec!.taints).toEqual([own, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
  });
});
