// StorageObjectInUseProtection and the pvc-protection / pv-protection controllers: every claim and
// volume carries its protection finalizer from creation; a deleted claim stays (Terminating) while
// a scheduled pod uses it, a deleted volume while it is Bound. Found by kubectl's own
// test/cmd/testdata/apply.txtar, whose pruned claim outlives its prune on a real server.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterAll(() => cluster.close());

const claim = (name: string, namespace = 'default') =>
  core.createNamespacedPersistentVolumeClaim({ namespace, body: { metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } });
const readClaim = (name: string, namespace = 'default') => core.readNamespacedPersistentVolumeClaim({ name, namespace });

describe('PersistentVolumeClaims', () => {
  it('are created with the kubernetes.io/pvc-protection finalizer, after those the client gave', async () => {
    expect((await claim('plain')).metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    const own = await core.createNamespacedPersistentVolumeClaim({
      namespace: 'default',
      body: { metadata: { name: 'own', finalizers: ['example.com/keep'] }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
    });
    expect(own.metadata?.finalizers).toEqual(['example.com/keep', 'kubernetes.io/pvc-protection']);
    // A dry run shows it too: admission runs on dry-run creates.
    const dry = await core.createNamespacedPersistentVolumeClaim({ namespace: 'default', dryRun: 'All', body: { metadata: { name: 'dry' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } });
    expect(dry.metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
  });

  it('go once deleted when no pod uses them: Terminating first, then gone', async () => {
    await claim('unused');
    const deleting = (await core.deleteNamespacedPersistentVolumeClaim({ name: 'unused', namespace: 'default' })) as k8s.V1PersistentVolumeClaim;
    expect(deleting.metadata?.deletionTimestamp).toBeDefined();
    expect(deleting.metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    await cluster.settle();
    await expectStatus(readClaim('unused'), { code: 404 });
  });

  it('stay while a scheduled pod names them, and go when that pod does', async () => {
    await claim('data');
    await claim('idle');
    const volumes = [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }];
    // An unscheduled pod does not hold its claim (the kubelet would not start it on a deleted claim).
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'pending' }, spec: { containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'idle' } }] } } });
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'user' }, spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'busybox' }], volumes } } });
    await core.deleteNamespacedPersistentVolumeClaim({ name: 'data', namespace: 'default' });
    await core.deleteNamespacedPersistentVolumeClaim({ name: 'idle', namespace: 'default' });
    await cluster.settle();
    await expectStatus(readClaim('idle'), { code: 404 });
    const held = await readClaim('data');
    expect(held.metadata?.deletionTimestamp).toBeDefined();
    expect(held.metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    await core.deleteNamespacedPod({ name: 'user', namespace: 'default', gracePeriodSeconds: 0 });
    await cluster.settle();
    await expectStatus(readClaim('data'), { code: 404 });
  });

  it('get the finalizer back from the controller when an update takes it off', async () => {
    await claim('stripped');
    const stripped = await core.patchNamespacedPersistentVolumeClaim(
      { name: 'stripped', namespace: 'default', body: { metadata: { finalizers: null } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    expect(stripped.metadata?.finalizers).toBeUndefined();
    await cluster.settle();
    expect((await readClaim('stripped')).metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
  });

  it('do not hold up the deletion of their namespace', async () => {
    await core.createNamespace({ body: { metadata: { name: 'storage-ns' } } });
    await claim('in-ns', 'storage-ns');
    await core.deleteNamespace({ name: 'storage-ns' });
    await cluster.settle();
    await expectStatus(core.readNamespace({ name: 'storage-ns' }), { code: 404 });
  });
});

describe('PersistentVolumes', () => {
  const volume = (name: string) =>
    core.createPersistentVolume({ body: { metadata: { name }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/data/${name}` } } } });

  it('are created with kubernetes.io/pv-protection, and stay deleted-but-present while Bound', async () => {
    expect((await volume('pv-a')).metadata?.finalizers).toEqual(['kubernetes.io/pv-protection']);
    await core.patchPersistentVolumeStatus({ name: 'pv-a', body: { status: { phase: 'Bound' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await core.deletePersistentVolume({ name: 'pv-a' });
    await cluster.settle();
    expect((await core.readPersistentVolume({ name: 'pv-a' })).metadata?.deletionTimestamp).toBeDefined();
    await core.patchPersistentVolumeStatus({ name: 'pv-a', body: { status: { phase: 'Released' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await cluster.settle();
    await expectStatus(core.readPersistentVolume({ name: 'pv-a' }), { code: 404 });
  });
});

describe.skipIf(!kubectlAvailable)('kubectl', () => {
  it('shows the finalizer, and kubectl delete waits the claim out', async () => {
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    await claim('by-kubectl');
    expect((await kubectl(['get', 'pvc', 'by-kubectl', '-o', 'jsonpath={.metadata.finalizers}'])).stdout).toBe('["kubernetes.io/pvc-protection"]');
    const deleted = await kubectl(['delete', 'pvc', 'by-kubectl']);
    expect(deleted.stdout).toBe('persistentvolumeclaim "by-kubectl" deleted\n');
    expect((await kubectl(['get', 'pvc', 'by-kubectl'])).stderr).toContain('persistentvolumeclaims "by-kubectl" not found');
  });
});
