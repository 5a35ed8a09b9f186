import * as k8s from '@kubernetes/client-node';
import { expect, test } from 'vitest';
import { createFakeCluster } from 'kubefake';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer', maximum: 10, default: 1 } } } } } },
    }],
  },
};

test('validation, pruning and defaults of a custom resource write', async () => {
  await using cluster = await createFakeCluster({ manifests: [crd] });
  const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
  const target = { group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs' };

  await expect(custom.createNamespacedCustomObject({ ...target,
    body: { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c' }, spec: { replicas: 15 } } }))
    .rejects.toMatchObject({ code: 422, body: expect.stringContaining('CronTab.stable.example.com \\"c\\" is invalid: spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10') });

  // fieldValidation=Warn (the default): stored pruned, one Warning per unknown field; Strict answers 400.
  const created = await custom.createNamespacedCustomObject({ ...target,
    body: { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'd' }, spec: { b: 1 } } });
  expect(created.spec).toEqual({ replicas: 1 }); // unknown field pruned, default applied
  await expect(custom.createNamespacedCustomObject({ ...target, fieldValidation: 'Strict',
    body: { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'e' }, spec: { b: 1 } } }))
    .rejects.toMatchObject({ code: 400, body: expect.stringContaining('strict decoding error: unknown field \\"spec.b\\"') });
});
