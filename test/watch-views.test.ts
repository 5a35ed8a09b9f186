// Table and PartialObjectMetadata watches (handlers/watch.go + response.go watchEmbeddedEncoder):
// every event's object is transformed into the view the Accept header asked for; a Table's column
// definitions come with the first event only; ERROR Status objects stay as they are. Read through
// client-node's Watch with the Accept header set, and through `kubectl get --watch`.
import * as k8s from '@kubernetes/client-node';
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { clusterInternals } from '../src/cluster/internals.ts';
import { makeKubeConfig } from '../src/cluster/kubeconfig.ts';
import { kubectlAvailable, kubectlEnv } from './support/kubectl.ts';

const TABLE_V1 = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const TABLE_V1BETA1 = 'application/json;as=Table;v=v1beta1;g=meta.k8s.io';
const POM_V1 = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const POM_V1BETA1 = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1';
const POM_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

interface TableObject {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion?: string };
  columnDefinitions: Array<{ name: string }> | null;
  rows: Array<{ cells: unknown[]; object: Record<string, unknown> | null }>;
}

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterEach(() => cluster.close());

/** A KubeConfig for this cluster whose requests carry `accept` (client-node's Watch sends no Accept of its own). */
function accepting(accept: string): k8s.KubeConfig {
  const kc = makeKubeConfig(cluster.url);
  const authenticate = kc.applySecurityAuthentication.bind(kc);
  kc.applySecurityAuthentication = async (ctx) => {
    await authenticate(ctx);
    ctx.setHeaderParam('Accept', accept);
  };
  return kc;
}

interface Seen<T> {
  type: string;
  obj: T;
}

async function watch<T = Record<string, unknown>>(accept: string, query: Record<string, string | boolean | undefined>) {
  const events: Array<Seen<T>> = [];
  let resolveEnd!: (err: unknown) => void;
  const ended = new Promise<unknown>((r) => (resolveEnd = r));
  const controller = await new k8s.Watch(accepting(accept)).watch(CONFIGMAPS, query, (type, obj: T) => events.push({ type, obj }), (err) => resolveEnd(err));
  return { events, ended, controller };
}

const until = async (check: () => boolean, timeoutMs = 5000) => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

async function createUpdateDelete() {
  const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a', labels: { app: 'x' } }, data: { k: '1' } } });
  const updated = await core.replaceNamespacedConfigMap({ name: 'a', namespace: 'default', body: { ...created, data: { k: '1', l: '2' } } });
  await core.deleteNamespacedConfigMap({ name: 'a', namespace: 'default' });
  return { created, updated };
}

/** The meta.k8s.io/v1 PartialObjectMetadata expected of the created ConfigMap `a`. */
const metadataOf = (created: k8s.V1ConfigMap) => ({
  kind: 'PartialObjectMetadata',
  apiVersion: 'meta.k8s.io/v1',
  // (managedFields, which this client's writes produce, are part of the metadata too)
  metadata: expect.objectContaining({
    name: 'a',
    namespace: 'default',
    uid: created.metadata?.uid,
    resourceVersion: created.metadata?.resourceVersion,
    creationTimestamp: expect.any(String),
    labels: { app: 'x' },
  }),
});

