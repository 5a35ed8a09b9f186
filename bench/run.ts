// `npm run bench`: measures kubefake against baselines on the same transport and writes bench/RESULTS.md.
// Run with Node >= 22.18 (type stripping); every case is bounded in iterations and talks only to loopback.
import * as k8s from '@kubernetes/client-node';
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { createFakeCluster } from '../src/index.ts';
import { cascadeSection } from './cascade.ts';
import { measure, table, type Stats } from './stats.ts';
import { schemaSection } from './schema.ts';
import { celSection } from './cel.ts';
import { watchSection } from './watch.ts';
import { harnessBench } from './harness.ts';
import { conversionSection } from './conversion.ts';
import { typedDecodingSection } from './typed-decoding.ts';
import { managedFieldsSection } from './managed-fields.ts';
import { overhead, roundTrips } from './round-trip.ts';
import { transportSection } from './transport.ts';
import { execFileSync } from 'node:child_process';



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
const uptimeBefore = execFileSync('uptime', { encoding: 'utf8' }).trim();
const gcSection = await cascadeSection(1000, 10);
const schemaBench = await schemaSection();
const harnessSection = await harnessBench();
const transports = await transportSection(iterations);
const trips = await roundTrips(iterations);
const starts = await startup(200);
const watch = await watchSection();
const cel = await celSection();
const conversion = await conversionSection();
const typedDecoding = await typedDecodingSection();
const managedFields = await managedFieldsSection();
const tripOverhead = overhead(trips);
const warmStart = starts[1]!;
const report = `# Benchmark results

Written by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}.
\`uptime\` at the start: \`${uptimeBefore}\`; at the end: \`${execFileSync('uptime', { encoding: 'utf8' }).trim()}\`.
Each round trip is a \`CoreV1Api.readNamespace\` through @kubernetes/client-node 2.x. The in-process pair and the loopback pair
each run interleaved (one call of each per iteration, alternating the order) after a warm-up, so drift and GC pauses fall on
both cases of a pair alike; both static baselines answer the very bytes kubefake answers.

${transports}

## GET round trip (msw transport)

${table(trips)}

Over a static-response handler on the same transport, kubefake adds **${tripOverhead.p50}%** to the median round trip
and ${tripOverhead.mean}% to the mean (target: at most 10%). The mean moves by several points between runs with the
GC pauses in the tail; the last two rows are the handler alone, with and without the request log.

## Cluster start

${table(starts)}

A fresh cluster answers its first request **${warmStart.meanMs.toFixed(2)} ms** after \`createFakeCluster()\` is called (mean; target: under 10 ms).

${watch}

${schemaBench}

${typedDecoding}

${cel}

${gcSection}

${harnessSection}

${conversion}

${managedFields}
`;
await writeFile(new URL('./RESULTS.md', import.meta.url), report);
console.log(report);
process.exit(0);
