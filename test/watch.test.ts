// WATCH through client-node's Watch and makeInformer: order, replay, selectors, bookmarks, 410, abort.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster({ watch: { bookmarkIntervalMs: 100 } });
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterEach(() => cluster.close());

interface Seen {
  type: string;
  name: string;
  rv: string;
  obj: k8s.KubernetesObject;
}

/** Opens a watch and collects its events; `ended` resolves with done()'s error (null on a clean close). */
async function watch(path: string, query: Record<string, string | number | boolean | undefined>) {
  const events: Seen[] = [];
  let resolveEnd!: (err: unknown) => void;
  const ended = new Promise<unknown>((r) => (resolveEnd = r));
  const controller = await new k8s.Watch(cluster.kubeConfig).watch(
    path,
    query,
    (type, obj: k8s.KubernetesObject) => events.push({ type, name: obj.metadata?.name ?? '', rv: obj.metadata?.resourceVersion ?? '', obj }),
    (err) => resolveEnd(err),
  );
  return { events, ended, controller };
}

const until = async (check: () => boolean, timeoutMs = 5000) => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};
const cm = (name: string, labels?: Record<string, string>) => ({ metadata: { name, labels } });

describe('event stream', () => {
  it('delivers ADDED, MODIFIED and DELETED in order, DELETED carrying the deletion revision', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    const w = await watch('/api/v1/namespaces/default/configmaps', { resourceVersion: list.metadata?.resourceVersion });
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { ...cm('a'), data: { v: '1' } } });
    const updated = await core.replaceNamespacedConfigMap({ name: 'a', namespace: 'default', body: { ...created, data: { v: '2' } } });
    await core.deleteNamespacedConfigMap({ name: 'a', namespace: 'default' });
    await until(() => w.events.length === 3);
    expect(w.events.map((e) => [e.type, e.name])).toEqual([
      ['ADDED', 'a'],
      ['MODIFIED', 'a'],
      ['DELETED', 'a'],
    ]);
    expect(w.events[0]!.rv).toBe(created.metadata?.resourceVersion);
    expect(w.events[1]!.rv).toBe(updated.metadata?.resourceVersion);
    expect(Number(w.events[2]!.rv)).toBe(Number(updated.metadata?.resourceVersion) + 1);
    expect((w.events[2]!.obj as k8s.V1ConfigMap).data).toEqual({ v: '2' });
    expect(w.events[0]!.obj).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
    w.controller.abort();
  });

  it('replays exactly the changes after a resourceVersion, including deletes', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('before') });
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('after') });
    await core.deleteNamespacedConfigMap({ name: 'before', namespace: 'default' });
    const w = await watch('/api/v1/namespaces/default/configmaps', { resourceVersion: list.metadata?.resourceVersion });
    await until(() => w.events.length === 2);
    expect(w.events.map((e) => [e.type, e.name])).toEqual([
      ['ADDED', 'after'],
      ['DELETED', 'before'],
    ]);
    w.controller.abort();
  });

  it('starts with synthetic ADDED for the current state when no resourceVersion is given', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('x') });
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('y') });
    const w = await watch('/api/v1/namespaces/default/configmaps', {});
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('z') });
    await until(() => w.events.length === 4);
    // The current state includes kube-root-ca.crt, the root-CA publisher's ConfigMap of every namespace.
    expect(w.events.map((e) => [e.type, e.name])).toEqual([
      ['ADDED', 'kube-root-ca.crt'],
      ['ADDED', 'x'],
      ['ADDED', 'y'],
      ['ADDED', 'z'],
    ]);
    w.controller.abort();
  });

  it('watches one object through fieldSelector=metadata.name and through the legacy /watch/ path', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    const bySelector = await watch('/api/v1/namespaces/default/configmaps', { resourceVersion: list.metadata?.resourceVersion, fieldSelector: 'metadata.name=one' });
    const byPath = await watch('/api/v1/watch/namespaces/default/configmaps/one', { resourceVersion: list.metadata?.resourceVersion });
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('other') });
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('one') });
    await until(() => bySelector.events.length === 1 && byPath.events.length === 1);
    expect(bySelector.events.map((e) => e.name)).toEqual(['one']);
    expect(byPath.events.map((e) => e.name)).toEqual(['one']);
    bySelector.controller.abort();
    byPath.controller.abort();
  });

  it('answers a named GET with watch=true as a plain get, as GetResource ignores the parameter', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('one') });
    // The request client-node's Watch would send for an item path: GET <item path>?watch=true.
    const res = await fetch(`${cluster.url}/api/v1/namespaces/default/configmaps/one?watch=true`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = (await res.json()) as k8s.V1ConfigMap;
    expect([body.kind, body.metadata?.name]).toEqual(['ConfigMap', 'one']);
    const missing = await fetch(`${cluster.url}/api/v1/namespaces/default/configmaps/absent?watch=true`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as k8s.V1Status).message).toBe('configmaps "absent" not found');
  });
});

