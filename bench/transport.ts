// cluster.kubeConfig's transports side by side: client-node on an undici MockAgent answering
// static bytes (the client's own floor: no server at all), kubefake through its in-process
// Dispatcher (the default) and kubefake through the msw interception, for a GET of a ConfigMap and
// a LIST of 500. Cases are interleaved (rotating order each iteration) so drift, GC and other
// processes' load fall on all alike. Then growth: heap and open handles over 10,000 requests on one
// cluster and over 1,000 cluster cycles (create, one GET, close), per transport.
// Run alone: `node bench/transport.ts`.
import * as k8s from '@kubernetes/client-node';
import { loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MockAgent } from 'undici';
import { createFakeCluster, type ClusterTransport, type FakeCluster } from '../src/index.ts';
import { makeKubeConfig } from '../src/cluster/kubeconfig.ts';
import { summarize, type Stats } from './stats.ts';

const NAMESPACE = 'default';

/** A case's timings, and the process CPU time it used per call (less sensitive to other processes' load than wall time). */
type Timed = Stats & { cpuMs: number };

/** Times the cases interleaved, rotating which goes first each iteration. */
async function interleaved(cases: Array<[string, () => Promise<unknown>]>, iterations: number, warmup: number): Promise<Timed[]> {
  const samples = cases.map(() => [] as number[]);
  const cpuUs = cases.map(() => 0);
  for (let i = 0; i < warmup + iterations; i++) {
    for (let k = 0; k < cases.length; k++) {
      const index = (i + k) % cases.length;
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await cases[index]![1]();
      const elapsed = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      if (i >= warmup) {
        samples[index]!.push(elapsed);
        cpuUs[index]! += cpu.user + cpu.system;
      }
    }
  }
  return cases.map(([name], index) => ({ ...summarize(name, samples[index]!), cpuMs: cpuUs[index]! / 1000 / iterations }));
}

/** A client-node CoreV1Api whose every request a MockAgent answers with `bytes`: no server, no socket. */
function floorClient(origin: string, path: string, bytes: string): k8s.CoreV1Api {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent.get(origin).intercept({ path, method: 'GET' }).reply(200, bytes, { headers: { 'content-type': 'application/json' } }).persist();
  // makeKubeConfig's dispatcher seam is the one cluster.kubeConfig uses: client-node sets it per request.
  return makeKubeConfig(origin, agent).makeApiClient(k8s.CoreV1Api);
}

