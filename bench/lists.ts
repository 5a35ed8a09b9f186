// Lists that scale: 100,000 ConfigMaps in one namespace (BENCH_LIST_OBJECTS to change), read
// whole, paginated with limit=500 (also with a write between every two pages), by a 1% label
// selector, and through cluster.list(); all server-side through cluster.handle() (no transport,
// no client), cases interleaved round by round. Also the store's heap per object against the
// objects' JSON. Run alone: node bench/lists.ts
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FakeCluster } from '../src/index.ts';
import { interleavedRounds, loadNote, median, quantile } from './machine.ts';

// BENCH_KUBEFAKE: another build's entry module (e.g. main's dist/index.js), to compare side by side.
const { createFakeCluster } = (await import(process.env.BENCH_KUBEFAKE ?? '../src/index.ts')) as typeof import('../src/index.ts');

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const SHARDS = 100;

function configMap(i: number) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${String(i).padStart(6, '0')}`, labels: { app: 'bench', shard: String(i % SHARDS) } },
    data: { key: `value-${i}` },
  };
}

async function populate(cluster: FakeCluster, base: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await cluster.handle(new Request(base, { method: 'POST', body: JSON.stringify(configMap(i)), headers: { 'content-type': 'application/json' } }));
    if (response.status !== 201) throw new Error(`create ${i}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  }
}

/** Reads a list response's bytes and its continue token (in the metadata at the head) without parsing the items. */
async function readPage(cluster: FakeCluster, url: string): Promise<{ bytes: number; continueToken: string | undefined }> {
  const response = await cluster.handle(new Request(url));
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const head = new TextDecoder().decode(bytes.subarray(0, 512));
  return { bytes: bytes.length, continueToken: /"continue":"([^"]+)"/.exec(head)?.[1] };
}

/** Pages through the whole list; `between` runs after every page. Answers the number of pages. */
async function paginate(cluster: FakeCluster, base: string, limit: number, between?: (page: number) => Promise<void>): Promise<number> {
  let token: string | undefined;
  let pages = 0;
  do {
    const page = await readPage(cluster, `${base}?limit=${limit}${token ? `&continue=${token}` : ''}`);
    token = page.continueToken;
    pages++;
    if (between) await between(pages);
  } while (token);
  return pages;
}

