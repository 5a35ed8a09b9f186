// pods/log of the kubelet stand-in, through @kubernetes/client-node and kubectl: lines written over
// time on the cluster clock or appended by the test, the PodLogOptions the kubelet honours
// (timestamps, sinceSeconds/sinceTime, tailLines, limitBytes, previous) and their validation,
// and `follow`, which streams what the container logs until it stops, the pod goes or the
// cluster closes.
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import * as k8s from '@kubernetes/client-node';
import { fetch } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { kubectlAvailable, kubectlEnv } from './support/kubectl.ts';
import { rawRequest } from './support/raw-http.ts';

let cluster: FakeCluster;
/** Waits for what a stream delivers asynchronously (generous: the suite shares a loaded machine). */
const eventually = (assertion: () => void) => vi.waitFor(assertion, { timeout: 10_000 });
afterEach(() => cluster?.close());

async function start(): Promise<k8s.CoreV1Api> {
  cluster = await createFakeCluster({ deterministic: true, workloads: true });
  return cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
}

const podBody = (name: string, spec: Partial<k8s.V1PodSpec> = {}): k8s.V1Pod => ({
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
});

async function runPod(core: k8s.CoreV1Api, name: string, spec: Partial<k8s.V1PodSpec> = {}): Promise<void> {
  await core.createNamespacedPod({ namespace: 'default', body: podBody(name, spec) });
  await cluster.settle();
}

const advance = async (ms: number) => {
  cluster.clock.advance(ms);
  await cluster.settle();
};

/** A follow reader through client-node's Log: what it received so far, and whether the stream ended. */
async function follow(name: string, options: k8s.LogOptions = {}) {
  const out = new PassThrough();
  let text = '';
  let ended = false;
  out.on('data', (d: Buffer) => (text += d.toString()));
  out.on('end', () => (ended = true));
  const controller = await new k8s.Log(cluster.kubeConfig).log('default', name, 'app', out, { follow: true, ...options });
  return { text: () => text, ended: () => ended, controller };
}

const read = (core: k8s.CoreV1Api, name: string, options: Partial<k8s.CoreV1ApiReadNamespacedPodLogRequest> = {}) =>
  core.readNamespacedPodLog({ name, namespace: 'default', ...options });

