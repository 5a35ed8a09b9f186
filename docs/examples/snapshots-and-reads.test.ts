import * as k8s from '@kubernetes/client-node';
import { expect, test } from 'vitest';
import { createFakeCluster } from 'kubefake';

test('snapshot, diff, request log, history and direct reads', async () => {
  await using cluster = await createFakeCluster({ deterministic: true });
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const before = cluster.snapshot();
  await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a', labels: { app: 'web' } }, data: { mode: 'fast' } } });
  expect(cluster.diff(before)).toEqual({ created: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'a' }], changed: [], deleted: [] });

  const created = cluster.snapshot();
  await core.patchNamespacedConfigMap({ name: 'a', namespace: 'default', body: { data: { mode: 'slow' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
  expect(cluster.diff(created).changed).toEqual([
    { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'a', changes: [{ path: 'data.mode', before: 'fast', after: 'slow' }] },
  ]);
  expect(cluster.snapshot({ format: 'yaml', kinds: ['cm'], labels: 'app=web' })).toContain('mode: slow');

  expect(cluster.requests.all({ resource: 'configmaps' }).map((r) => `${r.verb} ${r.status}`)).toEqual(['create 201', 'patch 200']);
  expect(await cluster.requests.last({ verb: 'create' })!.body()).toMatchObject({ metadata: { name: 'a' } });
  expect(cluster.history.all({ kind: 'ConfigMap', type: 'MODIFIED' })).toHaveLength(1);
  cluster.requests.clear();

  expect(cluster.get({ kind: 'ConfigMap', name: 'a' })?.data).toEqual({ mode: 'slow' }); // namespace defaults to `default`
  expect(cluster.list('ConfigMap', { labelSelector: 'app=web' })).toHaveLength(1);
  const gone = cluster.waitFor({ kind: 'ConfigMap', name: 'a' }, (o) => o === undefined, { timeout: 5_000 });
  await core.deleteNamespacedConfigMap({ name: 'a', namespace: 'default' });
  expect(await gone).toBeUndefined();
});
