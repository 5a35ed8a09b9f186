// ResourceQuota as a v1.36 kube-apiserver runs it: the quota controller fills status.hard and
// status.used, admission charges each created object to the quotas it matches before storing it
// (or refuses with the real 403 texts), and usage comes back down when objects go.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { kubectlAvailable, useKubectlCluster } from './support/kubectl.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterEach(() => cluster.close());

const ns = 'default';
async function quota(name: string, spec: k8s.V1ResourceQuotaSpec): Promise<void> {
  await core.createNamespacedResourceQuota({ namespace: ns, body: { metadata: { name }, spec } });
  await cluster.settle();
}
const status = async (name: string) => (await core.readNamespacedResourceQuota({ namespace: ns, name })).status;
const pod = (name: string, resources?: k8s.V1ResourceRequirements, extra: Partial<k8s.V1PodSpec> = {}): k8s.V1Pod => ({
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx', ...(resources ? { resources } : {}) }], ...extra },
});
const forbidden = (resource: string, name: string, message: string) => ({
  code: 403,
  reason: 'Forbidden',
  message: `${resource} "${name}" is forbidden: ${message}`,
  details: { name, kind: resource },
});

describe('the quota controller', () => {
  it('fills status.hard and status.used from what the namespace holds', async () => {
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'a' } } });
    await core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 's' } } });
    await quota('q', { hard: { configmaps: '5', 'count/secrets': '3', pods: '10', 'requests.cpu': '2', 'count/deployments.apps': '1' } });
    // Ours, and the kube-root-ca.crt every namespace holds.
    expect(await status('q')).toEqual({
      hard: { configmaps: '5', 'count/deployments.apps': '1', 'count/secrets': '3', pods: '10', 'requests.cpu': '2' },
      used: { configmaps: '2', 'count/deployments.apps': '0', 'count/secrets': '1', pods: '0', 'requests.cpu': '0' },
    });
  });

  it('follows a change of spec.hard', async () => {
    await quota('q', { hard: { pods: '1' } });
    const q = await core.readNamespacedResourceQuota({ namespace: ns, name: 'q' });
    await core.replaceNamespacedResourceQuota({ namespace: ns, name: 'q', body: { ...q, spec: { hard: { pods: '3', services: '2' } } } });
    await cluster.settle();
    // The `kubernetes` Service lives in default.
    expect(await status('q')).toEqual({ hard: { pods: '3', services: '2' }, used: { pods: '0', services: '1' } });
  });
});