describe('Table watch', () => {
  it('sends each event as a one-row Table, with column definitions on the first event only', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    const w = await watch<TableObject>(TABLE_V1, { resourceVersion: list.metadata?.resourceVersion });
    const { created, updated } = await createUpdateDelete();
    await until(() => w.events.length === 3);
    expect(w.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    const [added, modified, deleted] = w.events.map((e) => e.obj);
    expect(added).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: created.metadata?.resourceVersion } });
    expect(added!.columnDefinitions!.map((c) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(modified!.columnDefinitions).toBeNull();
    expect(deleted!.columnDefinitions).toBeNull();
    expect(added!.rows.map((r) => r.cells.slice(0, 2))).toEqual([['a', 1]]);
    expect(modified!.rows[0]!.cells.slice(0, 2)).toEqual(['a', 2]);
    expect(modified!.metadata.resourceVersion).toBe(updated.metadata?.resourceVersion);
    expect(Number(deleted!.metadata.resourceVersion)).toBe(Number(updated.metadata?.resourceVersion) + 1);
    // includeObject unset means Metadata: the row carries the object's PartialObjectMetadata.
    expect(added!.rows[0]!.object).toEqual(metadataOf(created));
    w.controller.abort();
  });

  it('fills row objects as includeObject says, in the meta.k8s.io version asked for', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    const rv = list.metadata?.resourceVersion;
    const full = await watch<TableObject>(TABLE_V1, { resourceVersion: rv, includeObject: 'Object' });
    const none = await watch<TableObject>(TABLE_V1, { resourceVersion: rv, includeObject: 'None' });
    const beta = await watch<TableObject>(TABLE_V1BETA1, { resourceVersion: rv });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'b' }, data: { k: 'v' } } });
    await until(() => [full, none, beta].every((w) => w.events.length === 1));
    expect(full.events[0]!.obj.rows[0]!.object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'b' }, data: { k: 'v' } });
    expect(none.events[0]!.obj.rows[0]!.object).toBeNull();
    expect(beta.events[0]!.obj).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1beta1' });
    expect(beta.events[0]!.obj.rows[0]!.object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1', metadata: { name: 'b' } });
    for (const w of [full, none, beta]) w.controller.abort();
  });

  it('gives the initial-events-end bookmark’s row its metadata even with includeObject=None', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'c' } } });
    const w = await watch<TableObject>(TABLE_V1, { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true, includeObject: 'None' });
    // c, then the namespace's kube-root-ca.crt (the root-CA publisher's), then the bookmark.
    await until(() => w.events.length === 3);
    const [initial, , bookmark] = w.events;
    expect(initial!.type).toBe('ADDED');
    expect(initial!.obj.columnDefinitions).not.toBeNull();
    expect(initial!.obj.rows[0]!.object).toBeNull();
    expect(bookmark!.type).toBe('BOOKMARK');
    expect(bookmark!.obj.columnDefinitions).toBeNull();
    const rv = bookmark!.obj.metadata.resourceVersion;
    expect(rv).toEqual(expect.any(String));
    // The bookmark is an empty ConfigMap: printed as such, its metadata in the row.
    expect(bookmark!.obj.rows).toEqual([
      {
        cells: ['', 0, '<unknown>'],
        object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: rv, creationTimestamp: null, annotations: { 'k8s.io/initial-events-end': 'true' } } },
      },
    ]);
    w.controller.abort();
  });

  it('sends ERROR 410 as a plain Status, not as a Table', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'd' } } });
    await cluster.compact();
    const w = await watch(TABLE_V1, { resourceVersion: list.metadata?.resourceVersion });
    expect(await w.ended).toBeNull();
    expect(w.events).toEqual([{ type: 'ERROR', obj: expect.objectContaining({ kind: 'Status', apiVersion: 'v1', reason: 'Expired', code: 410 }) }]);
  });

  it('answers 400 before streaming for an unknown includeObject', async () => {
    let error: unknown;
    await new k8s.Watch(accepting(TABLE_V1))
      .watch(CONFIGMAPS, { includeObject: 'Everything' }, () => undefined, (err) => (error = err))
      .catch((err) => (error = err));
    await until(() => error !== undefined);
    expect((error as { statusCode?: number }).statusCode).toBe(400);
    const res = await fetch(`${cluster.url}${CONFIGMAPS}?watch=true&includeObject=Everything`, { headers: { accept: TABLE_V1 } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Unable to convert to Table as requested: includeObject: Invalid value: "Everything": must be 'Metadata', 'Object', 'None', or empty`,
      reason: 'BadRequest',
      code: 400,
    });
  });
});

describe('PartialObjectMetadata watch', () => {
  it('reduces every event’s object to its metadata, in v1 and v1beta1', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    const v1 = await watch(POM_V1, { resourceVersion: list.metadata?.resourceVersion });
    const beta = await watch(POM_V1BETA1, { resourceVersion: list.metadata?.resourceVersion });
    const { created, updated } = await createUpdateDelete();
    await until(() => v1.events.length === 3 && beta.events.length === 3);
    expect(v1.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(v1.events[0]!.obj).toEqual(metadataOf(created));
    expect(v1.events[1]!.obj).toMatchObject({ metadata: { resourceVersion: updated.metadata?.resourceVersion } });
    expect(v1.events.every((e) => !('data' in e.obj))).toBe(true);
    expect(beta.events.map((e) => e.obj.apiVersion)).toEqual(['meta.k8s.io/v1beta1', 'meta.k8s.io/v1beta1', 'meta.k8s.io/v1beta1']);
    v1.controller.abort();
    beta.controller.abort();
  });

  it('sends bookmarks as PartialObjectMetadata carrying the resourceVersion', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'e' } } });
    const w = await watch(POM_V1, { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true });
    // e and the namespace's kube-root-ca.crt, then the bookmark.
    await until(() => w.events.length === 3);
    expect(w.events[2]).toEqual({
      type: 'BOOKMARK',
      obj: {
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: { resourceVersion: expect.any(String), creationTimestamp: null, annotations: { 'k8s.io/initial-events-end': 'true' } },
      },
    });
    w.controller.abort();
  });

  it('ends an as=PartialObjectMetadataList watch at its first event, which cannot be encoded', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    const w = await watch(POM_LIST, { resourceVersion: list.metadata?.resourceVersion });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'f' } } });
    expect(await w.ended).toBeNull();
    expect(w.events).toEqual([]);
  });
});

describe.skipIf(!kubectlAvailable)('kubectl get --watch', () => {
  it('prints the list, then one line per event under the same columns', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'first' }, data: { a: '1' } } });
    const { kubeconfig } = await cluster.listen();
    const child = spawn('kubectl', ['get', 'configmaps', '--watch', '--output-watch-events'], { env: kubectlEnv(kubeconfig) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      await until(() => stdout.includes('first'), 20_000);
      // The watch starts right after the list; a write before it would be replayed, not lost.
      await until(() => clusterInternals(cluster).servedWatches.size === 1, 20_000);
      const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'second' }, data: { a: '1', b: '2' } } });
      await core.replaceNamespacedConfigMap({ name: 'second', namespace: 'default', body: { ...created, data: { a: '1' } } });
      await core.deleteNamespacedConfigMap({ name: 'second', namespace: 'default' });
      await until(() => stdout.includes('DELETED'), 20_000);
    } finally {
      child.kill();
    }
    const lines = stdout.trim().split('\n').map((l) => l.trim().split(/\s+/));
    expect(lines.map((l) => l.slice(0, 3))).toEqual([
      ['EVENT', 'NAME', 'DATA'],
      ['ADDED', 'first', '1'],
      ['ADDED', 'kube-root-ca.crt', '1'],
      ['ADDED', 'second', '2'],
      ['MODIFIED', 'second', '1'],
      ['DELETED', 'second', '1'],
    ]);
    expect(stderr).toBe('');
  }, 60_000);
});
