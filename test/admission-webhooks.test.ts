// Admission webhooks through the real client: ValidatingWebhookConfiguration and
// MutatingWebhookConfiguration objects whose webhooks are answered in-process
// (cluster.serveWebhook), with the texts of apiserver/pkg/admission/plugin/webhook at v1.36.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster, type KubeObject } from '../src/index.ts';
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
type Review = { apiVersion: string; kind: string; request: any };

const configMapRules = (operations = ['CREATE']) => [{ operations, apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];

function hook(name: string, url: string, extra: Record<string, unknown> = {}) {
  return { name, clientConfig: { url }, rules: configMapRules(), sideEffects: 'None', admissionReviewVersions: ['v1'], ...extra };
}

async function validatingConfig(name: string, ...webhooks: Record<string, unknown>[]) {
  await cluster.apply([{ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name }, webhooks }]);
}

async function mutatingConfig(name: string, ...webhooks: Record<string, unknown>[]) {
  await cluster.apply([{ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name }, webhooks }]);
}

/** An answer to `review`: allowed or not, with more response fields. */
const answer = (review: Review, allowed: boolean, extra: Record<string, unknown> = {}) => ({
  apiVersion: review.apiVersion,
  kind: 'AdmissionReview',
  response: { uid: review.request.uid, allowed, ...extra },
});

const jsonPatch = (ops: unknown[]) => Buffer.from(JSON.stringify(ops)).toString('base64');

const configMap = (name: string, data: Record<string, string> = { a: '1' }, labels?: Record<string, string>) => ({
  metadata: { name, ...(labels ? { labels } : {}) },
  data,
});

describe('validating webhooks', () => {
  it('denies with the webhook message, prefixed as the dispatcher does, and the status code and reason it gave', async () => {
    await validatingConfig('deny', hook('deny.example.com', URL_VALIDATE));
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => answer(review, false, { status: { code: 403, reason: 'Forbidden', message: 'no configmaps today' } }));
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), {
      code: 403,
      reason: 'Forbidden',
      message: 'admission webhook "deny.example.com" denied the request: no configmaps today',
    });
    expect(cluster.get({ kind: 'ConfigMap', namespace: 'default', name: 'a' })).toBeUndefined();
  });

  it('a denial without status is a 400 "without explanation"; a reason stands in for a missing message', async () => {
    await validatingConfig('deny', hook('deny.example.com', URL_VALIDATE));
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => answer(review, false));
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), {
      code: 400,
      message: 'admission webhook "deny.example.com" denied the request without explanation',
    });
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => answer(review, false, { status: { code: 200, reason: 'NotAllowed' } }));
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), {
      code: 400,
      reason: 'NotAllowed',
      message: 'admission webhook "deny.example.com" denied the request: NotAllowed',
    });
  });

  it('sends an AdmissionReview v1 with the request as the real server builds it', async () => {
    await validatingConfig('record', hook('record.example.com', URL_VALIDATE, { rules: configMapRules(['CREATE', 'UPDATE', 'DELETE']) }));
    const reviews: Review[] = [];
    const requests: Request[] = [];
    cluster.serveWebhook(URL_VALIDATE, (review: Review, request: Request) => {
      reviews.push(review);
      requests.push(request);
      return answer(review, true);
    });
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a'), fieldManager: 'tester' });
    expect(requests[0]!.url).toBe('https://hooks.example.com/validate?timeout=10s');
    expect(requests[0]!.headers.get('content-type')).toBe('application/json');
    const r = reviews[0]!;
    expect(r.apiVersion).toBe('admission.k8s.io/v1');
    expect(r.kind).toBe('AdmissionReview');
    expect(r.request).toEqual({
      uid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
      requestResource: { group: '', version: 'v1', resource: 'configmaps' },
      name: 'a',
      namespace: 'default',
      operation: 'CREATE',
      userInfo: { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] },
      // Validating admission runs after rest.BeforeCreate: the system fields are set.
      object: expect.objectContaining({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' } }),
      oldObject: null,
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'tester' },
    });
    expect(r.request.object.metadata.uid).toBe(created.metadata!.uid);
    expect(r.request.object.metadata.creationTimestamp).toBeDefined();

    await core.replaceNamespacedConfigMap({ namespace: 'default', name: 'a', body: { ...created, data: { a: '2' } } });
    expect(reviews[1]!.request).toMatchObject({ operation: 'UPDATE', options: { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' } });
    expect(reviews[1]!.request.oldObject.data).toEqual({ a: '1' });
    expect(reviews[1]!.request.object.data).toEqual({ a: '2' });

    await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'a' });
    expect(reviews[2]!.request).toMatchObject({ operation: 'DELETE', name: 'a', object: null, options: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' } });
    expect(reviews[2]!.request.oldObject.data).toEqual({ a: '2' });
  });
});
