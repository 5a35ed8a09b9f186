// A real cluster's state as a fixture (issue 24): dumps of `kubectl get -o yaml` applied with
// their server-set fields kept or cleaned, owner chains kept intact, and a kubectl dump that
// round-trips through a second cluster.
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createFakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';

const DUMP = fileURLToPath(new URL('./fixtures/dumps/shop-get-all.yaml', import.meta.url));
const CRONTAB_CRD = fileURLToPath(new URL('../examples/crontab/crontab-crd.yaml', import.meta.url));

const DEPLOYMENT_UID = '1a0e6b0d-4f9d-4b45-8c9d-5e0c1e2f3a01';
const REPLICASET_UID = '2b1f7c1e-5a0e-4c56-9d0e-6f1d2f3a4b02';
const POD_UID = '3c2a8d2f-6b1f-4d67-8e1f-7a2e3b4c5d03';

describe("apply(dump, { serverFields: 'keep' })", () => {
  it('restores uids, creation times, generations, status and managedFields, with a revision of its own', async () => {
    await using cluster = await createFakeCluster();
    await cluster.apply(DUMP, { serverFields: 'keep', createNamespaces: true });
    await cluster.settle(); // the garbage collector has looked at the owner chain
    const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);

    const deployment = await apps.readNamespacedDeployment({ name: 'web', namespace: 'shop' });
    expect(deployment.metadata?.uid).toBe(DEPLOYMENT_UID);
    expect(deployment.metadata?.creationTimestamp).toEqual(new Date('2026-10-01T12:00:04Z'));
    expect(deployment.metadata?.generation).toBe(3);
    expect(deployment.metadata?.resourceVersion).not.toBe('48220');
    expect(deployment.status).toEqual({ availableReplicas: 1, observedGeneration: 3, readyReplicas: 1, replicas: 1, updatedReplicas: 1 });
    expect(deployment.metadata?.managedFields?.map((f) => [f.manager, f.subresource])).toEqual([['kubectl-scale', 'scale']]);

    const replicaSet = await apps.readNamespacedReplicaSet({ name: 'web-6d4b9c7f8', namespace: 'shop' });
    expect(replicaSet.metadata?.uid).toBe(REPLICASET_UID);
    expect(replicaSet.metadata?.ownerReferences?.[0]?.uid).toBe(DEPLOYMENT_UID);
    const pod = await core.readNamespacedPod({ name: 'web-6d4b9c7f8-x2k9q', namespace: 'shop' });
    expect(pod.metadata?.uid).toBe(POD_UID);
    expect(pod.metadata?.ownerReferences?.[0]?.uid).toBe(REPLICASET_UID);
    expect(pod.status?.phase).toBe('Running');
    expect(pod.status?.podIP).toBe('10.244.0.7');
    expect((await core.readNamespacedService({ name: 'web', namespace: 'shop' })).spec?.clusterIP).toBe('10.96.120.15');
  });

  it('creates owners before their dependents, so the garbage collector keeps the chain', async () => {
    await using cluster = await createFakeCluster();
    // The dump lists the Pod first and its ReplicaSet last, as `kubectl get all` does.
    const stored = await cluster.apply(DUMP, { serverFields: 'keep', createNamespaces: true });
    expect(stored.map((o) => o.kind)).toEqual(['Pod', 'Service', 'Deployment', 'ReplicaSet']);
    const created = cluster.history.all({ type: 'ADDED' }).map((e) => e.kind);
    expect(created.filter((k) => ['Pod', 'Deployment', 'ReplicaSet'].includes(k))).toEqual(['Deployment', 'ReplicaSet', 'Pod']);
    await cluster.settle();
    expect(cluster.list('Pod', { namespace: 'shop' }).map((p) => p.metadata?.name)).toEqual(['web-6d4b9c7f8-x2k9q']);
  });
});

