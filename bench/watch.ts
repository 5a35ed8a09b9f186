// Watch fan-out: 10 watchers of one collection while ConfigMaps are created at 1,000 writes/s, and
// the latency from each write to each watcher's callback. The same load runs through several paths
// so the cost of each layer shows: kubefake through client-node over the in-process dispatcher
// (cluster.kubeConfig's default), over the in-process msw transport and over listen() loopback,
// kubefake with no transport and no client at all, and a static stream with no kubefake at all
// through msw and client-node (the floor those two layers set). Rounds of the cases are interleaved so a busy machine hits all of them alike.
// Run alone: `node bench/watch.ts`; BENCH_WATCH_CASES=0,2 runs only those cases (indices into CASES).
import * as k8s from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { clusterInternals } from '../src/cluster/internals.ts';
import { makeKubeConfig } from '../src/cluster/kubeconfig.ts';
import { attachHost, detachHost } from '../src/transport/msw-network.ts';

export interface WatchBenchOptions {
  watchers?: number;
  /** Which cases to run, by index into CASES (all when empty). */
  cases?: number[];
  /** Writes per second, spread evenly (one due every 1000/rate ms). */
  rate?: number;
  /** Seconds of writing per round. */
  seconds?: number;
  rounds?: number;
}

interface RoundResult {
  /** Write issued (POST built and handed to the cluster) → watcher callback, ms. */
  fromIssue: number[];
  /** Write committed to the store (its resourceVersion assigned) → watcher callback, ms. */
  fromCommit: number[];
  delivered: number;
  expected: number;
  elapsedS: number;
  gcMs: number;
  gcMaxMs: number;
  loopDelayP99Ms: number;
  /** The main thread's time on a CPU and waiting for one (run queue), ms, when Linux tells. */
  runMs: number;
  waitMs: number;
}

type Case = { name: string; run: (o: Required<WatchBenchOptions>) => Promise<RoundResult> };

const PATH = '/api/v1/namespaces/default/configmaps';

/** Creates `rate` writes per second for `seconds`, each due at its own millisecond; `write(i)` issues one. */
async function paced(rate: number, seconds: number, write: (i: number) => void): Promise<number> {
  const total = rate * seconds;
  const started = performance.now();
  let next = 0;
  while (next < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
    for (; next < due; next++) write(next);
    await new Promise((r) => setTimeout(r, 1));
  }
  return started;
}

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!check() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
}

/** The main thread's [on-CPU, waiting-for-CPU] nanoseconds (Linux schedstat), or undefined elsewhere. */
function schedstat(): [number, number] | undefined {
  try {
    const [run, wait] = readFileSync('/proc/self/schedstat', 'utf8').trim().split(' ').map(Number);
    return run !== undefined && wait !== undefined ? [run, wait] : undefined;
  } catch {
    return undefined;
  }
}

/** GC pauses, event-loop delay and CPU contention over one round. */
function observeRuntime() {
  let gcMs = 0;
  let gcMaxMs = 0;
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcMs += e.duration;
      gcMaxMs = Math.max(gcMaxMs, e.duration);
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const sched = schedstat();
  return () => {
    gc.disconnect();
    loop.disable();
    const end = schedstat();
    const [runMs, waitMs] = sched && end ? [(end[0] - sched[0]) / 1e6, (end[1] - sched[1]) / 1e6] : [NaN, NaN];
    return { gcMs, gcMaxMs, loopDelayP99Ms: loop.percentile(99) / 1e6, runMs, waitMs };
  };
}

