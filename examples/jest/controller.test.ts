// The CronTab controller of examples/crontab-controller, tested under Jest: a fresh deterministic
// cluster per test (createFakeCluster in beforeEach, close in afterEach), a CRD and a custom
// resource applied, client-node calls, a Jest snapshot of what the reconcile stored, and a fault.
// Run: npm run example:jest (Jest 30, native ESM, @swc/jest; see README.md here).
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { createFakeCluster, kubefakeMatchers, type ExpectedCondition, type FakeCluster } from '../../src/index.ts';
import { startCronTabController, type CronTab } from '../crontab-controller/controller.ts';

// The kubefake matchers are plain functions: Jest's expect.extend takes them as they are; the
// declaration tells TypeScript about them (Jest's documented augmentation of the 'expect' module).
expect.extend(kubefakeMatchers);
declare module 'expect' {
  interface Matchers<R> {
    /** The object has a `status.conditions` entry of this type with status `True` (or as `expected` says). */
    toHaveCondition(type: string, expected?: ExpectedCondition): R;
    /** The object (or `{ kind, name, namespace? }`) is stored in `cluster` now. */
    toExistInCluster(cluster: FakeCluster): R;
  }
}

const CRD = new URL('../crontab-controller/crontab-crd.yaml', import.meta.url);
const crontab = (name: string, spec: CronTab['spec']) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name, namespace: 'default' }, spec });
const observed = (generation: number) => (o: unknown) => (o as CronTab | undefined)?.status?.observedGeneration === generation;

describe('CronTab controller under Jest', () => {
  let cluster: FakeCluster;
  // Deterministic: uids, timestamps and resourceVersions are the same on every run, so the snapshot is stable.
  beforeEach(async () => {
    cluster = await createFakeCluster({ deterministic: true, manifests: CRD });
  });
  afterEach(async () => {
    await cluster.close();
  });

  test('the CRD is established and served to client-node', async () => {
    expect(cluster.get({ kind: 'CustomResourceDefinition', name: 'crontabs.stable.example.com' })).toHaveCondition('Established');
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    await custom.createNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs', body: crontab('a', { image: 'x' }) });
    const read = (await custom.getNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs', name: 'a' })) as CronTab;
    expect(read.spec).toEqual({ image: 'x', replicas: 1 }); // the schema's default
  });

  test('creates a Deployment per CronTab and records it in the status', async () => {
    const controller = await startCronTabController(cluster.kubeConfig);
    await cluster.apply(crontab('nightly', { image: 'backup:1', cronSpec: '0 3 * * *' }));
    await cluster.waitFor({ kind: 'CronTab', name: 'nightly' }, observed(1));
    await controller.stop();
    await cluster.settle();

    expect({ kind: 'Deployment', name: 'nightly' }).toExistInCluster(cluster);
    const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    const deployment = await apps.readNamespacedDeployment({ name: 'nightly', namespace: 'default' });
    expect(deployment.spec?.template.spec?.containers[0]?.image).toBe('backup:1');
    expect(cluster.snapshot({ kinds: ['Deployment', 'CronTab'] })).toMatchSnapshot();
  });

  test('retries a status write that gets 409 Conflict', async () => {
    cluster.faults.add({ verb: 'update', resource: 'crontabs', subresource: 'status', error: 409, times: 1 });
    const controller = await startCronTabController(cluster.kubeConfig);
    await cluster.apply(crontab('nightly', { image: 'backup:1' }));
    const stored = (await cluster.waitFor({ kind: 'CronTab', name: 'nightly' }, observed(1))) as unknown as CronTab;
    await controller.stop();

    expect(stored.status).toEqual({ deployment: 'nightly', observedGeneration: 1 });
    expect(cluster.requests.all({ resource: 'crontabs', subresource: 'status' }).map((r) => [r.verb, r.status, r.fault])).toEqual([
      ['update', 409, true],
      ['update', 200, false],
    ]);
    const conflict = await cluster.requests.last((r) => r.subresource === 'status' && r.status === 409)!.responseBody();
    expect(conflict).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 });
  });

  // kubefake loads its CEL engine with the first CRD that has rules; under Jest's ESM runtime too.
  test('enforces a CRD validation rule (CEL) added to the CRD', async () => {
    const crd = cluster.get({ kind: 'CustomResourceDefinition', name: 'crontabs.stable.example.com' }) as unknown as k8s.V1CustomResourceDefinition;
    const spec = crd.spec.versions[0]!.schema!.openAPIV3Schema!.properties!.spec!;
    (spec as Record<string, unknown>)['x-kubernetes-validations'] = [{ rule: 'self.replicas <= 10', message: 'at most 10 replicas' }];
    await cluster.apply(crd as unknown as Parameters<FakeCluster['apply']>[0]);
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    const refused = await custom
      .createNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs', body: crontab('big', { image: 'x', replicas: 11 }) })
      .then(() => undefined, (e: unknown) => e);
    expect(refused).toBeInstanceOf(k8s.ApiException);
    expect((refused as k8s.ApiException<string>).code).toBe(422);
    expect(JSON.parse((refused as k8s.ApiException<string>).body).message).toContain('at most 10 replicas');
    await custom.createNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs', body: crontab('small', { image: 'x', replicas: 10 }) });
    expect({ kind: 'CronTab', name: 'small', namespace: 'default' }).toExistInCluster(cluster);
  });
});
