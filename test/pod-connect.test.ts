// pods/log, exec, attach, portforward and proxy as a real kube-apiserver answers them for pods its
// kubelets cannot serve (kubefake runs none): strategy.go's LogLocation, streamLocation,
// PortForwardLocation and ResourceLocation, through client-node's generated calls and kubectl.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'web' }, spec: { containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 8080 }] }] } } });
  await core.createNamespacedPod({
    namespace: 'default',
    body: { metadata: { name: 'multi' }, spec: { initContainers: [{ name: 'setup', image: 'busybox' }], containers: [{ name: 'app', image: 'nginx' }, { name: 'sidecar', image: 'envoy' }] } },
  });
});
afterAll(() => cluster.close());

const raw = (path: string, init?: RequestInit) => fetch(cluster.url + path, init);

describe('log', () => {
  it('is 204 with no body and no Content-Type for a pod not yet on a node (LogLocation returns no location)', async () => {
    const res = await raw('/api/v1/namespaces/default/pods/web/log');
    expect(res.status).toBe(204);
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toBe('');
    // client-node's generated call cannot parse a body without a Content-Type: it fails against a
    // real server the same way.
    await expect(core.readNamespacedPodLog({ name: 'web', namespace: 'default' })).rejects.toThrow('Cannot parse content. No Content-Type defined.');
  });

  it('needs a container name when the pod has several, listing init containers too', async () => {
    await expectStatus(core.readNamespacedPodLog({ name: 'multi', namespace: 'default' }), {
      code: 400,
      reason: 'BadRequest',
      message: 'a container name must be specified for pod multi, choose one of: [setup app sidecar]',
    });
    expect((await raw('/api/v1/namespaces/default/pods/multi/log?container=setup')).status).toBe(204);
  });

  it('refuses a container the pod does not have, and a pod that does not exist', async () => {
    await expectStatus(core.readNamespacedPodLog({ name: 'web', namespace: 'default', container: 'nope' }), { code: 400, reason: 'BadRequest', message: 'container nope is not valid for pod web' });
    await expectStatus(core.readNamespacedPodLog({ name: 'ghost', namespace: 'default' }), { code: 404, reason: 'NotFound', message: 'pods "ghost" not found' });
  });

  it('looks up the node of a scheduled pod first', async () => {
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'bound' }, spec: { nodeName: 'node-a', containers: [{ name: 'app', image: 'nginx' }] } } });
    await expectStatus(core.readNamespacedPodLog({ name: 'bound', namespace: 'default' }), { code: 404, reason: 'NotFound', message: 'nodes "node-a" not found' });
  });

  it('is installed for GET only', async () => {
    expect((await raw('/api/v1/namespaces/default/pods/web/log', { method: 'POST' })).status).toBe(405);
  });
});

describe('exec, attach and portforward', () => {
  it('are 400 "does not have a host assigned" for an unscheduled pod, exec and attach after checking the container', async () => {
    const noHost = { code: 400, reason: 'BadRequest', message: 'pod web does not have a host assigned' };
    await expectStatus(core.connectGetNamespacedPodExec({ name: 'web', namespace: 'default', command: 'ls', stdout: true }), noHost);
    await expectStatus(core.connectPostNamespacedPodAttach({ name: 'web', namespace: 'default', stdout: true }), noHost);
    await expectStatus(core.connectGetNamespacedPodPortforward({ name: 'web', namespace: 'default', ports: 8080 }), noHost);
    await expectStatus(core.connectGetNamespacedPodExec({ name: 'multi', namespace: 'default', command: 'ls' }), {
      code: 400,
      message: 'a container name must be specified for pod multi, choose one of: [setup app sidecar]',
    });
    // portforward names no container, so a pod with several still only lacks a host.
    await expectStatus(core.connectPostNamespacedPodPortforward({ name: 'multi', namespace: 'default', ports: 80 }), { code: 400, message: 'pod multi does not have a host assigned' });
  });
});

describe('proxy', () => {
  it('refuses a pod without an address, and answers 503 for one whose address nothing serves', async () => {
    await expectStatus(core.connectGetNamespacedPodProxy({ name: 'web', namespace: 'default' }), { code: 400, reason: 'BadRequest', message: 'address not allowed' });
    const pod = await core.readNamespacedPod({ name: 'web', namespace: 'default' });
    await core.replaceNamespacedPodStatus({ name: 'web', namespace: 'default', body: { ...pod, status: { ...pod.status, podIP: '10.244.0.7', podIPs: [{ ip: '10.244.0.7' }] } } });
    await expectStatus(core.connectGetNamespacedPodProxyWithPath({ name: 'web', namespace: 'default', path: 'healthz' }), {
      code: 503,
      reason: 'ServiceUnavailable',
      message: 'error trying to reach service: dial tcp 10.244.0.7:8080: connect: connection refused',
    });
    const withPort = await raw('/api/v1/namespaces/default/pods/web:9090/proxy/');
    expect(withPort.status).toBe(503);
    expect(((await withPort.json()) as { message: string }).message).toBe('error trying to reach service: dial tcp 10.244.0.7:9090: connect: connection refused');
  });
});

describe.skipIf(!kubectlAvailable)('through kubectl', () => {
  let kubectl: ReturnType<typeof kubectlRunner>;
  beforeAll(async () => {
    kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
  });

  it('kubectl logs prints nothing and succeeds; kubectl exec reports the missing host', async () => {
    const logs = await kubectl(['logs', 'multi', '-c', 'app']);
    expect(logs).toEqual({ code: 0, stdout: '', stderr: '' });
    const exec = await kubectl(['exec', 'multi', '-c', 'app', '--', 'ls']);
    expect(exec.code).toBe(1);
    expect(exec.stderr.trim()).toBe('Error from server (BadRequest): pod multi does not have a host assigned');
  });
});
