// pods/eviction as EvictionREST answers it, through client-node's createNamespacedPodEviction:
// pods that disrupt nothing go at once, a PodDisruptionBudget that allows a disruption is spent
// (and the pod marked DisruptionTarget), one that does not is a 429 with the real cause. kubefake
// runs no disruption controller, so each test writes the budget's status itself.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
let policy: k8s.PolicyV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  policy = cluster.kubeConfig.makeApiClient(k8s.PolicyV1Api);
});
afterAll(() => cluster.close());

const ns = 'default';

/** A pod of app `app`, Running and Ready (its status written as a kubelet would). */
async function runningPod(name: string, app: string): Promise<k8s.V1Pod> {
  const pod = await core.createNamespacedPod({ namespace: ns, body: { metadata: { name, labels: { app } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
  return core.replaceNamespacedPodStatus({
    name,
    namespace: ns,
    body: { ...pod, status: { ...pod.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
  });
}

/** A PDB for `app` with the status a disruption controller would have written. */
async function budget(name: string, app: string, status: Partial<k8s.V1PodDisruptionBudgetStatus>): Promise<void> {
  const pdb = await policy.createNamespacedPodDisruptionBudget({ namespace: ns, body: { metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app } } } } });
  await policy.replaceNamespacedPodDisruptionBudgetStatus({
    name,
    namespace: ns,
    body: { ...pdb, status: { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0, observedGeneration: pdb.metadata!.generation, ...status } },
  });
}

const evict = (name: string, body: Partial<k8s.V1Eviction> = {}) => core.createNamespacedPodEviction({ name, namespace: ns, body: { metadata: { name }, ...body } });
const exists = async (name: string) => (await core.listNamespacedPod({ namespace: ns })).items.some((p) => p.metadata?.name === name);

describe('pods/eviction', () => {
  it('deletes a Pending pod at once, whatever the budgets say', async () => {
    await core.createNamespacedPod({ namespace: ns, body: { metadata: { name: 'pending', labels: { app: 'guarded' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
    await budget('guarded', 'guarded', { disruptionsAllowed: 0 });
    const res = await fetch(`${cluster.url}/api/v1/namespaces/${ns}/pods/pending/eviction`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'pending' } }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' });
    expect(await exists('pending')).toBe(false);
  });

  it('spends a disruption the budget allows, marks the pod and deletes it', async () => {
    await runningPod('web-1', 'web');
    await budget('web', 'web', { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 });
    await evict('web-1');
    expect(await exists('web-1')).toBe(false);
    const pdb = await policy.readNamespacedPodDisruptionBudget({ name: 'web', namespace: ns });
    expect(pdb.status?.disruptionsAllowed).toBe(0);
    expect(Object.keys(pdb.status?.disruptedPods ?? {})).toEqual(['web-1']);
    expect(pdb.status?.conditions?.find((c) => c.type === 'DisruptionAllowed')).toMatchObject({ status: 'False', reason: 'InsufficientPods' });
  });

  it('refuses with 429 and the budget as cause when no disruption is allowed', async () => {
    await runningPod('db-1', 'db');
    await budget('db', 'db', { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 });
    const status = await expectStatus(evict('db-1'), { code: 429, reason: 'TooManyRequests', message: "Cannot evict pod as it would violate the pod's disruption budget." });
    expect(status.details).toEqual({ causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget db needs 1 healthy pods and has 1 currently' }] });
    expect(await exists('db-1')).toBe(true);
  });

  it('asks to come back later while the budget is not processed yet (observedGeneration behind)', async () => {
    await runningPod('cache-1', 'cache');
    await policy.createNamespacedPodDisruptionBudget({ namespace: ns, body: { metadata: { name: 'cache' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'cache' } } } } });
    const res = await fetch(`${cluster.url}/api/v1/namespaces/${ns}/pods/cache-1/eviction`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'cache-1' } }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('10');
    expect(((await res.json()) as { details: unknown }).details).toEqual({
      retryAfterSeconds: 10,
      causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget cache is still being processed by the server.' }],
    });
  });

  it('refuses two budgets for one pod (500 Status), a name mismatch and a missing pod', async () => {
    await runningPod('multi-1', 'multi');
    await budget('multi-a', 'multi', { disruptionsAllowed: 1 });
    await budget('multi-b', 'multi', { disruptionsAllowed: 1 });
    await expectStatus(evict('multi-1'), { code: 500, message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.' });
    await expectStatus(core.createNamespacedPodEviction({ name: 'multi-1', namespace: ns, body: { metadata: { name: 'other' } } }), {
      code: 400,
      message: 'name in URL does not match name in Eviction object',
    });
    await expectStatus(evict('ghost'), { code: 404, message: 'pods "ghost" not found' });
  });

  it('lets only one of two concurrent evictions spend a budget that allows one disruption', async () => {
    await runningPod('race-1', 'race');
    await runningPod('race-2', 'race');
    await budget('race', 'race', { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 });
    const outcomes = await Promise.allSettled([evict('race-1'), evict('race-2')]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as k8s.ApiException<string>).code).toBe(429);
    expect([await exists('race-1'), await exists('race-2')].filter(Boolean)).toHaveLength(1);
    const pdb = await policy.readNamespacedPodDisruptionBudget({ name: 'race', namespace: ns });
    expect(pdb.status?.disruptionsAllowed).toBe(0);
    expect(Object.keys(pdb.status?.disruptedPods ?? {})).toHaveLength(1);
  });

  it("checks the preconditions before marking the pod, with addConditionAndDeletePod's texts; a resourceVersion precondition survives the mark", async () => {
    const pod = await runningPod('pre-1', 'pre');
    await expectStatus(evict('pre-1', { deleteOptions: { preconditions: { uid: 'not-the-uid' } } }), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on Pod "pre-1": the UID in the precondition (not-the-uid) does not match the UID in record (${pod.metadata!.uid}). The object might have been deleted and then recreated`,
    });
    await expectStatus(evict('pre-1', { deleteOptions: { preconditions: { resourceVersion: '1' } } }), {
      code: 409,
      message: `Operation cannot be fulfilled on Pod "pre-1": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${pod.metadata!.resourceVersion}). The object might have been modified`,
    });
    const unmarked = await core.readNamespacedPod({ name: 'pre-1', namespace: ns });
    expect(unmarked.status?.conditions?.some((c) => c.type === 'DisruptionTarget')).toBe(false);
    await evict('pre-1', { deleteOptions: { preconditions: { uid: pod.metadata!.uid, resourceVersion: pod.metadata!.resourceVersion } } });
    expect(await exists('pre-1')).toBe(false);
  });

  it('deletes an unready pod without spending the budget while the application is healthy (IfHealthyBudget)', async () => {
    const pod = await core.createNamespacedPod({ namespace: ns, body: { metadata: { name: 'sick-1', labels: { app: 'sick' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
    await core.replaceNamespacedPodStatus({ name: 'sick-1', namespace: ns, body: { ...pod, status: { ...pod.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] } } });
    await budget('sick', 'sick', { disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2, expectedPods: 3 });
    await evict('sick-1');
    expect(await exists('sick-1')).toBe(false);
    expect((await policy.readNamespacedPodDisruptionBudget({ name: 'sick', namespace: ns })).status?.disruptionsAllowed).toBe(0);
  });

  it('changes nothing under dryRun', async () => {
    await runningPod('dry-1', 'dry');
    await budget('dry', 'dry', { disruptionsAllowed: 1 });
    await evict('dry-1', { deleteOptions: { dryRun: ['All'] } });
    expect(await exists('dry-1')).toBe(true);
    expect((await policy.readNamespacedPodDisruptionBudget({ name: 'dry', namespace: ns })).status?.disruptionsAllowed).toBe(1);
  });
});
