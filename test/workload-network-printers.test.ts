// The Tables of ReplicationControllers, NetworkPolicies, Ingresses, ControllerRevisions and
// VolumeAttachments (printReplicationController, printNetworkPolicy, printIngress, printControllerRevision, printVolumeAttachment of
// pkg/printers/internalversion/printers.go, v1.36) through raw Table requests, and kubectl get.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { PRINTER_DOCS } from '../src/generated/printer-docs.generated.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { columnNames, fetchTable } from './support/table.ts';

let cluster: FakeCluster;
let url: string;

const table = (path: string) => fetchTable(url, path);

beforeAll(async () => {
  cluster = await createFakeCluster();
  url = (await cluster.listen()).url;
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const networking = cluster.kubeConfig.makeApiClient(k8s.NetworkingV1Api);
  const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  const storage = cluster.kubeConfig.makeApiClient(k8s.StorageV1Api);
  await core.createNamespacedReplicationController({
    namespace: 'default',
    body: {
      metadata: { name: 'rc' },
      spec: { replicas: 3, selector: { tier: 'web', app: 'a' }, template: { metadata: { labels: { app: 'a', tier: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }, { name: 'log', image: 'busybox' }] } } },
    },
  });
  await networking.createNamespacedNetworkPolicy({ namespace: 'default', body: { metadata: { name: 'all' }, spec: { podSelector: {} } } });
  const backend = { service: { name: 'web', port: { number: 80 } } };
  const rule = (host?: string): k8s.V1IngressRule => ({ ...(host ? { host } : {}), http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } });
  await networking.createNamespacedIngress({ namespace: 'default', body: { metadata: { name: 'plain' }, spec: { defaultBackend: backend } } });
  const tls = await networking.createNamespacedIngress({
    namespace: 'default',
    body: { metadata: { name: 'tls' }, spec: { ingressClassName: 'nginx', tls: [{ hosts: ['a.example.com'] }], rules: [rule('a.example.com'), rule(), rule('b.example.com'), rule('c.example.com'), rule('d.example.com')] } },
  });
  await networking.replaceNamespacedIngressStatus({
    name: 'tls',
    namespace: 'default',
    body: { ...tls, status: { loadBalancer: { ingress: [{ ip: '10.0.0.9' }, { hostname: 'lb.example.com' }, { ip: '10.0.0.10' }] } } },
  });
  await networking.createNamespacedNetworkPolicy({
    namespace: 'default',
    body: { metadata: { name: 'web' }, spec: { podSelector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }] } } },
  });
  // The owner must exist, or the garbage collector removes the revision.
  const owner = await apps.createNamespacedStatefulSet({
    namespace: 'default',
    body: { metadata: { name: 'web' }, spec: { serviceName: 'web', selector: { matchLabels: { app: 'w' } }, template: { metadata: { labels: { app: 'w' } }, spec: { containers: [{ name: 'w', image: 'nginx' }] } } } },
  });
  await apps.createNamespacedControllerRevision({
    namespace: 'default',
    body: { metadata: { name: 'web-1', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: owner.metadata!.uid!, controller: true }] }, revision: 2, data: {} },
  });
  await apps.createNamespacedControllerRevision({ namespace: 'default', body: { metadata: { name: 'orphan' }, revision: 1 } });
  await storage.createVolumeAttachment({ body: { metadata: { name: 'va' }, spec: { attacher: 'csi.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' } } } });
});
afterAll(() => cluster.close());

describe('Tables', () => {
  it('prints replication controllers like replica sets, the selector as a label map', async () => {
    const t = await table('/api/v1/namespaces/default/replicationcontrollers');
    expect(columnNames(t)).toEqual(['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector']);
    expect(t.columns[1]).toEqual({ name: 'Desired', type: 'integer', format: '', description: PRINTER_DOCS['replicationControllerSpec.replicas'], priority: 0 });
    expect(t.columns[1]!.description).toMatch(/^Replicas is the number of desired replicas/);
    expect(t.rows).toEqual([['rc', 3, 0, 0, 'web,log', 'nginx,busybox', 'app=a,tier=web']]);
  });

  it('prints network policies with their pod selector, <none> for every pod', async () => {
    const t = await table('/apis/networking.k8s.io/v1/namespaces/default/networkpolicies');
    expect(columnNames(t)).toEqual(['Name', 'Pod-Selector', 'Age']);
    expect(t.rows).toEqual([['all', '<none>'], ['web', 'app=web,env in (dev,prod)']]);
  });

  it('prints ingresses with class, the first three hosts, the load-balancer addresses and ports', async () => {
    const t = await table('/apis/networking.k8s.io/v1/namespaces/default/ingresses');
    expect(columnNames(t)).toEqual(['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age']);
    expect(t.rows).toEqual([
      ['plain', '<none>', '*', '', '80'],
      // formatHosts counts every rule in "+ N more", hostless ones too.
      ['tls', 'nginx', 'a.example.com,b.example.com,c.example.com + 2 more...', '10.0.0.10,10.0.0.9,lb.example.com', '80, 443'],
    ]);
  });

  it('prints controller revisions with their controller as kind.group/name', async () => {
    const t = await table('/apis/apps/v1/namespaces/default/controllerrevisions');
    expect(columnNames(t)).toEqual(['Name', 'Controller', 'Revision', 'Age']);
    expect(t.rows).toEqual([['orphan', '<none>', 1], ['web-1', 'statefulset.apps/web', 2]]);
  });

  it('prints volume attachments with attacher, volume, node and state', async () => {
    const t = await table('/apis/storage.k8s.io/v1/volumeattachments');
    expect(columnNames(t)).toEqual(['Name', 'Attacher', 'PV', 'Node', 'Attached', 'Age']);
    expect(t.columns[1]!.format).toBe('name');
    expect(t.rows).toEqual([['va', 'csi.example.com', 'pv-1', 'node-1', false]]);
  });
});

describe.skipIf(!kubectlAvailable)('kubectl get', () => {
  it('prints the columns and rows', async () => {
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    const lines = (out: string) => out.trim().split('\n').map((l) => l.split(/\s{2,}/).filter(Boolean));
    const rc = lines((await kubectl(['get', 'rc', '-o', 'wide'])).stdout);
    expect(rc[0]).toEqual(['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    expect(rc[1]!.filter((_, i) => i !== 4)).toEqual(['rc', '3', '0', '0', 'web,log', 'nginx,busybox', 'app=a,tier=web']);
    const netpol = lines((await kubectl(['get', 'networkpolicies'])).stdout);
    expect(netpol.map((r) => r.slice(0, 2))).toEqual([['NAME', 'POD-SELECTOR'], ['all', '<none>'], ['web', 'app=web,env in (dev,prod)']]);
    const ing = lines((await kubectl(['get', 'ingress', 'tls'])).stdout);
    expect(ing.map((r) => r.slice(0, 5))).toEqual([['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS'], ['tls', 'nginx', 'a.example.com,b.example.com,c.example.com + 2 more...', '10.0.0.10,10.0.0.9,lb.example.com', '80, 443']]);
    const revisions = lines((await kubectl(['get', 'controllerrevisions'])).stdout);
    expect(revisions.map((r) => r.slice(0, 3))).toEqual([['NAME', 'CONTROLLER', 'REVISION'], ['orphan', '<none>', '1'], ['web-1', 'statefulset.apps/web', '2']]);
  });
});
