// EndpointSlices and Endpoints for Services on a workloads cluster (createFakeCluster({ workloads:
// true })), through @kubernetes/client-node: the pods a Service selects, with their readiness,
// termination, nodes and resolved ports, kept current as pods come, become ready and go.
import * as k8s from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
let discovery: k8s.DiscoveryV1Api;
afterEach(() => cluster?.close());

const namespace = 'default';

async function start(): Promise<void> {
  cluster = await createFakeCluster({ deterministic: true, workloads: true, nodes: 1 });
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  discovery = cluster.kubeConfig.makeApiClient(k8s.DiscoveryV1Api);
}

const pod = (name: string, labels = { app: 'web' }): k8s.V1Pod => ({ metadata: { name, labels }, spec: { containers: [{ name: 'app', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }] } });
const slicesOf = async (service: string) => (await discovery.listNamespacedEndpointSlice({ namespace, labelSelector: `kubernetes.io/service-name=${service}` })).items;

describe('EndpointSlices', () => {
  it('lists the selected pods with their conditions, node and the named target port resolved', async () => {
    await start();
    const svc = await core.createNamespacedService({ namespace, body: { metadata: { name: 'web', labels: { tier: 'front' } }, spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] } } });
    cluster.kubelet.on({ name: 'warming' }, { ready: false });
    await core.createNamespacedPod({ namespace, body: pod('ready') });
    await core.createNamespacedPod({ namespace, body: pod('warming') });
    await core.createNamespacedPod({ namespace, body: pod('other', { app: 'db' }) });
    await cluster.settle();
    const [slice, ...more] = await slicesOf('web');
    expect(more).toEqual([]);
    expect(slice!.metadata?.name).toMatch(/^web-[a-z0-9]{5}$/);
    expect(slice!.metadata?.labels).toEqual({ tier: 'front', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
    expect(slice!.metadata?.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: svc.metadata!.uid!, controller: true, blockOwnerDeletion: true }]);
    expect(slice!.addressType).toBe('IPv4');
    expect(slice!.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    const byName = Object.fromEntries((slice!.endpoints ?? []).map((e) => [e.targetRef?.name, e]));
    expect(Object.keys(byName).sort()).toEqual(['ready', 'warming']);
    const ready = await core.readNamespacedPod({ name: 'ready', namespace });
    expect(byName.ready).toMatchObject({ addresses: [ready.status!.podIP!], conditions: { ready: true, serving: true, terminating: false }, nodeName: 'kubefake-node-1', targetRef: { kind: 'Pod', namespace, name: 'ready', uid: ready.metadata!.uid! } });
    expect(byName.warming!.conditions).toEqual({ ready: false, serving: false, terminating: false });
  });

  it('marks a terminating pod terminating until it is gone', async () => {
    await start();
    await core.createNamespacedService({ namespace, body: { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } } });
    await core.createNamespacedPod({ namespace, body: pod('leaving') });
    await cluster.settle();
    await core.deleteNamespacedPod({ name: 'leaving', namespace });
    await cluster.settle();
    let [slice] = await slicesOf('web');
    expect(slice!.endpoints?.[0]?.conditions).toEqual({ ready: false, serving: true, terminating: true });
    expect(slice!.ports).toEqual([{ name: '', port: 80, protocol: 'TCP' }]);
    cluster.clock.advance(30_000);
    await cluster.settle();
    [slice] = await slicesOf('web');
    expect(slice!.endpoints ?? []).toEqual([]);
  });

  it('publishes a pod hostname only in the Service its subdomain names (ShouldSetHostname)', async () => {
    await start();
    for (const name of ['db', 'other']) await core.createNamespacedService({ namespace, body: { metadata: { name }, spec: { selector: { app: 'db' }, clusterIP: 'None', ports: [{ port: 5432 }] } } });
    await core.createNamespacedPod({ namespace, body: { ...pod('db-0', { app: 'db' }), spec: { ...pod('db-0').spec!, hostname: 'db-0', subdomain: 'db' } } });
    await cluster.settle();
    expect((await slicesOf('db'))[0]!.endpoints?.[0]?.hostname).toBe('db-0');
    expect((await slicesOf('other'))[0]!.endpoints?.[0]).toBeDefined();
    expect((await slicesOf('other'))[0]!.endpoints?.[0]?.hostname).toBeUndefined();
    expect((await core.readNamespacedEndpoints({ name: 'db', namespace })).subsets?.[0]?.addresses?.[0]?.hostname).toBe('db-0');
    const other = await core.readNamespacedEndpoints({ name: 'other', namespace });
    expect(other.subsets?.[0]?.addresses?.[0]?.ip).toBeDefined();
    expect(other.subsets?.[0]?.addresses?.[0]?.hostname).toBeUndefined();
  });

  it('leaves Services without a selector alone', async () => {
    await start();
    await core.createNamespacedService({ namespace, body: { metadata: { name: 'external' }, spec: { ports: [{ port: 80 }] } } });
    await core.createNamespacedPod({ namespace, body: pod('a') });
    await cluster.settle();
    expect(await slicesOf('external')).toEqual([]);
  });
});

describe('Endpoints', () => {
  it('keeps ready and not-ready addresses of the selected pods', async () => {
    await start();
    await core.createNamespacedService({ namespace, body: { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] } } });
    cluster.kubelet.on({ name: 'warming' }, { ready: false });
    await core.createNamespacedPod({ namespace, body: pod('ready') });
    await core.createNamespacedPod({ namespace, body: pod('warming') });
    await cluster.settle();
    const endpoints = await core.readNamespacedEndpoints({ name: 'web', namespace });
    expect(endpoints.metadata?.labels).toEqual({ 'endpoints.kubernetes.io/managed-by': 'endpoint-controller' });
    expect(endpoints.subsets).toHaveLength(1);
    const [subset] = endpoints.subsets!;
    expect(subset!.addresses?.map((a) => a.targetRef?.name)).toEqual(['ready']);
    expect(subset!.notReadyAddresses?.map((a) => a.targetRef?.name)).toEqual(['warming']);
    expect(subset!.addresses?.[0]?.nodeName).toBe('kubefake-node-1');
    expect(subset!.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
  });
});
