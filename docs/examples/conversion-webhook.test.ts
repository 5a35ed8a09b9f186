import * as k8s from '@kubernetes/client-node';
import { expect, test } from 'vitest';
import { createFakeCluster } from 'kubefake';

// The versions page's example: v1beta1 stores hostPort, v1 serves host and port.
const crdWithWebhookConversion = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'crontabs.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab' },
    versions: [
      { name: 'v1beta1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { hostPort: { type: 'string' } } } } },
      { name: 'v1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', properties: { host: { type: 'string' }, port: { type: 'string' } } } } },
    ],
    conversion: {
      strategy: 'Webhook',
      webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { namespace: 'default', name: 'example-conversion-webhook-server', path: '/crdconvert' } } },
    },
  },
};

test('a conversion webhook answered in-process', async () => {
  await using cluster = await createFakeCluster();
  cluster.serveWebhook({ namespace: 'default', name: 'example-conversion-webhook-server', path: '/crdconvert' }, (review) => ({
    apiVersion: review.apiVersion,
    kind: 'ConversionReview',
    response: {
      uid: review.request.uid,
      result: { status: 'Success' },
      convertedObjects: review.request.objects.map(({ hostPort, host, port, ...o }: Record<string, string>) =>
        review.request.desiredAPIVersion === 'example.com/v1'
          ? { ...o, apiVersion: 'example.com/v1', host: hostPort!.split(':')[0], port: hostPort!.split(':')[1] }
          : { ...o, apiVersion: 'example.com/v1beta1', hostPort: `${host}:${port}` }),
    },
  }));
  await cluster.apply(crdWithWebhookConversion);
  await cluster.apply({ apiVersion: 'example.com/v1beta1', kind: 'CronTab', metadata: { name: 'web', namespace: 'default' }, hostPort: 'localhost:1234' });

  const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
  const v1 = await custom.getNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace: 'default', plural: 'crontabs', name: 'web' });
  expect(v1).toMatchObject({ apiVersion: 'example.com/v1', host: 'localhost', port: '1234' });
  expect(v1).not.toHaveProperty('hostPort');
});
