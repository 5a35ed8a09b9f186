// What admission leaves on a request besides its answer: the audit annotations its plugins add
// (visible on cluster.requests, keyed as the real audit event keys them), and the warnings of
// webhooks and policies, which go out with the response even when a later plugin refuses the
// request (the apiserver's warning recorder writes them with any answer).
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { captureWarnings } from './support/warnings.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterEach(() => cluster.close());

const URL_VALIDATE = 'https://hooks.example.com/validate';
const URL_MUTATE = 'https://hooks.example.com/mutate';
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Review = { apiVersion: string; request: any };
const answer = (review: Review, allowed: boolean, extra: Record<string, unknown> = {}) => ({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed, ...extra } });
const hook = (name: string, url: string, extra: Record<string, unknown> = {}) => ({
  name,
  clientConfig: { url },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});
const webhooks = (kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration', ...hooks: Record<string, unknown>[]) =>
  cluster.apply({ apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name: kind.toLowerCase() }, webhooks: hooks });
const policy = (validations: unknown[], validationActions: string[], auditAnnotations?: unknown[]) =>
  cluster.apply([
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'p' },
      spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] }, validations, ...(auditAnnotations ? { auditAnnotations } : {}) },
    },
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'p', validationActions } },
  ]);
const createCM = (name: string, options?: k8s.ConfigurationOptions) => core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name }, data: { a: '1' } } }, options);
const lastCreate = (resource = 'configmaps') => cluster.requests.last({ verb: 'create', resource });

describe('audit annotations on cluster.requests', () => {
  it("a webhook's auditAnnotations, under its name; a failed-open call's annotation; none on a request admission left alone", async () => {
    await webhooks(
      'ValidatingWebhookConfiguration',
      hook('audit.example.com', URL_VALIDATE),
      hook('down.example.com', 'https://down.example.com/validate', { failurePolicy: 'Ignore' }),
    );
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => answer(review, true, { auditAnnotations: { checked: 'yes', by: 'audit' } }));
    await createCM('a');
    expect(lastCreate()?.auditAnnotations).toEqual({
      'audit.example.com/checked': 'yes',
      'audit.example.com/by': 'audit',
      'failed-open.validating.webhook.admission.k8s.io/round_0_index_1': 'down.example.com',
    });
    await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 's' } } });
    expect(lastCreate('secrets')?.auditAnnotations).toEqual({});
  });

  it("a refusing webhook's annotations are kept with the refused request", async () => {
    await webhooks('ValidatingWebhookConfiguration', hook('deny.example.com', URL_VALIDATE));
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => answer(review, false, { auditAnnotations: { why: 'closed' }, status: { code: 403, message: 'closed today' } }));
    await expectStatus(createCM('a'), { code: 403, message: 'admission webhook "deny.example.com" denied the request: closed today' });
    expect(lastCreate()).toMatchObject({ status: 403, auditAnnotations: { 'deny.example.com/why': 'closed' } });
  });

  it("a policy's Audit action publishes validation_failure, and its auditAnnotations go under its name", async () => {
    await policy([{ expression: "!('a' in object.data)", message: 'no key a' }], ['Audit'], [{ key: 'keys', valueExpression: "'keys: ' + string(size(object.data))" }]);
    await createCM('a');
    expect(lastCreate()?.auditAnnotations).toEqual({
      'validation.policy.admission.k8s.io/validation_failure': '[{"message":"no key a","policy":"p","binding":"b","expressionIndex":0,"validationActions":["Audit"]}]',
      'p/keys': 'keys: 1',
    });
  });

  it("PodSecurity's enforce-policy, on an admitted pod and on a refused one", async () => {
    await core.createNamespace({ body: { metadata: { name: 'locked', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } } });
    const pod = (namespace: string) => core.createNamespacedPod({ namespace, body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
    await pod('default');
    expect(lastCreate('pods')?.auditAnnotations).toEqual({ 'pod-security.kubernetes.io/enforce-policy': 'privileged:latest' });
    await expectStatus(pod('locked'), { code: 403 });
    expect(lastCreate('pods')).toMatchObject({ status: 403, auditAnnotations: { 'pod-security.kubernetes.io/enforce-policy': 'restricted:latest' } });
  });
});

describe('warnings on a refused request', () => {
  it("a Warn policy's and a mutating webhook's warnings go out with a validating webhook's refusal, and the refusing webhook's own", async () => {
    await policy([{ expression: "!('a' in object.data)", message: 'key a is deprecated' }], ['Warn']);
    await webhooks('MutatingWebhookConfiguration', hook('mutate.example.com', URL_MUTATE));
    cluster.serveWebhook(URL_MUTATE, (review: Review) => answer(review, true, { warnings: ['mutated nothing'] }));
    await webhooks('ValidatingWebhookConfiguration', hook('deny.example.com', URL_VALIDATE));
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => answer(review, false, { warnings: ['think again'], status: { message: 'no' } }));
    const capture = captureWarnings();
    await expectStatus(createCM('a', capture.options), { code: 400, message: 'admission webhook "deny.example.com" denied the request: no' });
    expect(capture.warnings()).toEqual(['mutated nothing', "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': key a is deprecated", 'think again']);
  });

  it('a Warn policy then a Deny one: the warning goes out with the denial', async () => {
    await policy([{ expression: "!('a' in object.data)", message: 'key a is deprecated' }], ['Warn']);
    await cluster.apply([
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'q' },
        spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] }, validations: [{ expression: 'false', message: 'never' }] },
      },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'qb' }, spec: { policyName: 'q', validationActions: ['Deny'] } },
    ]);
    const capture = captureWarnings();
    await expectStatus(createCM('a', capture.options), { code: 422, message: "configmaps \"a\" is forbidden: ValidatingAdmissionPolicy 'q' with binding 'qb' denied request: never" });
    expect(capture.warnings()).toEqual(["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': key a is deprecated"]);
  });
});
