// JSON patch, merge patch and strategic merge patch through the real client.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { exampleWidgetsCrd } from './support/widgets-crd.ts';

let cluster: FakeCluster;
let apps: k8s.AppsV1Api;
let core: k8s.CoreV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterEach(() => cluster.close());

const as = (strategy: k8s.PatchStrategy) => k8s.setHeaderOptions('Content-Type', strategy);
const deployment: k8s.V1Deployment = {
  metadata: { name: 'web' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'app:1' }, { name: 'sidecar', image: 'proxy:1' }] } },
  },
};

describe('strategic merge patch', () => {
  it('merges containers by name instead of replacing the list', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment });
    const patched = await apps.patchNamespacedDeployment(
      { name: 'web', namespace: 'default', body: { spec: { template: { spec: { containers: [{ name: 'app', image: 'app:2' }] } } } } },
      as(k8s.PatchStrategy.StrategicMergePatch),
    );
    expect(patched.spec?.template.spec?.containers.map((c) => `${c.name}=${c.image}`)).toEqual(['app=app:2', 'sidecar=proxy:1']);
    expect(patched.metadata?.generation).toBe(2);
  });

  it('deletes a list element with $patch: delete', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment });
    const patched = await apps.patchNamespacedDeployment(
      { name: 'web', namespace: 'default', body: { spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } } } } },
      as(k8s.PatchStrategy.StrategicMergePatch),
    );
    expect(patched.spec?.template.spec?.containers.map((c) => c.name)).toEqual(['app']);
  });

  it('is refused for custom resources with 415, listing the patch types they accept', async () => {
    await cluster.apply(exampleWidgetsCrd([{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }]));
    await cluster.apply({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' } });
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    await expectStatus(
      custom.patchNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace: 'default', plural: 'widgets', name: 'w', body: { spec: { a: 1 } } }, as(k8s.PatchStrategy.StrategicMergePatch)),
      {
        code: 415,
        reason: 'UnsupportedMediaType',
        message: 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
      },
    );
  });
});

describe('JSON patch', () => {
  it('applies RFC 6902 operations', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'c' }, data: { a: '1' } } });
    const patched = await core.patchNamespacedConfigMap(
      { name: 'c', namespace: 'default', body: [{ op: 'add', path: '/data/b', value: '2' }, { op: 'remove', path: '/data/a' }] },
      as(k8s.PatchStrategy.JsonPatch),
    );
    expect(patched.data).toEqual({ b: '2' });
  });

  it('answers a failed operation with the generic 422', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'c' }, data: { a: '1' } } });
    await expectStatus(
      core.patchNamespacedConfigMap({ name: 'c', namespace: 'default', body: [{ op: 'test', path: '/data/a', value: '2' }] }, as(k8s.PatchStrategy.JsonPatch)),
      { code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request', details: {} },
    );
  });
});
