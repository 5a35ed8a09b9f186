// RuntimeClass admission as a v1.36 kube-apiserver runs it on pod creation: the class's overhead
// and scheduling constraints are copied into the pod, conflicts and unknown classes are 403s.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  await cluster.kubeConfig.makeApiClient(k8s.NodeV1Api).createRuntimeClass({
    body: {
      metadata: { name: 'gvisor' },
      handler: 'runsc',
      overhead: { podFixed: { cpu: '250m', memory: '64Mi' } },
      scheduling: { nodeSelector: { sandbox: 'gvisor' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
    },
  });
});
afterEach(() => cluster.close());

const pod = (name: string, spec: Partial<k8s.V1PodSpec> = {}): k8s.V1Pod => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });
const forbidden = (name: string, message: string) => ({ code: 403, reason: 'Forbidden', message: `pods "${name}" is forbidden: ${message}`, details: { name, kind: 'pods' } });

describe('RuntimeClass admission', () => {
  it('copies the class’s overhead, node selector and tolerations into the pod', async () => {
    const created = await core.createNamespacedPod({ namespace: 'default', body: pod('p', { runtimeClassName: 'gvisor', nodeSelector: { zone: 'a' } }) });
    expect(created.spec!.overhead).toEqual({ cpu: '250m', memory: '64Mi' });
    expect(created.spec!.nodeSelector).toEqual({ zone: 'a', sandbox: 'gvisor' });
    expect(created.spec!.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' },
    ]);
  });

  it('refuses an unknown class, a conflicting node selector and an overhead of its own', async () => {
    await expectStatus(core.createNamespacedPod({ namespace: 'default', body: pod('a', { runtimeClassName: 'kata' }) }), forbidden('a', 'pod rejected: RuntimeClass "kata" not found'));
    await expectStatus(
      core.createNamespacedPod({ namespace: 'default', body: pod('b', { runtimeClassName: 'gvisor', nodeSelector: { sandbox: 'kata' } }) }),
      forbidden('b', 'conflict: runtimeClass.scheduling.nodeSelector[sandbox] = gvisor; pod.spec.nodeSelector[sandbox] = kata'),
    );
    await expectStatus(
      core.createNamespacedPod({ namespace: 'default', body: pod('c', { runtimeClassName: 'gvisor', overhead: { cpu: '1' } }) }),
      forbidden('c', "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"),
    );
    await expectStatus(
      core.createNamespacedPod({ namespace: 'default', body: pod('d', { overhead: { cpu: '1' } }) }),
      forbidden('d', 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'),
    );
  });
});
