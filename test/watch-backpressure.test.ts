// A watcher that stops reading is ended once `maxBacklog` events sit unread, over every way a
// client reaches the cluster: cluster.handle(), the in-process transport (fetch through msw) and
// the node:http listener (which must stop reading the stream while the socket is full). The stream
// ends as the watch cache ends an unresponsive watcher (cacher/cache_watcher.go): what was queued
// is delivered, then the stream just ends, with no ERROR event. Writers are never blocked.
import http from 'node:http';
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clusterInternals } from '../src/cluster/internals.ts';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;

beforeEach(async () => {
  cluster = await createFakeCluster({ watch: { maxBacklog: 5 } });
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterEach(() => cluster.close());

const served = () => clusterInternals(cluster).servedWatches.size;
const padding = 'x'.repeat(16 * 1024);

/** Writes ConfigMaps until the cluster has ended the one open watch (or `cap` writes); answers how many were written. */
async function writeUntilWatchEnds(cap: number): Promise<number> {
  let written = 0;
  while (served() > 0 && written < cap) {
    const res = await cluster.handle(
      new Request(`${cluster.url}/api/v1/namespaces/default/configmaps`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ metadata: { name: `c-${written}` }, data: { padding } }),
      }),
    );
    expect(res.status).toBe(201);
    written++;
    // Let the transports move bytes as they would between writes.
    if (written % 16 === 0) await new Promise((r) => setImmediate(r));
  }
  return written;
}

/** The events of a finished watch body: only ADDED, for the first names written, in order. */
function expectPrefixOfWrites(text: string, written: number): void {
  const lines = text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
  expect(lines.every((l) => l.type === 'ADDED')).toBe(true);
  expect(lines.length).toBeLessThan(written);
  expect(lines.map((l) => l.object.metadata.name)).toEqual(Array.from({ length: lines.length }, (_, i) => `c-${i}`));
}

async function resourceVersion(): Promise<string> {
  return (await core.listNamespacedConfigMap({ namespace: 'default' })).metadata!.resourceVersion!;
}

describe('a watcher that stops reading', () => {
  it('over cluster.handle(): its stream ends after the queued events, with no ERROR, and every write is stored', async () => {
    const res = await cluster.handle(new Request(`${cluster.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${await resourceVersion()}`));
    expect(served()).toBe(1);
    const written = await writeUntilWatchEnds(100);
    expect(served()).toBe(0);
    expectPrefixOfWrites(await res.text(), written);
    // Every write, beside the namespace's kube-root-ca.crt.
    expect((await core.listNamespacedConfigMap({ namespace: 'default' })).items).toHaveLength(written + 1);
  });

  it('over the in-process transport (fetch): ended once the unread events pass maxBacklog', async () => {
    const res = await fetch(`${cluster.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${await resourceVersion()}`);
    expect(res.status).toBe(200);
    await until(() => served() === 1);
    const written = await writeUntilWatchEnds(2_000);
    expect(served()).toBe(0);
    expectPrefixOfWrites(await res.text(), written);
  });

  it('over the listener: the socket is not fed past what the client reads, so the backlog limit acts', async () => {
    const { url } = await cluster.listen();
    const rv = await resourceVersion();
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`${url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`, resolve).on('error', reject);
    });
    expect(response.statusCode).toBe(200);
    response.pause();
    await until(() => served() === 1);
    // Without backpressure the listener drains the stream into the socket's buffer forever.
    const written = await writeUntilWatchEnds(4_000);
    expect(served()).toBe(0);
    const chunks: Buffer[] = [];
    response.on('data', (c: Buffer) => chunks.push(c));
    response.resume();
    await new Promise((resolve) => response.on('end', resolve));
    expectPrefixOfWrites(Buffer.concat(chunks).toString('utf8'), written);
  });

  it('a watcher that keeps reading is not ended, however many events pass', async () => {
    const res = await cluster.handle(new Request(`${cluster.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${await resourceVersion()}`));
    const reader = res.body!.getReader();
    let text = '';
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        text += new TextDecoder().decode(value);
      }
    })();
    for (let i = 0; i < 50; i++) {
      await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: `r-${i}` } } });
    }
    await until(() => text.split('\n').length > 50);
    expect(served()).toBe(1);
    await reader.cancel();
    await reading;
  });
});

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