describe('selectors', () => {
  it('turns leaving the selector into DELETED (previous content, new RV) and entering into ADDED', async () => {
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('m', { app: 'web' }) });
    const w = await watch('/api/v1/namespaces/default/configmaps', { resourceVersion: created.metadata?.resourceVersion, labelSelector: 'app=web' });
    const left = await core.replaceNamespacedConfigMap({ name: 'm', namespace: 'default', body: { ...created, metadata: { ...created.metadata, labels: { app: 'db' } } } });
    const back = await core.replaceNamespacedConfigMap({ name: 'm', namespace: 'default', body: { ...left, metadata: { ...left.metadata, labels: { app: 'web', v: '2' } } } });
    await core.replaceNamespacedConfigMap({ name: 'm', namespace: 'default', body: { ...back, data: { k: 'v' } } });
    await until(() => w.events.length === 3);
    expect(w.events.map((e) => e.type)).toEqual(['DELETED', 'ADDED', 'MODIFIED']);
    expect(w.events[0]!.obj.metadata?.labels).toEqual({ app: 'web' });
    expect(w.events[0]!.rv).toBe(left.metadata?.resourceVersion);
    expect(w.events[1]!.rv).toBe(back.metadata?.resourceVersion);
    w.controller.abort();
  });
});

describe('bookmarks and initial events', () => {
  it('ends initial events with the k8s.io/initial-events-end bookmark at the state’s RV', async () => {
    for (const n of ['p1', 'p2', 'p3']) await core.createNamespacedConfigMap({ namespace: 'default', body: cm(n) });
    const last = await core.readNamespacedConfigMap({ name: 'p3', namespace: 'default' });
    const w = await watch('/api/v1/namespaces/default/configmaps', { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true });
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('p4') });
    await until(() => w.events.some((e) => e.name === 'p4'));
    const head = w.events.filter((e) => e.type !== 'BOOKMARK' || e.obj.metadata?.annotations);
    expect(head.slice(0, 6).map((e) => [e.type, e.name])).toEqual([
      ['ADDED', 'kube-root-ca.crt'], // the namespace's own, from the root-CA publisher
      ['ADDED', 'p1'],
      ['ADDED', 'p2'],
      ['ADDED', 'p3'],
      ['BOOKMARK', ''],
      ['ADDED', 'p4'],
    ]);
    expect(head[4]!.obj).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: last.metadata?.resourceVersion, annotations: { 'k8s.io/initial-events-end': 'true' } } });
    w.controller.abort();
  });

  it('sends periodic bookmarks only when allowWatchBookmarks is set', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    const withBookmarks = await watch('/api/v1/namespaces/default/configmaps', { resourceVersion: list.metadata?.resourceVersion, allowWatchBookmarks: true });
    const without = await watch('/api/v1/namespaces/default/configmaps', { resourceVersion: list.metadata?.resourceVersion });
    await until(() => withBookmarks.events.length >= 2);
    expect(withBookmarks.events[0]).toMatchObject({ type: 'BOOKMARK', rv: list.metadata?.resourceVersion });
    expect(withBookmarks.events[0]!.obj).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: list.metadata?.resourceVersion } });
    expect(without.events).toEqual([]);
    withBookmarks.controller.abort();
    without.controller.abort();
  });

  it('answers 422 for sendInitialEvents without resourceVersionMatch=NotOlderThan', async () => {
    let error: unknown;
    await new k8s.Watch(cluster.kubeConfig)
      .watch('/api/v1/namespaces/default/configmaps', { sendInitialEvents: true }, () => undefined, (err) => (error = err))
      .catch((err) => (error = err));
    await until(() => error !== undefined);
    expect((error as { statusCode?: number }).statusCode).toBe(422);
    const res = await fetch(`${cluster.url}/api/v1/namespaces/default/configmaps?watch=true&sendInitialEvents=true`);
    expect(await res.json()).toMatchObject({
      message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      reason: 'Invalid',
      code: 422,
    });
  });
});