describe("apply(dump, { serverFields: 'clean' })", () => {
  it('creates the objects afresh: new uids, owner references linked to the new owners, no status', async () => {
    await using cluster = await createFakeCluster();
    await cluster.apply(DUMP, { serverFields: 'clean', createNamespaces: true });
    await cluster.settle();
    const deployment = cluster.get({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' })!;
    const replicaSet = cluster.get({ apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: 'shop', name: 'web-6d4b9c7f8' })!;
    const pod = cluster.get({ kind: 'Pod', namespace: 'shop', name: 'web-6d4b9c7f8-x2k9q' })!;
    expect([deployment.metadata?.uid, replicaSet.metadata?.uid, pod.metadata?.uid]).not.toContain(DEPLOYMENT_UID);
    expect(replicaSet.metadata?.ownerReferences?.[0]?.uid).toBe(deployment.metadata?.uid);
    expect(pod.metadata?.ownerReferences?.[0]?.uid).toBe(replicaSet.metadata?.uid);
    expect(deployment.metadata?.generation).toBe(1);
    expect(deployment.status).toEqual({});
    expect((deployment.metadata?.managedFields as { manager?: string }[]).map((f) => f.manager)).not.toContain('kubectl-scale');
    expect((pod.status as { phase?: string }).phase).toBe('Pending');
  });

  it('leaves out an owner reference to an object that is neither in the input nor in the cluster', async () => {
    await using cluster = await createFakeCluster();
    const [orphan] = await cluster.apply(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'settings',
          namespace: 'default',
          uid: 'aaaaaaaa-0000-0000-0000-000000000001',
          resourceVersion: '17',
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'gone', uid: 'bbbbbbbb-0000-0000-0000-000000000002' }],
        },
        data: { a: '1' },
      },
      { serverFields: 'clean' },
    );
    expect(orphan!.metadata?.ownerReferences).toBeUndefined();
    await cluster.settle();
    expect(cluster.get({ kind: 'ConfigMap', name: 'settings' })?.data).toEqual({ a: '1' });
  });
});

describe('apply() of a dump without serverFields', () => {
  it('refuses a resourceVersion on create as the server does, and a namespace that does not exist', async () => {
    await using cluster = await createFakeCluster();
    await expect(cluster.apply(DUMP, { serverFields: 'clean' })).rejects.toThrow('namespaces "shop" not found');
    await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    await expect(cluster.apply(DUMP)).rejects.toThrow('resourceVersion should not be set on objects to be created');
  });
});

describe.runIf(kubectlAvailable)('a kubectl dump as a fixture', () => {
  it('round-trips: `kubectl get -o yaml` of the restored cluster prints what the first one printed', async () => {
    await using source = await createFakeCluster({ manifests: CRONTAB_CRD });
    const sourceKubectl = kubectlRunner((await source.listen()).kubeconfig);
    await source.apply([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
      { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'nightly', namespace: 'shop' }, spec: { cronSpec: '0 3 * * *', image: 'backup' } },
    ]);
    const created = await sourceKubectl(['create', 'deployment', 'web', '-n', 'shop', '--image=nginx:1.27', '--replicas=2']);
    expect(created.stderr).toBe('');
    expect((await sourceKubectl(['scale', 'deployment', 'web', '-n', 'shop', '--replicas=3'])).code).toBe(0);
    // What the issue names: everything, in every namespace.
    const dump = await sourceKubectl(['get', 'all,crontabs', '-A', '-o', 'yaml']);
    expect(dump.code).toBe(0);
    expect(dump.stdout).toContain('kind: CronTab');

    await using restored = await createFakeCluster({ manifests: CRONTAB_CRD });
    await restored.apply(dump.stdout, { serverFields: 'keep', createNamespaces: true });
    await source.settle();
    await restored.settle();
    // The snapshot of the restored cluster is the source's (the cluster's own objects left out while unchanged).
    expect(restored.snapshot()).toEqual(source.snapshot());
    const resources = 'deployments,services,crontabs';
    const shopBefore = await sourceKubectl(['get', resources, '-n', 'shop', '-o', 'yaml']);
    const again = await kubectlRunner((await restored.listen()).kubeconfig)(['get', resources, '-n', 'shop', '-o', 'yaml']);
    const withoutRevisions = (text: string) => text.replace(/^\s*resourceVersion: .*\n/gm, '');
    expect(withoutRevisions(again.stdout)).toBe(withoutRevisions(shopBefore.stdout));
    expect(again.stdout).toMatch(/uid: [0-9a-f-]{36}\n/);
    expect(again.stdout).toContain('replicas: 3');
  });
});