async function seeded(transport: ClusterTransport, count: number): Promise<FakeCluster> {
  const cluster = await createFakeCluster({ transport, requestLog: { limit: 0 }, history: { limit: 0 } });
  const items = Array.from({ length: count }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${String(i).padStart(4, '0')}`, namespace: NAMESPACE, labels: { app: 'bench', index: String(i) } },
    data: { key: `value-${i}`, other: 'x'.repeat(64) },
  }));
  await cluster.apply(items);
  return cluster;
}

interface Ratios {
  dispatcher: number;
  msw: number;
}

export interface TransportResult {
  rows: Timed[];
  /** p50 wall time against the floor's. */
  ratios: { get: Ratios; list: Ratios };
  /** CPU time per call against the floor's. */
  cpuRatios: { get: Ratios; list: Ratios };
  /** cluster.handle() alone for the LIST (no client, no transport): kubefake's own share. */
  handleList: Timed;
}

export async function transportRoundTrips(iterations: number): Promise<TransportResult> {
  const viaDispatcher = await seeded('dispatcher', 500);
  const viaMsw = await seeded('msw', 500);
  const one = `/api/v1/namespaces/${NAMESPACE}/configmaps/cm-0000`;
  const all = `/api/v1/namespaces/${NAMESPACE}/configmaps`;
  // The floor answers the very bytes kubefake answers.
  const bytesOf = (path: string) => viaDispatcher.handle(new Request(`${viaDispatcher.url}${path}`, { headers: { accept: 'application/json' } })).then((r) => r.text());
  const floorOrigin = 'https://floor.bench.invalid';
  const floorGet = floorClient(floorOrigin, one, await bytesOf(one));
  const floorList = floorClient(floorOrigin, all, await bytesOf(all));
  const dispatcherApi = viaDispatcher.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const mswApi = viaMsw.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const get = (api: k8s.CoreV1Api) => () => api.readNamespacedConfigMap({ name: 'cm-0000', namespace: NAMESPACE });
  // The 500 seeded ConfigMaps and what every namespace holds besides (its kube-root-ca.crt).
  const expected = viaDispatcher.list('ConfigMap', { namespace: NAMESPACE }).length;
  const list = (api: k8s.CoreV1Api) => async () => {
    const result = await api.listNamespacedConfigMap({ namespace: NAMESPACE });
    if (result.items.length !== expected) throw new Error(`expected ${expected} items, got ${result.items.length}`);
  };
  const gets = await interleaved(
    [
      ['GET ConfigMap: client-node → undici MockAgent, static bytes (floor)', get(floorGet)],
      ['GET ConfigMap: client-node → kubefake, in-process dispatcher (cluster.kubeConfig)', get(dispatcherApi)],
      ['GET ConfigMap: client-node → kubefake, msw interception', get(mswApi)],
    ],
    iterations,
    200,
  );
  const lists = await interleaved(
    [
      ['LIST 500 ConfigMaps: client-node → undici MockAgent, static bytes (floor)', list(floorList)],
      ['LIST 500 ConfigMaps: client-node → kubefake, in-process dispatcher', list(dispatcherApi)],
      ['LIST 500 ConfigMaps: client-node → kubefake, msw interception', list(mswApi)],
    ],
    Math.max(20, Math.round(iterations / 10)),
    20,
  );
  const [handleList] = await interleaved(
    [['LIST 500 ConfigMaps: cluster.handle() alone, body read (no client, no transport)', () => viaDispatcher.handle(new Request(`${viaDispatcher.url}${all}`, { headers: { accept: 'application/json' } })).then((r) => r.text())]],
    Math.max(20, Math.round(iterations / 10)),
    20,
  );
  await viaDispatcher.close();
  await viaMsw.close();
  const ratio = (rows: Timed[], i: number) => rows[i]!.p50Ms / rows[0]!.p50Ms;
  const cpuRatio = (rows: Timed[], i: number) => rows[i]!.cpuMs / rows[0]!.cpuMs;
  return {
    rows: [...gets, ...lists, handleList!],
    ratios: { get: { dispatcher: ratio(gets, 1), msw: ratio(gets, 2) }, list: { dispatcher: ratio(lists, 1), msw: ratio(lists, 2) } },
    cpuRatios: { get: { dispatcher: cpuRatio(gets, 1), msw: cpuRatio(gets, 2) }, list: { dispatcher: cpuRatio(lists, 1), msw: cpuRatio(lists, 2) } },
    handleList: handleList!,
  };
}

/** A full GC, exposing it first if node was not started with --expose-gc. */
function collect(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

/** Open handles by kind (immediates come and go with the tick and are left out). */
function handles(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) if (kind !== 'Immediate') counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

function handleGrowth(before: Map<string, number>, after: Map<string, number>): string {
  const parts: string[] = [];
  for (const kind of new Set([...before.keys(), ...after.keys()])) {
    const delta = (after.get(kind) ?? 0) - (before.get(kind) ?? 0);
    if (delta !== 0) parts.push(`${kind} ${delta > 0 ? '+' : ''}${delta}`);
  }
  return parts.length ? parts.join(', ') : 'none';
}

interface GrowthRow {
  name: string;
  heapKiB: number;
  handles: string;
  /** The same after waiting out undici's keep-alive (4 s): what a closed connection still holds. */
  heapKiBLater: number;
  handlesLater: string;
}

/** Waits out undici's keep-alive (4 s), so connections of earlier runs close before a baseline or a reading. */
const keepAliveOver = () => new Promise((resolve) => setTimeout(resolve, 5_000));

async function growth(name: string, warm: () => Promise<void>, run: () => Promise<void>): Promise<GrowthRow> {
  const gc = collect();
  await warm();
  await keepAliveOver();
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  const handles0 = handles();
  await run();
  gc();
  const heap1 = process.memoryUsage().heapUsed;
  const handles1 = handles();
  await keepAliveOver();
  gc();
  const heap2 = process.memoryUsage().heapUsed;
  return { name, heapKiB: (heap1 - heap0) / 1024, handles: handleGrowth(handles0, handles1), heapKiBLater: (heap2 - heap0) / 1024, handlesLater: handleGrowth(handles0, handles()) };
}

export async function transportGrowth(requests = 10_000, cycles = 1_000): Promise<GrowthRow[]> {
  const rows: GrowthRow[] = [];
  for (const transport of ['dispatcher', 'msw'] as const) {
    // One cluster, `requests` GETs (the request log off: it keeps 1,000 entries by design).
    const cluster = await createFakeCluster({ transport, requestLog: { limit: 0 } });
    await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: NAMESPACE } });
    const api = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const gets = async (n: number) => {
      for (let i = 0; i < n; i++) await api.readNamespacedConfigMap({ name: 'c', namespace: NAMESPACE });
    };
    rows.push(await growth(`${requests.toLocaleString('en')} GETs on one cluster, ${transport}`, () => gets(500), () => gets(requests)));
    await cluster.close();
    const cycle = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const c = await createFakeCluster({ transport });
        await c.kubeConfig.makeApiClient(k8s.CoreV1Api).readNamespace({ name: NAMESPACE });
        await c.close();
      }
    };
    rows.push(await growth(`${cycles.toLocaleString('en')} cluster cycles (create, GET, close), ${transport}`, () => cycle(50), () => cycle(cycles)));
  }
  return rows;
}

function cpuTable(rows: Timed[]): string {
  const lines = ['| case | iterations | mean (ms) | p50 (ms) | p99 (ms) | CPU per call (ms) |', '| --- | ---: | ---: | ---: | ---: | ---: |'];
  for (const r of rows) lines.push(`| ${r.name} | ${r.iterations} | ${r.meanMs.toFixed(3)} | ${r.p50Ms.toFixed(3)} | ${r.p99Ms.toFixed(3)} | ${r.cpuMs.toFixed(3)} |`);
  return lines.join('\n');
}

const fmtKiB = (k: number) => `${k >= 0 ? '+' : ''}${Math.round(k).toLocaleString('en')} KiB`;

export async function transportSection(iterations: number): Promise<string> {
  const loadBefore = loadavg()[0]!;
  const { rows, ratios, cpuRatios, handleList } = await transportRoundTrips(iterations);
  const grown = await transportGrowth();
  const loadAfter = loadavg()[0]!;
  const x = (n: number) => `${n.toFixed(2)}×`;
  return `## cluster.kubeConfig transports

Client-node 2.x; one call of each case per iteration, the order rotating, after a warm-up. The floor is client-node
with an undici MockAgent answering the bytes kubefake answers (no server at all). Load average (1 min) before/after:
${loadBefore.toFixed(2)} / ${loadAfter.toFixed(2)}.

${cpuTable(rows)}

Median against the floor: GET **${x(ratios.get.dispatcher)}** through the in-process dispatcher (target ≤ 1.5×), ${x(ratios.get.msw)} through msw;
LIST of 500 **${x(ratios.list.dispatcher)}** through the dispatcher (target ≤ 1.3×), ${x(ratios.list.msw)} through msw.
CPU time per call against the floor's (what other processes' load moves least): GET ${x(cpuRatios.get.dispatcher)} dispatcher,
${x(cpuRatios.get.msw)} msw; LIST ${x(cpuRatios.list.dispatcher)} dispatcher, ${x(cpuRatios.list.msw)} msw. Of the LIST's CPU time,
\`cluster.handle()\` alone (listing and serialising 500 objects, reading the body) takes ${handleList.cpuMs.toFixed(2)} ms: the
dispatcher adds what kubefake's own work costs and little else, so the LIST target rests on kubefake's list path.

Growth of the heap (after a full GC) and of open handles (\`process.getActiveResourcesInfo()\`, immediates left out), from a
baseline taken after a warm-up and 5 s of quiet (so earlier connections have closed), right after the run and again 5 s
later, once undici has closed idle keep-alive connections (target: none):

| run | heap | handles | heap 5 s later | handles 5 s later |
| --- | ---: | --- | ---: | --- |
${grown.map((r) => `| ${r.name} | ${fmtKiB(r.heapKiB)} | ${r.handles} | ${fmtKiB(r.heapKiBLater)} | ${r.handlesLater} |`).join('\n')}
`;
}

if (import.meta.main) {
  console.log(await transportSection(Number(process.env.BENCH_ITERATIONS ?? 2000)));
  process.exit(0);
}
