// The CronTab controller, tested the way kubefake is meant to be used: a fresh cluster per test
// (kubefake/vitest), waiting on the store instead of sleeping, snapshots of what a reconcile
// stored, and fault injection. The same file runs against a real cluster: with KUBEFAKE_KUBECONFIG
// set, each test works in a namespace of its own (`cluster.namespace`) and the fake-only tests
// (deterministic snapshots, faults) are skipped (`npm run example:real-cluster` does that against
// a `kubefake serve` process).
// Run: npx vitest run examples/crontab-controller
import * as k8s from '@kubernetes/client-node';
import { describe } from 'vitest';
import { expect, fakeOnly, test } from '../../src/vitest.ts';
import { startCronTabController, type CronTab } from './controller.ts';

const CRD = new URL('./crontab-crd.yaml', import.meta.url);
const crontab = (name: string, namespace: string, spec: CronTab['spec']) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name, namespace }, spec });
const observed = (generation: number) => (o: unknown) => (o as CronTab | undefined)?.status?.observedGeneration === generation;

describe('CronTab controller', () => {
  test.override({ clusterOptions: { manifests: CRD } });

  test('creates a Deployment per CronTab and records it in the status', async ({ cluster }) => {
    const controller = await startCronTabController(cluster.kubeConfig, cluster.namespace);
    await cluster.apply([crontab('nightly', cluster.namespace, { image: 'backup:1', cronSpec: '0 3 * * *' }), crontab('hourly', cluster.namespace, { image: 'sync:2', replicas: 2 })]);
    const nightly = await cluster.waitFor({ kind: 'CronTab', name: 'nightly' }, observed(1));
    await cluster.waitFor({ kind: 'CronTab', name: 'hourly' }, observed(1));
    await controller.stop();
    expect((nightly as unknown as CronTab).status).toEqual({ deployment: 'nightly', observedGeneration: 1 });
    const hourly = await cluster.waitFor({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'hourly' });
    expect(hourly?.spec).toMatchObject({ replicas: 2, template: { spec: { containers: [{ image: 'sync:2' }] } } });
    expect(hourly?.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: 'CronTab', name: 'hourly', controller: true })]);
  });

  test('follows a spec change, and the Deployment goes with its CronTab', async ({ cluster }) => {
    const controller = await startCronTabController(cluster.kubeConfig, cluster.namespace);
    await cluster.apply(crontab('nightly', cluster.namespace, { image: 'backup:1' }));
    await cluster.waitFor({ kind: 'CronTab', name: 'nightly' }, observed(1));
    const before = cluster.snapshot({ kinds: ['Deployment', 'CronTab'], namespaces: [cluster.namespace] });
    await cluster.apply(crontab('nightly', cluster.namespace, { image: 'backup:2' }));
    await cluster.waitFor({ kind: 'CronTab', name: 'nightly' }, observed(2));
    await cluster.waitFor({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nightly' }, (d) => (d as k8s.V1Deployment | undefined)?.spec?.template.spec?.containers[0]?.image === 'backup:2');
    const changed = cluster.diff(before).changed.map((c) => [c.kind, c.changes.map((f) => f.path).filter((p) => p.startsWith('spec') || p.startsWith('status'))]);
    expect(changed).toEqual(
      expect.arrayContaining([
        ['CronTab', expect.arrayContaining(['spec.image', 'status.observedGeneration'])],
        ['Deployment', ['spec.template.spec.containers[0].image']],
      ]),
    );

    await cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi).deleteNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: cluster.namespace, plural: 'crontabs', name: 'nightly' });
    await cluster.waitFor({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nightly' }, (o) => o === undefined);
    await controller.stop();
  });
});

