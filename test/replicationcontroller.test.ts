// ReplicationController, served since the catalogue is generated: defaults
// (SetDefaults_ReplicationController), generation, and its scale subresource
// (pkg/registry/core/replicationcontroller/storage ScaleREST: the selector is a label map).
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterEach(() => cluster.close());

const namespace = 'default';
const template = { metadata: { labels: { app: 'web', tier: 'fe' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

describe('ReplicationController', () => {
  it('defaults selector, labels and replicas from the template, resets status and stamps generation', async () => {
    const rc = await core.createNamespacedReplicationController({ namespace, body: { metadata: { name: 'web' }, spec: { template }, status: { replicas: 7 } } });
    expect(rc.spec?.selector).toEqual({ app: 'web', tier: 'fe' });
    expect(rc.metadata?.labels).toEqual({ app: 'web', tier: 'fe' });
    expect(rc.spec?.replicas).toBe(1);
    expect(rc.status).toEqual({ replicas: 0 });
    expect(rc.metadata?.generation).toBe(1);
    expect(rc.spec?.template?.spec?.restartPolicy).toBe('Always');
  });

  it('serves /scale: reads the label-map selector, writes spec.replicas, validates', async () => {
    await core.createNamespacedReplicationController({ namespace, body: { metadata: { name: 'web' }, spec: { replicas: 2, template } } });
    const scale = await core.readNamespacedReplicationControllerScale({ name: 'web', namespace });
    expect(scale).toMatchObject({ apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 2 }, status: { replicas: 0, selector: 'app=web,tier=fe' } });
    const scaled = await core.replaceNamespacedReplicationControllerScale({ name: 'web', namespace, body: { ...scale, spec: { replicas: 5 } } });
    expect(scaled.spec?.replicas).toBe(5);
    const rc = await core.readNamespacedReplicationController({ name: 'web', namespace });
    expect(rc.spec?.replicas).toBe(5);
    expect(rc.metadata?.generation).toBe(2);
    await expectStatus(core.replaceNamespacedReplicationControllerScale({ name: 'web', namespace, body: { ...scale, metadata: { name: 'web', namespace }, spec: { replicas: -1 } } }), {
      code: 422,
      reason: 'Invalid',
      message: 'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    });
  });
});
