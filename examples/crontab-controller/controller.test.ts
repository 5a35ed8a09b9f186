// The CronTab controller, tested the way kubefake is meant to be used: a fresh deterministic
// cluster per test (kubefake/vitest), snapshots of what a reconcile stored, and fault injection.
// Run: npx vitest run examples/crontab-controller
import * as k8s from '@kubernetes/client-node';
import { describe } from 'vitest';
import { expect, test } from '../../src/vitest.ts';
import { startCronTabController, type CronTab } from './controller.ts';

const CRD = new URL('./crontab-crd.yaml', import.meta.url);
const crontab = (name: string, spec: CronTab['spec']) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name, namespace: 'default' }, spec });
const observed = (generation: number) => (o: unknown) => (o as CronTab | undefined)?.status?.observedGeneration === generation;

describe('CronTab controller', () => {
  test.override({ clusterOptions: { deterministic: true, manifests: CRD } });

  test('creates a Deployment per CronTab and records it in the status', async ({ cluster }) => {
    const controller = await startCronTabController(cluster.kubeConfig);
    await cluster.apply([crontab('nightly', { image: 'backup:1', cronSpec: '0 3 * * *' }), crontab('hourly', { image: 'sync:2', replicas: 2 })]);
    await cluster.waitFor({ kind: 'CronTab', name: 'nightly' }, observed(1));
    await cluster.waitFor({ kind: 'CronTab', name: 'hourly' }, observed(1));
    await controller.stop();
    await cluster.settle();
    expect({ kind: 'Deployment', name: 'nightly' }).toExistInCluster(cluster);
    // Deterministic: uids, timestamps and resourceVersions are the same on every run.
    expect(cluster.snapshot({ kinds: ['Deployment', 'CronTab'] })).toMatchSnapshot();
  });

  test('follows a spec change, and the Deployment goes with its CronTab', async ({ cluster }) => {
    const controller = await startCronTabController(cluster.kubeConfig);
    await cluster.apply(crontab('nightly', { image: 'backup:1' }));
    await cluster.waitFor({ kind: 'CronTab', name: 'nightly' }, observed(1));
    const before = cluster.snapshot({ kinds: ['Deployment', 'CronTab'] });
    await cluster.apply(crontab('nightly', { image: 'backup:2' }));
    await cluster.waitFor({ kind: 'CronTab', name: 'nightly' }, observed(2));
    expect(cluster.diff(before)).toMatchSnapshot();

    await cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi).deleteNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs', name: 'nightly' });
    await cluster.waitFor({ kind: 'Deployment', name: 'nightly' }, (o) => o === undefined);
    await controller.stop();
  });

  test('retries a status write that gets 409 Conflict', async ({ cluster }) => {
    cluster.faults.add({ verb: 'update', resource: 'crontabs', subresource: 'status', error: 409, times: 1 });
    const controller = await startCronTabController(cluster.kubeConfig);
    await cluster.apply(crontab('nightly', { image: 'backup:1' }));
    const stored = await cluster.waitFor({ kind: 'CronTab', name: 'nightly' }, observed(1));
    await controller.stop();
    expect((stored as unknown as CronTab).status).toEqual({ deployment: 'nightly', observedGeneration: 1 });
    expect(cluster.requests.all({ resource: 'crontabs', subresource: 'status' }).map((r) => [r.verb, r.status, r.fault])).toEqual([
      ['update', 409, true],
      ['update', 200, false],
    ]);
  });
});

describe('CronTab controller on a cluster that runs workloads', () => {
  // Nodes, a scheduler, a kubelet stand-in and the Deployment and ReplicaSet controllers.
  test.override({ clusterOptions: { deterministic: true, workloads: true, manifests: CRD } });

  test('its Deployment becomes Available once the cluster runs workloads', async ({ cluster }) => {
    const controller = await startCronTabController(cluster.kubeConfig);
    await cluster.apply(crontab('hourly', { image: 'sync:2', replicas: 2 }));
    await cluster.waitFor({ kind: 'CronTab', name: 'hourly' }, observed(1));
    await controller.stop();
    await cluster.settle();
    const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    const deployment = await apps.readNamespacedDeployment({ name: 'hourly', namespace: 'default' });
    expect(deployment.status?.availableReplicas).toBe(2);
    expect(deployment.status?.conditions?.find((c) => c.type === 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable' });
  });
});
