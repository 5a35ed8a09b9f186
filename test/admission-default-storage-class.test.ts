// DefaultStorageClass as a v1.36 kube-apiserver runs it: a claim created without a class gets the
// default StorageClass (annotated storageclass.kubernetes.io/is-default-class: "true"; the newest
// when several are, then the first by name); an explicit class, even "", is kept. DefaultIngressClass
// applies the same rule to Ingresses.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
let storage: k8s.StorageV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster({ deterministic: true });
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  storage = cluster.kubeConfig.makeApiClient(k8s.StorageV1Api);
});
afterEach(() => cluster.close());

const claim = (name: string, storageClassName?: string): k8s.V1PersistentVolumeClaim => ({
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...(storageClassName !== undefined ? { storageClassName } : {}) },
});
const storageClass = (name: string, isDefault?: string): k8s.V1StorageClass => ({
  metadata: { name, ...(isDefault !== undefined ? { annotations: { 'storageclass.kubernetes.io/is-default-class': isDefault } } : {}) },
  provisioner: 'example.com/disk',
});

describe('DefaultStorageClass', () => {
  it('sets nothing when no class is the default', async () => {
    await storage.createStorageClass({ body: storageClass('slow') });
    await storage.createStorageClass({ body: storageClass('off', 'false') });
    const pvc = await core.createNamespacedPersistentVolumeClaim({ namespace: 'default', body: claim('none') });
    expect(pvc.spec!.storageClassName).toBeUndefined();
  });

  it('gives a claim without a class the default one, and keeps an explicit class or ""', async () => {
    await storage.createStorageClass({ body: storageClass('standard', 'true') });
    const defaulted = await core.createNamespacedPersistentVolumeClaim({ namespace: 'default', body: claim('a') });
    expect(defaulted.spec!.storageClassName).toBe('standard');
    const explicit = await core.createNamespacedPersistentVolumeClaim({ namespace: 'default', body: claim('b', 'fast') });
    expect(explicit.spec!.storageClassName).toBe('fast');
    const none = await core.createNamespacedPersistentVolumeClaim({ namespace: 'default', body: claim('c', '') });
    expect(none.spec!.storageClassName).toBe('');
  });

  it('picks the newest default, then the first by name among equally new ones', async () => {
    await storage.createStorageClass({ body: storageClass('older', 'true') });
    cluster.clock.advance(1000);
    await storage.createStorageClass({ body: storageClass('newer-b', 'true') });
    await storage.createStorageClass({ body: storageClass('newer-a', 'true') });
    const pvc = await core.createNamespacedPersistentVolumeClaim({ namespace: 'default', body: claim('x') });
    expect(pvc.spec!.storageClassName).toBe('newer-a');
  });

  it('acts on create only: an update keeps a claim without a class', async () => {
    const pvc = await core.createNamespacedPersistentVolumeClaim({ namespace: 'default', body: claim('late') });
    await storage.createStorageClass({ body: storageClass('standard', 'true') });
    const updated = await core.replaceNamespacedPersistentVolumeClaim({
      namespace: 'default',
      name: 'late',
      body: { ...pvc, metadata: { ...pvc.metadata, labels: { touched: 'yes' } } },
    });
    expect(updated.spec!.storageClassName).toBeUndefined();
  });
});

describe('DefaultIngressClass', () => {
  const ingress = (name: string, extra: Partial<k8s.V1Ingress> = {}): k8s.V1Ingress => ({
    metadata: { name, ...extra.metadata },
    spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } }, ...extra.spec },
  });
  const ingressClass = (name: string, isDefault: boolean): k8s.V1IngressClass => ({
    metadata: { name, ...(isDefault ? { annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } } : {}) },
    spec: { controller: 'example.com/ingress' },
  });

  it('gives an Ingress without a class the newest default IngressClass, and keeps a named class or the legacy annotation', async () => {
    const networking = cluster.kubeConfig.makeApiClient(k8s.NetworkingV1Api);
    const none = await networking.createNamespacedIngress({ namespace: 'default', body: ingress('before') });
    expect(none.spec!.ingressClassName).toBeUndefined();
    await networking.createIngressClass({ body: ingressClass('old', true) });
    cluster.clock.advance(1000);
    await networking.createIngressClass({ body: ingressClass('new', true) });
    await networking.createIngressClass({ body: ingressClass('other', false) });
    expect((await networking.createNamespacedIngress({ namespace: 'default', body: ingress('a') })).spec!.ingressClassName).toBe('new');
    expect((await networking.createNamespacedIngress({ namespace: 'default', body: ingress('b', { spec: { ingressClassName: 'other' } }) })).spec!.ingressClassName).toBe('other');
    const legacy = await networking.createNamespacedIngress({ namespace: 'default', body: ingress('c', { metadata: { annotations: { 'kubernetes.io/ingress.class': 'nginx' } } }) });
    expect(legacy.spec!.ingressClassName).toBeUndefined();
  });
});
