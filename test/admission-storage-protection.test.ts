// Storage admission and protection as a default v1.36 cluster runs them, through client-node:
// StorageObjectInUseProtection puts the protection finalizers on new claims and volumes, the
// pvc-protection and pv-protection controllers take them off once nothing uses the object (so a
// deletion completes, or waits while a scheduled pod uses the claim / the volume is Bound), and
// PersistentVolumeClaimResize refuses to grow a claim whose class does not allow expansion.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
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
const volume = (name: string): k8s.V1PersistentVolume => ({
  metadata: { name },
  spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } },
});
const readClaim = (name: string) => core.readNamespacedPersistentVolumeClaim({ name, namespace: ns });
const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const podUsing = (name: string, claimName: string, nodeName?: string): k8s.V1Pod => ({
  metadata: { name },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] },
});

describe('StorageObjectInUseProtection', () => {
  it('adds kubernetes.io/pvc-protection to a new claim and kubernetes.io/pv-protection to a new volume, once', async () => {
    expect((await core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('a') })).metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    expect((await core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('b', {}, ['example.com/keep', 'kubernetes.io/pvc-protection']) })).metadata?.finalizers).toEqual([
      'example.com/keep',
      'kubernetes.io/pvc-protection',
    ]);
    expect((await core.createPersistentVolume({ body: volume('v') })).metadata?.finalizers).toEqual(['kubernetes.io/pv-protection']);
  });
});

describe('the pvc-protection controller', () => {
  it('lets a deleted claim no pod uses go', async () => {
    await core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('unused') });
    // An unscheduled pod does not hold the claim.
    await core.createNamespacedPod({ namespace: ns, body: podUsing('pending', 'unused') });
    await core.deleteNamespacedPersistentVolumeClaim({ name: 'unused', namespace: ns });
    await cluster.settle();
    await expectStatus(readClaim('unused'), { code: 404, message: 'persistentvolumeclaims "unused" not found' });
  });

  it('keeps a deleted claim Terminating while a scheduled pod uses it, and lets it go when the pod is gone', async () => {
    await core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('used') });
    await core.createNamespacedPod({ namespace: ns, body: podUsing('user', 'used', 'node-1') });
    await core.deleteNamespacedPersistentVolumeClaim({ name: 'used', namespace: ns });
    await cluster.settle();
    const terminating = await readClaim('used');
    expect(terminating.metadata?.deletionTimestamp).toBeDefined();
    expect(terminating.metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    await core.deleteNamespacedPod({ name: 'user', namespace: ns });
    await cluster.settle();
    await expectStatus(readClaim('used'), { code: 404 });
  });

  it('puts the finalizer back on a claim that lost it while not being deleted', async () => {
    await core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('c') });
    const patched = await core.patchNamespacedPersistentVolumeClaim({ name: 'c', namespace: ns, body: { metadata: { finalizers: null } } }, mergePatch);
    expect(patched.metadata?.finalizers).toBeUndefined();
    await cluster.settle();
    expect((await readClaim('c')).metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    // The controller's write does not make the claim the cluster's: snapshots still show it.
    expect(cluster.snapshot({ kinds: ['pvc'] }).map((o) => [o.metadata?.name, o.metadata?.finalizers])).toEqual([['c', ['kubernetes.io/pvc-protection']]]);
  });
});

describe('the pv-protection controller', () => {
  it('keeps a deleted volume while it is Bound, and lets it go once it is not', async () => {
    await core.createPersistentVolume({ body: volume('pv') });
    await core.patchPersistentVolumeStatus({ name: 'pv', body: { status: { phase: 'Bound' } } }, mergePatch);
    await core.deletePersistentVolume({ name: 'pv' });
    await cluster.settle();
    expect((await core.readPersistentVolume({ name: 'pv' })).metadata?.finalizers).toEqual(['kubernetes.io/pv-protection']);
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
