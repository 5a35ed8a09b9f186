// pods/exec and pods/attach of the kubelet stand-in through client-node's Exec and Attach on
// cluster.kubeConfig, in process: no listen(), on both transports (their WebSocket goes over an
// in-memory connection). The programmed output and exit status, the container's output as it is
// written, the kubelet's refusals, authorization, and a closed cluster; kubectl attach too.
import { PassThrough } from 'node:stream';
import * as k8s from '@kubernetes/client-node';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlEnv } from './support/kubectl.ts';

let cluster: FakeCluster;
/** Waits for what a stream delivers asynchronously (generous: the suite shares a loaded machine). */
const eventually = (assertion: () => void) => vi.waitFor(assertion, { timeout: 10_000 });
afterEach(() => cluster?.close());

const podBody = (name: string): k8s.V1Pod => ({ metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx' }] } });

/** Runs `command` through client-node's Exec; answers what it printed and the status it reported. */
async function exec(kc: k8s.KubeConfig, pod: string, command: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const status = await new Promise<k8s.V1Status>((resolve, reject) => {
    new k8s.Exec(kc).exec('default', pod, 'app', command, stdout, stderr, null, false, resolve).catch(reject);
  });
  return { stdout: out, stderr: err, status };
}

describe('exec through cluster.kubeConfig, without listen()', () => {
  it('answers the programmed output with Success, and a non-zero exit code as Failure', async () => {
    cluster = await createFakeCluster({ deterministic: true, workloads: true });
    cluster.kubelet.on({ name: 'shell' }, { exec: (command) => (command[0] === 'false' ? { stderr: 'no luck\n', exitCode: 3 } : { stdout: `ran ${command.join(' ')}\n` }) });
    await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespacedPod({ namespace: 'default', body: podBody('shell') });
    await cluster.settle();
    expect(await exec(cluster.kubeConfig, 'shell', ['echo', 'hi'])).toEqual({ stdout: 'ran echo hi\n', stderr: '', status: { metadata: {}, status: 'Success' } });
    expect(await exec(cluster.kubeConfig, 'shell', ['false'])).toEqual({
      stdout: '',
      stderr: 'no luck\n',
      status: {
        metadata: {},
        status: 'Failure',
        message: 'command terminated with non-zero exit code: error executing command [false], exit code 3',
        reason: 'NonZeroExitCode',
        details: { causes: [{ reason: 'ExitCode', message: '3' }] },
      },
    });
    // The upgrade went through the handler like any request.
    expect(cluster.requests.all({ resource: 'pods', subresource: 'exec' }).map((r) => r.name)).toEqual(['shell', 'shell']);
    // Output past 125 and 65,535 bytes goes in frames with the 16-bit and 64-bit length forms.
    const medium = 'm'.repeat(300);
    const large = 'l'.repeat(70_000);
    cluster.kubelet.on({ name: 'shell' }, { exec: (command) => ({ stdout: command[0] === 'medium' ? medium : large }) });
    expect((await exec(cluster.kubeConfig, 'shell', ['medium'])).stdout).toBe(medium);
    expect((await exec(cluster.kubeConfig, 'shell', ['large'])).stdout).toBe(large);
  });

  it('is refused as the kubelet refuses it: a container not running, a pod on no node, a pod that is not there', async () => {
    cluster = await createFakeCluster({ deterministic: true, workloads: true });
    cluster.kubelet.on({ name: 'late' }, { startAfter: 60_000 });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedPod({ namespace: 'default', body: podBody('late') });
    await core.createNamespacedPod({ namespace: 'default', body: { ...podBody('gated'), spec: { ...podBody('gated').spec!, schedulingGates: [{ name: 'example.com/wait' }] } } });
    await cluster.settle();
    // The handshake is answered with the refusal's status instead of 101 (ws: "Unexpected server response").
    await expect(exec(cluster.kubeConfig, 'late', ['ls'])).rejects.toMatchObject({ message: 'Unexpected server response: 400' });
    await expect(exec(cluster.kubeConfig, 'gated', ['ls'])).rejects.toMatchObject({ message: 'Unexpected server response: 400' });
    await expect(exec(cluster.kubeConfig, 'absent', ['ls'])).rejects.toMatchObject({ message: 'Unexpected server response: 404' });
    const refusals = cluster.requests.all({ resource: 'pods', subresource: 'exec' });
    expect(refusals.map((r) => r.status)).toEqual([400, 400, 404]);
    expect(await refusals[0]!.responseBody()).toMatchObject({ message: 'container not found ("app")' });
    expect(await refusals[1]!.responseBody()).toMatchObject({ message: 'pod gated does not have a host assigned' });
    expect(await refusals[2]!.responseBody()).toMatchObject({ message: 'pods "absent" not found' });
  });

  it('is authorized as any request: an identity without pods/exec is forbidden', async () => {
    cluster = await createFakeCluster({ deterministic: true, workloads: true, auth: true });
    await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespacedPod({ namespace: 'default', body: podBody('shell') });
    await cluster.settle();
    expect((await exec(cluster.kubeConfig, 'shell', ['ls'])).status.status).toBe('Success');
    await expect(exec(cluster.kubeConfigFor({ user: 'jane' }), 'shell', ['ls'])).rejects.toMatchObject({ message: 'Unexpected server response: 403' });
    expect(await cluster.requests.last({ resource: 'pods', subresource: 'exec' })!.responseBody()).toMatchObject({ reason: 'Forbidden' });
  });

  it('fails as for an unknown host once the cluster is closed', async () => {
    cluster = await createFakeCluster({ deterministic: true, workloads: true });
    const kc = cluster.kubeConfig;
    await cluster.close();
    await expect(exec(kc, 'shell', ['ls'])).rejects.toMatchObject({ message: expect.stringMatching(/^getaddrinfo ENOTFOUND c.*\.kubefake\.local$/) });
  });
});

describe('attach through cluster.kubeConfig, without listen()', () => {
  it('streams what the container prints from then on and ends when it stops', async () => {
    cluster = await createFakeCluster({ deterministic: true, workloads: true });
    cluster.kubelet.on({ name: 'web' }, { runFor: 30_000, logs: [{ after: 0, text: 'before\n' }, { after: 10_000, text: 'tick\n' }] });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedPod({ namespace: 'default', body: { ...podBody('web'), spec: { ...podBody('web').spec!, restartPolicy: 'Never' } } });
    await core.createNamespacedPod({ namespace: 'default', body: { ...podBody('gated'), spec: { ...podBody('gated').spec!, schedulingGates: [{ name: 'example.com/wait' }] } } });
    await cluster.settle();
    const stdout = new PassThrough();
    let out = '';
    let ended = false;
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    stdout.on('end', () => (ended = true));
    await new k8s.Attach(cluster.kubeConfig).attach('default', 'web', 'app', stdout, null, null, false);
    cluster.kubelet.log({ name: 'web' }, 'hello\n');
    await eventually(() => expect(out).toBe('hello\n'));
    cluster.clock.advance(10_000);
    await cluster.settle();
    await eventually(() => expect(out).toBe('hello\ntick\n'));
    expect(ended).toBe(false);
    // The container exits at 30 s: the error channel says Success and client-node ends stdout.
    cluster.clock.advance(20_000);
    await cluster.settle();
    await eventually(() => expect(ended).toBe(true));
    expect(out).toBe('hello\ntick\n');
    // A container that is not running, a pod on no node: refused before the handshake.
    await expect(new k8s.Attach(cluster.kubeConfig).attach('default', 'web', 'app', new PassThrough(), null, null, false)).rejects.toMatchObject({ message: 'Unexpected server response: 400' });
    await expect(new k8s.Attach(cluster.kubeConfig).attach('default', 'gated', 'app', new PassThrough(), null, null, false)).rejects.toMatchObject({ message: 'Unexpected server response: 400' });
    const refusals = cluster.requests.all({ resource: 'pods', subresource: 'attach' }).slice(1);
    expect(await Promise.all(refusals.map(async (r) => ((await r.responseBody()) as { message: string }).message))).toEqual(['container not found ("app")', 'pod gated does not have a host assigned']);
  });
});

describe.skipIf(!kubectlAvailable)('kubectl attach against the kubelet stand-in', () => {
  it('prints the output as it is written and exits when the container stops', async () => {
    cluster = await createFakeCluster({ deterministic: true, workloads: true });
    cluster.kubelet.on({ name: 'web' }, { runFor: 30_000 });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedPod({ namespace: 'default', body: { ...podBody('web'), spec: { ...podBody('web').spec!, restartPolicy: 'Never' } } });
    await cluster.settle();
    const { kubeconfig } = await cluster.listen();
    const child = spawn('kubectl', ['attach', 'web'], { env: kubectlEnv(kubeconfig) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // kubectl reads the pod first, then upgrades: append until the attached stream has a line.
    await vi.waitFor(
      () => {
        expect(cluster.requests.all({ resource: 'pods', subresource: 'attach' })).toHaveLength(1);
      },
      { timeout: 20_000 },
    );
    cluster.kubelet.log({ name: 'web' }, 'hello\n');
    await vi.waitFor(() => expect(stdout).toBe('hello\n'), { timeout: 10_000 });
    cluster.clock.advance(30_000);
    await cluster.settle();
    expect(await exited).toBe(0);
    // What kubectl attach prints against any cluster.
    expect(stderr).toBe("If you don't see a command prompt, try pressing enter.\n");
  }, 60_000);
});
