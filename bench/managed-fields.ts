// managedFields at scale: one ConfigMap with many keys, created then server-side applied, each a
// single request through cluster.handle(). The field sets of its managedFields have one member per
// key; building them by sorted insertion was quadratic (200k keys blocked the event loop 20-30 s).
// Twice the keys should cost about twice the time. Run alone: node bench/managed-fields.ts
import { createFakeCluster } from '../src/index.ts';

interface Timing {
  wallMs: number;
  /** This process's CPU time: on a shared machine the wall time mostly measures the wait for a CPU. */
  cpuMs: number;
}

interface Row {
  keys: number;
  bytes: number;
  create: Timing;
  apply: Timing;
}

async function once(keys: number): Promise<Row> {
  const cluster = await createFakeCluster();
  try {
    const data: Record<string, string> = {};
    // Keys in a shuffled order (multiplication by a unit mod keys), as objects rarely sort theirs.
    for (let i = 0; i < keys; i++) data[`k${((i * 7919) % keys).toString(36)}`] = 'v';
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data });
    const send = async (method: string, path: string, contentType: string): Promise<Timing> => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const res = await cluster.handle(new Request(`${cluster.url}/api/v1/namespaces/default/configmaps${path}`, { method, headers: { 'content-type': contentType }, body }));
      await res.arrayBuffer();
      if (res.status >= 300) throw new Error(`${method} answered ${res.status}`);
      const cpu = process.cpuUsage(c0);
      return { wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
    };
    const create = await send('POST', '', 'application/json');
    const apply = await send('PATCH', '/big?fieldManager=bench&force=true', 'application/apply-patch+yaml');
    return { keys, bytes: body.length, create, apply };
  } finally {
    await cluster.close();
  }
}

export async function managedFieldsSection(): Promise<string> {
  await once(1_000); // warm-up
  const rows: Row[] = [];
  for (const keys of [25_000, 50_000, 100_000, 200_000]) rows.push(await once(keys));
  const lines = ['| ConfigMap keys | body (bytes) | create: CPU / wall (ms) | server-side apply: CPU / wall (ms) |', '| ---: | ---: | ---: | ---: |'];
  const cell = (t: Timing) => `${t.cpuMs.toFixed(0)} / ${t.wallMs.toFixed(0)}`;
  for (const r of rows) lines.push(`| ${r.keys} | ${r.bytes} | ${cell(r.create)} | ${cell(r.apply)} |`);
  return `## managedFields at scale

One ConfigMap with many keys, created and then server-side applied (force) through \`cluster.handle()\`,
one request each (bench/managed-fields.ts). Field sets are built in O(n log n) (append, hash index
while unsorted, one sort on read): twice the keys should cost about twice the time.

${lines.join('\n')}
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await managedFieldsSection());
  process.exit(0);
}
