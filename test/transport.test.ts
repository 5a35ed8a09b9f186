// The transports: cluster.kubeConfig's in-process Dispatcher, the msw interception every other
// client uses (alongside a user's own msw server), and the loopback listener. Tests whose clusters
// each name their transport are in test/transport-named.test.ts.
import * as k8s from '@kubernetes/client-node';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { dispatcherOf } from './support/transport.ts';

const open: FakeCluster[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe('in-process transport', () => {
  it('keeps a user’s own msw setupServer() working in the same process', async () => {
    const server = setupServer(http.get('https://api.example.com/hello', () => HttpResponse.json({ from: 'user-msw' })));
    server.listen({ onUnhandledFrame: 'bypass' });
    try {
      const cluster = await createFakeCluster();
      open.push(cluster);
      const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
      const [mocked, namespaces] = await Promise.all([fetch('https://api.example.com/hello').then((r) => r.json()), core.listNamespace()]);
      expect(mocked).toEqual({ from: 'user-msw' });
      expect(namespaces.items.length).toBe(4);
      await cluster.close();
      // After the last cluster closes, the user's server still answers.
      expect(await fetch('https://api.example.com/hello').then((r) => r.json())).toEqual({ from: 'user-msw' });
    } finally {
      server.close();
    }
  });

  it('passes requests for other hosts through untouched', async () => {
    const upstream = createServer((_req, res) => res.end('real server'));
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    try {
      const cluster = await createFakeCluster();
      open.push(cluster);
      const { port } = upstream.address() as AddressInfo;
      expect(await fetch(`http://127.0.0.1:${port}/`).then((r) => r.text())).toBe('real server');
    } finally {
      upstream.close();
    }
  });
});

describe('cluster.kubeConfig transport', () => {
  it('is the one KUBEFAKE_TRANSPORT selects, the in-process dispatcher by default', async () => {
    const cluster = await createFakeCluster();
    open.push(cluster);
    const expected = process.env.KUBEFAKE_TRANSPORT || 'dispatcher';
    if (expected === 'dispatcher') expect(await dispatcherOf(cluster.kubeConfig)).toBeDefined();
    else expect(await dispatcherOf(cluster.kubeConfig)).toBeUndefined();
  });
});

describe('cluster.listen()', () => {
  it('serves the same cluster over loopback HTTP with a kubeconfig client-node can load', async () => {
    const cluster = await createFakeCluster();
    open.push(cluster);
    const { url, kubeconfig } = await cluster.listen();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const kc = new k8s.KubeConfig();
    kc.loadFromString(kubeconfig);
    expect(kc.getCurrentCluster()?.server).toBe(url);
    const overHttp = kc.makeApiClient(k8s.CoreV1Api);
    await overHttp.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'via-http' } } });
    // The in-process client sees what the HTTP client wrote: one cluster, two transports.
    const inProcess = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    expect((await inProcess.readNamespacedConfigMap({ name: 'via-http', namespace: 'default' })).metadata?.name).toBe('via-http');
    const res = await fetch(`${url}/api/v1/namespaces/default/configmaps/missing`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json');
  });

  it('stops listening on close()', async () => {
    const cluster = await createFakeCluster();
    const { url } = await cluster.listen();
    await cluster.close();
    await expect(fetch(`${url}/version`)).rejects.toThrow();
  });
});

describe('lifecycle', () => {
  it('installs options.manifests before resolving, and supports await using', async () => {
    let url: string;
    {
      await using cluster = await createFakeCluster({
        manifests: `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: team-a\ndata:\n  mode: fast\n`,
      });
      url = cluster.url;
      const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
      expect((await core.readNamespacedConfigMap({ name: 'settings', namespace: 'team-a' })).data).toEqual({ mode: 'fast' });
    }
    await expect(fetch(`${url}/version`)).rejects.toThrow();
  });

  it('apply() creates or updates, in input order, and returns what was stored', async () => {
    const cluster = await createFakeCluster();
    open.push(cluster);
    const [first] = await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { v: '1' } });
    const [second, other] = await cluster.apply([
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { v: '2' } },
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n',
    ]);
    expect(second!.metadata?.uid).toBe(first!.metadata?.uid);
    expect(second!.data).toEqual({ v: '2' });
    expect(Number(second!.metadata?.resourceVersion)).toBeGreaterThan(Number(first!.metadata?.resourceVersion));
    expect(other!.kind).toBe('Secret');
    await expect(cluster.apply({ apiVersion: 'v1', kind: 'Nope', metadata: { name: 'x' } })).rejects.toThrow('kubefake: no resource serves Nope in v1');
  });
});