const postConfigMap = (cluster: FakeCluster, name: string) =>
  cluster.handle(
    new Request(`${cluster.url}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name } }) }),
  );

/** kubefake with `watchers` client-node Watch streams, read over `transport`. */
async function kubefakeThroughClient(o: Required<WatchBenchOptions>, transport: 'dispatcher' | 'msw' | 'listen'): Promise<RoundResult> {
  const cluster = await createFakeCluster({ transport: transport === 'dispatcher' ? 'dispatcher' : 'msw' });
  let kubeConfig = cluster.kubeConfig;
  if (transport === 'listen') kubeConfig = makeKubeConfig((await cluster.listen()).url);
  const issuedAt = new Map<string, number>();
  const committedAt = new Map<string, number>();
  // Subscribed before any watch: runs first in the commit, so this is the commit's own moment.
  clusterInternals(cluster).store.subscribe((ev) => committedAt.set(ev.object.metadata.name as string, performance.now()));
  const fromIssue: number[] = [];
  const fromCommit: number[] = [];
  let delivered = 0;
  const controllers = await Promise.all(
    Array.from({ length: o.watchers }, () =>
      new k8s.Watch(kubeConfig).watch(PATH, { resourceVersion: '1' }, (_type, obj: k8s.KubernetesObject) => {
        const now = performance.now();
        const name = obj.metadata!.name!;
        // Only the bench's own writes: the replayed history also holds the namespace's
        // kube-root-ca.crt, which has neither an issue nor a commit stamp.
        if (!issuedAt.has(name)) return;
        fromIssue.push(now - issuedAt.get(name)!);
        fromCommit.push(now - committedAt.get(name)!);
        delivered++;
      }, () => undefined),
    ),
  );
  const expected = o.rate * o.seconds * o.watchers;
  const { elapsedS, runtime } = await driveWrites(o, cluster, issuedAt, () => delivered >= expected);
  controllers.forEach((c) => c.abort());
  await cluster.close();
  return { fromIssue, fromCommit, delivered, expected, elapsedS, ...runtime };
}

/**
 * Paced ConfigMap creates into `cluster` (each issue time kept by name) until every expected event
 * is delivered; answers the elapsed time and the runtime observed meanwhile.
 */
async function driveWrites(o: Required<WatchBenchOptions>, cluster: FakeCluster, issuedAt: Map<string, number>, allDelivered: () => boolean) {
  const stop = observeRuntime();
  const writes: Promise<unknown>[] = [];
  const started = await paced(o.rate, o.seconds, (i) => {
    const name = `w-${i}`;
    issuedAt.set(name, performance.now());
    writes.push(postConfigMap(cluster, name));
  });
  await Promise.all(writes);
  await waitFor(allDelivered);
  const elapsedS = (performance.now() - started) / 1000;
  return { elapsedS, runtime: stop() };
}

/** kubefake's own share: watch streams from cluster.handle() read directly, lines split and parsed. */
async function kubefakeNoTransport(o: Required<WatchBenchOptions>): Promise<RoundResult> {
  const cluster = await createFakeCluster();
  const issuedAt = new Map<string, number>();
  const committedAt = new Map<string, number>();
  clusterInternals(cluster).store.subscribe((ev) => committedAt.set(ev.object.metadata.name as string, performance.now()));
  const fromIssue: number[] = [];
  const fromCommit: number[] = [];
  let delivered = 0;
  const readers: Array<ReadableStreamDefaultReader<Uint8Array>> = [];
  for (let w = 0; w < o.watchers; w++) {
    const res = await cluster.handle(new Request(`${cluster.url}${PATH}?watch=true&resourceVersion=1`));
    const reader = res.body!.getReader();
    readers.push(reader);
    void (async () => {
      const decoder = new TextDecoder();
      let buffered = '';
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return;
        buffered += decoder.decode(value, { stream: true });
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const event = JSON.parse(buffered.slice(0, nl)) as { object: { metadata: { name: string } } };
          buffered = buffered.slice(nl + 1);
          const now = performance.now();
          if (!issuedAt.has(event.object.metadata.name)) continue; // kube-root-ca.crt, from history
          fromIssue.push(now - issuedAt.get(event.object.metadata.name)!);
          fromCommit.push(now - committedAt.get(event.object.metadata.name)!);
          delivered++;
        }
      }
    })();
  }
  const expected = o.rate * o.seconds * o.watchers;
  const { elapsedS, runtime } = await driveWrites(o, cluster, issuedAt, () => delivered >= expected);
  await Promise.all(readers.map((r) => r.cancel()));
  await cluster.close();
  return { fromIssue, fromCommit, delivered, expected, elapsedS, ...runtime };
}

/**
 * No kubefake: an msw handler streams the same kind of event line (a created ConfigMap as kubefake
 * serialises it) to client-node Watch streams. Latency runs from enqueueing the line, so this is
 * the floor the transport and client-node set.
 */
async function staticThroughMsw(o: Required<WatchBenchOptions>): Promise<RoundResult> {
  const host = `static-watch-${Math.random().toString(36).slice(2, 8)}.kubefake.local`;
  const streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  await attachHost(host, async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new Uint8Array(0));
          streams.add(c);
        },
        cancel() {},
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    ),
  );
  const template = JSON.stringify({
    type: 'ADDED',
    object: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'NAME', namespace: 'default', uid: '6f1c1b8e-3a55-4bb0-9d0e-5f0b3f4c2a11', resourceVersion: 'RV', creationTimestamp: '2026-01-01T00:00:00Z' },
    },
  });
  const encoder = new TextEncoder();
  const sentAt = new Map<string, number>();
  const fromCommit: number[] = [];
  let delivered = 0;
  const kubeConfig = makeKubeConfig(`https://${host}`);
  const controllers = await Promise.all(
    Array.from({ length: o.watchers }, () =>
      new k8s.Watch(kubeConfig).watch(PATH, {}, (_type, obj: k8s.KubernetesObject) => {
        fromCommit.push(performance.now() - sentAt.get(obj.metadata!.name!)!);
        delivered++;
      }, () => undefined),
    ),
  );
  await waitFor(() => streams.size === o.watchers);
  const expected = o.rate * o.seconds * o.watchers;
  const stop = observeRuntime();
  const started = await paced(o.rate, o.seconds, (i) => {
    const name = `w-${i}`;
    sentAt.set(name, performance.now());
    const line = template.replace('NAME', name).replace('RV', String(1000 + i)) + '\n';
    for (const c of streams) c.enqueue(encoder.encode(line));
  });
  await waitFor(() => delivered >= expected);
  const elapsedS = (performance.now() - started) / 1000;
  const runtime = stop();
  controllers.forEach((c) => c.abort());
  await detachHost(host);
  return { fromIssue: [], fromCommit, delivered, expected, elapsedS, ...runtime };
}

const CASES: Case[] = [
  { name: 'kubefake → client-node Watch (in-process dispatcher, cluster.kubeConfig)', run: (o) => kubefakeThroughClient(o, 'dispatcher') },
  { name: 'kubefake → client-node Watch (in-process msw)', run: (o) => kubefakeThroughClient(o, 'msw') },
  { name: 'kubefake → client-node Watch (listen(), loopback)', run: (o) => kubefakeThroughClient(o, 'listen') },
  { name: 'kubefake, no transport (cluster.handle() streams)', run: kubefakeNoTransport },
  { name: 'static stream → client-node Watch (in-process msw, no kubefake)', run: staticThroughMsw },
];

function percentile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN;
}
const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 0.5);
const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '–');