describe('CronTab controller, what only the fake offers', () => {
  test.override({ clusterOptions: { deterministic: true, manifests: CRD } });

  fakeOnly('stores byte-identical objects on every run (deterministic snapshot)', async ({ cluster }) => {
    const controller = await startCronTabController(cluster.kubeConfig);
    await cluster.apply([crontab('nightly', 'default', { image: 'backup:1', cronSpec: '0 3 * * *' }), crontab('hourly', 'default', { image: 'sync:2', replicas: 2 })]);
    await cluster.waitFor({ kind: 'CronTab', name: 'nightly' }, observed(1));
    await cluster.waitFor({ kind: 'CronTab', name: 'hourly' }, observed(1));
    await controller.stop();
    await cluster.settle();
    expect({ kind: 'Deployment', name: 'nightly' }).toExistInCluster(cluster);
    // Deterministic: uids, timestamps and resourceVersions are the same on every run.
    expect(cluster.snapshot({ kinds: ['Deployment', 'CronTab'] })).toMatchSnapshot();
  });

  fakeOnly('retries a status write that gets 409 Conflict', async ({ cluster }) => {
    cluster.faults.add({ verb: 'update', resource: 'crontabs', subresource: 'status', error: 409, times: 1 });
    const controller = await startCronTabController(cluster.kubeConfig);
    await cluster.apply(crontab('nightly', 'default', { image: 'backup:1' }));
    const stored = await cluster.waitFor({ kind: 'CronTab', name: 'nightly' }, observed(1));
    await controller.stop();
    expect((stored as unknown as CronTab).status).toEqual({ deployment: 'nightly', observedGeneration: 1 });
    expect(cluster.requests.all({ resource: 'crontabs', subresource: 'status' }).map((r) => [r.verb, r.status, r.fault])).toEqual([
      ['update', 409, true],
      ['update', 200, false],
    ]);
  });
});

describe('CronTab controller, its RBAC', () => {
  test.override({ clusterOptions: { auth: true, manifests: CRD } });
  const RBAC = new URL('./rbac.yaml', import.meta.url);
  const identity = { serviceAccount: 'default/crontab-controller' };

  fakeOnly('runs with the role it ships, which is enough and no more than it uses', async ({ cluster }) => {
    await cluster.apply([
      RBAC,
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'crontab-controller' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'crontab-controller' },
        subjects: [{ kind: 'ServiceAccount', name: 'crontab-controller', namespace: 'default' }],
      },
    ]);
    const controller = await startCronTabController(cluster.kubeConfigFor(identity));
    await cluster.apply(crontab('nightly', 'default', { image: 'backup:1' }));
    await cluster.waitFor({ kind: 'CronTab', name: 'nightly' }, observed(1));
    await cluster.apply(crontab('nightly', 'default', { image: 'backup:2' })); // the update path
    await cluster.waitFor({ kind: 'CronTab', name: 'nightly' }, observed(2));
    await controller.stop();

    const used = cluster.permissions.used(identity);
    await expect(used).toBeAllowedBy(RBAC);
    // No more: every (group, resource, verb) the role grants was used.
    const granted = [
      ['stable.example.com', 'crontabs', 'get'],
      ['stable.example.com', 'crontabs', 'list'],
      ['stable.example.com', 'crontabs', 'watch'],
      ['stable.example.com', 'crontabs/status', 'update'],
      ['apps', 'deployments', 'create'],
      ['apps', 'deployments', 'get'],
      ['apps', 'deployments', 'update'],
    ];
    const exercised = new Set(used.map((p) => JSON.stringify([p.group, p.subresource ? `${p.resource}/${p.subresource}` : p.resource, p.verb])));
    expect(granted.filter((g) => !exercised.has(JSON.stringify(g)))).toEqual([]);
    // And what a role narrower than that would miss is named.
    await expect(expect(used).toBeAllowedBy({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'narrow' }, rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] }] })).rejects.toThrow(
      [
        'expected the roles to allow every permission used; they do not allow:',
        '  get stable.example.com/crontabs "nightly" in default',
        '  list stable.example.com/crontabs in default',
        '  update stable.example.com/crontabs/status "nightly" in default',
        '  watch stable.example.com/crontabs in default',
      ].join('\n'),
    );
  });
});

describe('CronTab controller on a cluster that runs workloads', () => {
  // Nodes, a scheduler, a kubelet stand-in and the Deployment and ReplicaSet controllers.
  test.override({ clusterOptions: { deterministic: true, workloads: true, manifests: CRD } });

  fakeOnly('its Deployment becomes Available once the cluster runs workloads', async ({ cluster }) => {
    const controller = await startCronTabController(cluster.kubeConfig);
    await cluster.apply(crontab('hourly', 'default', { image: 'sync:2', replicas: 2 }));
    await cluster.waitFor({ kind: 'CronTab', name: 'hourly' }, observed(1));
    await controller.stop();
    await cluster.settle();
    const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    const deployment = await apps.readNamespacedDeployment({ name: 'hourly', namespace: 'default' });
    expect(deployment.status?.availableReplicas).toBe(2);
    expect(deployment.status?.conditions?.find((c) => c.type === 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable' });
  });
});
