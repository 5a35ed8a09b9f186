import * as k8s from '@kubernetes/client-node';
import { expect, test } from 'vitest';
import { createFakeCluster } from 'kubefake';

test('reads back what it wrote', async () => {
  await using cluster = await createFakeCluster(); // ready when it resolves; closed at the end of the block
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api); // the real client, unchanged
  await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'settings' }, data: { mode: 'fast' } } });
  const cm = await core.readNamespacedConfigMap({ name: 'settings', namespace: 'default' });
  expect(cm.data).toEqual({ mode: 'fast' });
});
