// Who the simulated control plane's writes are recorded as in managedFields, seen through
// @kubernetes/client-node as `kubectl get -o yaml --show-managed-fields` shows them on a real
// cluster: the ReplicaSet controller's pod (kube-controller-manager Update), the kubelet's status
// patches of pods and nodes (kubelet Update, subresource status), the node controllers' additions
// (kube-controller-manager), the scheduler's
// PodScheduled=False patch (kube-scheduler, status), and no entry for the binding (BindingREST
// writes storage directly). Server-side apply then conflicts with those managers as it would.
import * as k8s from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
afterEach(() => cluster?.close());

async function start(): Promise<k8s.CoreV1Api> {
  cluster = await createFakeCluster({ deterministic: true, workloads: true, nodes: 1 });
  return cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
}

/** manager / operation / subresource of each entry, in the order the server lists them. */
const owners = (obj: { metadata?: k8s.V1ObjectMeta }) => obj.metadata?.managedFields?.map((e) => [e.manager, e.operation, e.subresource ?? '']);
const fieldsOf = (obj: { metadata?: k8s.V1ObjectMeta }, manager: string, subresource?: string) =>
  obj.metadata?.managedFields?.find((e) => e.manager === manager && e.subresource === subresource)?.fieldsV1 as Record<string, Record<string, Record<string, unknown>>> | undefined;
const READY = 'k:{"type":"Ready"}';
const applyPatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply);

async function deploymentPod(core: k8s.CoreV1Api): Promise<k8s.V1Pod> {
  await cluster.kubeConfig.makeApiClient(k8s.AppsV1Api).createNamespacedDeployment({
    namespace: 'default',
    body: { metadata: { name: 'web' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } } },
  });
  await cluster.settle();
  const pods = await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' });
  expect(pods.items).toHaveLength(1);
  return pods.items[0]!;
}

describe('managedFields of the control plane writes', () => {
  it('records the ReplicaSet controller for a pod it created and the kubelet for the status it patched', async () => {
    const core = await start();
    const pod = await deploymentPod(core);
    expect(pod.status?.phase).toBe('Running');
    expect(owners(pod)).toEqual([
      ['kube-controller-manager', 'Update', ''],
      ['kubelet', 'Update', 'status'],
    ]);
    expect(pod.metadata?.managedFields?.every((e) => e.apiVersion === 'v1' && e.fieldsType === 'FieldsV1' && e.time instanceof Date)).toBe(true);
    const controller = fieldsOf(pod, 'kube-controller-manager')!;
    expect(Object.keys(controller)).toEqual(['f:metadata', 'f:spec']);
    expect(controller['f:metadata']!['f:ownerReferences']).toBeDefined();
    const kubelet = fieldsOf(pod, 'kubelet', 'status')!;
    expect(Object.keys(kubelet)).toEqual(['f:status']);
    const status = kubelet['f:status']!;
    expect(status).toMatchObject({ 'f:phase': {}, 'f:podIP': {}, 'f:startTime': {}, 'f:containerStatuses': {}, 'f:hostIP': {} });
    // The conditions it reported; PodScheduled is the binding's, which records no manager.
    const conditions = Object.keys(status['f:conditions'] as Record<string, unknown>);
    expect(conditions).toEqual(['k:{"type":"ContainersReady"}', 'k:{"type":"Initialized"}', 'k:{"type":"PodReadyToStartContainers"}', READY]);
    expect(pod.status?.conditions?.map((c) => c.type)).toContain('PodScheduled');
  });

  it('records kube-controller-manager for the Deployment and ReplicaSet status it wrote, and the ReplicaSet it created', async () => {
    const core = await start();
    await deploymentPod(core);
    const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    const deployment = await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' });
    expect(owners(deployment)).toEqual([
      ['kube-controller-manager', 'Update', 'status'],
      ['kubernetes-client-javascript', 'Update', ''],
    ]);
    // UpdateStatus carries the revision annotation (the status strategy keeps annotations).
    expect(fieldsOf(deployment, 'kube-controller-manager', 'status')!['f:metadata']).toEqual({ 'f:annotations': { '.': {}, 'f:deployment.kubernetes.io/revision': {} } });
    const [replicaSet] = (await apps.listNamespacedReplicaSet({ namespace: 'default' })).items;
    expect(owners(replicaSet!)).toEqual([
      ['kube-controller-manager', 'Update', ''],
      ['kube-controller-manager', 'Update', 'status'],
    ]);
  });

  it('records kube-scheduler for the PodScheduled=False status of a pod no node fits', async () => {
    const core = await start();
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'huge' }, spec: { containers: [{ name: 'a', image: 'nginx', resources: { requests: { cpu: '1000' } } }] } } });
    await cluster.settle();
    const pod = await core.readNamespacedPod({ namespace: 'default', name: 'huge' });
    expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    expect(owners(pod)).toEqual([
      ['kube-scheduler', 'Update', 'status'],
      ['kubernetes-client-javascript', 'Update', ''],
    ]);
    expect(fieldsOf(pod, 'kube-scheduler', 'status')).toEqual({
      'f:status': { 'f:conditions': { '.': {}, 'k:{"type":"PodScheduled"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} } } },
    });
  });

  it('records the kubelet for a node it registered and the node status it patched, kube-controller-manager for what its node controllers add', async () => {
    const core = await start();
    // The node controllers' patch follows the kubelet's first status: wait until the loops are idle.
    await cluster.settle();
    const node = await core.readNode({ name: 'kubefake-node-1' });
    expect(owners(node)).toEqual([
      ['kube-controller-manager', 'Update', ''],
      ['kubelet', 'Update', ''],
      ['kubelet', 'Update', 'status'],
    ]);
    // The TTL controller's annotation and nodeipam's pod range; the not-ready taint it took off is nobody's.
    expect(fieldsOf(node, 'kube-controller-manager')).toEqual({
      'f:metadata': { 'f:annotations': { 'f:node.alpha.kubernetes.io/ttl': {} } },
      'f:spec': { 'f:podCIDR': {}, 'f:podCIDRs': { '.': {}, 'v:"10.244.0.0/24"': {} } },
    });
    expect(node.spec?.taints).toBeUndefined();
    expect(node.metadata?.annotations).toEqual({ 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' });
    const status = fieldsOf(node, 'kubelet', 'status')!['f:status']!;
    expect(Object.keys(status['f:conditions'] as Record<string, unknown>)).toEqual(['.', 'k:{"type":"DiskPressure"}', 'k:{"type":"MemoryPressure"}', 'k:{"type":"PIDPressure"}', READY]);
    expect(status).toMatchObject({ 'f:nodeInfo': { 'f:kubeletVersion': {} }, 'f:allocatable': { 'f:pods': {} }, 'f:addresses': {} });
    expect(fieldsOf(node, 'kubelet')!['f:spec']).toEqual({ 'f:providerID': {} });
    expect(Object.keys(fieldsOf(node, 'kubelet')!['f:metadata']!['f:annotations']!)).toEqual(['.', 'f:volumes.kubernetes.io/controller-managed-attach-detach']);
  });
});

