// Cluster start in one process with no other cluster open: create → first answered GET → close(),
// and create + close(), interleaved. Run alone: node bench/startup.ts
import * as k8s from '@kubernetes/client-node';
import { createFakeCluster } from '../src/index.ts';
import { interleavedRounds, loadNote } from './machine.ts';
import { summarize, table, type Stats } from './stats.ts';

export async function startup(count: number): Promise<Stats[]> {
  // No other cluster stays open: every create pays what a test's first request pays, switching the
  // shared interception on again (a cluster kept open hid that). A truly cold first answer (a fresh
  // process) is in the cold-start section.
  const fresh = async () => {
    const c = await createFakeCluster();
    await c.kubeConfig.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'default' });
    await c.close();
  };
  const createOnly = async () => (await createFakeCluster()).close();
  const { results } = await interleavedRounds(
    [
      ['createFakeCluster() → first answered GET → close(), no other cluster open', fresh],
      ['createFakeCluster() + close(), no other cluster open', createOnly],
    ],
    count,
    20,
  );
  return results.map((r) => summarize(r.name, r.samples));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const load = loadNote();
  console.log(`${load}\n\n${table(await startup(200))}\n\n${loadNote()}`);
  process.exit(0);
}
