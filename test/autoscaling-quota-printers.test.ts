// The Tables of HorizontalPodAutoscalers (autoscaling/v2 and v1) and ResourceQuotas
// (printHorizontalPodAutoscaler with formatHPAMetrics, printResourceQuota of
// pkg/printers/internalversion/printers.go, v1.36) through raw Table requests, and kubectl get.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { fetchTableNames } from './support/table.ts';

let cluster: FakeCluster;
let url: string;

const table = (path: string) => fetchTableNames(url, path);
const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

beforeAll(async () => {
  cluster = await createFakeCluster();
  url = (await cluster.listen()).url;
  const v2 = cluster.kubeConfig.makeApiClient(k8s.AutoscalingV2Api);
  const v1 = cluster.kubeConfig.makeApiClient(k8s.AutoscalingV1Api);
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  await v2.createNamespacedHorizontalPodAutoscaler({
    namespace: 'default',
    body: {
      metadata: { name: 'many' },
      spec: {
        scaleTargetRef: target,
        maxReplicas: 10,
        metrics: [
          { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
          { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1k' } } },
          { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '30' } } },
        ],
      },
    },
  });
  const cpu = await v2.createNamespacedHorizontalPodAutoscaler({
    namespace: 'default',
    body: { metadata: { name: 'cpu' }, spec: { scaleTargetRef: target, minReplicas: 2, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }] } },
  });
  await v2.replaceNamespacedHorizontalPodAutoscalerStatus({
    name: 'cpu',
    namespace: 'default',
    body: { ...cpu, status: { currentReplicas: 3, desiredReplicas: 3, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 42 } } }] } },
  });
  await v1.createNamespacedHorizontalPodAutoscaler({ namespace: 'default', body: { metadata: { name: 'legacy' }, spec: { scaleTargetRef: target, maxReplicas: 4, targetCPUUtilizationPercentage: 60 } } });
  const quota = await core.createNamespacedResourceQuota({ namespace: 'default', body: { metadata: { name: 'compute' }, spec: { hard: { 'limits.memory': '2Gi', pods: '10', 'requests.cpu': '1' } } } });
  await core.replaceNamespacedResourceQuotaStatus({
    name: 'compute',
    namespace: 'default',
    body: { ...quota, status: { hard: { 'limits.memory': '2Gi', pods: '10', 'requests.cpu': '1' }, used: { pods: '3', 'requests.cpu': '500m' } } },
  });
});
afterAll(() => cluster.close());

describe('Tables', () => {
  it('prints HPAs with their reference, at most two metric targets and the replica bounds', async () => {
    const t = await table('/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers');
    expect(t.columns).toEqual(['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age']);
    expect(t.rows).toEqual([
      ['cpu', 'Deployment/web', 'cpu: 42%/70%', '2', 5, 3],
      ['legacy', 'Deployment/web', 'cpu: <unknown>/60%', '1', 4, 0],
      ['many', 'Deployment/web', 'memory: <unknown>/500Mi, <unknown>/1k + 1 more...', '1', 10, 0],
    ]);
  });

  it('prints the same rows for autoscaling/v1 reads', async () => {
    const t = await table('/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/legacy');
    expect(t.rows).toEqual([['legacy', 'Deployment/web', 'cpu: <unknown>/60%', '1', 4, 0]]);
  });

  it('prints resource quotas with used/hard, limits.* in their own column', async () => {
    // Used values as this test wrote them; a quota controller, where one runs, recomputes them.
    const used = String.raw`(\d+m?)`;
    const t = await table('/api/v1/namespaces/default/resourcequotas');
    expect(t.columns).toEqual(['Name', 'Request', 'Limit', 'Age']);
    expect(t.rows[0]![0]).toBe('compute');
    expect(t.rows[0]![1]).toMatch(new RegExp(`^pods: ${used}/10, requests.cpu: ${used}/1$`));
    expect(t.rows[0]![2]).toMatch(new RegExp(`^limits.memory: ${used}/2Gi$`));
  });
});

describe.skipIf(!kubectlAvailable)('kubectl get', () => {
  it('prints the HPA and quota columns', async () => {
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    const lines = (out: string) => out.trim().split('\n').map((l) => l.split(/\s{2,}/).filter(Boolean));
    const hpa = lines((await kubectl(['get', 'hpa', 'cpu'])).stdout);
    expect(hpa.map((r) => r.slice(0, 6))).toEqual([['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS'], ['cpu', 'Deployment/web', 'cpu: 42%/70%', '2', '5', '3']]);
    const quota = lines((await kubectl(['get', 'quota'])).stdout);
    expect(quota[0]).toEqual(['NAME', 'REQUEST', 'LIMIT', 'AGE']);
    expect(quota[1]![0]).toBe('compute');
  });

  it('prints a built-in scale subresource with printScale (Desired, Available), not the default columns', async () => {
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    const lines = (out: string) => out.trim().split('\n').map((l) => l.split(/\s{2,}/).filter(Boolean));
    await cluster.apply({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'scaled', namespace: 'default' }, spec: { replicas: 4, selector: { matchLabels: { app: 'scaled' } }, template: { metadata: { labels: { app: 'scaled' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } });
    const printed = lines((await kubectl(['get', 'deployment', 'scaled', '--subresource=scale'])).stdout);
    expect(printed.map((r) => r.slice(0, 3))).toEqual([['NAME', 'DESIRED', 'AVAILABLE'], ['scaled', '4', '0']]);
    const t = await table('/apis/apps/v1/namespaces/default/deployments/scaled/scale');
    expect(t).toEqual({ columns: ['Name', 'Desired', 'Available', 'Age'], rows: [['scaled', 4, 0]] });
  });
});
