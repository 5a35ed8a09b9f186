// `npm run bench`: measures kubefake against baselines on the same transport and writes bench/RESULTS.md.
// Run with Node >= 22.18 (type stripping); every case is bounded in iterations and talks only to loopback.
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { cascadeSection } from './cascade.ts';
import { workloadsSection } from './workloads.ts';
import { table } from './stats.ts';
import { schemaSection } from './schema.ts';
import { celSection } from './cel.ts';
import { watchSection } from './watch.ts';
import { harnessBench } from './harness.ts';
import { conversionSection } from './conversion.ts';
import { admissionSection } from './admission.ts';
import { typedDecodingSection } from './typed-decoding.ts';
import { managedFieldsSection } from './managed-fields.ts';
import { overhead, roundTrips } from './round-trip.ts';
import { transportSection } from './transport.ts';
import { execFileSync } from 'node:child_process';
import { listsSection } from './lists.ts';
import { coldStartSection } from './cold-start.ts';
import { loadNote } from './machine.ts';
import { startup } from './startup.ts';

const iterations = Number(process.env.BENCH_ITERATIONS ?? 2000);
// Fresh processes first: nothing of this process's warm-up reaches them.
const cold = await coldStartSection();
/** A section with the machine's load before and after it, for the sections that do not print it themselves. */
async function withLoad(section: () => Promise<string>): Promise<string> {
  const before = loadNote();
  const text = await section();
  return `${text.trimEnd()}\n\nMeasured at ${before}; after: ${loadNote()}.\n`;
}
const gcSection = await withLoad(() => cascadeSection(1000, 10));
const workloadsBench = await withLoad(() => workloadsSection(1000, 5));
const schemaBench = await withLoad(() => schemaSection());
const harnessSection = await harnessBench();
const uptimeBefore = execFileSync('uptime', { encoding: 'utf8' }).trim();
const transports = await transportSection(iterations);
const tripsLoad = loadNote();
const trips = await roundTrips(iterations);
const startsLoad = loadNote();
const starts = await startup(200);
const watch = await watchSection();
const cel = await withLoad(() => celSection());
const conversion = await conversionSection();
const admission = await admissionSection();
const typedDecoding = await typedDecodingSection();
const managedFields = await managedFieldsSection();
const lists = await listsSection();
const tripOverhead = overhead(trips);
const warmStart = starts[0]!;
const report = `# Benchmark results

Written by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}.
\`uptime\` at the start: \`${uptimeBefore}\`; at the end: \`${execFileSync('uptime', { encoding: 'utf8' }).trim()}\`.
Each round trip is a \`CoreV1Api.readNamespace\` through @kubernetes/client-node 2.x. The in-process pair and the loopback pair
each run interleaved (one call of each per iteration, alternating the order) after a warm-up, so drift and GC pauses fall on
both cases of a pair alike; both static baselines answer the very bytes kubefake answers.

${transports}

## GET round trip (msw transport)

Measured at ${tripsLoad}.

${table(trips)}

Over a static-response handler on the same transport, kubefake adds **${tripOverhead.p50}%** to the median round trip
and ${tripOverhead.mean}% to the mean (target: at most 10%). The mean moves by several points between runs with the
GC pauses in the tail; the last two rows are the handler alone, with and without the request log.

## Cluster start

In one process, with no other cluster open; the two cases interleaved. Measured at ${startsLoad}.

${table(starts)}

A fresh cluster answers its first request **${warmStart.p50Ms.toFixed(2)} ms** (median; mean ${warmStart.meanMs.toFixed(2)} ms) after \`createFakeCluster()\` is called (target ≤ 5 ms).

${cold}

${watch}

${schemaBench}

${typedDecoding}

${cel}

${gcSection}

${workloadsBench}

${harnessSection}

${conversion}

${admission}

${managedFields}
${lists}
`;
await writeFile(new URL('./RESULTS.md', import.meta.url), report);
console.log(report);
process.exit(0);
