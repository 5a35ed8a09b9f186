import * as k8s from '@kubernetes/client-node';
import { expect, test } from 'vitest';
import { createFakeCluster } from 'kubefake';

test('server-side apply: managers own fields, conflicts are 409', async () => {
  await using cluster = await createFakeCluster();
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const apply = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply);
  const cfg = (mode: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { mode } });

  await core.patchNamespacedConfigMap({ name: 'cfg', namespace: 'default', fieldManager: 'my-controller', body: cfg('fast') }, apply);
  // another manager changing data.mode now gets 409 ...
  await expect(core.patchNamespacedConfigMap({ name: 'cfg', namespace: 'default', fieldManager: 'other', body: cfg('slow') }, apply))
    .rejects.toMatchObject({ code: 409, body: expect.stringContaining('Apply failed with 1 conflict: conflict with \\"my-controller\\": .data.mode') });
  // ... until it forces the change and takes the field over.
  const forced = await core.patchNamespacedConfigMap({ name: 'cfg', namespace: 'default', fieldManager: 'other', force: true, body: cfg('slow') }, apply);
  expect(forced.data).toEqual({ mode: 'slow' });
  expect(forced.metadata?.managedFields?.map((m) => [m.manager, m.operation])).toEqual([['other', 'Apply']]);
});
