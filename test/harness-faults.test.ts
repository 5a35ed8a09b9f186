// cluster.faults: declarative rules and hooks that fail or delay requests with what a real
// kube-apiserver sends, and dropWatches() ending open watch streams.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

const OPTIMISTIC_LOCK = 'the object has been modified; please apply your changes to the latest version and try again';

async function withConfigMap(cluster: FakeCluster) {
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cm' }, data: { v: '0' } } });
  return core;
}

describe('fault rules', () => {
  it('answers a 409 Conflict with the optimistic-lock Status, the given number of times', async () => {
    await using cluster = await createFakeCluster();
    const core = await withConfigMap(cluster);
    const fault = cluster.faults.add({ verb: 'update', resource: 'configmaps', error: 409, times: 1 });
    const update = () => core.replaceNamespacedConfigMap({ name: 'cm', namespace: 'default', body: { metadata: { name: 'cm' }, data: { v: '1' } } });
    await expectStatus(update(), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on configmaps "cm": ${OPTIMISTIC_LOCK}`,
      details: { name: 'cm', kind: 'configmaps' },
    });
    // The fault answered instead of the server: nothing was written.
    expect(cluster.get({ kind: 'ConfigMap', name: 'cm' })!.data).toEqual({ v: '0' });
    expect((await update()).data).toEqual({ v: '1' });
    expect(fault.hits).toBe(1);
    expect(cluster.requests.all({ verb: 'update' }).map((r) => [r.status, r.fault])).toEqual([
      [409, true],
      [200, false],
    ]);
  });

  it('answers a create with AlreadyExists naming the object from the body, group-qualified', async () => {
    await using cluster = await createFakeCluster();
    cluster.faults.add({ verb: 'create', resource: 'deployments.apps', error: 409 });
    const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    await expectStatus(apps.createNamespacedDeployment({ namespace: 'default', body: { metadata: { name: 'web' }, spec: { selector: {}, template: {} } } }), {
      code: 409,
      reason: 'AlreadyExists',
      message: 'deployments.apps "web" already exists',
      details: { name: 'web', group: 'apps', kind: 'deployments' },
    });
  });

  it('answers a 500 as an etcd timeout surfaces: no reason', async () => {
    await using cluster = await createFakeCluster();
    const core = await withConfigMap(cluster);
    cluster.faults.add({ verb: 'get', resource: 'configmaps', name: 'cm', error: 500 });
    const body = await expectStatus(core.readNamespacedConfigMap({ name: 'cm', namespace: 'default' }), { code: 500, message: 'etcdserver: request timed out' });
    expect(body.reason).toBeUndefined();
    // Other names pass.
    await expectStatus(core.readNamespacedConfigMap({ name: 'other', namespace: 'default' }), { code: 404, reason: 'NotFound' });
  });

  it("answers a 429 as API Priority and Fairness does: plain text and Retry-After", async () => {
    await using cluster = await createFakeCluster();
    const core = await withConfigMap(cluster);
    cluster.faults.add({ verb: 'list', error: 429, retryAfterSeconds: 3 });
    const error = await core.listNamespacedConfigMap({ namespace: 'default' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(k8s.ApiException);
    const e = error as k8s.ApiException<string>;
    expect(e.code).toBe(429);
    expect(e.body).toBe('Too many requests, please try again later.\n');
    expect(e.headers['retry-after']).toBe('3');
    expect(e.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it("answers 'timeout' with the 504 Timeout Status of the timeout filter (reads) or the request finisher (writes)", async () => {
    await using cluster = await createFakeCluster();
    const core = await withConfigMap(cluster);
    cluster.faults.add({ resource: 'configmaps', error: 'timeout' });
    await expectStatus(core.listNamespacedConfigMap({ namespace: 'default' }), {
      code: 504,
      reason: 'Timeout',
      message: 'Timeout: request did not complete within the allotted timeout',
      details: {},
    });
    await expectStatus(core.deleteNamespacedConfigMap({ name: 'cm', namespace: 'default' }), {
      code: 504,
      reason: 'Timeout',
      message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
    });
  });

  it('sends a given Status as is, with Retry-After from its details', async () => {
    await using cluster = await createFakeCluster();
    const core = await withConfigMap(cluster);
    cluster.faults.add({ verb: 'list', resource: 'configmaps', error: { code: 429, reason: 'TooManyRequests', message: 'storage is (re)initializing', details: { retryAfterSeconds: 1 } } });
    const error = (await core.listNamespacedConfigMap({ namespace: 'default' }).catch((e: unknown) => e)) as k8s.ApiException<string>;
    expect(JSON.parse(error.body)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'storage is (re)initializing',
      reason: 'TooManyRequests',
      details: { retryAfterSeconds: 1 },
      code: 429,
    });
    expect(error.headers['retry-after']).toBe('1');
  });

  it('lets `after` requests through first, matches namespaces and subresources, and stops when removed', async () => {
    await using cluster = await createFakeCluster();
    const core = await withConfigMap(cluster);
    const fault = cluster.faults.add({ verb: 'get', namespace: 'default', resource: 'configmaps', error: 500, after: 2 });
    await core.readNamespacedConfigMap({ name: 'cm', namespace: 'default' });
    await core.readNamespacedConfigMap({ name: 'cm', namespace: 'default' });
    await expectStatus(core.readNamespacedConfigMap({ name: 'cm', namespace: 'default' }), { code: 500 });
    await expectStatus(core.readNamespacedConfigMap({ name: 'cm', namespace: 'default' }), { code: 500 });
    await expectStatus(core.readNamespacedConfigMap({ name: 'cm', namespace: 'kube-system' }), { code: 404 });
    fault.remove();
    await core.readNamespacedConfigMap({ name: 'cm', namespace: 'default' });
    expect(fault.hits).toBe(2);

    cluster.faults.add({ resource: 'namespaces/status', error: 500 });
    await core.readNamespace({ name: 'default' });
    await expectStatus(core.readNamespaceStatus({ name: 'default' }), { code: 500 });
    cluster.faults.clear();
    await core.readNamespaceStatus({ name: 'default' }).catch(() => undefined);
    expect(cluster.requests.last()!.fault).toBe(false);
  });

  it('delays a request without failing it when only delayMs is given', async () => {
    await using cluster = await createFakeCluster();
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    cluster.faults.add({ verb: 'create', resource: 'configmaps', delayMs: 300, times: 1 });
    const slow = core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'slow' } } });
    await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'fast' } } });
    await slow;
    expect(cluster.history.all().map((c) => c.name)).toEqual(['fast', 'slow']);
    expect(cluster.requests.all({ resource: 'configmaps' })[0]).toMatchObject({ status: 201, fault: true });
  });

  it('refuses rules that would do nothing or are malformed', async () => {
    await using cluster = await createFakeCluster();
    expect(() => cluster.faults.add({ verb: 'get' })).toThrow('kubefake: a fault rule needs an error, a delayMs, or both');
    expect(() => cluster.faults.add({ verb: 'get', error: 418 as 409 })).toThrow("kubefake: fault error must be 409, 500, 429, 'timeout' or a Status with a code, got 418");
    expect(() => cluster.faults.add({ error: 500, times: -1 })).toThrow('kubefake: fault rule times must be a non-negative number, got -1');
  });
});

describe('fault hooks', () => {
  it('decides per request from its attributes and body: an error, a Response, or nothing', async () => {
    await using cluster = await createFakeCluster();
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const seen: string[] = [];
    cluster.faults.add(async (request) => {
      seen.push(`${request.verb} ${request.resource}`);
      if (request.verb !== 'create') return undefined;
      const body = (await request.body()) as { metadata: { labels?: Record<string, string> } };
      if (body.metadata.labels?.fail === 'status') return { error: 500 };
      if (body.metadata.labels?.fail === 'raw') return new Response('upstream connect error', { status: 503, headers: { 'content-type': 'text/plain' } });
      return undefined;
    });
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a', labels: { fail: 'status' } } } }), { code: 500 });
    const raw = (await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'b', labels: { fail: 'raw' } } } }).catch((e: unknown) => e)) as k8s.ApiException<string>;
    expect([raw.code, raw.body]).toEqual([503, 'upstream connect error']);
    // The hook read the body; the server still gets it intact.
    const ok = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'c', labels: { fail: 'no' } } } });
    expect(ok.metadata!.labels).toEqual({ fail: 'no' });
    expect(seen).toEqual(['create configmaps', 'create configmaps', 'create configmaps']);
  });

  it('answers a 500 Status naming the failure when a hook throws or returns a bad action', async () => {
    await using cluster = await createFakeCluster();
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const hook = cluster.faults.add(() => {
      throw new Error('boom');
    });
    await expectStatus(core.readNamespace({ name: 'default' }), { code: 500, reason: 'InternalError', message: 'Internal error occurred: kubefake fault hook failed: boom' });
    hook.remove();
    cluster.faults.add(() => ({ error: 418 as never }));
    const status = await expectStatus(core.readNamespace({ name: 'default' }), { code: 500, reason: 'InternalError' });
    expect(status.message).toMatch(/^Internal error occurred: kubefake fault hook failed: kubefake: fault error must be 409, 500, 429, 'timeout' or a Status with a code, got 418$/);
  });
});

describe('faults.dropWatches()', () => {
  it('ends open watches; an informer watches again and keeps up', async () => {
    await using cluster = await createFakeCluster();
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const informer = k8s.makeInformer(cluster.kubeConfig, '/api/v1/namespaces/default/configmaps', () => core.listNamespacedConfigMap({ namespace: 'default' }));
    const added: string[] = [];
    informer.on('add', (obj: k8s.V1ConfigMap) => added.push(obj.metadata!.name!));
    await informer.start();
    await waitUntil(() => cluster.requests.all({ verb: 'watch' }).length === 1);

    let ended = 0;
    const plain = await new k8s.Watch(cluster.kubeConfig).watch('/api/v1/namespaces/default/secrets', {}, () => undefined, (err) => {
      ended++;
      expect(err ?? null).toBeNull();
    });
    expect(cluster.faults.dropWatches()).toBe(2);
    expect(cluster.faults.dropWatches()).toBe(0);

    await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after-drop' } });
    await waitUntil(() => added.includes('after-drop'));
    expect(ended).toBe(1);
    expect(cluster.requests.all({ verb: 'watch', resource: 'configmaps' }).length).toBeGreaterThanOrEqual(2);
    await informer.stop();
    plain.abort();
  });
});

/** Polls a condition on the event loop (informer callbacks arrive asynchronously). */
async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
