import { PassThrough } from 'node:stream';
import * as k8s from '@kubernetes/client-node';
import { expect, test, vi } from 'vitest';
import { createFakeCluster } from 'kubefake';

test('a pod logs over time, a follower sees it as it comes, and exec answers in process', async () => {
  await using cluster = await createFakeCluster({ deterministic: true, workloads: true });
  cluster.kubelet.on(
    { name: 'web' },
    {
      runFor: 60_000,
      logs: [
        { after: 0, text: 'starting\n' },
        { after: 5_000, text: 'listening on :80\n' },
      ],
      exec: (command) => ({ stdout: `ran ${command.join(' ')}\n` }),
    },
  );
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  await core.createNamespacedPod({
    namespace: 'default',
    body: { metadata: { name: 'web' }, spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: 'nginx' }] } },
  });
  await cluster.settle();

  // `follow` keeps the stream open: lines arrive as the clock reaches them, or as the test writes them.
  const out = new PassThrough();
  let followed = '';
  let ended = false;
  out.on('data', (chunk: Buffer) => (followed += chunk.toString()));
  out.on('end', () => (ended = true));
  await new k8s.Log(cluster.kubeConfig).log('default', 'web', 'app', out, { follow: true });
  cluster.clock.advance(5_000);
  await cluster.settle();
  cluster.kubelet.log({ name: 'web' }, 'GET / 200\n');
  await vi.waitFor(() => expect(followed).toBe('starting\nlistening on :80\nGET / 200\n'));

  // Exec over cluster.kubeConfig, no listen() needed.
  const stdout = new PassThrough();
  let printed = '';
  stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const status = await new Promise<k8s.V1Status>((resolve, reject) => {
    new k8s.Exec(cluster.kubeConfig).exec('default', 'web', 'app', ['hostname'], stdout, null, null, false, resolve).catch(reject);
  });
  expect([printed, status.status]).toEqual(['ran hostname\n', 'Success']);

  // The container exits after a minute: the follower's stream ends with it.
  cluster.clock.advance(60_000);
  await cluster.settle();
  await vi.waitFor(() => expect(ended).toBe(true));
});
