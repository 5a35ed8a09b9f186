// The create-only subresources pods/eviction and serviceaccounts/token go through admission as
// kube-apiserver's create handler runs it (endpoints/handlers/create.go: the mutating phase before
// the REST's Create; EvictionREST and TokenREST call the validating phase themselves): CREATE of
// the parent resource with its subresource, and the kind the subresource is registered with
// (policy/v1 Eviction, authentication.k8s.io/v1 TokenRequest), through client-node.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
let admission: k8s.AdmissionregistrationV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  admission = cluster.kubeConfig.makeApiClient(k8s.AdmissionregistrationV1Api);
});
afterEach(() => cluster.close());

const ns = 'default';
const URL_VALIDATE = 'https://hooks.example.com/validate';
const URL_MUTATE = 'https://hooks.example.com/mutate';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Review = { apiVersion: string; kind: string; request: any };

const rules = (resources: string[]) => [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources }];
const webhook = (name: string, url: string, resources: string[]) => ({ name, clientConfig: { url }, rules: rules(resources), sideEffects: 'None', admissionReviewVersions: ['v1'] });
const answer = (review: Review, allowed: boolean, extra: Record<string, unknown> = {}) => ({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed, ...extra } });

async function validating(resources: string[], handler: (review: Review) => unknown) {
  await cluster.apply([{ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'v' }, webhooks: [webhook('v.example.com', URL_VALIDATE, resources)] }]);
  cluster.serveWebhook(URL_VALIDATE, handler);
}

