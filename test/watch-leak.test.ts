// Watches leave nothing behind: a client's abort unsubscribes from the store and forgets the
// stream, and close() ends every stream still open (clients see a clean end).
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clusterInternals } from '../src/cluster/internals.ts';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
/** Store subscriptions taken since the cluster started, and how many are still active. */
let subscriptions: { active: number; taken: number };

beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  // Counts the store's listeners from here on (the controllers' own subscriptions came earlier).
  const store = clusterInternals(cluster).store;
  const subscribe = store.subscribe.bind(store);
  subscriptions = { active: 0, taken: 0 };
  store.subscribe = (listener) => {
    const unsubscribe = subscribe(listener);
    subscriptions.active++;
    subscriptions.taken++;
    let done = false;
    return () => {
      if (!done) subscriptions.active--;
      done = true;
      unsubscribe();
    };
  };
});
afterEach(() => cluster.close());

const until = async (check: () => boolean, timeoutMs = 10_000) => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

function openWatch(query: Record<string, string | boolean | undefined> = {}) {
  let resolveEnd!: (err: unknown) => void;
  const ended = new Promise<unknown>((r) => (resolveEnd = r));
  const events: string[] = [];
  const started = new k8s.Watch(cluster.kubeConfig).watch('/api/v1/namespaces/default/configmaps', query, (type) => events.push(type), (err) => resolveEnd(err));
  return { started, ended, events };
}

describe('aborted watches', () => {
  it('unsubscribe from the store and are forgotten, however many were opened', async () => {
    const served = clusterInternals(cluster).servedWatches;
    const watches = Array.from({ length: 200 }, (_, i) => openWatch(i % 2 ? { allowWatchBookmarks: true } : { labelSelector: 'app=x' }));
    const controllers = await Promise.all(watches.map((w) => w.started));
    await until(() => served.size === 200);
    expect(subscriptions).toEqual({ active: 200, taken: 200 });
    // A write reaches the open watches before they go.
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'seen', labels: { app: 'x' } } } });
    // Those without a selector saw kube-root-ca.crt (the namespace's, from the root-CA publisher) first.
    await until(() => watches.every((w, i) => w.events.length === (i % 2 ? 2 : 1)));
    controllers.forEach((c) => c.abort());
    await Promise.all(watches.map((w) => w.ended));
    await until(() => served.size === 0 && subscriptions.active === 0);
    // Writes after the aborts reach no one and start nothing.
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'unseen', labels: { app: 'x' } } } });
    await new Promise((r) => setTimeout(r, 20));
    expect(watches.every((w, i) => w.events.length === (i % 2 ? 2 : 1))).toBe(true);
    expect(subscriptions).toEqual({ active: 0, taken: 200 });
  });

  it('are forgotten when they end on their own (timeout, 410) too', async () => {
    const served = clusterInternals(cluster).servedWatches;
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'later' } } });
    await cluster.compact();
    const expired = openWatch({ resourceVersion: list.metadata?.resourceVersion });
    const timed = openWatch({ timeoutSeconds: '1' });
    expect(await expired.ended).toBeNull();
    expect(expired.events).toEqual(['ERROR']);
    expect(await timed.ended).toBeNull();
    expect(served.size).toBe(0);
    expect(subscriptions.active).toBe(0);
  });
});

describe('watches that end while they start', () => {
  it('leave no subscription behind when the first initial event ends them', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'present' } } });
    // as=PartialObjectMetadataList: the apiserver cannot encode the first event and ends the stream.
    const res = await cluster.handle(
      new Request(`${cluster.url}/api/v1/namespaces/default/configmaps?watch=true`, { headers: { accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' } }),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect(clusterInternals(cluster).servedWatches.size).toBe(0);
    expect(subscriptions).toEqual({ active: 0, taken: 1 });
  });

  it('never count the initial state toward the backlog, however large', async () => {
    const small = await createFakeCluster({ watch: { maxBacklog: 2 } });
    try {
      const client = small.kubeConfig.makeApiClient(k8s.CoreV1Api);
      const names = ['a', 'b', 'c', 'd', 'e', 'f'];
      for (const name of names) await client.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name } } });
      // The watch cache sends initial events itself: only live events fill the watcher's buffer.
      const res = await small.handle(new Request(`${small.url}/api/v1/namespaces/default/configmaps?watch=true`));
      const reader = res.body!.getReader();
      let text = '';
      // The initial state: these six and the namespace's kube-root-ca.crt.
      const initial = [...names, 'kube-root-ca.crt'];
      while (text.split('\n').length <= initial.length) text += new TextDecoder().decode((await reader.read()).value);
      const lines = text.trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
      expect(lines.map((l) => [l.type, l.object.metadata.name])).toEqual(initial.map((n) => ['ADDED', n]));
      expect(clusterInternals(small).servedWatches.size).toBe(1);
      await reader.cancel();
      expect(clusterInternals(small).servedWatches.size).toBe(0);
    } finally {
      await small.close();
    }
  });
});

describe('close()', () => {
  it('ends every open watch cleanly and unsubscribes them', async () => {
    const served = clusterInternals(cluster).servedWatches;
    const watches = Array.from({ length: 20 }, () => openWatch());
    await Promise.all(watches.map((w) => w.started));
    await until(() => served.size === 20);
    await cluster.close();
    // client-node reports a stream the server ended as done(null).
    expect(await Promise.all(watches.map((w) => w.ended))).toEqual(Array.from({ length: 20 }, () => null));
    expect(served.size).toBe(0);
    expect(subscriptions.active).toBe(0);
  });

  it('ends a watch answered after close() at once', async () => {
    await cluster.close();
    // Secrets: default holds none, so the body is empty unless the watch stayed open.
    const res = await cluster.handle(new Request(`${cluster.url}/api/v1/namespaces/default/secrets?watch=true`));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect(clusterInternals(cluster).servedWatches.size).toBe(0);
    expect(subscriptions.active).toBe(0);
  });
});