describe('server-side apply against the kubelet', () => {
  const readyFalse = (name: string) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    status: { conditions: [{ type: 'Ready', status: 'False', reason: 'Drained' }] },
  });

  it('conflicts with the kubelet over a pod condition it reported, unless forced', async () => {
    const core = await start();
    const { metadata } = await deploymentPod(core);
    const name = metadata!.name!;
    await expectStatus(core.patchNamespacedPodStatus({ name, namespace: 'default', body: readyFalse(name), fieldManager: 'drainer' }, applyPatch), {
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "kubelet" with subresource "status" using v1: .status.conditions[type="Ready"].status',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubelet" with subresource "status" using v1', field: '.status.conditions[type="Ready"].status' }] },
    });
    const forced = await core.patchNamespacedPodStatus({ name, namespace: 'default', body: readyFalse(name), fieldManager: 'drainer', force: true }, applyPatch);
    expect(forced.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'Drained' });
    expect(owners(forced)).toEqual([
      ['drainer', 'Apply', 'status'],
      ['kube-controller-manager', 'Update', ''],
      ['kubelet', 'Update', 'status'],
    ]);
    // Forced: the field left the kubelet's set for the applier's.
    expect(fieldsOf(forced, 'kubelet', 'status')!['f:status']!['f:conditions']![READY]).not.toHaveProperty('f:status');
    expect(fieldsOf(forced, 'drainer', 'status')!['f:status']!['f:conditions']![READY]).toHaveProperty('f:status');
    // The kubelet's next sync reports the pod as it sees it, and owns the field again.
    await cluster.settle();
    const after = await core.readNamespacedPod({ name, namespace: 'default' });
    expect(after.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(fieldsOf(after, 'kubelet', 'status')!['f:status']!['f:conditions']![READY]).toHaveProperty('f:status');
  });

  it('applies a condition the kubelet does not report without a conflict, and the kubelet keeps it', async () => {
    const core = await start();
    const { metadata } = await deploymentPod(core);
    const name = metadata!.name!;
    const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, status: { conditions: [{ type: 'example.com/Canary', status: 'True' }] } };
    const applied = await core.patchNamespacedPodStatus({ name, namespace: 'default', body, fieldManager: 'canary' }, applyPatch);
    expect(owners(applied)).toContainEqual(['canary', 'Apply', 'status']);
    await cluster.settle();
    const after = await core.readNamespacedPod({ name, namespace: 'default' });
    expect(after.status?.conditions?.find((c) => c.type === 'example.com/Canary')?.status).toBe('True');
    expect(Object.keys(fieldsOf(after, 'canary', 'status')!['f:status']!['f:conditions']!)).toEqual(['k:{"type":"example.com/Canary"}']);
  });
});