export interface WatchCaseSummary {
  name: string;
  delivered: number;
  expected: number;
  eventsPerSecond: number;
  /** Medians over rounds of each round's percentile, and the worst round's p99. */
  commit: { p50: number; p99: number; worstP99: number; max: number };
  issue: { p50: number; p99: number; worstP99: number; max: number } | undefined;
  gcMsPerS: number;
  gcMaxMs: number;
  loopDelayP99Ms: number;
  /** Main thread CPU time per delivered event (writes included), µs. */
  cpuUsPerEvent: number;
  /** Time the main thread waited in the run queue for a CPU, ms per second of the run: other processes' load. */
  runQueueMsPerS: number;
}

function summarize(name: string, rounds: RoundResult[]): WatchCaseSummary {
  const stats = (pick: (r: RoundResult) => number[]) => {
    // A NaN (an event with no start stamp) would make the comparator inconsistent and leave the
    // "sorted" samples out of order, so every percentile read from them would be garbage.
    if (rounds.some((r) => pick(r).some((x) => !Number.isFinite(x)))) throw new Error(`${name}: a latency sample is not a number`);
    const per = rounds.map((r) => [...pick(r)].sort((a, b) => a - b)).filter((s) => s.length > 0);
    if (!per.length) return undefined;
    const p99s = per.map((s) => percentile(s, 0.99));
    return { p50: median(per.map((s) => percentile(s, 0.5))), p99: median(p99s), worstP99: Math.max(...p99s), max: Math.max(...per.map((s) => s.at(-1)!)) };
  };
  const sum = (f: (r: RoundResult) => number) => rounds.reduce((a, r) => a + f(r), 0);
  return {
    name,
    delivered: sum((r) => r.delivered),
    expected: sum((r) => r.expected),
    eventsPerSecond: sum((r) => r.delivered) / sum((r) => r.elapsedS),
    commit: stats((r) => r.fromCommit)!,
    issue: stats((r) => r.fromIssue),
    gcMsPerS: sum((r) => r.gcMs) / sum((r) => r.elapsedS),
    gcMaxMs: Math.max(...rounds.map((r) => r.gcMaxMs)),
    loopDelayP99Ms: median(rounds.map((r) => r.loopDelayP99Ms)),
    cpuUsPerEvent: (sum((r) => r.runMs) * 1000) / sum((r) => r.delivered),
    runQueueMsPerS: sum((r) => r.waitMs) / sum((r) => r.elapsedS),
  };
}

