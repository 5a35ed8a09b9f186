// The server-side printers of jobs, cronjobs, events, PVCs and role bindings as clients see them:
// Tables through client-node, and kubectl's columns over cluster.listen().
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner, type KubectlResult } from './support/kubectl.ts';
import { wire } from './support/wire.ts';

interface Table {
  columnDefinitions: { name: string; priority: number }[];
  rows: { cells: unknown[] }[];
}

let cluster: FakeCluster;
let batch: k8s.BatchV1Api;
const template = { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } };

beforeAll(async () => {
  cluster = await createFakeCluster();
  batch = cluster.kubeConfig.makeApiClient(k8s.BatchV1Api);
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const rbac = cluster.kubeConfig.makeApiClient(k8s.RbacAuthorizationV1Api);
  await batch.createNamespacedJob({ namespace: 'default', body: { metadata: { name: 'once' }, spec: { completions: 2, template } } });
  await batch.createNamespacedCronJob({ namespace: 'default', body: { metadata: { name: 'nightly' }, spec: { schedule: '0 3 * * *', jobTemplate: { spec: { template } } } } });
  await core.createNamespacedEvent({
    namespace: 'default',
    body: { metadata: { name: 'once.1' }, involvedObject: { kind: 'Job', name: 'once', namespace: 'default' }, reason: 'SuccessfulCreate', message: 'Created pod: once-x', type: 'Normal', source: { component: 'job-controller' } },
  });
  await core.createNamespacedPersistentVolumeClaim({
    namespace: 'default',
    body: { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', resources: { requests: { storage: '1Gi' } } } },
  });
  await rbac.createNamespacedRoleBinding({
    namespace: 'default',
    body: { metadata: { name: 'readers' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }] },
  });
});
afterAll(() => cluster.close());

describe('Tables of the batch kinds', () => {
  it('lists jobs with Status, Completions and Duration', async () => {
    const res = wire();
    await batch.listNamespacedJob({ namespace: 'default' }, k8s.setHeaderOptions('Accept', 'application/json;as=Table;v=v1;g=meta.k8s.io', res.options));
    const table = res.body<Table>();
    expect(table.columnDefinitions.filter((c) => c.priority === 0).map((c) => c.name)).toEqual(['Name', 'Status', 'Completions', 'Duration', 'Age']);
    expect(table.rows[0]!.cells.slice(0, 4)).toEqual(['once', 'Running', '0/2', '']);
    expect(table.rows[0]!.cells.slice(5, 7)).toEqual(['c', 'busybox']);
  });
});

describe.skipIf(!kubectlAvailable)('kubectl get with the new printers', () => {
  let kubectl: (args: string[], input?: string) => Promise<KubectlResult>;
  beforeAll(async () => {
    kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
  });
  const header = (r: KubectlResult) => r.stdout.split('\n')[0]!.trim().split(/\s{2,}/);

  it('prints jobs, cronjobs, events, PVCs and role bindings with their kubectl columns', async () => {
    expect(header(await kubectl(['get', 'jobs']))).toEqual(['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE']);
    expect(header(await kubectl(['get', 'cronjobs']))).toEqual(['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE']);
    const events = await kubectl(['get', 'events']);
    expect(header(events)).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    expect(events.stdout).toContain('job/once');
    const pvc = await kubectl(['get', 'pvc']);
    expect(header(pvc)).toEqual(['NAME', 'STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'AGE']);
    expect(pvc.stdout.split('\n')[1]).toMatch(/^data\s+Pending\s+standard\s+<unset>\s+\S+$/);
    const rb = await kubectl(['get', 'rolebindings', '-o', 'wide']);
    expect(header(rb)).toEqual(['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);
    expect(rb.stdout).toContain('ClusterRole/view');
  });
});
