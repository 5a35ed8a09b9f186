// pods/log, exec, attach and portforward on a cluster that schedules nothing: the answers a real
// apiserver gives for a pod no node has taken (pkg/registry/core/pod/strategy.go), through
// client-node's generated API, its Log and its WebSocket Exec.
import * as k8s from '@kubernetes/client-node';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;

beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  await cluster.apply([
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'one', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'x' }] } },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'two', namespace: 'default' },
      spec: { initContainers: [{ name: 'init', image: 'x' }], containers: [{ name: 'app', image: 'x' }, { name: 'side', image: 'x' }] },
    },
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'placed', namespace: 'default' }, spec: { nodeName: 'node-a', containers: [{ name: 'app', image: 'x' }] } },
  ]);
});
afterEach(() => cluster.close());

/** The Status of a rejected client-node call. */
async function statusOf(call: Promise<unknown>): Promise<{ code: number; status: Record<string, unknown> | undefined }> {
  const err = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as k8s.ApiException<string> | undefined;
  if (!err) throw new Error('expected the call to fail');
  return { code: err.code, status: err.body ? (JSON.parse(err.body) as Record<string, unknown>) : undefined };
}

describe('pods/log', () => {
  it('answers 204 with no body for a pod no node has taken (no log stream exists)', async () => {
    // client-node's generated call cannot parse a 204 without a content type, as against a real server.
    await expect(core.readNamespacedPodLog({ name: 'one', namespace: 'default' })).rejects.toThrow('Cannot parse content. No Content-Type defined.');
    expect(cluster.requests.last()).toMatchObject({ verb: 'get', resource: 'pods', subresource: 'log', name: 'one', status: 204 });
    expect(await cluster.requests.last()!.responseBody()).toBeUndefined();
    // Its Log takes only a 200 as success.
    await expect(new k8s.Log(cluster.kubeConfig).log('default', 'one', 'app', new PassThrough())).rejects.toMatchObject({ code: 204 });
    expect(cluster.requests.last()).toMatchObject({ subresource: 'log', status: 204 });
  });

  it('checks the pod and the container first', async () => {
    expect(await statusOf(core.readNamespacedPodLog({ name: 'none', namespace: 'default' }))).toMatchObject({ code: 404, status: { reason: 'NotFound', message: 'pods "none" not found' } });
    expect(await statusOf(core.readNamespacedPodLog({ name: 'one', namespace: 'default', container: 'nope' }))).toMatchObject({
      code: 400,
      status: { reason: 'BadRequest', message: 'container nope is not valid for pod one' },
    });
    expect(await statusOf(core.readNamespacedPodLog({ name: 'two', namespace: 'default' }))).toMatchObject({
      code: 400,
      status: { reason: 'BadRequest', message: 'a container name must be specified for pod two, choose one of: [init app side]' },
    });
    // An init container is a container of the pod too.
    await expect(core.readNamespacedPodLog({ name: 'two', namespace: 'default', container: 'init' })).rejects.toThrow('No Content-Type');
    expect(cluster.requests.last()).toMatchObject({ name: 'two', subresource: 'log', status: 204 });
  });

  it('looks up the node of a pod that names one', async () => {
    expect(await statusOf(core.readNamespacedPodLog({ name: 'placed', namespace: 'default' }))).toMatchObject({ code: 404, status: { message: 'nodes "node-a" not found' } });
  });
});

describe('pods/exec, attach and portforward', () => {
  it('answer 400 "does not have a host assigned" for a pod no node has taken', async () => {
    const unassigned = { code: 400, status: { kind: 'Status', reason: 'BadRequest', message: 'pod one does not have a host assigned' } };
    expect(await statusOf(core.connectPostNamespacedPodExec({ name: 'one', namespace: 'default', command: 'ls', stdout: true }))).toMatchObject(unassigned);
    expect(await statusOf(core.connectGetNamespacedPodExec({ name: 'one', namespace: 'default', command: 'ls', stdout: true }))).toMatchObject(unassigned);
    expect(await statusOf(core.connectPostNamespacedPodAttach({ name: 'one', namespace: 'default', stdout: true }))).toMatchObject(unassigned);
    expect(await statusOf(core.connectGetNamespacedPodPortforward({ name: 'one', namespace: 'default', ports: 80 }))).toMatchObject(unassigned);
    // The container is checked before the node; port forwarding names none.
    expect(await statusOf(core.connectPostNamespacedPodExec({ name: 'one', namespace: 'default', command: 'ls', container: 'nope' }))).toMatchObject({
      code: 400,
      status: { message: 'container nope is not valid for pod one' },
    });
    expect(await statusOf(core.connectPostNamespacedPodExec({ name: 'gone', namespace: 'default', command: 'ls' }))).toMatchObject({ code: 404, status: { message: 'pods "gone" not found' } });
  });

  it('refuse the WebSocket upgrade of client-node’s Exec with that answer', async () => {
    const exec = new k8s.Exec(cluster.kubeConfig);
    await expect(exec.exec('default', 'one', 'app', ['ls'], null, null, null, false)).rejects.toThrow('Unexpected server response: 400');
  });

  it('route only the connect methods (log: GET; the streams: GET and POST)', async () => {
    const put = (sub: string) => fetch(`${cluster.url}/api/v1/namespaces/default/pods/one/${sub}`, { method: 'PUT', body: '{}' });
    for (const sub of ['log', 'exec', 'attach', 'portforward']) expect((await put(sub)).status, sub).toBe(405);
    expect((await fetch(`${cluster.url}/api/v1/namespaces/default/pods/one/log`, { method: 'POST', body: '{}' })).status).toBe(405);
  });
});