describe('pods/log of the kubelet stand-in', () => {
  it('writes timed lines as the clock reaches them, and appended lines at the clock time', async () => {
    const core = await start();
    cluster.kubelet.on({ name: 'web' }, { logs: [{ after: 0, text: 'starting\n' }, { after: 5000, text: 'ready\nserving\n' }] });
    await runPod(core, 'web');
    expect(await read(core, 'web')).toBe('starting\n');
    await advance(5000);
    expect(await read(core, 'web')).toBe('starting\nready\nserving\n');
    await advance(2500);
    cluster.kubelet.log({ name: 'web' }, 'GET /\n');
    expect(await read(core, 'web', { timestamps: true })).toBe(
      '2025-01-01T00:00:00.000000000Z starting\n2025-01-01T00:00:05.000000000Z ready\n2025-01-01T00:00:05.000000000Z serving\n2025-01-01T00:00:07.500000000Z GET /\n',
    );
  });

  it('reads each container’s own log: a function of the container, and lines appended to one container', async () => {
    const core = await start();
    cluster.kubelet.on({ name: 'duo' }, { logs: (container) => [{ after: 1000, text: `${container} up\n` }] });
    await runPod(core, 'duo', { containers: [{ name: 'app', image: 'nginx' }, { name: 'sidecar', image: 'envoy' }] });
    await advance(1000);
    cluster.kubelet.log({ name: 'duo' }, 'to sidecar\n', { container: 'sidecar' });
    expect(await read(core, 'duo', { container: 'app' })).toBe('app up\n');
    expect(await read(core, 'duo', { container: 'sidecar' })).toBe('sidecar up\nto sidecar\n');
    expect(() => cluster.kubelet.log({ name: 'duo' }, 'x\n', { container: 'nope' })).toThrow('kubefake: cluster.kubelet.log(): no running container matches {"name":"duo","container":"nope"}');
    // Several containers and none named: the apiserver's refusal, before the kubelet.
    await expectStatus(read(core, 'duo'), { code: 400, reason: 'BadRequest', message: 'a container name must be specified for pod duo, choose one of: [app sidecar]' });
  });

  it('cuts by tailLines, sinceSeconds and limitBytes as the kubelet reads the file', async () => {
    const core = await start();
    cluster.kubelet.on({ name: 'web' }, { logs: [{ after: 0, text: 'one\n' }, { after: 10_000, text: 'two\n' }, { after: 20_000, text: 'three\n' }] });
    await runPod(core, 'web');
    await advance(30_000);
    expect(await read(core, 'web', { tailLines: 2 })).toBe('two\nthree\n');
    expect(await read(core, 'web', { tailLines: 0 })).toBe('');
    // Lines older than now - sinceSeconds are skipped.
    expect(await read(core, 'web', { sinceSeconds: 15 })).toBe('three\n');
    expect(await read(core, 'web', { sinceSeconds: 20 })).toBe('two\nthree\n');
    // tailLines picks the lines first, sinceSeconds then skips the old ones among them.
    expect(await read(core, 'web', { tailLines: 2, sinceSeconds: 15 })).toBe('three\n');
    // limitBytes counts the timestamps too and cuts within a line.
    expect(await read(core, 'web', { limitBytes: 6 })).toBe('one\ntw');
    expect(await read(core, 'web', { limitBytes: 33, timestamps: true })).toBe('2025-01-01T00:00:00.000000000Z on');
  });

  it('reads sinceTime: lines at or after it', async () => {
    await start();
    cluster.kubelet.on({ name: 'web' }, { logs: [{ after: 0, text: 'one\n' }, { after: 10_000, text: 'two\n' }] });
    await runPod(cluster.kubeConfig.makeApiClient(k8s.CoreV1Api), 'web');
    await advance(10_000);
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => (text += d.toString()));
    const ended = new Promise((resolve) => out.on('end', resolve));
    await new k8s.Log(cluster.kubeConfig).log('default', 'web', 'app', out, { sinceTime: '2025-01-01T00:00:10Z' });
    await ended;
    expect(text).toBe('two\n');
  });

  it('serves the previous run of a restarted container, and the kubelet’s error when there is none', async () => {
    const core = await start();
    // Each run logs its start; the container exits after 10 s and is restarted at once, then after 10 s of back-off.
    cluster.kubelet.on({ name: 'crashy' }, { crashLoop: true, runFor: 10_000, logs: [{ after: 0, text: 'boot\n' }, { after: 9000, text: 'dying\n' }] });
    await runPod(core, 'crashy');
    await expectStatus(read(core, 'crashy', { previous: true }), { code: 400, reason: 'BadRequest', message: 'previous terminated container "app" in pod "crashy" not found' });
    await advance(12_000);
    // Running its second run: the current log is that run's, the previous the first run's.
    expect(await read(core, 'crashy', { timestamps: true })).toBe('2025-01-01T00:00:10.000000000Z boot\n');
    expect(await read(core, 'crashy', { previous: true, timestamps: true })).toBe('2025-01-01T00:00:00.000000000Z boot\n2025-01-01T00:00:09.000000000Z dying\n');
    // Waiting out the back-off after the second exit: both read the run that just ended.
    await advance(10_000);
    const container = (await core.readNamespacedPod({ name: 'crashy', namespace: 'default' })).status!.containerStatuses![0]!;
    expect(container.state?.waiting?.reason).toBe('CrashLoopBackOff');
    expect(await read(core, 'crashy', { timestamps: true })).toBe('2025-01-01T00:00:10.000000000Z boot\n2025-01-01T00:00:19.000000000Z dying\n');
    expect(await read(core, 'crashy', { previous: true, tailLines: 1 })).toBe('dying\n');
    // A pod that ran to completion once has no previous run.
    cluster.kubelet.on({ name: 'job' }, { logs: 'done\n' });
    await runPod(core, 'job', { restartPolicy: 'Never' });
    expect(await read(core, 'job')).toBe('done\n');
    await expectStatus(read(core, 'job', { previous: true }), { code: 400, reason: 'BadRequest', message: 'previous terminated container "app" in pod "job" not found' });
  });

  it('refuses invalid PodLogOptions before looking the pod up (422), and undecodable ones (400)', async () => {
    const core = await start();
    await expectStatus(read(core, 'nowhere', { tailLines: -1 }), {
      code: 422,
      reason: 'Invalid',
      message: 'PodLogOptions "nowhere" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
    });
    await expectStatus(read(core, 'nowhere', { sinceSeconds: -5, limitBytes: -1 }), {
      code: 422,
      reason: 'Invalid',
      message: 'PodLogOptions "nowhere" is invalid: [limitBytes: Invalid value: -1: must be greater than 0, sinceSeconds: Invalid value: -5: must be greater than 0]',
    });
    // Selecting stdout or stderr needs the PodLogsQuerySplitStreams gate, alpha and off in v1.36.
    await expectStatus(read(core, 'nowhere', { stream: 'Stdout' }), {
      code: 422,
      reason: 'Invalid',
      message: 'PodLogOptions "nowhere" is invalid: stream: Forbidden: may not be specified',
    });
    await expectStatus(read(core, 'nowhere'), { code: 404, reason: 'NotFound', message: 'pods "nowhere" not found' });
    const { url } = await cluster.listen();
    const port = Number(new URL(url).port);
    const both = await rawRequest({ port }, 'GET', '/api/v1/namespaces/default/pods/nowhere/log?sinceSeconds=5&sinceTime=2025-01-01T00:00:00Z');
    expect(both.status).toBe(422);
    expect(JSON.parse(both.body).message).toBe('PodLogOptions "nowhere" is invalid: : Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified');
    const notANumber = await rawRequest({ port }, 'GET', '/api/v1/namespaces/default/pods/nowhere/log?tailLines=ten');
    expect(notANumber.status).toBe(400);
    expect(JSON.parse(notANumber.body).message).toBe('strconv.ParseInt: parsing "ten": invalid syntax');
    const badTime = await rawRequest({ port }, 'GET', '/api/v1/namespaces/default/pods/nowhere/log?sinceTime=yesterday');
    expect(badTime.status).toBe(400);
    expect(JSON.parse(badTime.body).message).toBe('parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"');
  });
});

