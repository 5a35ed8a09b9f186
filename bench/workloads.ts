// A 1,000-replica Deployment on a workloads cluster: from the create through client-node until
// `cluster.settle()` finds every pod bound, Running and Ready and the Deployment Available.
// Run alone with `node bench/workloads.ts`; `npm run bench` includes its section.
import * as k8s from '@kubernetes/client-node';
import { createFakeCluster } from '../src/index.ts';

interface SettleStats {
  samples: number[];
  /** CPU time of this process (user + system) over the same span: what other processes' load moves least. */
  cpu: number[];
  available: number[];
}

async function settleDeployment(replicas: number, runs: number): Promise<SettleStats> {
  const samples: number[] = [];
  const cpu: number[] = [];
  const available: number[] = [];
  for (let r = 0; r < runs; r++) {
    // 110 pods per node (the kubelet's maxPods): enough nodes for every replica.
    const cluster = await createFakeCluster({ deterministic: true, workloads: true, nodes: Math.ceil(replicas / 100) });
    const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: { metadata: { name: 'big' }, spec: { replicas, selector: { matchLabels: { app: 'big' } }, template: { metadata: { labels: { app: 'big' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } } },
    });
    await cluster.settle();
    samples.push(performance.now() - t0);
    const used = process.cpuUsage(cpu0);
    cpu.push((used.user + used.system) / 1000);
    available.push((await apps.readNamespacedDeployment({ name: 'big', namespace: 'default' })).status?.availableReplicas ?? 0);
    await cluster.close();
  }
  return { samples, cpu, available };
}

/** Markdown for RESULTS.md: every run in order (the first pays for a cold process), then the summary. */
export async function workloadsSection(replicas: number, runs: number): Promise<string> {
  const { samples, cpu, available } = await settleDeployment(replicas, runs);
  const ms = (v: number) => v.toFixed(1);
  const row = (what: string, values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    return `| ${what} | ${runs} | ${ms(mean)} | ${ms(sorted[Math.floor(sorted.length / 2)]!)} | ${ms(sorted[sorted.length - 1]!)} | ${values.map(ms).join(', ')} |`;
  };
  return `## Workloads: a ${replicas.toLocaleString('en')}-replica Deployment settles

Create a Deployment of ${replicas} replicas through client-node on \`createFakeCluster({ workloads: true })\`, then
\`cluster.settle()\`: the ReplicaSet, ${replicas} pods created, scheduled, Running and Ready, the statuses counted. One fresh
cluster per run, runs in order from a cold process.

| time | runs | mean (ms) | p50 (ms) | max (ms) | each run in order (ms) |
| --- | ---: | ---: | ---: | ---: | --- |
${row('wall', samples)}
${row('CPU', cpu)}

availableReplicas after settle(): ${[...new Set(available)].join(', ')} (must be ${replicas}). Target: under a second.
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await workloadsSection(1000, 5));
  process.exit(0);
}
