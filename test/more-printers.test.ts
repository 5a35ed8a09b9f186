// The Tables of PodTemplates, PodDisruptionBudgets and IngressClasses (printPodTemplate,
// printPodDisruptionBudget, printIngressClass of pkg/printers/internalversion/printers.go, v1.36)
// through client-node's objects and raw Table requests, and kubectl's columns.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { fetchTableNames } from './support/table.ts';

let cluster: FakeCluster;
let url: string;

const table = (path: string) => fetchTableNames(url, path);

beforeAll(async () => {
  cluster = await createFakeCluster();
  url = (await cluster.listen()).url;
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const policy = cluster.kubeConfig.makeApiClient(k8s.PolicyV1Api);
  const networking = cluster.kubeConfig.makeApiClient(k8s.NetworkingV1Api);
  await core.createNamespacedPodTemplate({
    namespace: 'default',
    body: { metadata: { name: 'tpl' }, template: { metadata: { labels: { b: '2', a: '1' } }, spec: { containers: [{ name: 'web', image: 'nginx' }, { name: 'log', image: 'busybox' }] } } },
  });
  await policy.createNamespacedPodDisruptionBudget({ namespace: 'default', body: { metadata: { name: 'min' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'a' } } } } });
  await policy.createNamespacedPodDisruptionBudget({ namespace: 'default', body: { metadata: { name: 'max' }, spec: { maxUnavailable: '25%', selector: { matchLabels: { app: 'a' } } } } });
  await networking.createIngressClass({ body: { metadata: { name: 'plain' }, spec: { controller: 'example.com/ingress' } } });
  await networking.createIngressClass({
    body: { metadata: { name: 'tuned' }, spec: { controller: 'example.com/ingress', parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external' } } },
  });
});
afterAll(() => cluster.close());

describe('Tables', () => {
  it('prints pod templates with their containers, images and labels', async () => {
    expect(await table('/api/v1/namespaces/default/podtemplates')).toEqual({ columns: ['Name', 'Containers', 'Images', 'Pod Labels'], rows: [['tpl', 'web,log', 'nginx,busybox', 'a=1,b=2']] });
  });

  it('prints disruption budgets with N/A for the unset bound', async () => {
    expect(await table('/apis/policy/v1/namespaces/default/poddisruptionbudgets')).toEqual({
      columns: ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age'],
      rows: [
        ['max', 'N/A', '25%', 0],
        ['min', '2', 'N/A', 0],
      ],
    });
  });

  it('prints ingress classes with their parameters as Kind.group/name', async () => {
    expect(await table('/apis/networking.k8s.io/v1/ingressclasses')).toEqual({
      columns: ['Name', 'Controller', 'Parameters', 'Age'],
      rows: [
        ['plain', 'example.com/ingress', '<none>'],
        ['tuned', 'example.com/ingress', 'IngressParameters.k8s.example.com/external'],
      ],
    });
  });
});

describe.skipIf(!kubectlAvailable)('kubectl get', () => {
  it('prints the columns', async () => {
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    const header = (out: string) => out.split('\n')[0]!.split(/\s{2,}/).filter(Boolean);
    expect(header((await kubectl(['get', 'pdb'])).stdout)).toEqual(['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE']);
    expect(header((await kubectl(['get', 'podtemplates'])).stdout)).toEqual(['NAME', 'CONTAINERS', 'IMAGES', 'POD LABELS']);
    expect(header((await kubectl(['get', 'ingressclasses'])).stdout)).toEqual(['NAME', 'CONTROLLER', 'PARAMETERS', 'AGE']);
  });
});
