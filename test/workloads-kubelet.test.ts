// The opt-in control plane's nodes, scheduler and kubelet stand-in (createFakeCluster({ workloads:
// true })), seen through @kubernetes/client-node on a frozen clock: Ready nodes as a kubelet
// registers them, pods bound and run Pending → Running → Ready, run-to-completion pods, crash
// loops, programmed logs, graceful deletion ending with the grace period, and nothing of it
// without the option.
import * as k8s from '@kubernetes/client-node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';

let cluster: FakeCluster;
afterEach(() => cluster?.close());

async function start(nodes = 1): Promise<k8s.CoreV1Api> {
  cluster = await createFakeCluster({ deterministic: true, workloads: true, nodes });
  return cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
}

const podBody = (name: string, spec: Partial<k8s.V1PodSpec> = {}, labels?: Record<string, string>): k8s.V1Pod => ({
  metadata: { name, labels },
  spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
});

const condition = (pod: k8s.V1Pod, type: string) => pod.status?.conditions?.find((c) => c.type === type);

describe('nodes', () => {
  it('registers the requested number of Ready nodes with what a kubelet reports', async () => {
    const core = await start(3);
    const nodes = await core.listNode();
    expect(nodes.items.map((n) => n.metadata?.name)).toEqual(['kubefake-node-1', 'kubefake-node-2', 'kubefake-node-3']);
    const node = nodes.items[1]!;
    expect(node.metadata?.labels).toMatchObject({ 'kubernetes.io/hostname': 'kubefake-node-2', 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' });
    expect(node.spec?.podCIDR).toBe('10.244.1.0/24');
    expect(node.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
      ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
      ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
      ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
    ]);
    expect(node.status?.allocatable).toMatchObject({ cpu: '8', pods: '110' });
    expect(node.status?.addresses).toEqual([
      { type: 'InternalIP', address: '172.18.0.3' },
      { type: 'Hostname', address: 'kubefake-node-2' },
    ]);
    expect(node.status?.nodeInfo).toMatchObject({ kubeletVersion: 'v1.36.0', operatingSystem: 'linux', architecture: 'amd64', containerRuntimeVersion: 'containerd://2.1.4' });
    // As encoding/json writes NodeStatus: the non-omitempty kubeProxyVersion as "", no empty images list
    // (Python client 22's model refuses a node without kube_proxy_version).
    const raw = (await (await cluster.handle(new Request(`${cluster.url}/api/v1/nodes/kubefake-node-2`))).json()) as { status: Record<string, unknown> & { nodeInfo: Record<string, unknown> } };
    expect(raw.status.nodeInfo.kubeProxyVersion).toBe('');
    expect(raw.status).not.toHaveProperty('images');
    expect(node.status?.daemonEndpoints?.kubeletEndpoint?.Port).toBe(10250);
  });

  it('gives each node its heartbeat Lease in kube-node-lease, owned by the Node (kubectl describe node reads it)', async () => {
    const core = await start(2);
    const leases = await cluster.kubeConfig.makeApiClient(k8s.CoordinationV1Api).listNamespacedLease({ namespace: 'kube-node-lease' });
    expect(leases.items.map((l) => l.metadata?.name)).toEqual(['kubefake-node-1', 'kubefake-node-2']);
    const node = await core.readNode({ name: 'kubefake-node-1' });
    const lease = leases.items[0]!;
    expect(lease.metadata?.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'kubefake-node-1', uid: node.metadata?.uid }]);
    expect(lease.spec).toMatchObject({ holderIdentity: 'kubefake-node-1', leaseDurationSeconds: 40 });
    // A MicroTime, on the cluster clock.
    expect(new Date(String(lease.spec?.renewTime)).toISOString()).toBe(cluster.clock.now().toISOString());
    const raw = (await (await cluster.handle(new Request(`${cluster.url}/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/kubefake-node-1`))).json()) as { spec: { renewTime: string } };
    expect(raw.spec.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('are not there without the option, and pods stay Pending', async () => {
    cluster = await createFakeCluster({ deterministic: true });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    expect((await core.listNode()).items).toEqual([]);
    await core.createNamespacedPod({ namespace: 'default', body: podBody('idle') });
    await cluster.settle();
    const pod = await core.readNamespacedPod({ name: 'idle', namespace: 'default' });
    expect(pod.spec?.nodeName).toBeUndefined();
    expect(pod.status?.phase).toBe('Pending');
    expect(() => cluster.kubelet.on({}, {})).toThrow('kubefake: cluster.kubelet needs createFakeCluster({ workloads: true })');
    await expect(createFakeCluster({ nodes: 2 })).rejects.toThrow('kubefake: nodes needs workloads: true (nodes are registered by the simulated control plane)');
    await expect(createFakeCluster({ workloads: true, nodes: 1.5 })).rejects.toThrow('kubefake: nodes must be a whole number of nodes, got 1.5');
  });
});

describe('scheduler', () => {
  it('binds pods to the node with the fewest pods, honouring nodeSelector and nodeName', async () => {
    const core = await start(2);
    // One at a time: each placement depends on the pods already bound.
    for (const body of [podBody('a'), podBody('b'), podBody('c', { nodeSelector: { 'kubernetes.io/hostname': 'kubefake-node-2' } }), podBody('d', { nodeName: 'kubefake-node-1' })]) {
      await core.createNamespacedPod({ namespace: 'default', body });
      await cluster.settle();
    }
    const nodeOf = async (name: string) => (await core.readNamespacedPod({ name, namespace: 'default' })).spec?.nodeName;
    expect([await nodeOf('a'), await nodeOf('b'), await nodeOf('c'), await nodeOf('d')]).toEqual(['kubefake-node-1', 'kubefake-node-2', 'kubefake-node-2', 'kubefake-node-1']);
    const scheduled = condition(await core.readNamespacedPod({ name: 'a', namespace: 'default' }), 'PodScheduled');
    expect(scheduled).toMatchObject({ status: 'True' });
  });

  it('marks a pod that fits nowhere Unschedulable with the FitError text, and binds it once a node fits', async () => {
    const core = await start(2);
    await core.createNamespacedPod({ namespace: 'default', body: podBody('picky', { nodeSelector: { disk: 'ssd' } }) });
    await core.createNamespacedPod({ namespace: 'default', body: podBody('huge', { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '64' } } }] }) });
    await cluster.settle();
    const picky = await core.readNamespacedPod({ name: 'picky', namespace: 'default' });
    expect(condition(picky, 'PodScheduled')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message: "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    });
    expect(condition(await core.readNamespacedPod({ name: 'huge', namespace: 'default' }), 'PodScheduled')?.message).toBe(
      '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
    );
    await core.patchNode({ name: 'kubefake-node-2', body: { metadata: { labels: { disk: 'ssd' } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await cluster.settle();
    const bound = await core.readNamespacedPod({ name: 'picky', namespace: 'default' });
    expect(bound.spec?.nodeName).toBe('kubefake-node-2');
    expect(condition(bound, 'PodScheduled')?.status).toBe('True');
  });

  it('counts sidecar init containers and pod-level requests against the node, as PodRequests does', async () => {
    const core = await start(1);
    const insufficient = '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.';
    // 5 + a 4-cpu sidecar is 9 of the node's 8; an ordinary 4-cpu init container would fit (max, not sum).
    const cpu = (n: string) => ({ requests: { cpu: n } });
    await core.createNamespacedPod({
      namespace: 'default',
      body: podBody('sidecar', { initContainers: [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always', resources: cpu('4') }], containers: [{ name: 'app', image: 'nginx', resources: cpu('5') }] }),
    });
    await core.createNamespacedPod({ namespace: 'default', body: podBody('pod-level', { resources: cpu('9'), containers: [{ name: 'app', image: 'nginx', resources: cpu('1') }] }) });
    await core.createNamespacedPod({
      namespace: 'default',
      body: podBody('init', { initContainers: [{ name: 'setup', image: 'busybox', resources: cpu('4') }], containers: [{ name: 'app', image: 'nginx', resources: cpu('5') }] }),
    });
    await cluster.settle();
    expect(condition(await core.readNamespacedPod({ name: 'sidecar', namespace: 'default' }), 'PodScheduled')?.message).toBe(insufficient);
    expect(condition(await core.readNamespacedPod({ name: 'pod-level', namespace: 'default' }), 'PodScheduled')?.message).toBe(insufficient);
    expect((await core.readNamespacedPod({ name: 'init', namespace: 'default' })).spec?.nodeName).toBe('kubefake-node-1');
  });

  it('leaves pods that do not tolerate a taint, and says so', async () => {
    const core = await start(1);
    await core.patchNode({ name: 'kubefake-node-1', body: { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await core.createNamespacedPod({ namespace: 'default', body: podBody('plain') });
    await core.createNamespacedPod({ namespace: 'default', body: podBody('tolerant', { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] }) });
    await cluster.settle();
    expect(condition(await core.readNamespacedPod({ name: 'plain', namespace: 'default' }), 'PodScheduled')?.message).toBe(
      '0/1 nodes are available: 1 node(s) had untolerated taint(s). preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    );
    expect((await core.readNamespacedPod({ name: 'tolerant', namespace: 'default' })).spec?.nodeName).toBe('kubefake-node-1');
  });
});

describe('kubelet', () => {
  it('runs a bound pod Pending (ContainerCreating) → Running → Ready on the clock', async () => {
    const core = await start();
    cluster.kubelet.on({ selector: { app: 'web' } }, { startAfter: 2000 });
    // A label map is a set of labels (metav1 matchLabels), not selector text: a comma is no separator.
    expect(() => cluster.kubelet.on({ selector: { app: 'web,tier=db' } }, {})).toThrow(/Invalid value: "web,tier=db"/);
    await core.createNamespacedPod({ namespace: 'default', body: podBody('web', {}, { app: 'web' }) });
    await cluster.settle();
    let pod = await core.readNamespacedPod({ name: 'web', namespace: 'default' });
    expect(pod.status?.phase).toBe('Pending');
    expect(pod.status?.hostIP).toBe('172.18.0.2');
    expect(pod.status?.podIP).toBeUndefined();
    expect(pod.status?.startTime?.toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(pod.status?.containerStatuses?.[0]).toMatchObject({ name: 'app', ready: false, started: false, restartCount: 0, image: 'docker.io/library/nginx:latest', state: { waiting: { reason: 'ContainerCreating' } } });
    expect(condition(pod, 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [app]' });
    expect(condition(pod, 'PodReadyToStartContainers')?.status).toBe('False');

    cluster.clock.advance(2000);
    await cluster.settle();
    pod = await core.readNamespacedPod({ name: 'web', namespace: 'default' });
    expect(pod.status?.phase).toBe('Running');
    expect(pod.status?.podIP).toBe('10.244.0.2');
    expect(pod.status?.podIPs).toEqual([{ ip: '10.244.0.2' }]);
    const container = pod.status!.containerStatuses![0]!;
    expect(container).toMatchObject({ ready: true, started: true, restartCount: 0 });
    expect(container.state?.running?.startedAt?.toISOString()).toBe('2025-01-01T00:00:02.000Z');
    expect(container.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(container.imageID).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    for (const type of ['PodReadyToStartContainers', 'Initialized', 'ContainersReady', 'Ready', 'PodScheduled']) expect(condition(pod, type)?.status, type).toBe('True');
    expect(condition(pod, 'Ready')?.lastTransitionTime?.toISOString()).toBe('2025-01-01T00:00:02.000Z');
  });

  it('keeps a pod programmed never to be ready Running and not Ready', async () => {
    const core = await start();
    cluster.kubelet.on({ name: 'stuck' }, { ready: false });
    await core.createNamespacedPod({ namespace: 'default', body: podBody('stuck') });
    await cluster.settle();
    cluster.clock.advance(3_600_000);
    await cluster.settle();
    const pod = await core.readNamespacedPod({ name: 'stuck', namespace: 'default' });
    expect(pod.status?.phase).toBe('Running');
    expect(condition(pod, 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady' });
  });

  it('becomes ready after the readiness probe initialDelaySeconds', async () => {
    const core = await start();
    await core.createNamespacedPod({ namespace: 'default', body: podBody('probed', { containers: [{ name: 'app', image: 'nginx', readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 5 } }] }) });
    await cluster.settle();
    expect(condition(await core.readNamespacedPod({ name: 'probed', namespace: 'default' }), 'Ready')?.status).toBe('False');
    cluster.clock.advance(5000);
    await cluster.settle();
    expect(condition(await core.readNamespacedPod({ name: 'probed', namespace: 'default' }), 'Ready')?.status).toBe('True');
  });

  it('completes run-to-completion pods: Succeeded on exit code 0, Failed otherwise', async () => {
    const core = await start();
    cluster.kubelet.on({ name: 'fails' }, { exitCode: 3, runFor: 1000 });
    await core.createNamespacedPod({ namespace: 'default', body: podBody('done', { restartPolicy: 'Never' }) });
    await core.createNamespacedPod({ namespace: 'default', body: podBody('fails', { restartPolicy: 'Never' }) });
    await cluster.settle();
    const done = await core.readNamespacedPod({ name: 'done', namespace: 'default' });
    expect(done.status?.phase).toBe('Succeeded');
    expect(done.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(condition(done, 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
    expect((await core.readNamespacedPod({ name: 'fails', namespace: 'default' })).status?.phase).toBe('Running');
    cluster.clock.advance(1000);
    await cluster.settle();
    const failed = await core.readNamespacedPod({ name: 'fails', namespace: 'default' });
    expect(failed.status?.phase).toBe('Failed');
    expect(failed.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
  });

  it('kills a pod still running at its activeDeadlineSeconds: Failed, DeadlineExceeded', async () => {
    const core = await start();
    await core.createNamespacedPod({ namespace: 'default', body: podBody('bounded', { activeDeadlineSeconds: 60 }) });
    await cluster.settle();
    cluster.clock.advance(59_000);
    await cluster.settle();
    expect((await core.readNamespacedPod({ name: 'bounded', namespace: 'default' })).status?.phase).toBe('Running');
    cluster.clock.advance(1000);
    await cluster.settle();
    const pod = await core.readNamespacedPod({ name: 'bounded', namespace: 'default' });
    expect(pod.status).toMatchObject({ phase: 'Failed', reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' });
    expect(pod.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
  });

  it('restarts a crash-looping container with the kubelet back-off', async () => {
    const core = await start();
    cluster.kubelet.on({ name: 'crashy' }, { crashLoop: true, runFor: 1000 });
    await core.createNamespacedPod({ namespace: 'default', body: podBody('crashy') });
    await cluster.settle();
    const read = () => core.readNamespacedPod({ name: 'crashy', namespace: 'default' });
    // Runs for 1 s, exits 1, is restarted at once, exits again after 1 s, then backs off 10 s.
    cluster.clock.advance(2000);
    await cluster.settle();
    let container = (await read()).status!.containerStatuses![0]!;
    expect(container.restartCount).toBe(1);
    expect(container.state?.waiting?.reason).toBe('CrashLoopBackOff');
    expect(container.state?.waiting?.message).toMatch(/^back-off 10s restarting failed container=app pod=crashy_default\(.+\)$/);
    expect(container.lastState?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect((await read()).status?.phase).toBe('Running');
    cluster.clock.advance(10_000);
    await cluster.settle();
    container = (await read()).status!.containerStatuses![0]!;
    expect(container.restartCount).toBe(2);
    expect(container.state?.running).toBeDefined();
  });

  it('serves programmed logs on pods/log, cut by tailLines, and refuses a container still creating', async () => {
    const core = await start();
    cluster.kubelet.on({ name: 'chatty' }, { logs: 'one\ntwo\nthree\n' });
    cluster.kubelet.on({ name: 'late' }, { startAfter: 1000 });
    await core.createNamespacedPod({ namespace: 'default', body: podBody('chatty') });
    await core.createNamespacedPod({ namespace: 'default', body: podBody('late') });
    await cluster.settle();
    expect(await core.readNamespacedPodLog({ name: 'chatty', namespace: 'default' })).toBe('one\ntwo\nthree\n');
    expect(await core.readNamespacedPodLog({ name: 'chatty', namespace: 'default', tailLines: 2 })).toBe('two\nthree\n');
    expect(await core.readNamespacedPodLog({ name: 'chatty', namespace: 'default', tailLines: 1, timestamps: true })).toBe('2025-01-01T00:00:00.000000000Z three\n');
    // A rule added once the pod runs still applies to its logs, read when asked for.
    cluster.kubelet.on({ name: 'chatty' }, { logs: (container) => `from ${container}\n` });
    expect(await core.readNamespacedPodLog({ name: 'chatty', namespace: 'default' })).toBe('from app\n');
    await expectStatus(core.readNamespacedPodLog({ name: 'late', namespace: 'default' }), {
      code: 400,
      reason: 'BadRequest',
      message: 'container "app" in pod "late" is waiting to start: ContainerCreating',
    });
    await expectStatus(core.readNamespacedPodLog({ name: 'chatty', namespace: 'default', previous: true }), {
      code: 400,
      reason: 'BadRequest',
      message: 'previous terminated container "app" in pod "chatty" not found',
    });
  });

  it('ends a graceful deletion when the grace period runs out on the clock', async () => {
    const core = await start();
    cluster.kubelet.on({ name: 'quick' }, { stopAfter: 2000 });
    await core.createNamespacedPod({ namespace: 'default', body: podBody('slow', { terminationGracePeriodSeconds: 30 }) });
    await core.createNamespacedPod({ namespace: 'default', body: podBody('quick') });
    await cluster.settle();
    await core.deleteNamespacedPod({ name: 'slow', namespace: 'default' });
    await core.deleteNamespacedPod({ name: 'quick', namespace: 'default' });
    await cluster.settle();
    const terminating = await core.readNamespacedPod({ name: 'slow', namespace: 'default' });
    expect(terminating.metadata?.deletionTimestamp?.toISOString()).toBe('2025-01-01T00:00:30.000Z');
    cluster.clock.advance(2000);
    await cluster.settle();
    expect((await core.listNamespacedPod({ namespace: 'default' })).items.map((p) => p.metadata?.name)).toEqual(['slow']);
    cluster.clock.advance(28_000);
    await cluster.settle();
    expect((await core.listNamespacedPod({ namespace: 'default' })).items).toEqual([]);
  });

  it('reports a deleted pod terminal before it goes: 143 when it stopped on SIGTERM, 137 when the grace period ran out', async () => {
    const core = await start();
    cluster.kubelet.on({ name: 'quick' }, { stopAfter: 2000 });
    cluster.kubelet.on({ name: 'slow' }, { runFor: 3_600_000 });
    await core.createNamespacedPod({ namespace: 'default', body: podBody('slow', { terminationGracePeriodSeconds: 30, restartPolicy: 'Never' }) });
    await core.createNamespacedPod({ namespace: 'default', body: podBody('quick') });
    await cluster.settle();
    const seen: Array<[string, string, string | undefined, number | undefined, string | undefined]> = [];
    const { resourceVersion } = (await core.listNamespacedPod({ namespace: 'default' })).metadata!;
    const stop = await new k8s.Watch(cluster.kubeConfig).watch('/api/v1/namespaces/default/pods', { resourceVersion }, (type, pod: k8s.V1Pod) => {
      // Watch hands over the decoded JSON: times stay text.
      const terminated = pod.status?.containerStatuses?.[0]?.state?.terminated;
      seen.push([type, pod.metadata!.name!, pod.status?.phase, terminated?.exitCode, terminated?.finishedAt as unknown as string | undefined]);
    }, () => {});
    await core.deleteNamespacedPod({ name: 'slow', namespace: 'default' });
    await core.deleteNamespacedPod({ name: 'quick', namespace: 'default' });
    await cluster.settle();
    cluster.clock.advance(2000);
    await cluster.settle();
    cluster.clock.advance(28_000);
    await cluster.settle();
    await vi.waitFor(() => expect(seen.filter((e) => e[0] === 'DELETED')).toHaveLength(2));
    stop.abort();
    expect(seen).toEqual([
      ['MODIFIED', 'slow', 'Running', undefined, undefined],
      ['MODIFIED', 'quick', 'Running', undefined, undefined],
      // The terminal status, then the deletion confirmed with grace 0, then gone.
      ['MODIFIED', 'quick', 'Failed', 143, '2025-01-01T00:00:02Z'],
      ['MODIFIED', 'quick', 'Failed', 143, '2025-01-01T00:00:02Z'],
      ['DELETED', 'quick', 'Failed', 143, '2025-01-01T00:00:02Z'],
      ['MODIFIED', 'slow', 'Failed', 137, '2025-01-01T00:00:30Z'],
      ['MODIFIED', 'slow', 'Failed', 137, '2025-01-01T00:00:30Z'],
      ['DELETED', 'slow', 'Failed', 137, '2025-01-01T00:00:30Z'],
    ]);
  });

  it('produces the same objects on every run', async () => {
    const run = async () => {
      const core = await start(2);
      for (const name of ['a', 'b', 'c']) await core.createNamespacedPod({ namespace: 'default', body: podBody(name) });
      await cluster.settle();
      const snapshot = cluster.snapshot({ format: 'yaml' });
      await cluster.close();
      return snapshot;
    };
    expect(await run()).toBe(await run());
  });
});

describe.skipIf(!kubectlAvailable)('kubectl against the kubelet stand-in', () => {
  it('exec runs the programmed command over a WebSocket: output, stderr and the exit code', async () => {
    const core = await start();
    cluster.kubelet.on({ name: 'shell' }, { exec: (command) => (command[0] === 'false' ? { stderr: 'no luck\n', exitCode: 3 } : { stdout: `ran ${command.join(' ')}\n` }) });
    await core.createNamespacedPod({ namespace: 'default', body: podBody('shell') });
    await cluster.settle();
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    expect(await kubectl(['exec', 'shell', '--', 'echo', 'hi'])).toEqual({ code: 0, stdout: 'ran echo hi\n', stderr: '' });
    expect(await kubectl(['exec', 'shell', '--', 'false'])).toEqual({ code: 3, stdout: '', stderr: 'no luck\ncommand terminated with exit code 3\n' });
    // Without the WebSocket upgrade, the kubelet's stream handshake refuses the request.
    await expectStatus(core.connectGetNamespacedPodExec({ name: 'shell', namespace: 'default', command: 'ls' }), { code: 400, reason: 'BadRequest', message: 'Upgrade request required' });
  }, 60_000);

  it('logs prints the programmed log; exec into a container not running is refused', async () => {
    const core = await start();
    cluster.kubelet.on({ name: 'web' }, { logs: 'started\nserving\n' });
    cluster.kubelet.on({ name: 'late' }, { startAfter: 60_000 });
    await core.createNamespacedPod({ namespace: 'default', body: podBody('web') });
    await core.createNamespacedPod({ namespace: 'default', body: podBody('late') });
    await cluster.settle();
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    expect(await kubectl(['logs', 'web', '--tail=1'])).toEqual({ code: 0, stdout: 'serving\n', stderr: '' });
    const refused = await kubectl(['exec', 'late', '--', 'ls']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('container not found ("app")');
  }, 60_000);
});
