// Field selectors of kinds served since the catalogue is generated, as their groups' conversion
// functions accept them (pkg/apis/core/v1/conversion.go, pkg/apis/certificates/v1/conversion.go,
// pkg/apis/resource/v1/conversion.go), through client-node.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { P256_REQUEST } from './data/csr.ts';

let cluster: FakeCluster;
let api: k8s.KubernetesObjectApi;
beforeEach(async () => {
  cluster = await createFakeCluster();
  api = k8s.KubernetesObjectApi.makeApiClient(cluster.kubeConfig);
});
afterEach(() => cluster.close());

const names = (list: { items: k8s.KubernetesObject[] }) => list.items.map((i) => i.metadata?.name);

describe('field selectors of the newly served kinds', () => {
  it('replicationcontrollers: status.replicas (0 until a controller reports)', async () => {
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    await core.createNamespacedReplicationController({ namespace: 'default', body: { metadata: { name: 'rc' }, spec: { selector: { app: 'a' }, template } } });
    expect(names(await core.listNamespacedReplicationController({ namespace: 'default', fieldSelector: 'status.replicas=0' }))).toEqual(['rc']);
    expect(names(await core.listNamespacedReplicationController({ namespace: 'default', fieldSelector: 'status.replicas=1' }))).toEqual([]);
    await expectStatus(core.listNamespacedReplicationController({ namespace: 'default', fieldSelector: 'spec.replicas=1' }), {
      code: 400,
      reason: 'BadRequest',
      message: 'field label not supported: spec.replicas',
    });
  });

  it('certificatesigningrequests: spec.signerName', async () => {
    const csr = (name: string, signerName: string) => ({
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name },
      spec: { request: P256_REQUEST, signerName, usages: ['client auth'] },
    });
    await api.create(csr('a', 'example.com/one'));
    await api.create(csr('b', 'example.com/two'));
    expect(names(await api.list('certificates.k8s.io/v1', 'CertificateSigningRequest', undefined, undefined, undefined, undefined, 'spec.signerName=example.com/two'))).toEqual(['b']);
  });

  it('resourceslices: spec.nodeName and spec.driver', async () => {
    const slice = (name: string, nodeName: string, driver: string) => ({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceSlice',
      metadata: { name },
      spec: { driver, nodeName, pool: { name: nodeName, generation: 1, resourceSliceCount: 1 } },
    });
    await api.create(slice('s1', 'node-a', 'gpu.example.com'));
    await api.create(slice('s2', 'node-b', 'gpu.example.com'));
    await api.create(slice('s3', 'node-a', 'nic.example.com'));
    const list = (selector: string) => api.list('resource.k8s.io/v1', 'ResourceSlice', undefined, undefined, undefined, undefined, selector);
    expect(names(await list('spec.nodeName=node-a'))).toEqual(['s1', 's3']);
    expect(names(await list('spec.nodeName=node-a,spec.driver=gpu.example.com'))).toEqual(['s1']);
  });

  it('generation: stamped on create and bumped by a spec change of a kind whose strategy does', async () => {
    const np = { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'np', namespace: 'default' }, spec: { podSelector: {} } };
    const created: k8s.KubernetesObject = await api.create(np);
    expect(created.metadata?.generation).toBe(1);
    const labelled: k8s.KubernetesObject = await api.patch({ ...np, metadata: { ...np.metadata, labels: { a: 'b' } } }, undefined, undefined, undefined, undefined, k8s.PatchStrategy.MergePatch);
    expect(labelled.metadata?.generation).toBe(1);
    const changed: k8s.KubernetesObject = await api.patch({ ...np, spec: { podSelector: { matchLabels: { app: 'x' } } } }, undefined, undefined, undefined, undefined, k8s.PatchStrategy.MergePatch);
    expect(changed.metadata?.generation).toBe(2);
    // A kind whose strategy stamps none (StorageClass) has no generation.
    const sc = await api.create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'sc' }, provisioner: 'example.com/p' } as k8s.KubernetesObject);
    expect(sc.metadata?.generation).toBeUndefined();
  });

  it('status: main writes keep the stored status, /status writes keep the stored spec', async () => {
    const pdb = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'pdb', namespace: 'default' }, spec: { minAvailable: 1 } };
    await api.create(pdb);
    const policy = cluster.kubeConfig.makeApiClient(k8s.PolicyV1Api);
    const current = await policy.readNamespacedPodDisruptionBudget({ name: 'pdb', namespace: 'default' });
    const status = { currentHealthy: 2, desiredHealthy: 1, disruptionsAllowed: 1, expectedPods: 2 };
    const afterStatus = await policy.replaceNamespacedPodDisruptionBudgetStatus({ name: 'pdb', namespace: 'default', body: { ...current, spec: { minAvailable: 5 }, status } });
    expect(afterStatus.spec?.minAvailable).toBe(1);
    expect(afterStatus.status).toMatchObject(status);
    const afterMain = await policy.replaceNamespacedPodDisruptionBudget({ name: 'pdb', namespace: 'default', body: { ...afterStatus, spec: { minAvailable: 2 }, status: { ...status, currentHealthy: 9 } } });
    expect(afterMain.spec?.minAvailable).toBe(2);
    expect(afterMain.status?.currentHealthy).toBe(2);
  });
});
