import * as k8s from '@kubernetes/client-node';
import { expect, test } from 'vitest';
import { createFakeCluster } from 'kubefake';

test('LimitRanger defaults a pod, ResourceQuota counts it and refuses the next', async () => {
  await using cluster = await createFakeCluster();
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  await core.createNamespacedLimitRange({ namespace: 'default', body: { metadata: { name: 'defaults' }, spec: { limits: [{ type: 'Container', defaultRequest: { cpu: '100m' } }] } } });
  await core.createNamespacedResourceQuota({ namespace: 'default', body: { metadata: { name: 'q' }, spec: { hard: { pods: '1', 'requests.cpu': '1' } } } });
  await cluster.settle(); // the quota controller has filled status.used

  const pod = (name: string) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
  const first = await core.createNamespacedPod({ namespace: 'default', body: pod('first') });
  expect(first.spec?.containers[0]?.resources?.requests).toEqual({ cpu: '100m' });
  expect(first.metadata?.annotations?.['kubernetes.io/limit-ranger']).toBe('LimitRanger plugin set: cpu request for container c');
  expect(first.spec?.tolerations?.map((t) => t.key)).toEqual(['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']);

  const refused = await core.createNamespacedPod({ namespace: 'default', body: pod('second') }).catch((err: k8s.ApiException<string>) => err);
  expect(JSON.parse((refused as k8s.ApiException<string>).body).message).toBe(
    'pods "second" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1',
  );
  const quota = await core.readNamespacedResourceQuota({ namespace: 'default', name: 'q' });
  expect(quota.status?.used).toEqual({ pods: '1', 'requests.cpu': '100m' });
});
