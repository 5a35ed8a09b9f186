// Real-cluster mode (issue 24): createFakeCluster({ kubeconfig }) runs the same API against a real
// server — here a `kubefake serve` process standing in for one, reached only over HTTP.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, NotSupportedOnRealCluster } from '../src/index.ts';
import { serve } from './support/serve.ts';

const CRONTAB_CRD = new URL('../examples/crontab/crontab-crd.yaml', import.meta.url);

let kubeconfig: string;
let server: ReturnType<typeof serve>;
/** A client of the server that is not the test's: to see what a test left behind. */
let outside: k8s.KubeConfig;

beforeAll(async () => {
  kubeconfig = join(mkdtempSync(join(tmpdir(), 'kubefake-real-')), 'config');
  server = serve(['serve', '--kubeconfig', kubeconfig]);
  await server.ready;
  outside = new k8s.KubeConfig();
  outside.loadFromString(readFileSync(kubeconfig, 'utf8'));
});

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
});

describe('createFakeCluster({ kubeconfig })', () => {
  it('works in a namespace of its own, reads its writes at once, and sees the client’s writes come in', async () => {
    await using cluster = await createFakeCluster({ kubeconfig });
    expect(cluster.mode).toBe('real');
    expect(cluster.namespace).toMatch(/^kubefake-[a-z0-9]{5}$/);
    expect(cluster.url).toBe(outside.getCurrentCluster()!.server);

    const [applied] = await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { mode: 'fast' } });
    expect(applied!.metadata?.namespace).toBe(cluster.namespace);
    // Right after apply(), with no waiting: the copy has it, with the server's resourceVersion.
    expect(cluster.get({ kind: 'ConfigMap', name: 'settings' })?.metadata?.resourceVersion).toBe(applied!.metadata?.resourceVersion);

    const before = cluster.snapshot({ kinds: ['ConfigMap'] });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: cluster.namespace, body: { metadata: { name: 'other', labels: { app: 'web' } }, data: { a: '1' } } });
    const seen = await cluster.waitFor({ kind: 'ConfigMap', name: 'other' });
    expect(seen?.data).toEqual({ a: '1' });
    expect(cluster.list('ConfigMap', { namespace: cluster.namespace, labelSelector: 'app=web' }).map((c) => c.metadata?.name)).toEqual(['other']);
    expect(cluster.diff(before).created).toEqual([{ apiVersion: 'v1', kind: 'ConfigMap', namespace: cluster.namespace, name: 'other' }]);
    expect(cluster.snapshot({ kinds: ['ConfigMap'], namespaces: [cluster.namespace] }).map((c) => [c.metadata?.name, c.metadata?.uid])).toEqual([
      ['other', '<uid-1>'],
      ['settings', '<uid-2>'],
    ]);
    // Requests through cluster.kubeConfig are recorded on the client side.
    expect(cluster.requests.all({ resource: 'configmaps' }).map((r) => `${r.verb} ${r.namespace} ${r.status}`)).toEqual([`create ${cluster.namespace} 201`]);
    expect(cluster.history.all({ kind: 'ConfigMap', type: 'ADDED' }).map((c) => c.name)).toContain('other');
  });

  it('close() deletes the namespace and the cluster-scoped objects apply() created, and waits for them', async () => {
    const cluster = await createFakeCluster({ kubeconfig });
    const namespace = cluster.namespace;
    await cluster.apply([
      { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'kubefake-test-high' }, value: 1000 },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { k: 'v' } },
    ]);
    expect(cluster.get({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', name: 'kubefake-test-high' })).toBeDefined();
    await cluster.close();
    const core = outside.makeApiClient(k8s.CoreV1Api);
    expect((await core.listNamespace()).items.map((n) => n.metadata?.name)).not.toContain(namespace);
    const classes = await outside.makeApiClient(k8s.SchedulingV1Api).listPriorityClass();
    expect(classes.items.map((c) => c.metadata?.name)).not.toContain('kubefake-test-high');
  });

  it('applies a CRD and then its objects, the CRD established first', async () => {
    await using cluster = await createFakeCluster({ kubeconfig, manifests: CRONTAB_CRD });
    const [crontab] = await cluster.apply({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'nightly' }, spec: { cronSpec: '0 3 * * *', image: 'backup' } });
    expect(crontab!.metadata?.namespace).toBe(cluster.namespace);
    expect(cluster.get({ kind: 'CronTab', name: 'nightly' })?.spec).toEqual({ cronSpec: '0 3 * * *', image: 'backup' });
    const crd = cluster.get({ kind: 'CustomResourceDefinition', name: 'crontabs.stable.example.com' });
    expect((crd?.status as { conditions?: { type: string; status: string }[] }).conditions).toContainEqual(expect.objectContaining({ type: 'Established', status: 'True' }));
  });

  it('refuses what only a fake can do with NotSupportedOnRealCluster, naming the feature', async () => {
    await expect(createFakeCluster({ kubeconfig, deterministic: true })).rejects.toThrow(new NotSupportedOnRealCluster('deterministic mode'));
    await using cluster = await createFakeCluster({ kubeconfig });
    expect(() => cluster.clock).toThrow('kubefake: cluster.clock is not supported on a real cluster');
    expect(() => cluster.faults).toThrow(NotSupportedOnRealCluster);
    await expect(cluster.compact()).rejects.toThrow('cluster.compact()');
    expect(() => cluster.serveWebhook('https://x', () => ({}))).toThrow(NotSupportedOnRealCluster);
    await expect(cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', uid: 'u' } }, { serverFields: 'keep' })).rejects.toThrow(NotSupportedOnRealCluster);
  });

  it('answers a refused write with the server’s Status', async () => {
    await using cluster = await createFakeCluster({ kubeconfig });
    const err = await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Not_Valid' } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'StatusError', status: { code: 422, reason: 'Invalid' } });
  });
});
