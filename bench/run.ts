// `npm run bench`: measures kubefake against baselines on the same transport and writes bench/RESULTS.md.
// Run with Node >= 22.18 (type stripping); every case is bounded in iterations and talks only to loopback.
import * as k8s from '@kubernetes/client-node';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import { createFakeCluster } from '../src/index.ts';
import { makeKubeConfig } from '../src/cluster/kubeconfig.ts';
import { attachHost, detachHost } from '../src/transport/msw-network.ts';
import { cascadeSection } from './cascade.ts';
import { measure, summarize, table, type Stats } from './stats.ts';
import { schemaSection } from './schema.ts';
import { celSection } from './cel.ts';
import { watchSection } from './watch.ts';
import { harnessBench } from './harness.ts';
import { conversionSection } from './conversion.ts';



/** Times several cases interleaved (rotating order each iteration) so drift and GC hit all alike. */
async function interleaved(cases: Array<[string, () => Promise<unknown>]>, iterations: number, warmup = 200): Promise<Stats[]> {
  const samples = cases.map(() => [] as number[]);
  for (let i = 0; i < warmup + iterations; i++) {
    for (let k = 0; k < cases.length; k++) {
      const index = (i + k) % cases.length;
      const t0 = performance.now();
      await cases[index]![1]();
      if (i >= warmup) samples[index]!.push(performance.now() - t0);
    }
  }
  return cases.map(([name], index) => summarize(name, samples[index]!));
}

async function roundTrips(iterations: number): Promise<Stats[]> {
  // kubefake in-process (msw network, socket-level interceptor).
  const cluster = await createFakeCluster();
  const fake = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  // A static-response handler on the same msw network, answering the very bytes kubefake answers:
  // the difference between the two is kubefake's own cost.
  const sameBytes = await cluster.handle(new Request(`${cluster.url}/api/v1/namespaces/default`)).then((r) => r.text());
  const staticHost = 'static-bench.kubefake.local';
  await attachHost(staticHost, async () => new Response(sameBytes, { status: 200, headers: { 'content-type': 'application/json' } }));
  const staticClient = makeKubeConfig(`https://${staticHost}`).makeApiClient(k8s.CoreV1Api);
  // A node:http loopback server answering the same static body.
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(sameBytes);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const loopback = makeKubeConfig(`http://127.0.0.1:${(server.address() as AddressInfo).port}`).makeApiClient(k8s.CoreV1Api);
  // kubefake served over loopback by cluster.listen().
  const { url } = await cluster.listen();
  const overHttp = makeKubeConfig(url).makeApiClient(k8s.CoreV1Api);

  // Each pair is interleaved on its own: loopback servers in the same process would add their
  // socket work to the in-process pair's timings.
  const results = [
    ...(await interleaved(
      [
        ['client-node GET → kubefake (in-process msw)', () => fake.readNamespace({ name: 'default' })],
        ['client-node GET → static handler (in-process msw)', () => staticClient.readNamespace({ name: 'default' })],
      ],
      iterations,
    )),
    ...(await interleaved(
      [
        ['client-node GET → static node:http (loopback)', () => loopback.readNamespace({ name: 'default' })],
        ['client-node GET → kubefake (listen(), loopback)', () => overHttp.readNamespace({ name: 'default' })],
      ],
      iterations,
    )),
  ];
  // The handler alone, without client or transport: kubefake's own share of a request.
  const request = () => cluster.handle(new Request(`${cluster.url}/api/v1/namespaces/default`, { headers: { accept: 'application/json' } })).then((r) => r.text());
  results.push(await measure('cluster.handle() GET (no transport, no client)', iterations * 5, request));
  server.close();
  await detachHost(staticHost);
  await cluster.close();
  return results;
}

async function startup(count: number): Promise<Stats[]> {
  // The first cluster in a process also enables the shared interception; keep one open to measure the rest.
  const t0 = performance.now();
  const first = await createFakeCluster();
  await first.kubeConfig.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'default' });
  const firstMs = performance.now() - t0;
  const cold: Stats = { name: 'first cluster in the process: create → first answer', iterations: 1, meanMs: firstMs, p50Ms: firstMs, p99Ms: firstMs };
  const warm = await measure(
    'createFakeCluster() → first answered GET',
    count,
    async () => {
      const c = await createFakeCluster();
      await c.kubeConfig.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'default' });
      await c.close();
    },
    20,
  );
  const createOnly = await measure('createFakeCluster() alone', count, async () => (await createFakeCluster()).close(), 20);
  await first.close();
  return [cold, warm, createOnly];
}

const iterations = Number(process.env.BENCH_ITERATIONS ?? 2000);
const gcSection = await cascadeSection(1000, 10);
const schemaBench = await schemaSection();
const harnessSection = await harnessBench();
const trips = await roundTrips(iterations);
const starts = await startup(200);
const watch = await watchSection();
const cel = await celSection();
const conversion = await conversionSection();
const [kf, stat] = [trips[0]!, trips[1]!];
const pct = (a: number, b: number) => (((a - b) / b) * 100).toFixed(1);
const warmStart = starts[1]!;
const report = `# Benchmark results

Written by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}.
Each round trip is a \`CoreV1Api.readNamespace\` through @kubernetes/client-node 2.x. The in-process pair and the loopback pair
each run interleaved (one call of each per iteration, alternating the order) after a warm-up, so drift and GC pauses fall on
both cases of a pair alike; both static baselines answer the very bytes kubefake answers.

## GET round trip

${table(trips)}

Over a static-response handler on the same transport, kubefake adds **${pct(kf.p50Ms, stat.p50Ms)}%** to the median round trip
and ${pct(kf.meanMs, stat.meanMs)}% to the mean (target: at most 10%). The mean moves by several points between runs with the
GC pauses in the tail; the handler's own cost per request is the last row.

## Cluster start

${table(starts)}

A fresh cluster answers its first request **${warmStart.meanMs.toFixed(2)} ms** after \`createFakeCluster()\` is called (mean; target: under 10 ms).

${watch}

${schemaBench}

${cel}

${gcSection}

${harnessSection}

${conversion}
`;
await writeFile(new URL('./RESULTS.md', import.meta.url), report);
console.log(report);
process.exit(0);