const pod = (name: string) => core.createNamespacedPod({ namespace: ns, body: { metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
const podExists = async (name: string) => (await core.listNamespacedPod({ namespace: ns })).items.some((p) => p.metadata?.name === name);

describe('pods/eviction through admission', () => {
  it('a webhook on pods/eviction is asked about CREATE of pods/eviction, kind policy/v1 Eviction, and its denial keeps the pod', async () => {
    await pod('web');
    const reviews: Review[] = [];
    await validating(['pods/eviction'], (review: Review) => {
      reviews.push(review);
      return answer(review, false, { status: { code: 403, reason: 'Forbidden', message: 'no evictions during the freeze' } });
    });
    await expectStatus(core.createNamespacedPodEviction({ name: 'web', namespace: ns, body: { metadata: { name: 'web' } } }), {
      code: 403,
      reason: 'Forbidden',
      message: 'admission webhook "v.example.com" denied the request: no evictions during the freeze',
    });
    expect(await podExists('web')).toBe(true);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.request).toMatchObject({
      kind: { group: 'policy', version: 'v1', kind: 'Eviction' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      subResource: 'eviction',
      requestKind: { group: 'policy', version: 'v1', kind: 'Eviction' },
      requestResource: { group: '', version: 'v1', resource: 'pods' },
      requestSubResource: 'eviction',
      name: 'web',
      namespace: ns,
      operation: 'CREATE',
      object: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web', namespace: ns } },
      oldObject: null,
    });
  });

  it('an allowed eviction deletes the pod; a pods webhook is not asked about the eviction', async () => {
    await pod('web');
    const asked: string[] = [];
    await validating(['pods', 'pods/eviction'], (review: Review) => {
      asked.push(`${review.request.resource.resource}/${review.request.subResource ?? ''}`);
      return answer(review, true);
    });
    await core.createNamespacedPodEviction({ name: 'web', namespace: ns, body: { metadata: { name: 'web' } } });
    expect(asked).toEqual(['pods/eviction']);
    expect(await podExists('web')).toBe(false);
  });

  it("EvictionREST's name check runs before the validating phase: a mismatched name is its 400, the webhook never asked", async () => {
    await pod('web');
    let asked = 0;
    await validating(['pods/eviction'], (review: Review) => {
      asked++;
      return answer(review, false);
    });
    await expectStatus(core.createNamespacedPodEviction({ name: 'web', namespace: ns, body: { metadata: { name: 'other' } } }), {
      code: 400,
      reason: 'BadRequest',
      message: 'name in URL does not match name in Eviction object',
    });
    expect(asked).toBe(0);
  });

  it("a mutating webhook's change to the Eviction is what EvictionREST acts on (here a dry run: the pod stays)", async () => {
    await pod('web');
    await cluster.apply([{ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'm' }, webhooks: [webhook('m.example.com', URL_MUTATE, ['pods/eviction'])] }]);
    cluster.serveWebhook(URL_MUTATE, (review: Review) =>
      answer(review, true, { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/deleteOptions', value: { dryRun: ['All'] } }])).toString('base64') }),
    );
    const out = await core.createNamespacedPodEviction({ name: 'web', namespace: ns, body: { metadata: { name: 'web' } } });
    expect(out).toMatchObject({ kind: 'Status', apiVersion: 'v1' });
    expect(await podExists('web')).toBe(true);
  });

  it('a ValidatingAdmissionPolicy on pods/eviction sees request.kind policy/v1 Eviction and denies with its message (422 without a reason)', async () => {
    await pod('web');
    await admission.createValidatingAdmissionPolicy({
      body: {
        metadata: { name: 'no-evict' },
        spec: {
          matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods/eviction'] }] },
          validations: [{ expression: "!(request.kind.group == 'policy' && request.kind.kind == 'Eviction' && request.subResource == 'eviction' && object.metadata.name == 'web')", message: 'web stays' }],
        },
      },
    });
    await admission.createValidatingAdmissionPolicyBinding({ body: { metadata: { name: 'no-evict-b' }, spec: { policyName: 'no-evict', validationActions: ['Deny'] } } });
    const message = "ValidatingAdmissionPolicy 'no-evict' with binding 'no-evict-b' denied request: web stays";
    await expectStatus(core.createNamespacedPodEviction({ name: 'web', namespace: ns, body: { metadata: { name: 'web' } } }), {
      code: 422,
      reason: 'Invalid',
      message: `pods "web" is forbidden: ${message}`,
      details: { name: 'web', kind: 'pods', causes: [{ message }] },
    });
    expect(await podExists('web')).toBe(true);
  });
});

describe('serviceaccounts/token through admission', () => {
  beforeEach(async () => {
    await core.createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name: 'builder' } } });
  });

  it('a webhook on serviceaccounts/token is asked about kind authentication.k8s.io/v1 TokenRequest, defaulted as TokenREST fills it in', async () => {
    const reviews: Review[] = [];
    await validating(['serviceaccounts/token'], (review: Review) => {
      reviews.push(review);
      return answer(review, true);
    });
    const out = await core.createNamespacedServiceAccountToken({ name: 'builder', namespace: ns, body: { spec: { audiences: [] } } });
    expect(out.status?.token).toBeTruthy();
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.request).toMatchObject({
      kind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' },
      resource: { group: '', version: 'v1', resource: 'serviceaccounts' },
      subResource: 'token',
      name: 'builder',
      namespace: ns,
      operation: 'CREATE',
      object: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        metadata: { name: 'builder', namespace: ns },
        spec: { audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 3600 },
      },
    });
  });

  it('a denial issues no token; a missing service account is its 404 before the validating phase', async () => {
    let asked = 0;
    await validating(['serviceaccounts/token'], (review: Review) => {
      asked++;
      return answer(review, false, { status: { code: 403, reason: 'Forbidden', message: 'tokens are issued by vault' } });
    });
    await expectStatus(core.createNamespacedServiceAccountToken({ name: 'builder', namespace: ns, body: { spec: { audiences: [] } } }), {
      code: 403,
      reason: 'Forbidden',
      message: 'admission webhook "v.example.com" denied the request: tokens are issued by vault',
    });
    expect(asked).toBe(1);
    await expectStatus(core.createNamespacedServiceAccountToken({ name: 'nobody', namespace: ns, body: { spec: { audiences: [] } } }), {
      code: 404,
      reason: 'NotFound',
      message: 'serviceaccounts "nobody" not found',
    });
    expect(asked).toBe(1);
  });

  it("a body naming another namespace is create.go's 400, before admission", async () => {
    let asked = 0;
    await validating(['serviceaccounts/token'], (review: Review) => {
      asked++;
      return answer(review, true);
    });
    await expectStatus(core.createNamespacedServiceAccountToken({ name: 'builder', namespace: ns, body: { metadata: { namespace: 'kube-system' }, spec: { audiences: [] } } }), {
      code: 400,
      reason: 'BadRequest',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
    expect(asked).toBe(0);
  });
});
