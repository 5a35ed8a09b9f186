// pods/resize as kube-apiserver v1.36 serves it (podResizeStrategy and ValidatePodResize): listed in
// discovery, get/patch/update through client-node; only containers' cpu and memory requests and
// limits (and resize policies) change, everything else of the request is dropped, the QoS class may
// not change, and requests, limits and (without a restart policy) memory limits may not shrink away.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterAll(() => cluster.close());

const ns = 'default';
const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const strategic = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch);
const burstable = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } };
const createPod = (name: string, resources: k8s.V1ResourceRequirements = burstable, extra: Partial<k8s.V1Container> = {}) =>
  core.createNamespacedPod({ namespace: ns, body: { metadata: { name, labels: { app: 'a' } }, spec: { containers: [{ name: 'app', image: 'nginx', resources, ...extra }] } } });
const resize = (name: string, container: Record<string, unknown>) =>
  core.patchNamespacedPodResize({ name, namespace: ns, body: { spec: { containers: [{ name: 'app', ...container }] } } }, strategic);

describe('pods/resize', () => {
  it('changes cpu and memory and nothing else; the generation moves', async () => {
    const created = await createPod('grow');
    const resized = await resize('grow', { image: 'ignored:2', resources: { requests: { cpu: '200m', memory: '64Mi' }, limits: { cpu: '1', memory: '256Mi' } } });
    expect(resized.spec!.containers[0]!.resources).toEqual({ requests: { cpu: '200m', memory: '64Mi' }, limits: { cpu: '1', memory: '256Mi' } });
    expect(resized.spec!.containers[0]!.image).toBe('nginx');
    expect(resized.metadata!.generation).toBe(created.metadata!.generation! + 1);
    const read = await core.readNamespacedPodResize({ name: 'grow', namespace: ns });
    expect(read.spec!.containers[0]!.resources!.limits).toEqual({ cpu: '1', memory: '256Mi' });
  });

  it('ignores labels and other metadata sent to the subresource', async () => {
    await createPod('meta');
    const resized = await core.patchNamespacedPodResize(
      { name: 'meta', namespace: ns, body: { metadata: { labels: { app: 'b' } }, spec: { containers: [{ name: 'app', resources: { ...burstable, limits: { cpu: '600m', memory: '128Mi' } } }] } } },
      merge,
    );
    expect(resized.metadata!.labels).toEqual({ app: 'a' });
  });

  it('refuses a resize that changes the QoS class', async () => {
    await createPod('qos');
    await expectStatus(resize('qos', { resources: { requests: { cpu: '500m', memory: '128Mi' }, limits: { cpu: '500m', memory: '128Mi' } } }), {
      code: 422,
      message: 'Pod "qos" is invalid: spec: Invalid value: "Burstable": Pod QOS Class may not change as a result of resizing',
    });
  });

  it('refuses removing limits, and lowering a memory limit without RestartContainer', async () => {
    await createPod('shrink');
    // (A removed request comes back from its limit: SetDefaults_Pod copies limits into missing requests.)
    await expectStatus(
      core.replaceNamespacedPodResize({
        name: 'shrink',
        namespace: ns,
        body: { metadata: { name: 'shrink' }, spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '500m' } } }] } },
      }),
      { code: 422, message: 'Pod "shrink" is invalid: spec.containers[0].resources.limits: Forbidden: resource limits cannot be removed' },
    );
    await expectStatus(resize('shrink', { resources: { ...burstable, limits: { cpu: '500m', memory: '100Mi' } } }), {
      code: 422,
      message: 'Pod "shrink" is invalid: spec.containers[0].resources.limits[memory]: Forbidden: memory limits cannot be decreased unless resizePolicy is RestartContainer',
    });
    const restarting = await createPod('restarting', burstable, { resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] });
    expect(restarting.spec!.containers[0]!.resizePolicy).toEqual([{ resourceName: 'memory', restartPolicy: 'RestartContainer' }]);
    const lowered = await resize('restarting', { resources: { ...burstable, limits: { cpu: '500m', memory: '100Mi' } } });
    expect(lowered.spec!.containers[0]!.resources!.limits!.memory).toBe('100Mi');
  });

  it('refuses other resources than cpu and memory', async () => {
    await createPod('storage', { requests: { cpu: '100m', 'ephemeral-storage': '1Gi' }, limits: { cpu: '500m' } });
    await expectStatus(resize('storage', { resources: { requests: { cpu: '100m', 'ephemeral-storage': '2Gi' }, limits: { cpu: '500m' } } }), {
      code: 422,
      message: 'Pod "storage" is invalid: spec: Forbidden: only cpu and memory resources are mutable',
    });
  });
});

describe('PodResizeValidator (a pod on a node)', () => {
  const onNode = (name: string, nodeName: string) =>
    core.createNamespacedPod({ namespace: ns, body: { metadata: { name }, spec: { nodeName, containers: [{ name: 'app', image: 'nginx', resources: burstable }] } } });
  const node = (name: string, labels: Record<string, string>, allocatable: Record<string, string>) =>
    cluster.apply({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels } }).then(() => core.patchNodeStatus({ name, body: { status: { allocatable } } }, merge));
  const bigger = { resources: { requests: { cpu: '300m', memory: '64Mi' }, limits: { cpu: '1', memory: '128Mi' } } };

  it('refuses a resize on a node that does not exist, or whose allocatable the requests exceed (cause NodeCapacity)', async () => {
    await onNode('orphan', 'no-such-node');
    await expectStatus(resize('orphan', bigger), { code: 403, reason: 'Forbidden', message: 'pods "orphan" is forbidden: node "no-such-node" not found' });
    await node('small', { 'kubernetes.io/os': 'linux' }, { cpu: '250m', memory: '32Mi' });
    await onNode('tight', 'small');
    const status = await expectStatus(resize('tight', bigger), {
      code: 403,
      reason: 'Forbidden',
      message: "pods \"tight\" is forbidden: Node didn't have enough allocatable resources: cpu, requested: 300, allocatable: 250; memory, requested: 67108864, allocatable: 33554432",
    });
    expect(status.details).toEqual({ name: 'tight', kind: 'pods', causes: [{ reason: 'NodeCapacity' }] });
  });

  it('refuses a resize on a node that is not linux (cause UnsupportedPlatform), and lets one through that fits a linux node', async () => {
    await node('windows', { 'kubernetes.io/os': 'windows' }, { cpu: '4', memory: '8Gi' });
    await onNode('win', 'windows');
    const status = await expectStatus(resize('win', bigger), { code: 403, message: 'pods "win" is forbidden: pod resize is only supported on linux nodes, node "windows" is "windows"' });
    expect(status.details).toMatchObject({ causes: [{ reason: 'UnsupportedPlatform' }] });
    await node('linux', { 'kubernetes.io/os': 'linux' }, { cpu: '4', memory: '8Gi' });
    await onNode('fits', 'linux');
    expect((await resize('fits', bigger)).spec!.containers[0]!.resources!.requests).toEqual({ cpu: '300m', memory: '64Mi' });
  });
});
