// The harness's cost per test: a fresh cluster per test (what the kubefake/vitest fixture does),
// deterministic or not, with and without the request log and change history; and snapshot()/diff()
// of a populated cluster. Run alone: node bench/harness.ts
import * as k8s from '@kubernetes/client-node';
import { createFakeCluster, type FakeClusterOptions } from '../src/index.ts';

interface Row {
  name: string;
  iterations: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
}

async function time(name: string, iterations: number, fn: () => Promise<unknown>, warmup = 30): Promise<Row> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const pick = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { name, iterations, meanMs: samples.reduce((a, b) => a + b, 0) / samples.length, p50Ms: pick(0.5), p99Ms: pick(0.99) };
}

const freshCluster = (options: FakeClusterOptions) => async () => {
  const cluster = await createFakeCluster(options);
  await cluster.close();
};

const freshClusterWithRequest = (options: FakeClusterOptions) => async () => {
  const cluster = await createFakeCluster(options);
  await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'x' } } });
  await cluster.close();
};

export async function harnessBench(iterations = 300): Promise<string> {
  // The first cluster of a process also starts the shared interception: keep one open so every case pays only its own cost.
  const keepAlive = await createFakeCluster();
  const rows: Row[] = [];
  rows.push(await time('fresh cluster per test: createFakeCluster() + close()', iterations, freshCluster({})));
  rows.push(await time('… deterministic: true', iterations, freshCluster({ deterministic: true })));
  rows.push(await time('… request log and history off', iterations, freshCluster({ requestLog: { limit: 0 }, history: { limit: 0 } })));
  rows.push(await time('fresh cluster + one client-node create + close()', iterations, freshClusterWithRequest({})));

  const populated = await createFakeCluster({ deterministic: true });
  await populated.apply(Array.from({ length: 200 }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, labels: { i: String(i % 10) } }, data: { value: String(i) } })));
  const before = populated.snapshot();
  rows.push(await time('snapshot() of 200 objects', iterations, async () => populated.snapshot()));
  rows.push(await time("snapshot({ format: 'yaml' }) of 200 objects", iterations, async () => populated.snapshot({ format: 'yaml' })));
  rows.push(await time('diff() of 200 objects, none changed', iterations, async () => populated.diff(before)));
  await populated.close();
  await keepAlive.close();

  const fresh = rows[0]!;
  const lines = ['| case | iterations | mean (ms) | p50 (ms) | p99 (ms) |', '| --- | ---: | ---: | ---: | ---: |'];
  for (const r of rows) lines.push(`| ${r.name} | ${r.iterations} | ${r.meanMs.toFixed(3)} | ${r.p50Ms.toFixed(3)} | ${r.p99Ms.toFixed(3)} |`);
  return `## Test harness

${lines.join('\n')}

A fresh cluster per test costs **${fresh.meanMs.toFixed(2)} ms** (mean; target: under 5 ms, so 1,000 tests pay under 5 s).
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await harnessBench(Number(process.env.BENCH_ITERATIONS ?? 300)));
  process.exit(0);
}
