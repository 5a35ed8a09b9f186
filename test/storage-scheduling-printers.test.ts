// The Tables of PersistentVolumes, StorageClasses and PriorityClasses (printPersistentVolume,
// printStorageClass, printPriorityClass of pkg/printers/internalversion/printers.go, v1.36), with
// the swagger docs as column descriptions, through raw Table requests and kubectl.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { fetchTable, type PrintedTable } from './support/table.ts';

let cluster: FakeCluster;
let url: string;
async function table(path: string, names?: string[]): Promise<PrintedTable> {
  const t = await fetchTable(url, path);
  return { columns: t.columns, rows: t.rows.filter((r) => !names || names.includes(String(r[0]).replace(' (default)', ''))) };
}

beforeAll(async () => {
  cluster = await createFakeCluster();
  url = (await cluster.listen()).url;
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const storage = cluster.kubeConfig.makeApiClient(k8s.StorageV1Api);
  const scheduling = cluster.kubeConfig.makeApiClient(k8s.SchedulingV1Api);
  await core.createPersistentVolume({
    body: { metadata: { name: 'pv-a' }, spec: { accessModes: ['ReadWriteMany', 'ReadWriteOnce'], capacity: { storage: '5Gi' }, hostPath: { path: '/data' }, storageClassName: 'slow', claimRef: { namespace: 'default', name: 'data' } } },
  });
  await storage.createStorageClass({ body: { metadata: { name: 'fast', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'example.com/fast', allowVolumeExpansion: true } });
  await storage.createStorageClass({ body: { metadata: { name: 'slow' }, provisioner: 'example.com/slow', reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' } });
  await scheduling.createPriorityClass({ body: { metadata: { name: 'batch-low' }, value: -10, preemptionPolicy: 'Never' } });
});
afterAll(() => cluster.close());

describe('Tables', () => {
  it('prints persistent volumes: size, access modes in RWO/ROX/RWX order, claim, class, unset attributes class and mode', async () => {
    const { columns, rows } = await table('/api/v1/persistentvolumes');
    expect(columns.map((c) => c.name)).toEqual(['Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'VolumeAttributesClass', 'Reason', 'Age', 'VolumeMode']);
    expect(columns[4]).toEqual({
      name: 'Status',
      type: 'string',
      format: '',
      description: 'phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase',
      priority: 0,
    });
    expect(rows).toEqual([['pv-a', '5Gi', 'RWO,RWX', 'Retain', 'Pending', 'default/data', 'slow', '<unset>', '', 'Filesystem']]);
  });

  it('prints storage classes with the default marked and the defaults of unset policies', async () => {
    const { columns, rows } = await table('/apis/storage.k8s.io/v1/storageclasses', ['fast', 'slow']);
    expect(columns.map((c) => c.name)).toEqual(['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age']);
    expect(rows).toEqual([
      ['fast (default)', 'example.com/fast', 'Delete', 'Immediate', true],
      ['slow', 'example.com/slow', 'Retain', 'WaitForFirstConsumer', false],
    ]);
  });

  it('prints priority classes with their value, global default and preemption policy', async () => {
    const { columns, rows } = await table('/apis/scheduling.k8s.io/v1/priorityclasses', ['batch-low']);
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Value', 'integer'],
      ['Global-Default', 'boolean'],
      ['Age', 'string'],
      ['PreemptionPolicy', 'string'],
    ]);
    expect(rows).toEqual([['batch-low', -10, false, 'Never']]);
  });
});

describe.skipIf(!kubectlAvailable)('kubectl get', () => {
  it('prints the columns', async () => {
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    const header = (out: string) => out.split('\n')[0]!.split(/\s{2,}/).filter(Boolean);
    expect(header((await kubectl(['get', 'pv'])).stdout)).toEqual(['NAME', 'CAPACITY', 'ACCESS MODES', 'RECLAIM POLICY', 'STATUS', 'CLAIM', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'REASON', 'AGE']);
    expect((await kubectl(['get', 'sc'])).stdout).toMatch(/^fast \(default\)\s+example\.com\/fast\s+Delete\s+Immediate\s+true\s/m);
  });
});
