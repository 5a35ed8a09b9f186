// One sample of bench/cold-start.ts, in a fresh process: argv[2] names the case. Prints one JSON
// line: wall and CPU ms of each timed step. Imports the built package (dist/, `npm run build`), as
// a user's test file does.
import { cpuUsage } from 'node:process';

// KUBEFAKE_DIST (a directory holding a built index.js) compares another build, e.g. main's.
const KUBEFAKE = new URL('index.js', process.env.KUBEFAKE_DIST ? `file://${process.env.KUBEFAKE_DIST.replace(/\/?$/, '/')}` : new URL('../dist/', import.meta.url)).href;

async function timed<T>(step: () => Promise<T>): Promise<{ value: T; wallMs: number; cpuMs: number }> {
  const c0 = cpuUsage();
  const t0 = performance.now();
  const value = await step();
  const wallMs = performance.now() - t0;
  const c = cpuUsage(c0);
  return { value, wallMs, cpuMs: (c.user + c.system) / 1000 };
}

const which = process.argv[2];
const out: Record<string, { wallMs: number; cpuMs: number }> = {};
if (which === 'client-node') {
  out.import = await timed(() => import('@kubernetes/client-node'));
} else if (which === 'kubefake-after-client-node') {
  await import('@kubernetes/client-node');
  out.import = await timed(() => import(KUBEFAKE));
} else if (which === 'kubefake') {
  out.import = await timed(() => import(KUBEFAKE));
} else if (which === 'first-answer') {
  const k8s = await import('@kubernetes/client-node');
  const { createFakeCluster } = (await import(KUBEFAKE)) as typeof import('../src/index.ts');
  const first = await timed(async () => {
    const cluster = await createFakeCluster();
    await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'default' });
    return cluster;
  });
  out.answer = first;
  out.second = await timed(async () => {
    const cluster = await createFakeCluster();
    await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'default' });
    await cluster.close();
  });
  await first.value.close();
} else throw new Error(`unknown case ${which}`);
console.log(JSON.stringify(Object.fromEntries(Object.entries(out).map(([k, v]) => [k, { wallMs: v.wallMs, cpuMs: v.cpuMs }]))));
process.exit(0);
