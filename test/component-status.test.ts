// componentstatuses as kube-apiserver v1.36 computes them (pkg/registry/core/componentstatus):
// controller-manager, etcd-0 and scheduler, probed on every request, never stored; kubefake's
// store and in-process controllers answer healthy, and no scheduler runs. Through client-node,
// raw HTTP (a Table) and kubectl.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterAll(() => cluster.close());

const SCHEDULER_DOWN = 'Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused';

describe('componentstatuses', () => {
  it('lists the probed components with one Healthy condition each', async () => {
    const list = await core.listComponentStatus();
    expect(list.items.map((c) => [c.metadata!.name, c.conditions])).toEqual([
      ['controller-manager', [{ type: 'Healthy', status: 'True', message: 'ok' }]],
      ['etcd-0', [{ type: 'Healthy', status: 'True', message: 'ok' }]],
      ['scheduler', [{ type: 'Healthy', status: 'False', message: SCHEDULER_DOWN }]],
    ]);
    const one = await core.readComponentStatus({ name: 'etcd-0' });
    expect(one.conditions).toEqual([{ type: 'Healthy', status: 'True', message: 'ok' }]);
  });

  it('filters by field and label selectors, and answers an unknown name with the REST error as a 500', async () => {
    expect((await core.listComponentStatus({ fieldSelector: 'metadata.name=scheduler' })).items.map((c) => c.metadata!.name)).toEqual(['scheduler']);
    expect((await core.listComponentStatus({ labelSelector: 'tier=control-plane' })).items).toEqual([]);
    await expectStatus(core.readComponentStatus({ name: 'kubelet' }), { code: 500, reason: 'InternalError', message: 'Internal error occurred: Component not found: kubelet' });
  });

  it('prints the Status, Message and Error columns in a Table', async () => {
    const res = await fetch(`${(await cluster.listen()).url}/api/v1/componentstatuses`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    const table = (await res.json()) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Status', 'Message', 'Error']);
    expect(table.rows.map((r) => r.cells)).toEqual([
      ['controller-manager', 'Healthy', 'ok', ''],
      ['etcd-0', 'Healthy', 'ok', ''],
      ['scheduler', 'Unhealthy', SCHEDULER_DOWN, ''],
    ]);
  });
});

describe.skipIf(!kubectlAvailable)('kubectl get componentstatuses', () => {
  it('shows each component with its health', async () => {
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    const result = await kubectl(['get', 'cs']);
    expect(result.stdout.split('\n')[0]!.split(/\s+/).filter(Boolean)).toEqual(['NAME', 'STATUS', 'MESSAGE', 'ERROR']);
    expect(result.stdout).toContain('etcd-0               Healthy     ok');
    expect(result.stderr).toContain('v1 ComponentStatus is deprecated in v1.19+');
  });
});
