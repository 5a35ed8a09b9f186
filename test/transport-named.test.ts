// The transports of cluster.kubeConfig, tested with every cluster naming its own (the dispatcher, msw,
// or both side by side): what the project's KUBEFAKE_TRANSPORT selects changes nothing here, so the
// msw project leaves this file out (test/support/msw-project.ts). The default transport's tests
// are in test/transport.test.ts.
import * as k8s from '@kubernetes/client-node';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { get as httpsGet, type RequestOptions } from 'node:https';
import dns from 'node:dns';
import { fetch as undiciFetch, getGlobalDispatcher, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { clusterInternals } from '../src/cluster/internals.ts';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { activeResources, dispatcherOf, grownSince } from './support/transport.ts';

const open: FakeCluster[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe('cluster.kubeConfig transport, each cluster naming its own', () => {
  it('takes the transport option over the environment, and refuses an unknown one', async () => {
    // Each option against the environment naming the other (this file runs on one project only).
    onTestFinished(() => void vi.unstubAllEnvs());
    vi.stubEnv('KUBEFAKE_TRANSPORT', 'msw');
    const viaDispatcher = await createFakeCluster({ transport: 'dispatcher' });
    vi.stubEnv('KUBEFAKE_TRANSPORT', 'dispatcher');
    const viaMsw = await createFakeCluster({ transport: 'msw' });
    open.push(viaDispatcher, viaMsw);
    expect(await dispatcherOf(viaDispatcher.kubeConfig)).toBeDefined();
    expect(await dispatcherOf(viaMsw.kubeConfig)).toBeUndefined();
    await expect(createFakeCluster({ transport: 'carrier-pigeon' as 'msw' })).rejects.toThrow('kubefake: unknown transport "carrier-pigeon" (expected "dispatcher" or "msw")');
  });

  it('leaves the dispatcher to the network once the KubeConfig points elsewhere, and copies are ordinary', async () => {
    const cluster = await createFakeCluster({ transport: 'dispatcher' });
    open.push(cluster);
    const kc = cluster.kubeConfig;
    const copy = new k8s.KubeConfig();
    copy.loadFromString(kc.exportConfig());
    expect(await dispatcherOf(copy)).toBeUndefined();
    // The copy still reaches the cluster, through msw.
    expect((await copy.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'default' })).metadata?.name).toBe('default');
    kc.addCluster({ name: 'other', server: 'https://other.example.invalid', skipTLSVerify: false });
    kc.addContext({ name: 'other', cluster: 'other', user: kc.getCurrentUser()!.name });
    kc.setCurrentContext('other');
    try {
      expect(await dispatcherOf(kc)).toBeUndefined();
    } finally {
      kc.setCurrentContext('kubefake');
    }
    expect(await dispatcherOf(kc)).toBeDefined();
  });

  it('answers node:https requests made with applyToHTTPSOptions (client-node’s WebSocket paths) in memory, on both transports', async () => {
    for (const transport of ['dispatcher', 'msw'] as const) {
      const cluster = await createFakeCluster({ transport });
      open.push(cluster);
      const options: RequestOptions = {};
      await cluster.kubeConfig.applyToHTTPSOptions(options);
      // No agent (node:http would prefer it to createConnection), and no socket opened.
      expect(options.agent).toBeUndefined();
      const before = activeResources();
      const answer = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
        httpsGet(`${cluster.url}/api/v1/namespaces/default`, options, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode, body }));
        }).on('error', reject);
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ kind: 'Namespace', metadata: { name: 'default' } });
      expect(grownSince(before).TCPWRAP).toBeUndefined();
      // A copy pointing elsewhere is an ordinary KubeConfig: its agent stays.
      const copy = new k8s.KubeConfig();
      copy.loadFromString(cluster.kubeConfig.exportConfig());
      const copied: RequestOptions = {};
      await copy.applyToHTTPSOptions(copied);
      expect(copied.agent).toBeDefined();
    }
  });

  it('serves every client-node path without opening a socket or touching undici’s global dispatcher', async () => {
    const global = getGlobalDispatcher();
    const before = activeResources();
    const cluster = await createFakeCluster({ transport: 'dispatcher' });
    open.push(cluster);
    const kc = cluster.kubeConfig;
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' }, data: { k: 'v' } } });
    // KubernetesObjectApi, a 404 Status, a large list, a watch and an informer.
    const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
    expect(await objects.read({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } })).toMatchObject({ data: { k: 'v' } });
    await expect(core.readNamespacedConfigMap({ namespace: 'default', name: 'missing' })).rejects.toMatchObject({ code: 404 });
    const big = 'x'.repeat(64 * 1024);
    await Promise.all(Array.from({ length: 40 }, (_, i) => core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: `big-${i}` }, data: { big } } })));
    expect((await core.listNamespacedConfigMap({ namespace: 'default' })).items).toHaveLength(42); // with kube-root-ca.crt
    const events: string[] = [];
    let ended: (err: unknown) => void;
    const end = new Promise((r) => (ended = r));
    const watch = await new k8s.Watch(kc).watch('/api/v1/namespaces/default/configmaps', { resourceVersion: '0' }, (type, obj) => events.push(`${type} ${obj.metadata.name}`), (err) => ended(err));
    const informer = k8s.makeInformer(kc, '/api/v1/namespaces/default/configmaps', () => core.listNamespacedConfigMap({ namespace: 'default' }));
    const informed: string[] = [];
    informer.on('add', (obj) => informed.push(obj.metadata!.name!));
    await informer.start();
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'late' } } });
    await cluster.waitFor({ kind: 'ConfigMap', name: 'late' });
    await vi.waitFor(() => expect(events).toContain('ADDED late'));
    await vi.waitFor(() => expect(informed).toContain('late'));
    await informer.stop();
    watch.abort();
    await end;
    expect(events).toHaveLength(43); // the 42 listed (kube-root-ca.crt among them) and `late`
    // No TCP handle (nor anything else) came or stayed, and undici's global dispatcher is the one it was.
    await vi.waitFor(() => expect(clusterInternals(cluster).servedWatches.size).toBe(0));
    expect(getGlobalDispatcher()).toBe(global);
    await cluster.close();
    expect(grownSince(before)).toEqual({});
  });

  it('keeps nothing per cluster: 200 clusters with requests leave the same open handles', async () => {
    const before = activeResources();
    for (let i = 0; i < 200; i++) {
      const cluster = await createFakeCluster({ transport: 'dispatcher' });
      const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
      await core.readNamespace({ name: 'default' });
      await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'c' } } });
      await cluster.close();
    }
    expect(grownSince(before)).toEqual({});
  });

  it('answers what the msw path answers once the cluster is closed: its host no longer resolves', async () => {
    // Once no cluster is open, msw lets the socket through and Node asks the machine's resolver,
    // which may take seconds to give up on *.kubefake.local (mDNS, a slow upstream). Stand in for
    // it with the answer any resolver gives in the end, NXDOMAIN, so the test does not hang on the
    // machine's DNS; other names still resolve for real.
    const realLookup = dns.lookup;
    const lookup = vi.spyOn(dns, 'lookup').mockImplementation(((hostname: string, ...rest: unknown[]) => {
      const callback = rest.at(-1) as (err: Error) => void;
      if (!hostname.endsWith('.kubefake.local')) return (realLookup as (...a: unknown[]) => void)(hostname, ...rest);
      const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname, errno: -3008 });
      process.nextTick(callback, err);
    }) as typeof dns.lookup);
    onTestFinished(() => lookup.mockRestore());
    for (const transport of ['dispatcher', 'msw'] as const) {
      const cluster = await createFakeCluster({ transport });
      const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
      await cluster.close();
      const err = await core.readNamespace({ name: 'default' }).then(() => undefined, (e: unknown) => e);
      expect(err, transport).toBeInstanceOf(TypeError);
      expect((err as TypeError).message, transport).toBe('fetch failed');
      expect((err as TypeError).cause, transport).toMatchObject({ code: 'ENOTFOUND', hostname: new URL(cluster.url).host });
    }
  });

  it('hands the server the same request on both transports: method, URL, headers and body', async () => {
    const seen = async (transport: 'dispatcher' | 'msw') => {
      const cluster = await createFakeCluster({ transport });
      open.push(cluster);
      const requests: Array<{ verb: string; url: string; headers: [string, string][]; body: unknown }> = [];
      const host = new URL(cluster.url).host;
      cluster.faults.add(async (request) => {
        // The host differs by cluster; everything else must not differ by transport.
        const headers = [...request.headers].map(([k, v]): [string, string] => [k, k === 'host' ? v.replace(host, '<host>') : v]);
        requests.push({ verb: request.verb, url: request.path, headers, body: await request.body() });
        return undefined;
      });
      const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
      await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' }, data: { k: 'üß' } } });
      await core.patchNamespacedConfigMap({ namespace: 'default', name: 'a', body: [{ op: 'add', path: '/data/x', value: 'y' }] });
      await core.readNamespacedConfigMap({ namespace: 'default', name: 'a' });
      await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'a', body: { gracePeriodSeconds: 0 } });
      return requests;
    };
    const viaDispatcher = await seen('dispatcher');
    expect(viaDispatcher).toHaveLength(4);
    expect(viaDispatcher[0]!.headers).toContainEqual(['content-length', String(Buffer.byteLength(JSON.stringify({ metadata: { name: 'a' }, data: { k: 'üß' } })))]);
    expect(viaDispatcher).toEqual(await seen('msw'));
  });

  it('gives client-node the same answers on both transports: status, headers and bytes', async () => {
    const answers = async (transport: 'dispatcher' | 'msw') => {
      const cluster = await createFakeCluster({ transport, deterministic: true });
      open.push(cluster);
      const seen: Array<{ status: number; headers: Record<string, string>; body: string }> = [];
      const record: k8s.ObservableMiddleware = {
        pre: (ctx) => new k8s.Observable(Promise.resolve(ctx)),
        post: (rsp) =>
          new k8s.Observable(
            rsp.body.text().then((body) => {
              seen.push({ status: rsp.httpStatusCode, headers: rsp.headers, body });
              return new k8s.ResponseContext(rsp.httpStatusCode, rsp.headers, { text: async () => body, binary: async () => Buffer.from(body), stream: () => null });
            }),
          ),
      };
      const options = { middleware: [record], middlewareMergeStrategy: 'append' as const };
      const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
      await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' }, data: { k: 'üß'.repeat(40_000) } } }, options);
      await core.readNamespacedConfigMap({ namespace: 'default', name: 'a' }, options);
      await core.listNamespacedConfigMap({ namespace: 'default' }, options);
      await core.readNamespacedConfigMap({ namespace: 'default', name: 'missing' }, options).catch(() => undefined);
      // A Status body with causes.
      await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'bad' }, data: { 'not a key': '' } } }, options).catch(() => undefined);
      await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'a' }, options);
      return seen;
    };
    const viaDispatcher = await answers('dispatcher');
    expect(viaDispatcher.map((a) => a.status)).toEqual([201, 200, 200, 404, 422, 200]);
    // Framed as Go's net/http frames them: a body longer than 2,048 bytes chunked, a short one with its length.
    expect(viaDispatcher[0]!.headers).toMatchObject({ 'transfer-encoding': 'chunked' });
    expect(viaDispatcher[0]!.headers['content-length']).toBeUndefined();
    expect(viaDispatcher[3]!.headers).toMatchObject({ 'content-length': String(Buffer.byteLength(viaDispatcher[3]!.body)) });
    expect(viaDispatcher).toEqual(await answers('msw'));
  });

  it('holds a watch stream back while its reader is paused, and resumes without losing or reordering events', async () => {
    const cluster = await createFakeCluster({ transport: 'dispatcher' });
    open.push(cluster);
    // The dispatcher client-node would use, driven by undici's own fetch (the seam's other users: Watch, Log).
    const dispatcher = (await dispatcherOf(cluster.kubeConfig)) as Dispatcher;
    const response = await undiciFetch(`${cluster.url}/api/v1/namespaces/default/configmaps?watch=true`, { dispatcher, headers: { authorization: 'Bearer kubefake' } });
    expect(response.status).toBe(200);
    // 600 events of 4 KiB arrive while nothing reads: undici's body fills and pauses the dispatcher.
    const big = 'x'.repeat(4096);
    for (let i = 0; i < 600; i++) await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'default' }, data: { big } });
    const names: string[] = [];
    let buffered = '';
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    // The watch starts with the current state: the namespace's kube-root-ca.crt.
    while (names.length < 601) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) names.push((JSON.parse(line) as { object: { metadata: { name: string } } }).object.metadata.name);
    }
    expect(names).toEqual(['kube-root-ca.crt', ...Array.from({ length: 600 }, (_, i) => `cm-${i}`)]);
    await reader.cancel();
    await vi.waitFor(() => expect(clusterInternals(cluster).servedWatches.size).toBe(0));
  });

  it('cuts open watches off on destroy(), on both sides, and refuses requests after it', async () => {
    const cluster = await createFakeCluster({ transport: 'dispatcher' });
    open.push(cluster);
    const dispatcher = (await dispatcherOf(cluster.kubeConfig)) as Dispatcher;
    let ended: (err: unknown) => void;
    const end = new Promise<unknown>((r) => (ended = r));
    await new k8s.Watch(cluster.kubeConfig).watch('/api/v1/namespaces/default/configmaps', {}, () => undefined, (err) => ended(err));
    await vi.waitFor(() => expect(clusterInternals(cluster).servedWatches.size).toBe(1));
    await dispatcher.destroy();
    // undici's fetch reports a body cut off mid-stream as 'terminated', the cause attached.
    expect(await end).toMatchObject({ message: 'terminated', cause: { code: 'ENOTFOUND' } });
    await vi.waitFor(() => expect(clusterInternals(cluster).servedWatches.size).toBe(0));
    const err = await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'default' }).then(() => undefined, (e: unknown) => e);
    expect((err as TypeError).cause).toMatchObject({ code: 'ENOTFOUND' });
  });

  it('reads a streamed request body', async () => {
    const cluster = await createFakeCluster({ transport: 'dispatcher' });
    open.push(cluster);
    const dispatcher = (await dispatcherOf(cluster.kubeConfig)) as Dispatcher;
    const text = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'streamed' }, data: { k: 'v' } });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(text);
        controller.enqueue(bytes.subarray(0, 10));
        controller.enqueue(bytes.subarray(10));
        controller.close();
      },
    });
    const response = await undiciFetch(`${cluster.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', dispatcher, body, duplex: 'half', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(201);
    expect(cluster.get({ kind: 'ConfigMap', name: 'streamed' })?.data).toEqual({ k: 'v' });
  });

  it('keeps kubeConfig traffic out of a user’s own msw handlers for the cluster host', async () => {
    const seen: string[] = [];
    const cluster = await createFakeCluster({ transport: 'dispatcher' });
    open.push(cluster);
    const server = setupServer(http.all(`${cluster.url}/*`, ({ request }) => void seen.push(request.url)));
    server.listen({ onUnhandledFrame: 'bypass' });
    try {
      await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'default' });
      expect(seen).toEqual([]);
      // Raw fetch still goes through msw, where the user's handler looks first.
      await fetch(`${cluster.url}/version`);
      expect(seen).toEqual([`${cluster.url}/version`]);
    } finally {
      server.close();
    }
  });
});
