import * as k8s from '@kubernetes/client-node';
import { expect, test } from 'vitest';
import { createFakeCluster } from 'kubefake';

test('faults: a 409 once, then the write goes through', async () => {
  await using cluster = await createFakeCluster();
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'default' } });
  cluster.faults.add({ verb: 'update', resource: 'configmaps', error: 409, times: 1 });
  const update = () => core.replaceNamespacedConfigMap({ name: 'cfg', namespace: 'default', body: { metadata: { name: 'cfg' }, data: { a: '1' } } });
  await expect(update()).rejects.toMatchObject({ code: 409 });
  await update();
  expect(cluster.requests.all({ verb: 'update' }).map((r) => [r.status, r.fault])).toEqual([[409, true], [200, false]]);

  cluster.faults.add({ verb: 'list', resource: 'configmaps', error: 429, after: 1 }); // the first list passes, then 429s
  cluster.faults.add({ verb: 'create', namespace: 'slow', delayMs: 200 }); // late, not failed
  const hook = cluster.faults.add(async (req) => (req.verb === 'create' && ((await req.body()) as { data?: { bad?: string } }).data?.bad ? { error: 500 } : undefined));
  await core.listNamespacedConfigMap({ namespace: 'default' });
  await expect(core.listNamespacedConfigMap({ namespace: 'default' })).rejects.toMatchObject({ code: 429 });
  await expect(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'x' }, data: { bad: 'yes' } } })).rejects.toMatchObject({ code: 500 });
  hook.remove();
  await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'x' }, data: { bad: 'yes' } } });
  cluster.faults.dropWatches(); // ends every open watch, as a dropped connection does
});
