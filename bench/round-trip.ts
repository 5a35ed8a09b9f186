// The GET round trip: client-node's readNamespace against kubefake and against static handlers on
// the same transports (in-process msw, loopback), and the handler alone. Its first two rows give
// kubefake's overhead (target: at most 10%). Run alone: node bench/round-trip.ts
import * as k8s from '@kubernetes/client-node';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFakeCluster } from '../src/index.ts';
import { makeKubeConfig } from '../src/cluster/kubeconfig.ts';
import { attachHost, detachHost } from '../src/transport/msw-network.ts';
import { summarize, table, type Stats } from './stats.ts';

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

export async function roundTrips(iterations: number): Promise<Stats[]> {
  // kubefake in-process (msw network, socket-level interceptor); bench/transport.ts compares the dispatcher.
  const cluster = await createFakeCluster({ transport: 'msw' });
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
  // The handler alone, and again on a cluster without a request log: the difference is what recording costs.
  const unlogged = await createFakeCluster({ requestLog: { limit: 0 } });
  const get = (c: typeof cluster) => () => c.handle(new Request(`${c.url}/api/v1/namespaces/default`, { headers: { accept: 'application/json' } })).then((r) => r.text());
  results.push(
    ...(await interleaved(
      [
        ['cluster.handle() GET (no transport, no client)', get(cluster)],
        ['… with the request log off', get(unlogged)],
      ],
      iterations * 5,
    )),
  );
  await unlogged.close();
  server.close();
  await detachHost(staticHost);
  await cluster.close();
  return results;
}

/** kubefake's share of the median and mean in-process round trip, in percent (the first two rows). */
export function overhead(trips: Stats[]): { p50: string; mean: string } {
  const [kf, stat] = [trips[0]!, trips[1]!];
  const pct = (a: number, b: number) => (((a - b) / b) * 100).toFixed(1);
  return { p50: pct(kf.p50Ms, stat.p50Ms), mean: pct(kf.meanMs, stat.meanMs) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const trips = await roundTrips(Number(process.env.BENCH_ITERATIONS ?? 2000));
  const { p50, mean } = overhead(trips);
  console.log(`${table(trips)}\n\nkubefake adds ${p50}% to the median round trip and ${mean}% to the mean.`);
  process.exit(0);
}
