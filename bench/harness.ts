// The harness's cost per test: a fresh cluster per test (what the kubefake/vitest fixture does),
// deterministic or not, with and without the request log and change history; and snapshot()/diff()
// of a populated cluster. Run alone: node bench/harness.ts
import * as k8s from '@kubernetes/client-node';
import { createFakeCluster, type FakeClusterOptions } from '../src/index.ts';
import { measure, type Stats } from './stats.ts';
import { loadNote } from './machine.ts';

const freshCluster = (options: FakeClusterOptions) => async () => {
  const cluster = await createFakeCluster(options);
  await cluster.close();
};

const freshClusterWithRequest = (options: FakeClusterOptions) => async () => {
  const cluster = await createFakeCluster(options);
  await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'x' } } });
  await cluster.close();
};

/** Fewer warm-up runs than the round-trip cases: each run here builds a whole cluster. */
const HARNESS_WARMUP = 30;

export async function harnessBench(iterations = 300): Promise<string> {
  // No cluster is kept open: each case pays switching the shared interception on and off, as a test does.
  const load = loadNote();
  const rows: Stats[] = [];
  rows.push(await measure('fresh cluster per test: createFakeCluster() + close()', iterations, freshCluster({}), HARNESS_WARMUP));
  rows.push(await measure('… deterministic: true', iterations, freshCluster({ deterministic: true }), HARNESS_WARMUP));
  rows.push(await measure('… request log and history off', iterations, freshCluster({ requestLog: { limit: 0 }, history: { limit: 0 } }), HARNESS_WARMUP));
  rows.push(await measure('fresh cluster + one client-node create + close()', iterations, freshClusterWithRequest({}), HARNESS_WARMUP));

  const populated = await createFakeCluster({ deterministic: true });
  await populated.apply(Array.from({ length: 200 }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, labels: { i: String(i % 10) } }, data: { value: String(i) } })));
  const before = populated.snapshot();
  rows.push(await measure('snapshot() of 200 objects', iterations, async () => populated.snapshot(), HARNESS_WARMUP));
  rows.push(await measure("snapshot({ format: 'yaml' }) of 200 objects", iterations, async () => populated.snapshot({ format: 'yaml' }), HARNESS_WARMUP));
  rows.push(await measure('diff() of 200 objects, none changed', iterations, async () => populated.diff(before), HARNESS_WARMUP));
  await populated.close();

  const fresh = rows[0]!;
  const lines = ['| case | iterations | mean (ms) | p50 (ms) | p99 (ms) |', '| --- | ---: | ---: | ---: | ---: |'];
  for (const r of rows) lines.push(`| ${r.name} | ${r.iterations} | ${r.meanMs.toFixed(3)} | ${r.p50Ms.toFixed(3)} | ${r.p99Ms.toFixed(3)} |`);
  return `## Test harness

No other cluster open; measured at ${load}.

${lines.join('\n')}

A fresh cluster per test costs **${fresh.meanMs.toFixed(2)} ms** (mean; target: under 5 ms, so 1,000 tests pay under 5 s).
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await harnessBench(Number(process.env.BENCH_ITERATIONS ?? 300)));
  process.exit(0);
}
