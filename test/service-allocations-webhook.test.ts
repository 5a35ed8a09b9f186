// Service allocations when a mutating webhook patches the Service. kube-apiserver v1.36 allocates
// in the Service REST's BeginCreate/BeginUpdate, once per write, after mutating admission
// (registry/generic/registry/store.go; pkg/registry/core/service/storage/alloc.go), keeps the
// allocations once the write is stored and allocates nothing on a dry run.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

const URL_MUTATE = 'https://hooks.example.com/mutate-services';

const PINNED_IP = '10.96.0.77';

let cluster: FakeCluster;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let reviewed: any[];
let core: k8s.CoreV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  await cluster.apply([
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'm' },
      webhooks: [
        {
          name: 'm.example.com',
          clientConfig: { url: URL_MUTATE },
          rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['services'] }],
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    },
  ]);
  reviewed = [];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  cluster.serveWebhook(URL_MUTATE, (review: any) => {
    reviewed.push(review.request.object);
    const patch: unknown[] = [{ op: 'add', path: '/metadata/annotations', value: { hooked: 'yes' } }];
    // The Service named "pinned" is given its clusterIP by the webhook.
    if (review.request.object.metadata.name === 'pinned') {
      patch.push({ op: 'add', path: '/spec/clusterIP', value: PINNED_IP }, { op: 'add', path: '/spec/clusterIPs', value: [PINNED_IP] });
    }
    return {
      apiVersion: review.apiVersion,
      kind: 'AdmissionReview',
      response: { uid: review.request.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') },
    };
  });
  await cluster.settle();
});
afterEach(() => cluster.close());

const service = (name: string, spec: k8s.V1ServiceSpec = {}): k8s.V1Service => ({
  metadata: { name },
  spec: { ports: [{ port: 80 }], ...spec },
});

describe('Service allocations with a mutating webhook', () => {
  it('a requested clusterIP and nodePort are allocated once and the create succeeds', async () => {
    const created = await core.createNamespacedService({
      namespace: 'default',
      body: service('web', { type: 'NodePort', clusterIP: '10.96.0.50', ports: [{ port: 80, nodePort: 30050 }] }),
    });
    expect(created.metadata!.annotations).toEqual({ hooked: 'yes' });
    expect(created.spec!.clusterIP).toBe('10.96.0.50');
    expect(created.spec!.ports![0]!.nodePort).toBe(30050);
  });

  it('a dry-run create allocates nothing: the same IP and port can be created after it', async () => {
    const body = service('web', { type: 'NodePort', clusterIP: '10.96.0.51', ports: [{ port: 80, nodePort: 30051 }] });
    await core.createNamespacedService({ namespace: 'default', body, dryRun: 'All' });
    const created = await core.createNamespacedService({ namespace: 'default', body });
    expect(created.spec!.clusterIP).toBe('10.96.0.51');
  });

  it('the IP and port a deleted Service held can be taken again', async () => {
    const body = service('web', { type: 'NodePort', ports: [{ port: 80 }] });
    const first = await core.createNamespacedService({ namespace: 'default', body });
    await core.deleteNamespacedService({ namespace: 'default', name: 'web' });
    await cluster.settle();
    const again = await core.createNamespacedService({
      namespace: 'default',
      body: service('again', { type: 'NodePort', clusterIP: first.spec!.clusterIP, ports: [{ port: 80, nodePort: first.spec!.ports![0]!.nodePort }] }),
    });
    expect(again.spec!.clusterIP).toBe(first.spec!.clusterIP);
  });

  it('an update that adds a nodePort allocates it once, and a dry-run one allocates nothing', async () => {
    await core.createNamespacedService({ namespace: 'default', body: service('web') });
    const live = await core.readNamespacedService({ namespace: 'default', name: 'web' });
    live.spec!.type = 'NodePort';
    live.spec!.ports = [{ port: 80, nodePort: 30052 }];
    await core.replaceNamespacedService({ namespace: 'default', name: 'web', body: live, dryRun: 'All' });
    const updated = await core.replaceNamespacedService({ namespace: 'default', name: 'web', body: live });
    expect(updated.spec!.ports![0]!.nodePort).toBe(30052);
  });

  it('the webhook reviews the Service before anything is allocated, and an IP it sets is the one allocated', async () => {
    const created = await core.createNamespacedService({ namespace: 'default', body: service('pinned') });
    expect(reviewed[0].spec).not.toHaveProperty('clusterIP');
    expect(reviewed[0].spec).not.toHaveProperty('ipFamilies');
    expect(created.spec!.clusterIP).toBe(PINNED_IP);
    expect(created.spec!.clusterIPs).toEqual([PINNED_IP]);
    const taken = core.createNamespacedService({ namespace: 'default', body: service('other', { clusterIP: PINNED_IP }) });
    await expectStatus(taken, {
      code: 422,
      reason: 'Invalid',
      message: `Service "other" is invalid: spec.clusterIPs: Invalid value: ["${PINNED_IP}"]: failed to allocate IP ${PINNED_IP}: provided IP is already allocated`,
    });
  });
});
