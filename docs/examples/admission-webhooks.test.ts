import * as k8s from '@kubernetes/client-node';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect, test } from 'vitest';
import { admissionWebhook, createFakeCluster, nodeWebhook } from 'kubefake';

const rules = [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];

test('a defaulting and a validating webhook, answered in-process', async () => {
  await using cluster = await createFakeCluster();
  await cluster.apply([
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'defaults' },
      webhooks: [{ name: 'owner.example.com', clientConfig: { url: 'https://hooks.example.com/default' }, rules, sideEffects: 'None', admissionReviewVersions: ['v1'] }],
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'checks' },
      webhooks: [{ name: 'size.example.com', clientConfig: { url: 'https://hooks.example.com/validate' }, rules, sideEffects: 'None', admissionReviewVersions: ['v1'] }],
    },
  ]);
  // A function from the AdmissionRequest to a decision; the patch is encoded for you.
  cluster.serveWebhook(
    'https://hooks.example.com/default',
    admissionWebhook((request) => ({ allowed: true, patch: request.object?.data?.owner ? [] : [{ op: 'add', path: '/data/owner', value: 'team-a' }] })),
  );
  // Or an existing Node HTTP handler (an Express app, Fastify's `routing`, any `(req, res)`).
  const validator = nodeWebhook((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      const review = JSON.parse(body);
      const allowed = Object.keys(review.request.object.data ?? {}).length <= 2;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed, status: { message: 'at most 2 keys' } } }));
    });
  });
  cluster.serveWebhook('https://hooks.example.com/validate', validator);

  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' }, data: { size: 'S' } } });
  expect(created.data).toEqual({ size: 'S', owner: 'team-a' });

  const refused = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'b' }, data: { x: '1', y: '2' } } }).catch((e) => e);
  expect(refused.code).toBe(400);
  expect(JSON.parse(refused.body).message).toBe('admission webhook "size.example.com" denied the request: at most 2 keys');
  await validator.close();
});
