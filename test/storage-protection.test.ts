// Storage admission and protection as a default v1.36 cluster runs them, through client-node and
// kubectl: StorageObjectInUseProtection puts the protection finalizers on new claims and volumes
// (after those the client gave, dry runs included); the pvc-protection and pv-protection
// controllers take them off once nothing uses the object, so a deleted claim stays (Terminating)
// while a scheduled pod uses it and a deleted volume while it is Bound; PersistentVolumeClaimResize
// refuses to grow a claim whose class does not allow expansion. Found by kubectl's own
// test/cmd/testdata/apply.txtar, whose pruned claim outlives its prune on a real server.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterEach(() => cluster.close());

const ns = 'default';
const claim = (name: string, spec: Partial<k8s.V1PersistentVolumeClaimSpec> = {}, finalizers?: string[]): k8s.V1PersistentVolumeClaim => ({
  metadata: { name, ...(finalizers ? { finalizers } : {}) },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const createClaim = (name: string, namespace = ns) => core.createNamespacedPersistentVolumeClaim({ namespace, body: claim(name) });
const volume = (name: string): k8s.V1PersistentVolume => ({
  metadata: { name },
  spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/data/${name}` } },
});
const readClaim = (name: string) => core.readNamespacedPersistentVolumeClaim({ name, namespace: ns });
const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const podUsing = (name: string, claimName: string, nodeName?: string): k8s.V1Pod => ({
  metadata: { name },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] },
});

describe('StorageObjectInUseProtection', () => {
  it('adds kubernetes.io/pvc-protection to a new claim, after the finalizers the client gave, and kubernetes.io/pv-protection to a new volume, once', async () => {
    expect((await createClaim('a')).metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    expect((await core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('own', {}, ['example.com/keep']) })).metadata?.finalizers).toEqual([
      'example.com/keep',
      'kubernetes.io/pvc-protection',
    ]);
    expect((await core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('b', {}, ['example.com/keep', 'kubernetes.io/pvc-protection']) })).metadata?.finalizers).toEqual([
      'example.com/keep',
      'kubernetes.io/pvc-protection',
    ]);
    // A dry run shows it too: admission runs on dry-run creates.
    const dry = await core.createNamespacedPersistentVolumeClaim({ namespace: ns, dryRun: 'All', body: claim('dry') });
    expect(dry.metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    expect((await core.createPersistentVolume({ body: volume('v') })).metadata?.finalizers).toEqual(['kubernetes.io/pv-protection']);
  });
});

describe('the pvc-protection controller', () => {
  it('lets a deleted claim no pod uses go: Terminating first, then gone', async () => {
    await createClaim('unused');
    const deleting = (await core.deleteNamespacedPersistentVolumeClaim({ name: 'unused', namespace: ns })) as k8s.V1PersistentVolumeClaim;
    expect(deleting.metadata?.deletionTimestamp).toBeDefined();
    expect(deleting.metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    await cluster.settle();
    await expectStatus(readClaim('unused'), { code: 404, message: 'persistentvolumeclaims "unused" not found' });
  });

  it('keeps a deleted claim Terminating while a scheduled pod uses it, not an unscheduled one, and lets it go when the pod is gone', async () => {
    await createClaim('used');
    await createClaim('idle');
    // An unscheduled pod does not hold its claim (the kubelet would not start it on a deleted claim).
    await core.createNamespacedPod({ namespace: ns, body: podUsing('pending', 'idle') });
    await core.createNamespacedPod({ namespace: ns, body: podUsing('user', 'used', 'node-1') });
    await core.deleteNamespacedPersistentVolumeClaim({ name: 'used', namespace: ns });
    await core.deleteNamespacedPersistentVolumeClaim({ name: 'idle', namespace: ns });
    await cluster.settle();
    await expectStatus(readClaim('idle'), { code: 404, message: 'persistentvolumeclaims "idle" not found' });
    const terminating = await readClaim('used');
    expect(terminating.metadata?.deletionTimestamp).toBeDefined();
    expect(terminating.metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    await core.deleteNamespacedPod({ name: 'user', namespace: ns, gracePeriodSeconds: 0 });
    await cluster.settle();
    await expectStatus(readClaim('used'), { code: 404 });
  });

  it('puts the finalizer back on a claim that lost it while not being deleted', async () => {
    await createClaim('c');
    const patched = await core.patchNamespacedPersistentVolumeClaim({ name: 'c', namespace: ns, body: { metadata: { finalizers: null } } }, mergePatch);
    expect(patched.metadata?.finalizers).toBeUndefined();
    await cluster.settle();
    expect((await readClaim('c')).metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    // The controller's write does not make the claim the cluster's: snapshots still show it.
    expect(cluster.snapshot({ kinds: ['pvc'] }).map((o) => [o.metadata?.name, o.metadata?.finalizers])).toEqual([['c', ['kubernetes.io/pvc-protection']]]);
  });

  it('does not hold up the deletion of the namespace it is in', async () => {
    await core.createNamespace({ body: { metadata: { name: 'storage-ns' } } });
    await createClaim('in-ns', 'storage-ns');
    await core.deleteNamespace({ name: 'storage-ns' });
    await cluster.settle();
    await expectStatus(core.readNamespace({ name: 'storage-ns' }), { code: 404 });
  });
});

describe('the pv-protection controller', () => {
  it('keeps a deleted volume while it is Bound, and lets it go once it is not', async () => {
    await core.createPersistentVolume({ body: volume('pv') });
    await core.patchPersistentVolumeStatus({ name: 'pv', body: { status: { phase: 'Bound' } } }, mergePatch);
    await core.deletePersistentVolume({ name: 'pv' });
    await cluster.settle();
    const held = await core.readPersistentVolume({ name: 'pv' });
    expect(held.metadata?.deletionTimestamp).toBeDefined();
    expect(held.metadata?.finalizers).toEqual(['kubernetes.io/pv-protection']);
    await core.patchPersistentVolumeStatus({ name: 'pv', body: { status: { phase: 'Released' } } }, mergePatch);
    await cluster.settle();
    await expectStatus(core.readPersistentVolume({ name: 'pv' }), { code: 404, message: 'persistentvolumes "pv" not found' });
  });
});

describe('PersistentVolumeClaimResize', () => {
  const storageClass = (name: string, allowVolumeExpansion?: boolean) =>
    cluster.apply({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner: 'example.com/p', ...(allowVolumeExpansion === undefined ? {} : { allowVolumeExpansion }) });
  /** A claim of `storageClassName` (none when undefined), Bound. */
  async function boundClaim(name: string, storageClassName?: string) {
    await core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim(name, storageClassName ? { storageClassName } : {}) });
    return core.patchNamespacedPersistentVolumeClaimStatus({ name, namespace: ns, body: { status: { phase: 'Bound', capacity: { storage: '1Gi' } } } }, mergePatch);
  }
  const grow = (c: k8s.V1PersistentVolumeClaim, storage: string) =>
    core.replaceNamespacedPersistentVolumeClaim({ name: c.metadata!.name!, namespace: ns, body: { ...c, spec: { ...c.spec, resources: { requests: { storage } } } } });
  const REFUSED = 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

  it('refuses to grow a bound claim without a class, or whose class does not allow expansion', async () => {
    await storageClass('fixed');
    await storageClass('no', false);
    for (const [name, className] of [['classless', undefined], ['fixed-claim', 'fixed'], ['no-claim', 'no'], ['missing-class', 'missing']] as const) {
      await expectStatus(grow(await boundClaim(name, className), '2Gi'), {
        code: 403,
        reason: 'Forbidden',
        message: `persistentvolumeclaims "${name}" is forbidden: ${REFUSED}`,
      });
    }
  });

  it('lets a bound claim of an expandable class grow, and any claim keep or shrink its request', async () => {
    await storageClass('fast', true);
    const grown = await grow(await boundClaim('grows', 'fast'), '2Gi');
    expect(grown.spec?.resources?.requests).toEqual({ storage: '2Gi' });
    const same = await grow(await boundClaim('same'), '1Gi');
    expect(same.spec?.resources?.requests).toEqual({ storage: '1Gi' });
    // Validation forbids changing an unbound claim's spec before the plugin would see it.
    const unbound = await core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('unbound', { storageClassName: 'fast' }) });
    const status = await expectStatus(grow(unbound, '2Gi'), { code: 422, reason: 'Invalid' });
    expect(String(status.message)).toContain('spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims');
  });
});

describe.skipIf(!kubectlAvailable)('kubectl', () => {
  it('shows the finalizer, and kubectl delete waits the claim out', async () => {
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    await createClaim('by-kubectl');
    expect((await kubectl(['get', 'pvc', 'by-kubectl', '-o', 'jsonpath={.metadata.finalizers}'])).stdout).toBe('["kubernetes.io/pvc-protection"]');
    const deleted = await kubectl(['delete', 'pvc', 'by-kubectl']);
    expect(deleted.stdout).toBe('persistentvolumeclaim "by-kubectl" deleted\n');
    expect((await kubectl(['get', 'pvc', 'by-kubectl'])).stderr).toContain('persistentvolumeclaims "by-kubectl" not found');
  });
});
