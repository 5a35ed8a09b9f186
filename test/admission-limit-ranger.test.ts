// LimitRanger as a v1.36 kube-apiserver runs it by default: a namespace's LimitRanges default the
// requests and limits of a created pod's containers (saying so in the kubernetes.io/limit-ranger
// annotation) and refuse, with a 403 naming every broken rule, pods and claims outside their
// min, max and maxLimitRequestRatio.
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
const limits = (name: string, items: k8s.V1LimitRangeItem[]) => core.createNamespacedLimitRange({ namespace: ns, body: { metadata: { name }, spec: { limits: items } } });
const pod = (name: string, containers: k8s.V1Container[], initContainers?: k8s.V1Container[]): k8s.V1Pod => ({
  metadata: { name },
  spec: { containers, ...(initContainers ? { initContainers } : {}) },
});
const forbidden = (resource: string, name: string, message: string) => ({
  code: 403,
  reason: 'Forbidden',
  message: `${resource} "${name}" is forbidden: ${message}`,
  details: { name, kind: resource },
});

describe('LimitRanger: defaults', () => {
  it('sets the Container defaults a container lacks and says what it set', async () => {
    await limits('defaults', [{ type: 'Container', _default: { cpu: '500m', memory: '128Mi' }, defaultRequest: { cpu: '100m' } }]);
    const created = await core.createNamespacedPod({
      namespace: ns,
      body: pod('p', [{ name: 'c', image: 'nginx' }, { name: 'd', image: 'nginx', resources: { limits: { memory: '64Mi' } } }], [{ name: 'init', image: 'busybox' }]),
    });
    expect(created.spec!.containers[0]!.resources).toEqual({ limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m' } });
    // Pod defaulting copied d's memory limit to its request before admission, as the decoder does.
    expect(created.spec!.containers[1]!.resources).toEqual({ limits: { cpu: '500m', memory: '64Mi' }, requests: { cpu: '100m', memory: '64Mi' } });
    expect(created.spec!.initContainers![0]!.resources).toEqual({ limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m' } });
    expect(created.metadata!.annotations).toEqual({
      'kubernetes.io/limit-ranger':
        'LimitRanger plugin set: cpu request for container c; cpu, memory limit for container c; cpu request for container d; cpu limit for container d; cpu request for init container init; cpu, memory limit for init container init',
    });
  });

  it('sets nothing, and no annotation, when every container states its resources', async () => {
    await limits('defaults', [{ type: 'Container', _default: { cpu: '500m' }, defaultRequest: { cpu: '100m' } }]);
    const created = await core.createNamespacedPod({ namespace: ns, body: pod('p', [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '1' }, limits: { cpu: '1' } } }]) });
    expect(created.metadata!.annotations).toBeUndefined();
    expect(created.spec!.containers[0]!.resources).toEqual({ requests: { cpu: '1' }, limits: { cpu: '1' } });
  });
  it('checks the defaults it set: a default request under the minimum is refused', async () => {
    await limits('low-default', [{ type: 'Container', defaultRequest: { memory: '10Mi' }, min: { memory: '20Mi' } }]);
    await expectStatus(
      core.createNamespacedPod({ namespace: ns, body: pod('z', [{ name: 'c', image: 'nginx' }]) }),
      forbidden('pods', 'z', 'minimum memory usage per Container is 20Mi, but request is 10Mi'),
    );
  });

});

describe('LimitRanger: Container min, max and ratio', () => {
  beforeEach(async () => {
    await limits('bounds', [{ type: 'Container', min: { cpu: '100m' }, max: { cpu: '2', memory: '1Gi' }, maxLimitRequestRatio: { cpu: '4' } }]);
  });

  it('refuses a request under the minimum', async () => {
    await expectStatus(
      core.createNamespacedPod({ namespace: ns, body: pod('x', [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '50m' }, limits: { cpu: '100m', memory: '1Gi' } } }]) }),
      forbidden('pods', 'x', 'minimum cpu usage per Container is 100m, but request is 50m'),
    );
  });

  it('names every broken rule, in brackets, and counts init containers', async () => {
    await expectStatus(
      core.createNamespacedPod({ namespace: ns, body: pod('y', [{ name: 'c', image: 'nginx' }], [{ name: 'i', image: 'busybox', resources: { requests: { cpu: '100m' }, limits: { cpu: '3', memory: '2Gi' } } }]) }),
      forbidden(
        'pods',
        'y',
        '[minimum cpu usage per Container is 100m.  No request is specified, maximum cpu usage per Container is 2.  No limit is specified, ' +
          'maximum memory usage per Container is 1Gi.  No limit is specified, cpu max limit to request ratio per Container is 4, but no request is specified or request is 0, ' +
          'maximum cpu usage per Container is 2, but limit is 3, maximum memory usage per Container is 1Gi, but limit is 2Gi, ' +
          'cpu max limit to request ratio per Container is 4, but provided ratio is 30.000000]',
      ),
    );
  });

  it('admits a container inside every bound, and names a generateName pod by the name generated before validation', async () => {
    const ok = await core.createNamespacedPod({ namespace: ns, body: pod('ok', [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '500m' }, limits: { cpu: '2', memory: '1Gi' } } }]) });
    expect(ok.metadata!.name).toBe('ok');
    const status = await expectStatus(
      core.createNamespacedPod({
        namespace: ns,
        body: { metadata: { generateName: 'gen-' }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '600m' }, limits: { cpu: '2001m', memory: '1Gi' } } }] } },
      }),
      { code: 403, reason: 'Forbidden' },
    );
    expect(status.message).toMatch(/^pods "gen-[a-z0-9]{5}" is forbidden: maximum cpu usage per Container is 2, but limit is 2001m$/);
  });

  it('does not check pod updates', async () => {
    await core.deleteNamespacedLimitRange({ namespace: ns, name: 'bounds' });
    await core.createNamespacedPod({ namespace: ns, body: pod('free', [{ name: 'c', image: 'nginx' }]) });
    await limits('bounds-again', [{ type: 'Container', min: { cpu: '100m' } }]);
    const patched = await core.patchNamespacedPod(
      { namespace: ns, name: 'free', body: { metadata: { labels: { touched: 'yes' } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    expect(patched.metadata!.labels).toEqual({ touched: 'yes' });
  });
});

describe('LimitRanger: Pod and PersistentVolumeClaim items', () => {
  it('checks the pod’s sum of containers against a Pod item', async () => {
    await limits('pod', [{ type: 'Pod', max: { memory: '1Gi' } }]);
    const c = (name: string): k8s.V1Container => ({ name, image: 'nginx', resources: { limits: { memory: '600Mi' } } });
    await expectStatus(core.createNamespacedPod({ namespace: ns, body: pod('big', [c('a'), c('b')]) }), forbidden('pods', 'big', 'maximum memory usage per Pod is 1Gi, but limit is 1200Mi'));
  });

  it('bounds a claim’s storage request', async () => {
    await limits('storage', [{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } }]);
    const claim = (name: string, size: string): k8s.V1PersistentVolumeClaim => ({
      metadata: { name },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } } },
    });
    await expectStatus(
      core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('small', '500Mi') }),
      forbidden('persistentvolumeclaims', 'small', 'minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi'),
    );
    await expectStatus(
      core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('large', '20Gi') }),
      forbidden('persistentvolumeclaims', 'large', 'maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi'),
    );
    const ok = await core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('ok', '5Gi') });
    expect(ok.spec!.resources!.requests).toEqual({ storage: '5Gi' });
  });
});

describe.skipIf(!kubectlAvailable)('LimitRanger through kubectl', () => {
  const k = useKubectlCluster();

  it('prints the refusal of a pod under a LimitRange minimum', async () => {
    await k.core.createNamespacedLimitRange({ namespace: 'default', body: { metadata: { name: 'min' }, spec: { limits: [{ type: 'Container', min: { memory: '64Mi' } }] } } });
    const r = await k.kubectl(['run', 'small', '--image=nginx', '--overrides={"spec":{"containers":[{"name":"small","image":"nginx","resources":{"requests":{"memory":"32Mi"}}}]}}']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('Error from server (Forbidden): pods "small" is forbidden: minimum memory usage per Container is 64Mi, but request is 32Mi');
  });
});
