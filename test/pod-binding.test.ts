// pods/binding as kube-scheduler uses it (BindingREST.Create, setPodNodeNameAndMetadata): the pod
// gets its node, the Binding's annotations and PodScheduled=True; everything else is refused with
// the real texts. Through client-node's createNamespacedPodBinding.
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

const pod = (name: string, spec: Partial<k8s.V1PodSpec> = {}) =>
  core.createNamespacedPod({ namespace: 'default', body: { metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec } } });
const bind = (name: string, target: k8s.V1ObjectReference, metadata: k8s.V1ObjectMeta = { name }) =>
  core.createNamespacedPodBinding({ name, namespace: 'default', body: { metadata, target } });

describe('pods/binding', () => {
  it('puts the pod on the node, with the annotations and PodScheduled=True, and answers 201 Success', async () => {
    const created = await pod('web');
    const res = await fetch(`${cluster.url}/api/v1/namespaces/default/pods/web/binding`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'web', annotations: { 'scheduler.example/by': 'test' } }, target: { kind: 'Node', name: 'node-a' } }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' });
    const bound = await core.readNamespacedPod({ name: 'web', namespace: 'default' });
    expect(bound.spec?.nodeName).toBe('node-a');
    expect(bound.metadata?.annotations).toEqual({ 'scheduler.example/by': 'test' });
    expect(bound.status?.conditions?.find((c) => c.type === 'PodScheduled')).toMatchObject({ status: 'True' });
    // A storage-level write: the resourceVersion moves, the generation does not.
    expect(bound.metadata?.resourceVersion).not.toBe(created.metadata?.resourceVersion);
    expect(bound.metadata?.generation).toBe(created.metadata?.generation);
  });

  it('clears the nomination the pod carried (ClearingNominatedNodeNameAfterBinding)', async () => {
    await pod('nominated');
    await core.patchNamespacedPodStatus({ name: 'nominated', namespace: 'default', body: { status: { nominatedNodeName: 'node-n' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    expect((await core.readNamespacedPod({ name: 'nominated', namespace: 'default' })).status?.nominatedNodeName).toBe('node-n');
    await bind('nominated', { kind: 'Node', name: 'node-n' });
    const bound = await core.readNamespacedPod({ name: 'nominated', namespace: 'default' });
    expect(bound.spec?.nodeName).toBe('node-n');
    expect(bound.status?.nominatedNodeName).toBeUndefined();
  });

  it('refuses a second binding, a name that does not match and a missing pod', async () => {
    await expectStatus(bind('web', { kind: 'Node', name: 'node-b' }), {
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on pods/binding "web": pod web is already assigned to node "node-a"',
    });
    await expectStatus(bind('web', { name: 'node-b' }, { name: 'other' }), { code: 400, reason: 'BadRequest', message: 'name in URL does not match name in Binding object' });
    await expectStatus(bind('ghost', { name: 'node-b' }), { code: 404, reason: 'NotFound', message: 'pods "ghost" not found' });
  });

  it('validates the target as ValidatePodBinding does (its aggregate is a 500 with the field texts)', async () => {
    await pod('unbound');
    await expectStatus(bind('unbound', { kind: 'Pod', name: '' }), {
      code: 500,
      message: '[target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>", target.name: Required value]',
    });
    await expectStatus(bind('unbound', { kind: 'Node' }), { code: 500, message: 'target.name: Required value' });
  });

  it('refuses a pod with scheduling gates, and a uid precondition that does not hold', async () => {
    await pod('gated', { schedulingGates: [{ name: 'example.com/wait' }] });
    await expectStatus(bind('gated', { name: 'node-a' }), { code: 409, message: 'Operation cannot be fulfilled on pods/binding "gated": pod gated has non-empty .spec.schedulingGates' });
    const free = await pod('free');
    await expectStatus(bind('free', { name: 'node-a' }, { name: 'free', uid: 'not-its-uid' }), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on pods "free": Precondition failed: UID in precondition: not-its-uid, UID in object meta: ${free.metadata?.uid}`,
    });
  });
});

describe('the legacy bindings resource', () => {
  it('binds the pod its Binding names, as LegacyBindingREST does', async () => {
    await pod('legacy');
    const res = await fetch(`${cluster.url}/api/v1/namespaces/default/bindings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'legacy' }, target: { kind: 'Node', name: 'node-c' } }),
    });
    expect(res.status).toBe(201);
    expect((await core.readNamespacedPod({ name: 'legacy', namespace: 'default' })).spec?.nodeName).toBe('node-c');
    await expectStatus(core.createNamespacedBinding({ namespace: 'default', body: { metadata: { name: 'legacy' }, target: { name: 'node-d' } } }), {
      code: 409,
      message: 'Operation cannot be fulfilled on pods/binding "legacy": pod legacy is already assigned to node "node-c"',
    });
  });
});
