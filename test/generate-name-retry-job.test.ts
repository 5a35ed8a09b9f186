// A Job created with generateName whose first generated name is taken: kube-apiserver v1.36 draws
// a new name and runs the whole store create again on a fresh copy of the admitted object
// (store.go createWithGenerateNameRetry: e.create(ctx, obj.DeepCopyObject(), ...)), so
// PrepareForCreate's generateSelector labels the pod template with the name the Job is stored by.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createFakeCluster } from '../src/index.ts';

const SEED = 'generate-name-retry-job';
const job = (metadata: k8s.V1ObjectMeta): k8s.V1Job => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata,
  spec: { suspend: true, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
});

async function createGenerated(taken?: string): Promise<k8s.V1Job> {
  const cluster = await createFakeCluster({ seed: SEED });
  try {
    if (taken) {
      const uid = '00000000-0000-4000-8000-000000000001';
      const existing = job({ name: taken, namespace: 'default', uid, creationTimestamp: new Date('2025-01-01T00:00:00Z') });
      existing.spec!.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
      existing.spec!.template.metadata = { labels: { 'batch.kubernetes.io/controller-uid': uid, 'controller-uid': uid, 'job-name': taken, 'batch.kubernetes.io/job-name': taken } };
      await cluster.apply([JSON.parse(JSON.stringify(existing))], { serverFields: 'keep' });
    }
    const batch = cluster.kubeConfig.makeApiClient(k8s.BatchV1Api);
    return await batch.createNamespacedJob({ namespace: 'default', body: job({ generateName: 'x-' }) });
  } finally {
    await cluster.close();
  }
}

describe('a generateName Job whose first drawn name is taken', () => {
  it('labels its pod template and itself with the name it is stored by', async () => {
    const first = (await createGenerated()).metadata!.name!;
    const created = await createGenerated(first);
    const name = created.metadata!.name!;
    expect(name).toMatch(/^x-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(name).not.toBe(first);
    expect(created.spec!.template.metadata!.labels).toMatchObject({ 'job-name': name, 'batch.kubernetes.io/job-name': name });
    expect(created.metadata!.labels).toMatchObject({ 'job-name': name, 'batch.kubernetes.io/job-name': name });
  });
});

describe('a generateName Job a mutating webhook names', () => {
  it('labels its pod template with the webhook\'s name', async () => {
    const cluster = await createFakeCluster();
    try {
      const url = 'https://hooks.example.com/name-jobs';
      await cluster.apply([
        {
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'MutatingWebhookConfiguration',
          metadata: { name: 'm' },
          webhooks: [
            {
              name: 'm.example.com',
              clientConfig: { url },
              rules: [{ operations: ['CREATE'], apiGroups: ['batch'], apiVersions: ['v1'], resources: ['jobs'] }],
              sideEffects: 'None',
              admissionReviewVersions: ['v1'],
            },
          ],
        },
      ]);
      const patch = [{ op: 'add', path: '/metadata/name', value: 'named-by-hook' }];
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      cluster.serveWebhook(url, (review: any) => ({
        apiVersion: review.apiVersion,
        kind: 'AdmissionReview',
        response: { uid: review.request.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') },
      }));
      await cluster.settle();
      const batch = cluster.kubeConfig.makeApiClient(k8s.BatchV1Api);
      const created = await batch.createNamespacedJob({ namespace: 'default', body: job({ generateName: 'x-' }) });
      expect(created.metadata!.name).toBe('named-by-hook');
      expect(created.spec!.template.metadata!.labels).toMatchObject({ 'job-name': 'named-by-hook', 'batch.kubernetes.io/job-name': 'named-by-hook' });
    } finally {
      await cluster.close();
    }
  });
});
