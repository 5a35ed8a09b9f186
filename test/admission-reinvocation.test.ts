// Reinvocation across the mutating plugins (apiserver/pkg/admission/reinvocation.go): when a
// mutating webhook or admission policy changes the object, the whole mutating phase runs once
// more, and in it the IfNeeded webhooks and policies invoked before a later change run again —
// whichever plugin made that change.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterEach(() => cluster.close());

const URL = 'https://hooks.example.com/mutate';
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Review = { apiVersion: string; request: any };
const configMapRules = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }];

/** A policy that copies the label `b` into data `a` (or "none"), and its binding. */
async function copyPolicy(reinvocationPolicy: 'IfNeeded' | 'Never') {
  const expression = 'Object{data: {"a": has(object.metadata.labels) && "b" in object.metadata.labels ? object.metadata.labels["b"] : "none"}}';
  await cluster.apply([
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicy', metadata: { name: 'copy' }, spec: { matchConstraints: { resourceRules: configMapRules }, reinvocationPolicy, mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression } }] } },
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: 'copy' }, spec: { policyName: 'copy' } },
  ]);
}

/** A webhook that sets the label `b` (it runs after the policies: MutatingAdmissionWebhook follows MutatingAdmissionPolicy). */
async function labellingWebhook(reinvocationPolicy: 'IfNeeded' | 'Never', calls: string[]) {
  await cluster.apply({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'label' },
    webhooks: [{ name: 'label.example.com', clientConfig: { url: URL }, rules: configMapRules, sideEffects: 'None', admissionReviewVersions: ['v1'], reinvocationPolicy }],
  });
  cluster.serveWebhook(URL, (review: Review) => {
    calls.push(JSON.stringify(review.request.object.data));
    const patch = review.request.object.metadata.labels?.b ? [] : [{ op: 'add', path: '/metadata/labels', value: { b: 'from-webhook' } }];
    return { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') } };
  });
}

describe('reinvocation across the mutating plugins', () => {
  it('runs an IfNeeded policy again after a webhook changed the object', async () => {
    const calls: string[] = [];
    await copyPolicy('IfNeeded');
    await labellingWebhook('Never', calls);
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'x' }, data: { a: '' } } });
    expect(created.metadata?.labels).toEqual({ b: 'from-webhook' });
    expect(created.data).toEqual({ a: 'from-webhook' });
    // The webhook (Never) is not called in the second run.
    expect(calls).toEqual(['{"a":"none"}']);
  });

  it('does not run a Never policy again', async () => {
    await copyPolicy('Never');
    await labellingWebhook('Never', []);
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'x' }, data: { a: '' } } });
    expect(created.data).toEqual({ a: 'none' });
  });

  it('calls an IfNeeded webhook again after a policy of the second run changed the object', async () => {
    const calls: string[] = [];
    await copyPolicy('IfNeeded');
    await labellingWebhook('IfNeeded', calls);
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'x' }, data: { a: '' } } });
    expect(created.data).toEqual({ a: 'from-webhook' });
    // First run: the webhook sees the policy's "none"; second run: the policy rewrote `a`, so the webhook is called again.
    expect(calls).toEqual(['{"a":"none"}', '{"a":"from-webhook"}']);
  });
});