describe('ResourceQuota admission', () => {
  it('charges a created pod before it is stored and refuses the one past the limit', async () => {
    await quota('q', { hard: { pods: '2' } });
    await core.createNamespacedPod({ namespace: ns, body: pod('a') });
    // Admission wrote the new usage itself: no controller has run since the create.
    expect((await status('q'))!.used).toEqual({ pods: '1' });
    await core.createNamespacedPod({ namespace: ns, body: pod('b') });
    await expectStatus(core.createNamespacedPod({ namespace: ns, body: pod('c') }), forbidden('pods', 'c', 'exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2'));
    await expect(core.readNamespacedPod({ namespace: ns, name: 'c' })).rejects.toMatchObject({ code: 404 });
    expect((await status('q'))!.used).toEqual({ pods: '2' });
    // A deleted pod gives its place back once the controller has recounted.
    await core.deleteNamespacedPod({ namespace: ns, name: 'a' });
    await cluster.settle();
    expect((await status('q'))!.used).toEqual({ pods: '1' });
    await core.createNamespacedPod({ namespace: ns, body: pod('c') });
  });

  it('stops charging compute for a pod that has finished', async () => {
    await quota('q', { hard: { pods: '5', 'count/pods': '5' } });
    const created = await core.createNamespacedPod({ namespace: ns, body: pod('job') });
    expect((await status('q'))!.used).toEqual({ 'count/pods': '1', pods: '1' });
    await core.replaceNamespacedPodStatus({ namespace: ns, name: 'job', body: { ...created, status: { phase: 'Succeeded' } } });
    await cluster.settle();
    expect((await status('q'))!.used).toEqual({ 'count/pods': '1', pods: '0' });
  });

  it('gives usage back when an object is deleted', async () => {
    // kube-root-ca.crt takes one of the two.
    await quota('q', { hard: { configmaps: '2' } });
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'one' } } });
    await expectStatus(
      core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'two' } } }),
      forbidden('configmaps', 'two', 'exceeded quota: q, requested: configmaps=1, used: configmaps=2, limited: configmaps=2'),
    );
    await core.deleteNamespacedConfigMap({ namespace: ns, name: 'one' });
    await cluster.settle();
    expect((await status('q'))!.used).toEqual({ configmaps: '1' });
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'two' } } });
    expect((await status('q'))!.used).toEqual({ configmaps: '2' });
  });

  it('requires cpu and memory on every container when the quota names them', async () => {
    await quota('compute', { hard: { 'requests.cpu': '1', 'limits.cpu': '2', 'requests.memory': '1Gi' } });
    await expectStatus(
      core.createNamespacedPod({ namespace: ns, body: pod('bare') }),
      forbidden('pods', 'bare', 'failed quota: compute: must specify limits.cpu for: c; requests.cpu for: c; requests.memory for: c'),
    );
    const fits = { requests: { cpu: '600m', memory: '512Mi' }, limits: { cpu: '1' } };
    await core.createNamespacedPod({ namespace: ns, body: pod('one', fits) });
    expect((await status('compute'))!.used).toEqual({ 'limits.cpu': '1', 'requests.cpu': '600m', 'requests.memory': '512Mi' });
    await expectStatus(
      core.createNamespacedPod({ namespace: ns, body: pod('two', fits) }),
      forbidden('pods', 'two', 'exceeded quota: compute, requested: requests.cpu=600m, used: requests.cpu=600m, limited: requests.cpu=1'),
    );
  });

  it('counts extended resources as requests.<name>', async () => {
    await quota('gpu', { hard: { 'requests.example.com/gpu': '1' } });
    const gpu = { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } };
    await core.createNamespacedPod({ namespace: ns, body: pod('first', gpu) });
    await expectStatus(
      core.createNamespacedPod({ namespace: ns, body: pod('second', gpu) }),
      forbidden('pods', 'second', 'exceeded quota: gpu, requested: requests.example.com/gpu=1, used: requests.example.com/gpu=1, limited: requests.example.com/gpu=1'),
    );
  });

  it('counts a pod only in the quotas whose scopes it matches', async () => {
    await quota('best-effort', { hard: { pods: '1' }, scopes: ['BestEffort'] });
    await quota('terminating', { hard: { pods: '5' }, scopes: ['Terminating'] });
    await core.createNamespacedPod({ namespace: ns, body: pod('be') });
    await core.createNamespacedPod({ namespace: ns, body: pod('burstable', { requests: { cpu: '100m' } }) });
    await expectStatus(
      core.createNamespacedPod({ namespace: ns, body: pod('be2') }),
      forbidden('pods', 'be2', 'exceeded quota: best-effort, requested: pods=1, used: pods=1, limited: pods=1'),
    );
    await core.createNamespacedPod({ namespace: ns, body: pod('deadline', { requests: { cpu: '100m' } }, { activeDeadlineSeconds: 60 }) });
    await cluster.settle();
    expect((await status('best-effort'))!.used).toEqual({ pods: '1' });
    expect((await status('terminating'))!.used).toEqual({ pods: '1' });
  });

  it('counts services, node ports and load balancers', async () => {
    await quota('svc', { hard: { services: '5', 'services.nodeports': '1', 'services.loadbalancers': '0' } });
    const service = (name: string, type: string, ports = 1): k8s.V1Service => ({
      metadata: { name },
      spec: { type, selector: { app: 'x' }, ports: Array.from({ length: ports }, (_, i) => ({ name: `p${i}`, port: 80 + i })) },
    });
    await core.createNamespacedService({ namespace: ns, body: service('plain', 'ClusterIP', 2) });
    await core.createNamespacedService({ namespace: ns, body: service('np', 'NodePort') });
    await expectStatus(
      core.createNamespacedService({ namespace: ns, body: service('np2', 'NodePort') }),
      forbidden('services', 'np2', 'exceeded quota: svc, requested: services.nodeports=1, used: services.nodeports=1, limited: services.nodeports=1'),
    );
    await expectStatus(
      core.createNamespacedService({ namespace: ns, body: service('lb', 'LoadBalancer') }),
      forbidden('services', 'lb', 'exceeded quota: svc, requested: services.loadbalancers=1,services.nodeports=1, used: services.loadbalancers=0,services.nodeports=1, limited: services.loadbalancers=0,services.nodeports=1'),
    );
    await cluster.settle();
    // Ours, and the `kubernetes` Service.
    expect((await status('svc'))!.used).toEqual({ services: '3', 'services.loadbalancers': '0', 'services.nodeports': '1' });
  });

  it('counts claims and their storage per class', async () => {
    await quota('storage', { hard: { 'requests.storage': '10Gi', 'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1' } });
    const claim = (name: string, size: string, storageClassName?: string): k8s.V1PersistentVolumeClaim => ({
      metadata: { name },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } }, ...(storageClassName ? { storageClassName } : {}) },
    });
    await core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('a', '4Gi', 'gold') });
    await expectStatus(
      core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('b', '1Gi', 'gold') }),
      forbidden('persistentvolumeclaims', 'b', 'exceeded quota: storage, requested: gold.storageclass.storage.k8s.io/persistentvolumeclaims=1, used: gold.storageclass.storage.k8s.io/persistentvolumeclaims=1, limited: gold.storageclass.storage.k8s.io/persistentvolumeclaims=1'),
    );
    await expectStatus(
      core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('c', '7Gi') }),
      forbidden('persistentvolumeclaims', 'c', 'exceeded quota: storage, requested: requests.storage=7Gi, used: requests.storage=4Gi, limited: requests.storage=10Gi'),
    );
    await core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('d', '6Gi') });
    expect((await status('storage'))!.used).toEqual({ 'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1', 'requests.storage': '10Gi' });
  });

  it('counts any resource as count/<resource>.<group>', async () => {
    await quota('apps', { hard: { 'count/deployments.apps': '1' } });
    const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    const deployment = (name: string): k8s.V1Deployment => ({
      metadata: { name },
      spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    await apps.createNamespacedDeployment({ namespace: ns, body: deployment('one') });
    await expectStatus(
      apps.createNamespacedDeployment({ namespace: ns, body: deployment('two') }),
      {
        code: 403,
        reason: 'Forbidden',
        message: 'deployments.apps "two" is forbidden: exceeded quota: apps, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1',
        details: { name: 'two', group: 'apps', kind: 'deployments' },
      },
    );
  });

  it('checks a dry run without charging it', async () => {
    await quota('q', { hard: { secrets: '1' } });
    await core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'dry' } }, dryRun: 'All' });
    expect((await status('q'))!.used).toEqual({ secrets: '0' });
    await core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'real' } } });
    await expectStatus(
      core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'dry2' } }, dryRun: 'All' }),
      forbidden('secrets', 'dry2', 'exceeded quota: q, requested: secrets=1, used: secrets=1, limited: secrets=1'),
    );
  });

  it('charges pod-level hugepages over the containers\' (IsSupportedPodLevelResource takes hugepages-*), and refuses past the limit', async () => {
    await quota('q', { hard: { 'requests.hugepages-2Mi': '6Mi' } });
    const hugePod = (name: string): k8s.V1Pod => ({
      metadata: { name },
      spec: {
        resources: { requests: { memory: '64Mi', 'hugepages-2Mi': '4Mi' }, limits: { memory: '64Mi', 'hugepages-2Mi': '4Mi' } },
        containers: [{ name: 'c', image: 'nginx', resources: { requests: { memory: '32Mi', 'hugepages-2Mi': '2Mi' }, limits: { memory: '32Mi', 'hugepages-2Mi': '2Mi' } } }],
      },
    });
    await core.createNamespacedPod({ namespace: ns, body: hugePod('a') });
    expect((await status('q'))!.used).toEqual({ 'requests.hugepages-2Mi': '4Mi' });
    await expectStatus(
      core.createNamespacedPod({ namespace: ns, body: hugePod('b') }),
      forbidden('pods', 'b', 'exceeded quota: q, requested: requests.hugepages-2Mi=4Mi, used: requests.hugepages-2Mi=4Mi, limited: requests.hugepages-2Mi=6Mi'),
    );
  });
});

describe.skipIf(!kubectlAvailable)('ResourceQuota through kubectl', () => {
  const k = useKubectlCluster();

  it('prints the exceeded-quota refusal', async () => {
    // kube-root-ca.crt takes one of the two.
    await k.core.createNamespacedResourceQuota({ namespace: 'default', body: { metadata: { name: 'cm' }, spec: { hard: { configmaps: '2' } } } });
    await k.cluster.settle();
    expect((await k.kubectl(['create', 'configmap', 'first'])).code).toBe(0);
    const refused = await k.kubectl(['create', 'configmap', 'second']);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe('error: failed to create configmap: configmaps "second" is forbidden: exceeded quota: cm, requested: configmaps=1, used: configmaps=2, limited: configmaps=2');
  });
});
