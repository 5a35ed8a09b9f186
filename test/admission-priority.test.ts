// Priority as a v1.36 kube-apiserver runs it: pods get spec.priority and spec.preemptionPolicy
// from their PriorityClass (or the global default, or 0), a missing class is a 403, and only one
// PriorityClass may be the global default. The two system classes exist from the start.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
let scheduling: k8s.SchedulingV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  scheduling = cluster.kubeConfig.makeApiClient(k8s.SchedulingV1Api);
});
afterEach(() => cluster.close());

const pod = (name: string, spec: Partial<k8s.V1PodSpec> = {}): k8s.V1Pod => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });

describe('Priority', () => {
  it('serves the system priority classes from the start', async () => {
    const list = await scheduling.listPriorityClass();
    expect(list.items.map((pc) => [pc.metadata!.name, pc.value, pc.globalDefault, pc.preemptionPolicy, pc.description])).toEqual([
      ['system-cluster-critical', 2000000000, undefined, 'PreemptLowerPriority', 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.'],
      ['system-node-critical', 2000001000, undefined, 'PreemptLowerPriority', 'Used for system critical pods that must not be moved from their current node.'],
    ]);
  });

  it('gives a pod without a class priority 0 and PreemptLowerPriority', async () => {
    const created = await core.createNamespacedPod({ namespace: 'default', body: pod('plain') });
    expect(created.spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
    expect(created.spec!.priorityClassName).toBeUndefined();
  });

  it('resolves the class a pod names, system classes included, in any namespace', async () => {
    await scheduling.createPriorityClass({ body: { metadata: { name: 'batch' }, value: 100, preemptionPolicy: 'Never' } });
    const batch = await core.createNamespacedPod({ namespace: 'default', body: pod('batch', { priorityClassName: 'batch' }) });
    expect(batch.spec).toMatchObject({ priorityClassName: 'batch', priority: 100, preemptionPolicy: 'Never' });
    const critical = await core.createNamespacedPod({ namespace: 'default', body: pod('critical', { priorityClassName: 'system-node-critical' }) });
    expect(critical.spec).toMatchObject({ priority: 2000001000, preemptionPolicy: 'PreemptLowerPriority' });
  });

  it('gives a pod without a class the global default class', async () => {
    await scheduling.createPriorityClass({ body: { metadata: { name: 'normal' }, value: 10, globalDefault: true } });
    const created = await core.createNamespacedPod({ namespace: 'default', body: pod('p') });
    expect(created.spec).toMatchObject({ priorityClassName: 'normal', priority: 10 });
  });

  it('refuses a class that does not exist, and a priority the pod states itself', async () => {
    await expectStatus(core.createNamespacedPod({ namespace: 'default', body: pod('x', { priorityClassName: 'missing' }) }), {
      code: 403,
      reason: 'Forbidden',
      message: 'pods "x" is forbidden: no PriorityClass with name missing was found',
      details: { name: 'x', kind: 'pods' },
    });
    await expectStatus(core.createNamespacedPod({ namespace: 'default', body: pod('y', { priority: 5 }) }), {
      code: 403,
      reason: 'Forbidden',
      message: 'pods "y" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    });
    await expectStatus(core.createNamespacedPod({ namespace: 'default', body: pod('z', { preemptionPolicy: 'Never' }) }), {
      code: 403,
      reason: 'Forbidden',
      message: 'pods "z" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name',
    });
  });

  it('keeps the stored priority when an update drops it', async () => {
    const created = await core.createNamespacedPod({ namespace: 'default', body: pod('keep') });
    const { priority: _p, preemptionPolicy: _pp, ...spec } = created.spec!;
    const updated = await core.replaceNamespacedPod({ namespace: 'default', name: 'keep', body: { ...created, metadata: { ...created.metadata, labels: { a: 'b' } }, spec } });
    expect(updated.spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
  });

  it('allows only one global default PriorityClass', async () => {
    await scheduling.createPriorityClass({ body: { metadata: { name: 'first' }, value: 1, globalDefault: true } });
    await expectStatus(scheduling.createPriorityClass({ body: { metadata: { name: 'second' }, value: 2, globalDefault: true } }), {
      code: 403,
      reason: 'Forbidden',
      message: 'priorityclasses.scheduling.k8s.io "second" is forbidden: PriorityClass first is already marked as default. Only one default can exist',
      details: { name: 'second', group: 'scheduling.k8s.io', kind: 'priorityclasses' },
    });
  });
});