export async function watchFanOut(options: WatchBenchOptions = {}): Promise<{ summaries: WatchCaseSummary[]; options: Required<WatchBenchOptions>; load: [number, number] }> {
  const o: Required<WatchBenchOptions> = { watchers: 10, rate: 1000, seconds: 2, rounds: 3, cases: [], ...options };
  const cases = o.cases.length ? o.cases.map((i) => CASES[i]!).filter(Boolean) : CASES;
  const results = cases.map(() => [] as RoundResult[]);
  const loadBefore = loadavg()[0]!;
  // Warm-up: a short round of each case, not counted (JIT, first-cluster interception setup).
  for (const c of cases) await c.run({ ...o, seconds: 0.5 });
  for (let r = 0; r < o.rounds; r++) {
    for (let k = 0; k < cases.length; k++) {
      const index = (r + k) % cases.length;
      results[index]!.push(await cases[index]!.run(o));
    }
  }
  return { summaries: cases.map((c, i) => summarize(c.name, results[i]!)), options: o, load: [loadBefore, loadavg()[0]!] };
}

/** The markdown section for bench/RESULTS.md. */
export async function watchSection(options: WatchBenchOptions = {}): Promise<string> {
  const { summaries, options: o, load } = await watchFanOut(options);
  const rows = summaries.map(
    (s) =>
      `| ${s.name} | ${s.delivered} (${s.expected}) | ${Math.round(s.eventsPerSecond)} | ${fmt(s.commit.p50)} | ${fmt(s.commit.p99)} | ${fmt(s.commit.worstP99)} | ${s.issue ? `${fmt(s.issue.p50)} / ${fmt(s.issue.p99)}` : '–'} | ${fmt(s.gcMsPerS)} / ${fmt(s.gcMaxMs)} | ${fmt(s.loopDelayP99Ms)} | ${fmt(s.cpuUsPerEvent)} | ${Math.round(s.runQueueMsPerS)} |`,
  );
  return `## Watch fan-out

${o.watchers} watchers of one collection while ConfigMaps are created at ${o.rate} writes/s, each write due at its own
millisecond (POSTs answered by \`cluster.handle()\`), ${o.seconds} s per round, ${o.rounds} rounds per case, the cases' rounds
interleaved. Latency is from the write's commit (the store assigning its resourceVersion) to each watcher's callback;
"from issue" adds the write request itself. Only the bench's own writes count (not the namespace's replayed
kube-root-ca.crt). Percentiles are medians over rounds; "worst p99" is the worst round's.
Load average (1 min) before/after: ${load[0].toFixed(2)} / ${load[1].toFixed(2)}.

| path | events delivered (expected) | events/s delivered | commit→delivery p50 (ms) | p99 (ms) | worst p99 (ms) | from issue p50 / p99 (ms) | GC ms per s / longest GC (ms) | event-loop delay p99 (ms) | CPU per event (µs) | waiting for a CPU (ms per s) |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

Target: p99 under 5 ms from write to delivery with 10 watchers at 1,000 writes/s (first row, what \`cluster.kubeConfig\`
uses). The last row has no kubefake in it: it is what msw's socket interceptor, undici and client-node's \`Watch\`
(readline, a timer reset per chunk) cost for the same events on the same thread; the fourth row is kubefake alone
(writes included). "CPU per event" is the main
thread's CPU time (Linux schedstat) per delivered event, the writes' share included, and depends far less on other
processes (cache and context-switch costs still rise with them); "waiting for a CPU" is how long the main thread sat in the run queue. When that is more than a few ms per s,
other processes held the CPUs and the latencies above measure that wait more than this code.
`;
}

if (import.meta.main) {
  const section = await watchSection({
    rounds: Number(process.env.BENCH_WATCH_ROUNDS ?? 3),
    seconds: Number(process.env.BENCH_WATCH_SECONDS ?? 2),
    // e.g. BENCH_WATCH_CASES=0,1 runs the dispatcher and msw cases only (indices into CASES).
    cases: (process.env.BENCH_WATCH_CASES ?? '').split(',').filter((s) => s.trim() !== '').map(Number),
  });
  console.log(section);
  process.exit(0);
}