describe('ending watches', () => {
  it('sends ERROR 410 for a compacted resourceVersion, then closes the stream', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('later') });
    await cluster.compact();
    const w = await watch('/api/v1/namespaces/default/configmaps', { resourceVersion: list.metadata?.resourceVersion });
    expect(await w.ended).toBeNull();
    expect(w.events).toHaveLength(1);
    expect(w.events[0]!.type).toBe('ERROR');
    const current = (await core.listNamespacedConfigMap({ namespace: 'default' })).metadata?.resourceVersion;
    expect(w.events[0]!.obj).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `too old resource version: ${list.metadata?.resourceVersion} (${current})`,
      reason: 'Expired',
      code: 410,
    });
  });

  it('ends cleanly after timeoutSeconds', async () => {
    const w = await watch('/api/v1/namespaces/default/configmaps', { timeoutSeconds: 1 });
    const started = Date.now();
    expect(await w.ended).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('stops delivering after the client aborts, and other watchers keep going', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    const aborted = await watch('/api/v1/namespaces/default/configmaps', { resourceVersion: list.metadata?.resourceVersion });
    const kept = await watch('/api/v1/namespaces/default/configmaps', { resourceVersion: list.metadata?.resourceVersion });
    aborted.controller.abort();
    await aborted.ended;
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('after-abort') });
    await until(() => kept.events.length === 1);
    expect(aborted.events).toEqual([]);
    kept.controller.abort();
  });
});

describe('many writers', () => {
  it('gives three watchers every one of 1,000 concurrent writes exactly once, in revision order', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    const watchers = await Promise.all([1, 2, 3].map(() => watch('/api/v1/namespaces/default/configmaps', { resourceVersion: list.metadata?.resourceVersion })));
    await Promise.all(Array.from({ length: 1000 }, (_, i) => core.createNamespacedConfigMap({ namespace: 'default', body: cm(`w-${i}`) })));
    await until(() => watchers.every((w) => w.events.length >= 1000), 20_000);
    await new Promise((r) => setTimeout(r, 50));
    for (const w of watchers) {
      expect(w.events).toHaveLength(1000);
      expect(new Set(w.events.map((e) => e.name)).size).toBe(1000);
      const rvs = w.events.map((e) => Number(e.rv));
      expect(rvs).toEqual([...rvs].sort((a, b) => a - b));
      w.controller.abort();
    }
  }, 30_000);
});

describe('informer', () => {
  it('sees a delete that happened between its list and its watch', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('doomed') });
    const staleList = await core.listNamespacedConfigMap({ namespace: 'default' });
    await core.deleteNamespacedConfigMap({ name: 'doomed', namespace: 'default' });
    let calls = 0;
    const informer = k8s.makeInformer(cluster.kubeConfig, '/api/v1/namespaces/default/configmaps', async () => (calls++ === 0 ? staleList : core.listNamespacedConfigMap({ namespace: 'default' })));
    const deleted: string[] = [];
    informer.on('delete', (obj) => deleted.push(obj.metadata!.name!));
    await informer.start();
    await until(() => deleted.length === 1);
    expect(deleted).toEqual(['doomed']);
    expect(informer.list().map((o) => o.metadata?.name)).toEqual(['kube-root-ca.crt']);
    await informer.stop();
  });

  it('relists after a 410 and converges on the current state', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('kept') });
    const staleList = await core.listNamespacedConfigMap({ namespace: 'default' });
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('added-later') });
    await cluster.compact();
    let lists = 0;
    const informer = k8s.makeInformer(cluster.kubeConfig, '/api/v1/namespaces/default/configmaps', async () => (lists++ === 0 ? staleList : core.listNamespacedConfigMap({ namespace: 'default' })));
    await informer.start();
    // kube-root-ca.crt, the root-CA publisher's, is in both lists.
    await until(() => informer.list().length === 3);
    expect(lists).toBeGreaterThanOrEqual(2);
    expect(informer.list().map((o) => o.metadata?.name).sort()).toEqual(['added-later', 'kept', 'kube-root-ca.crt']);
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('after-relist') });
    await until(() => informer.list().length === 4);
    await informer.stop();
  });
});