describe('pods/log with follow', () => {
  it('streams lines as the container writes them and ends when it exits', async () => {
    const core = await start();
    cluster.kubelet.on({ name: 'web' }, { runFor: 60_000, logs: [{ after: 0, text: 'starting\n' }, { after: 5000, text: 'ready\n' }, { after: 90_000, text: 'never\n' }] });
    await runPod(core, 'web', { restartPolicy: 'Never' });
    const reader = await follow('web');
    await eventually(() => expect(reader.text()).toBe('starting\n'));
    await advance(5000);
    await eventually(() => expect(reader.text()).toBe('starting\nready\n'));
    cluster.kubelet.log({ name: 'web' }, 'GET /healthz\n');
    await eventually(() => expect(reader.text()).toBe('starting\nready\nGET /healthz\n'));
    expect(reader.ended()).toBe(false);
    // The container exits at 60 s: the stream ends with it.
    await advance(60_000);
    await eventually(() => expect(reader.ended()).toBe(true));
    expect(reader.text()).toBe('starting\nready\nGET /healthz\n');
    expect((await core.readNamespacedPod({ name: 'web', namespace: 'default' })).status?.phase).toBe('Succeeded');
    // The request log keeps a followed log as it keeps a watch: its headers, not a copy of the stream.
    const followed = cluster.requests.last({ resource: 'pods', subresource: 'log' })!;
    expect(followed.status).toBe(200);
    expect(await followed.responseBody()).toBeUndefined();
    // A line due after the container exited was never written.
    await advance(40_000);
    expect(await read(core, 'web')).toBe('starting\nready\nGET /healthz\n');
    expect(await cluster.requests.last({ resource: 'pods', subresource: 'log' })!.responseBody()).toBe('starting\nready\nGET /healthz\n');
  });

  it('starts from tailLines, keeps to sinceSeconds and timestamps, and stops at limitBytes', async () => {
    const core = await start();
    cluster.kubelet.on({ name: 'web' }, { logs: 'a\nb\nc\n' });
    await runPod(core, 'web');
    const tail = await follow('web', { tailLines: 1, timestamps: true });
    await eventually(() => expect(tail.text()).toBe('2025-01-01T00:00:00.000000000Z c\n'));
    const limited = await follow('web', { limitBytes: 8 });
    await eventually(() => expect(limited.text()).toBe('a\nb\nc\n'));
    await advance(1000);
    cluster.kubelet.log({ name: 'web' }, 'd\ne\n');
    await eventually(() => expect(tail.text()).toBe('2025-01-01T00:00:00.000000000Z c\n2025-01-01T00:00:01.000000000Z d\n2025-01-01T00:00:01.000000000Z e\n'));
    // The byte limit is spent within the appended lines: that stream ends there.
    await eventually(() => expect(limited.ended()).toBe(true));
    expect(limited.text()).toBe('a\nb\nc\nd\n');
    expect(tail.ended()).toBe(false);
  });

  it('ends when the pod is deleted, and when the cluster closes', async () => {
    const core = await start();
    cluster.kubelet.on({}, { logs: 'up\n', stopAfter: 0 });
    await runPod(core, 'doomed');
    await runPod(core, 'survivor');
    const doomed = await follow('doomed');
    const survivor = await follow('survivor');
    await eventually(() => expect([doomed.text(), survivor.text()]).toEqual(['up\n', 'up\n']));
    await core.deleteNamespacedPod({ name: 'doomed', namespace: 'default' });
    await cluster.settle();
    await eventually(() => expect(doomed.ended()).toBe(true));
    expect(survivor.ended()).toBe(false);
    await cluster.close();
    await eventually(() => expect(survivor.ended()).toBe(true));
  });

  it('reads a container that has stopped to the end and ends; a reader that leaves is let go', async () => {
    const core = await start();
    cluster.kubelet.on({ name: 'job' }, { logs: 'done\n' });
    await runPod(core, 'job', { restartPolicy: 'Never' });
    const finished = await follow('job');
    await eventually(() => expect(finished.ended()).toBe(true));
    expect(finished.text()).toBe('done\n');
    cluster.kubelet.on({ name: 'web' }, { logs: 'up\n' });
    await runPod(core, 'web');
    // client-node's fetch, as Log makes it, but reading the stream by hand to cancel it.
    const request = new k8s.RequestContext(`${cluster.url}/api/v1/namespaces/default/pods/web/log?follow=true`, k8s.HttpMethod.GET);
    await cluster.kubeConfig.applySecurityAuthentication(request);
    const response = await fetch(request.getUrl(), { headers: request.getHeaders(), dispatcher: request.getDispatcher() });
    expect(response.headers.get('content-type')).toBe('text/plain');
    const body = response.body!.getReader();
    expect(new TextDecoder().decode((await body.read()).value)).toBe('up\n');
    await body.cancel();
    // Appending after the reader left writes to the log without it (writing to its stream would throw).
    cluster.kubelet.log({ name: 'web' }, 'later\n');
    expect(await read(core, 'web')).toBe('up\nlater\n');
    expect(() => cluster.kubelet.log({ name: 'nobody' }, 'x\n')).toThrow('kubefake: cluster.kubelet.log(): no running container matches {"name":"nobody"}');
  });
});

describe.skipIf(!kubectlAvailable)('kubectl logs -f against the kubelet stand-in', () => {
  it('prints lines as they are written and exits when the container does', async () => {
    const core = await start();
    cluster.kubelet.on({ name: 'web' }, { runFor: 30_000, logs: [{ after: 0, text: 'starting\n' }, { after: 10_000, text: 'ready\n' }] });
    await runPod(core, 'web', { restartPolicy: 'Never' });
    const { kubeconfig } = await cluster.listen();
    const child = spawn('kubectl', ['logs', '-f', 'web', '--timestamps'], { env: kubectlEnv(kubeconfig) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await vi.waitFor(() => expect(stdout).toBe('2025-01-01T00:00:00.000000000Z starting\n'), { timeout: 20_000 });
    await advance(10_000);
    await vi.waitFor(() => expect(stdout).toBe('2025-01-01T00:00:00.000000000Z starting\n2025-01-01T00:00:10.000000000Z ready\n'), { timeout: 10_000 });
    await advance(20_000);
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  }, 60_000);
});