export async function listsSection(count = Number(process.env.BENCH_LIST_OBJECTS ?? 100_000), rounds = 7): Promise<string> {
  // The request log keeps no bodies here: it would otherwise hold every list it recorded (tens of MB
  // each), and the GC pressure of that would be timed instead of the lists.
  const cluster = await createFakeCluster({ requestLog: { bodies: false } });
  const base = `${cluster.url}/api/v1/namespaces/default/configmaps`;
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const populateStart = performance.now();
  await populate(cluster, base, count);
  const populateMs = performance.now() - populateStart;
  gc();
  const heapPerObject = (process.memoryUsage().heapUsed - heapBefore) / count;
  const jsonPerObject = cluster.list('ConfigMap').reduce((sum, o) => sum + JSON.stringify(o).length, 0) / count;

  // Correctness of what is timed: every page is read at the first page's revision, so a paginated
  // read sees exactly `count` objects even with writes between pages.
  const seen = new Set<string>();
  let token: string | undefined;
  do {
    const response = await cluster.handle(new Request(`${base}?limit=500${token ? `&continue=${token}` : ''}`));
    const page = (await response.json()) as { metadata: { continue?: string }; items: Array<{ metadata: { name: string } }> };
    // The seeded cm-* objects; the namespace's own kube-root-ca.crt is listed too.
    for (const item of page.items) if (item.metadata.name.startsWith('cm-')) seen.add(item.metadata.name);
    token = page.metadata.continue;
    await cluster.handle(new Request(`${base}/cm-${String(seen.size % count).padStart(6, '0')}`, { method: 'DELETE' }));
    await cluster.handle(new Request(base, { method: 'POST', body: JSON.stringify(configMap(seen.size % count)), headers: { 'content-type': 'application/json' } }));
  } while (token);
  if (seen.size !== count) throw new Error(`paginated read with writes between pages saw ${seen.size} of ${count} objects`);
  const selected = cluster.list('ConfigMap', { labelSelector: { shard: '7' } }).length;
  if (selected !== count / SHARDS) throw new Error(`label selector matched ${selected}, expected ${count / SHARDS}`);

  let writes = 0;
  const write = async () => {
    const name = `cm-${String(writes++ % count).padStart(6, '0')}`;
    const response = await cluster.handle(
      new Request(`${base}/${name}`, { method: 'PATCH', body: JSON.stringify({ data: { key: `w-${writes}` } }), headers: { 'content-type': 'application/merge-patch+json' } }),
    );
    await response.arrayBuffer();
  };
  const { results, loadBefore, loadAfter } = await interleavedRounds(
    [
      ['one full list, handle() (bytes)', () => readPage(cluster, base)],
      ['one full list, handle() + response.json()', async () => (await cluster.handle(new Request(base))).json()],
      ['all pages of limit=500, handle()', () => paginate(cluster, base, 500)],
      ['all pages of limit=500, a PATCH between pages', () => paginate(cluster, base, 500, write)],
      ['the same PATCHes alone (one per page)', async () => {
        for (let p = 0; p < Math.ceil(count / 500); p++) await write();
      }],
      ['1% label-selected list (shard=7), handle() (bytes)', () => readPage(cluster, `${base}?labelSelector=shard%3D7`)],
      ["cluster.list('ConfigMap')", () => cluster.list('ConfigMap')],
      ["cluster.list('ConfigMap', { labelSelector: { shard: '7' } })", () => cluster.list('ConfigMap', { labelSelector: { shard: '7' } })],
    ],
    rounds,
    1,
    // Every case starts on a collected heap: parsing a 100,000-item list leaves ~100 MB of garbage
    // that whichever case came next would otherwise collect in its own time.
    gc,
  );
  await cluster.close();

  const med = (i: number) => median(results[i]!.samples);
  const cpu = (i: number) => median(results[i]!.cpuSamples);
  const rows = results.map(
    (r, i) => `| ${r.name} | ${r.samples.length} | ${median(r.samples).toFixed(1)} | ${quantile(r.samples, 1).toFixed(1)} | ${cpu(i).toFixed(1)} | ${(median(r.samples) / med(0)).toFixed(2)}× | ${(cpu(i) / cpu(0)).toFixed(2)}× |`,
  );
  return `## Lists that scale

${count.toLocaleString('en')} ConfigMaps in one namespace (two labels, one data key; created by POSTs through \`cluster.handle()\` in
${(populateMs / 1000).toFixed(1)} s), read server-side through \`cluster.handle()\` (the body read as bytes, no client) and through
\`cluster.list()\`. The ${results.length} cases run interleaved, ${rounds} rounds after a warm-up round, each round in a shuffled order, each case
starting on a collected heap (a forced GC before it, untimed).
Load average (1 min) before/after: ${loadBefore.toFixed(2)} / ${loadAfter.toFixed(2)}.

| case | rounds | median wall (ms) | max wall (ms) | median CPU (ms) | × one full list, wall | × one full list, CPU |
| --- | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

- Paginating all ${count.toLocaleString('en')} with \`limit=500\`: **${(med(2) / med(0)).toFixed(2)}×** one full list in wall time, ${(cpu(2) / cpu(0)).toFixed(2)}× in CPU time (target ≤ 1.5×); with a
  PATCH between pages (every page then reads the first page's revision through the history; the ${Math.ceil(count / 500)} PATCHes included)
  **${(med(3) / med(0)).toFixed(2)}×** wall, ${(cpu(3) / cpu(0)).toFixed(2)}× CPU; without the PATCHes' own time (the next row)
  **${((med(3) - med(4)) / med(0)).toFixed(2)}×** wall, ${((cpu(3) - cpu(4)) / cpu(0)).toFixed(2)}× CPU.
- A 1% label-selected list: **${med(5).toFixed(1)} ms** wall, ${cpu(5).toFixed(1)} ms CPU, server-side (target ≤ 20 ms).
- \`cluster.list()\` of all: **${(med(6) / med(1)).toFixed(2)}×** the same list through \`handle()\` parsed into objects a caller may change (target ≤ 1×),
  ${(med(6) / med(0)).toFixed(2)}× the bytes alone.
- Heap held per stored object: **${heapPerObject.toFixed(0)} B** against ${jsonPerObject.toFixed(0)} B of JSON per object as \`cluster.list()\` returns it:
  **${(heapPerObject / jsonPerObject).toFixed(2)}×** (target ≤ 2.5×; change history and watch history at their defaults, the request log without bodies).
- Checked on the way: a paginated read with a delete and a create between every two pages saw exactly ${count.toLocaleString('en')} objects,
  and the selector matched exactly ${(count / SHARDS).toLocaleString('en')}.
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await listsSection());
  console.log(loadNote());
  process.exit(0);
}
