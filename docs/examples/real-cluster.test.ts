import * as k8s from '@kubernetes/client-node';
import { expect, fakeOnly, test } from 'kubefake/vitest';

// On the fake: cluster.namespace is `default`. With KUBEFAKE_KUBECONFIG set: the test's own namespace.
test('runs on the fake and on a real cluster alike', async ({ cluster }) => {
  await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { mode: 'fast' } });
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  await core.patchNamespacedConfigMap(
    { name: 'settings', namespace: cluster.namespace, body: { data: { mode: 'slow' } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
  // A client's write reaches the cluster's reads through a watch on a real cluster: wait for it.
  const updated = await cluster.waitFor({ kind: 'ConfigMap', name: 'settings' }, (cm) => (cm?.data as { mode?: string } | undefined)?.mode === 'slow');
  expect(updated?.metadata?.namespace).toBe(cluster.namespace);
});

// Skipped on a real cluster: its clock cannot be moved.
fakeOnly('moves the clock', async ({ cluster }) => {
  const before = cluster.clock.now().getTime();
  expect(cluster.clock.advance(60_000).getTime()).toBeGreaterThanOrEqual(before + 60_000);
});
