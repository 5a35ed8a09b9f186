// What a new cluster holds besides its namespaces, and what the always-on controllers keep in
// every namespace: the `kubernetes` Service with its Endpoints and EndpointSlice (kube-apiserver's
// kubernetesservice controller and endpoint reconciler), each namespace's `default`
// ServiceAccount (the ServiceAccount controller) and `kube-root-ca.crt` ConfigMap (the root-CA
// publisher); through client-node.
import { X509Certificate } from 'node:crypto';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
let discovery: k8s.DiscoveryV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  discovery = cluster.kubeConfig.makeApiClient(k8s.DiscoveryV1Api);
});
afterAll(() => cluster.close());

const names = (list: { items: Array<{ metadata?: { namespace?: string; name?: string } }> }) => list.items.map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`);
const ROOT_CA_DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

describe('a new cluster', () => {
  it('serves the kubernetes Service in default on the first address of the service range', async () => {
    const svc = await core.readNamespacedService({ name: 'kubernetes', namespace: 'default' });
    expect(svc.metadata?.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
    expect(svc.spec).toEqual({
      clusterIP: '10.96.0.1',
      clusterIPs: ['10.96.0.1'],
      internalTrafficPolicy: 'Cluster',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
      sessionAffinity: 'None',
      type: 'ClusterIP',
    });
    expect(svc.metadata?.managedFields?.map((m) => [m.manager, m.operation])).toEqual([['kube-apiserver', 'Update']]);
    expect(names(await core.listServiceForAllNamespaces())).toEqual(['default/kubernetes']);
  });

  it('keeps 10.96.0.1 for it: a Service asking for that address is refused, others get later ones', async () => {
    await expect(core.createNamespacedService({ namespace: 'default', body: { metadata: { name: 'thief' }, spec: { clusterIP: '10.96.0.1', ports: [{ port: 80 }] } } })).rejects.toMatchObject({
      code: 422,
      body: expect.stringContaining('spec.clusterIPs: Invalid value: [\\"10.96.0.1\\"]: failed to allocate IP 10.96.0.1: provided IP is already allocated'),
    });
  });

  it('serves its Endpoints (not mirrored) and the EndpointSlice of the same name', async () => {
    const ep = await core.readNamespacedEndpoints({ name: 'kubernetes', namespace: 'default' });
    expect(ep.metadata?.labels).toEqual({ 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    expect(ep.subsets).toEqual([{ addresses: [{ ip: '172.18.0.2' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }]);
    const slice = await discovery.readNamespacedEndpointSlice({ name: 'kubernetes', namespace: 'default' });
    expect(slice.metadata?.labels).toEqual({ 'kubernetes.io/service-name': 'kubernetes' });
    expect(slice.addressType).toBe('IPv4');
    expect(slice.endpoints).toEqual([{ addresses: ['172.18.0.2'], conditions: { ready: true } }]);
    expect(slice.ports).toEqual([{ name: 'https', port: 6443, protocol: 'TCP' }]);
  });

  it('has a default ServiceAccount and a kube-root-ca.crt ConfigMap in each of its namespaces', async () => {
    const boot = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];
    expect(names(await core.listServiceAccountForAllNamespaces())).toEqual(boot.map((ns) => `${ns}/default`));
    expect(names(await core.listConfigMapForAllNamespaces())).toEqual(boot.map((ns) => `${ns}/kube-root-ca.crt`));
    const sa = await core.readNamespacedServiceAccount({ name: 'default', namespace: 'kube-system' });
    expect(sa.secrets).toBeUndefined();
    // Its only fields are name and namespace, which managedFields leave out: it has none.
    expect(sa.metadata?.managedFields).toBeUndefined();
  });

  it('publishes a real CA certificate with the publisher\'s description', async () => {
    const cm = await core.readNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: 'default' });
    expect(cm.metadata?.annotations).toEqual({ 'kubernetes.io/description': ROOT_CA_DESCRIPTION });
    expect(Object.keys(cm.data ?? {})).toEqual(['ca.crt']);
    const ca = new X509Certificate(cm.data!['ca.crt']!);
    expect(ca.ca).toBe(true);
    expect(ca.verify(ca.publicKey)).toBe(true);
    const other = await core.readNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: 'kube-public' });
    expect(other.data).toEqual(cm.data);
  });
});

describe('the controllers', () => {
  it('give a new namespace its ServiceAccount and ConfigMap', async () => {
    await core.createNamespace({ body: { metadata: { name: 'team-a' } } });
    await cluster.settle();
    expect(names(await core.listNamespacedServiceAccount({ namespace: 'team-a' }))).toEqual(['team-a/default']);
    const cm = await core.readNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: 'team-a' });
    expect(cm.data).toEqual((await core.readNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: 'default' })).data);
  });

  it('recreate the default ServiceAccount when it is deleted', async () => {
    const before = await core.readNamespacedServiceAccount({ name: 'default', namespace: 'team-a' });
    await core.deleteNamespacedServiceAccount({ name: 'default', namespace: 'team-a' });
    await cluster.settle();
    const after = await core.readNamespacedServiceAccount({ name: 'default', namespace: 'team-a' });
    expect(after.metadata?.uid).not.toBe(before.metadata?.uid);
  });

  it('leave other ServiceAccounts deleted', async () => {
    await core.createNamespacedServiceAccount({ namespace: 'team-a', body: { metadata: { name: 'builder' } } });
    await core.deleteNamespacedServiceAccount({ name: 'builder', namespace: 'team-a' });
    await cluster.settle();
    expect(names(await core.listNamespacedServiceAccount({ namespace: 'team-a' }))).toEqual(['team-a/default']);
  });

  it('restore kube-root-ca.crt when its data or description is changed, keeping other changes', async () => {
    const cm = await core.readNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: 'team-a' });
    const original = cm.data;
    await core.replaceNamespacedConfigMap({
      name: 'kube-root-ca.crt',
      namespace: 'team-a',
      body: { ...cm, metadata: { ...cm.metadata, labels: { mine: 'yes' }, annotations: {} }, data: { 'ca.crt': 'not a certificate', extra: 'x' } },
    });
    await cluster.settle();
    const restored = await core.readNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: 'team-a' });
    expect(restored.data).toEqual(original);
    expect(restored.metadata?.annotations).toEqual({ 'kubernetes.io/description': ROOT_CA_DESCRIPTION });
    expect(restored.metadata?.labels).toEqual({ mine: 'yes' });
  });

  it('recreate kube-root-ca.crt when it is deleted', async () => {
    await core.deleteNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: 'team-a' });
    await cluster.settle();
    const cm = await core.readNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: 'team-a' });
    expect(cm.metadata?.annotations).toEqual({ 'kubernetes.io/description': ROOT_CA_DESCRIPTION });
  });

  it('recreate the kubernetes Service, Endpoints and EndpointSlice when they are deleted', async () => {
    await core.deleteNamespacedService({ name: 'kubernetes', namespace: 'default' });
    await core.deleteNamespacedEndpoints({ name: 'kubernetes', namespace: 'default' });
    await discovery.deleteNamespacedEndpointSlice({ name: 'kubernetes', namespace: 'default' });
    await cluster.settle();
    expect((await core.readNamespacedService({ name: 'kubernetes', namespace: 'default' })).spec?.clusterIP).toBe('10.96.0.1');
    expect((await core.readNamespacedEndpoints({ name: 'kubernetes', namespace: 'default' })).subsets?.[0]?.addresses).toEqual([{ ip: '172.18.0.2' }]);
    expect((await discovery.readNamespacedEndpointSlice({ name: 'kubernetes', namespace: 'default' })).endpoints).toHaveLength(1);
  });

  it('let a terminating namespace empty out and go', async () => {
    await core.deleteNamespace({ name: 'team-a' });
    await cluster.settle();
    await expect(core.readNamespace({ name: 'team-a' })).rejects.toMatchObject({ code: 404 });
    expect(cluster.list('ServiceAccount', { namespace: 'team-a' })).toEqual([]);
    expect(cluster.list('ConfigMap', { namespace: 'team-a' })).toEqual([]);
  });
});

describe('start-up copies', () => {
  // A cluster's boot objects are copies of what the process's first cluster stored through the
  // registry (controllers/boot-templates.ts): they must equal what the registry stores now.
  const stable = (o: object) => {
    const copy = structuredClone(o) as { metadata: Record<string, unknown> };
    for (const field of ['uid', 'resourceVersion', 'creationTimestamp']) delete copy.metadata[field];
    for (const m of (copy.metadata.managedFields ?? []) as Array<{ time?: string }>) delete m.time;
    return copy;
  };

  it('equal what the controllers write through the registry when they recreate them', async () => {
    await using fresh = await createFakeCluster();
    await using again = await createFakeCluster(); // built from the process's copies
    const targets = [
      { kind: 'Service', namespace: 'default', name: 'kubernetes' },
      { kind: 'Endpoints', namespace: 'default', name: 'kubernetes' },
      { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', namespace: 'default', name: 'kubernetes' },
      { kind: 'ServiceAccount', namespace: 'kube-system', name: 'default' },
      { kind: 'ConfigMap', namespace: 'kube-public', name: 'kube-root-ca.crt' },
    ];
    const booted = targets.map((t) => again.get(t)!);
    const handle = again.kubeConfig.makeApiClient(k8s.KubernetesObjectApi);
    for (const t of targets) await handle.delete({ apiVersion: t.apiVersion ?? 'v1', kind: t.kind, metadata: { name: t.name, namespace: t.namespace } });
    await again.settle();
    const recreated = targets.map((t) => again.get(t)!);
    expect(recreated.map(stable)).toEqual(booted.map(stable));
    expect(recreated.map((o) => o.metadata?.uid)).not.toEqual(booted.map((o) => o.metadata?.uid));
    expect(fresh.get(targets[0]!)!.metadata?.uid).not.toBe(booted[0]!.metadata?.uid);
  });

  it('keep a deterministic cluster the same on every start', async () => {
    const boot = async () => {
      await using c = await createFakeCluster({ deterministic: true, seed: 3 });
      return c.snapshot({ includeBootstrap: true, managedFields: true, kinds: ['Service', 'Endpoints', 'EndpointSlice', 'ServiceAccount', 'Namespace'] });
    };
    const first = await boot();
    expect(first.length).toBe(4 + 3 + 4);
    expect(await boot()).toEqual(first);
  });
});

describe('snapshots', () => {
  it('leave out what the cluster made itself until a test changes it, and include it on request', async () => {
    await using fresh = await createFakeCluster();
    const freshCore = fresh.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await freshCore.createNamespace({ body: { metadata: { name: 'team-b' } } });
    await fresh.settle();
    expect(fresh.snapshot().map((o) => `${o.kind} ${o.metadata?.name}`)).toEqual(['Namespace team-b']);
    const all = fresh.snapshot({ includeBootstrap: true }).map((o) => `${o.kind} ${o.metadata?.namespace ?? ''}/${o.metadata?.name}`);
    expect(all).toEqual(expect.arrayContaining(['ConfigMap team-b/kube-root-ca.crt', 'ServiceAccount team-b/default', 'Service default/kubernetes', 'EndpointSlice default/kubernetes', 'Endpoints default/kubernetes']));
    await freshCore.patchNamespacedServiceAccount({ name: 'default', namespace: 'team-b', body: { imagePullSecrets: [{ name: 'registry' }] } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    expect(fresh.snapshot().map((o) => `${o.kind} ${o.metadata?.name}`)).toEqual(['Namespace team-b', 'ServiceAccount default']);
  });
});
