import * as k8s from '@kubernetes/client-node';
import { expect, test } from 'vitest';
import { createFakeCluster } from 'kubefake';

test('/scale of a Deployment and /status of a custom resource', async () => {
  await using cluster = await createFakeCluster();
  await cluster.apply('examples/crontab-controller/crontab-crd.yaml'); // a CRD with subresources.status
  await cluster.apply([
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } } },
    { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'nightly', namespace: 'default' }, spec: { cronSpec: '0 0 * * *', image: 'backup', replicas: 1 } },
  ]);
  const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

  const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  const scale = await apps.patchNamespacedDeploymentScale({ name: 'web', namespace: 'default', body: { spec: { replicas: 5 } } }, merge);
  expect(scale.spec?.replicas).toBe(5);

  const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
  const status = await custom.patchNamespacedCustomObjectStatus(
    { group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs', name: 'nightly', body: { status: { deployment: 'nightly' }, spec: { replicas: 9 } } }, merge);
  expect(status).toMatchObject({ status: { deployment: 'nightly' }, spec: { replicas: 1 } }); // a /status write changes only status
});
