// The Tables of RuntimeClasses, EndpointSlices, CSINodes, CSIDrivers and CSIStorageCapacities
// (printRuntimeClass, printEndpointSlice, printCSINode, printCSIDriver, printCSIStorageCapacity of
// pkg/printers/internalversion/printers.go, v1.36) through raw Table requests, and kubectl get.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { columnNames, fetchTable } from './support/table.ts';

let cluster: FakeCluster;
let url: string;

const table = (path: string) => fetchTable(url, path);

beforeAll(async () => {
  cluster = await createFakeCluster();
  url = (await cluster.listen()).url;
  const node = cluster.kubeConfig.makeApiClient(k8s.NodeV1Api);
  const discovery = cluster.kubeConfig.makeApiClient(k8s.DiscoveryV1Api);
  const storage = cluster.kubeConfig.makeApiClient(k8s.StorageV1Api);
  await node.createRuntimeClass({ body: { metadata: { name: 'gvisor' }, handler: 'runsc' } });
  await discovery.createNamespacedEndpointSlice({
    namespace: 'default',
    body: {
      metadata: { name: 'many' },
      addressType: 'IPv4',
      ports: [{ name: 'http', port: 80 }, { name: 'named' }, {}, { port: 8443 }],
      endpoints: [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3'] }, { addresses: ['10.0.0.4', '10.0.0.5'] }],
    },
  });
  await discovery.createNamespacedEndpointSlice({ namespace: 'default', body: { metadata: { name: 'empty' }, addressType: 'FQDN', endpoints: [] } });
  await storage.createCSINode({ body: { metadata: { name: 'node-1' }, spec: { drivers: [{ name: 'a.csi', nodeID: 'n1' }, { name: 'b.csi', nodeID: 'n1' }] } } });
  await storage.createCSIDriver({
    body: { metadata: { name: 'csi.example.com' }, spec: { attachRequired: false, podInfoOnMount: true, tokenRequests: [{ audience: 'vault' }, { audience: 'gcp' }], volumeLifecycleModes: ['Persistent', 'Ephemeral'] } },
  });
  await storage.createNamespacedCSIStorageCapacity({ namespace: 'default', body: { metadata: { name: 'cap' }, storageClassName: 'fast', capacity: '10Gi' } });
  await storage.createNamespacedCSIStorageCapacity({ namespace: 'default', body: { metadata: { name: 'unknown' }, storageClassName: 'slow' } });
});
afterAll(() => cluster.close());

describe('Tables', () => {
  it('prints runtime classes with their handler (a column whose description is empty upstream)', async () => {
    const t = await table('/apis/node.k8s.io/v1/runtimeclasses');
    expect(t.columns.map((c) => [c.name, c.description === ''])).toEqual([['Name', false], ['Handler', true], ['Age', false]]);
    expect(t.rows).toEqual([['gvisor', 'runsc']]);
  });

  it('prints endpoint slices with at most three ports and addresses, then how many more', async () => {
    const t = await table('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices');
    expect(columnNames(t)).toEqual(['Name', 'AddressType', 'Ports', 'Endpoints', 'Age']);
    // Only this test's slices (the apiserver's own for the kubernetes Service may be there too).
    expect(t.rows.filter((r) => r[0] === 'empty' || r[0] === 'many')).toEqual([
      ['empty', 'FQDN', '<unset>', '<unset>'],
      ['many', 'IPv4', '80,named,* + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...'],
    ]);
  });

  it('prints CSI nodes, drivers and storage capacities', async () => {
    expect((await table('/apis/storage.k8s.io/v1/csinodes')).rows).toEqual([['node-1', 2]]);
    const drivers = await table('/apis/storage.k8s.io/v1/csidrivers');
    expect(columnNames(drivers)).toEqual(['Name', 'AttachRequired', 'PodInfoOnMount', 'StorageCapacity', 'TokenRequests', 'RequiresRepublish', 'Modes', 'Age']);
    expect(drivers.rows).toEqual([['csi.example.com', false, true, false, 'vault,gcp', false, 'Persistent,Ephemeral']]);
    const capacities = await table('/apis/storage.k8s.io/v1/namespaces/default/csistoragecapacities');
    expect(columnNames(capacities)).toEqual(['Name', 'StorageClassName', 'Capacity']);
    expect(capacities.rows).toEqual([['cap', 'fast', '10Gi'], ['unknown', 'slow', '<unset>']]);
  });
});

describe.skipIf(!kubectlAvailable)('kubectl get', () => {
  it('prints the columns and rows', async () => {
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    const lines = (out: string) => out.trim().split('\n').map((l) => l.split(/\s{2,}/).filter(Boolean));
    expect(lines((await kubectl(['get', 'runtimeclasses'])).stdout).map((r) => r.slice(0, 2))).toEqual([['NAME', 'HANDLER'], ['gvisor', 'runsc']]);
    const slices = lines((await kubectl(['get', 'endpointslices', 'many'])).stdout);
    expect(slices.map((r) => r.slice(0, 4))).toEqual([['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS'], ['many', 'IPv4', '80,named,* + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...']]);
    expect(lines((await kubectl(['get', 'csistoragecapacities'])).stdout)).toEqual([['NAME', 'STORAGECLASSNAME', 'CAPACITY'], ['cap', 'fast', '10Gi'], ['unknown', 'slow', '<unset>']]);
  });
});
