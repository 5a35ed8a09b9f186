// Writes through /scale as admission sees them in kube-apiserver v1.36: the Scale (kind
// autoscaling/v1 Scale) of the resource, not the object (ScaleREST's scaleUpdatedObjectInfo runs
// mutating admission on the Scale, toScaleUpdateValidation hands validating admission the Scales),
// and matchPolicy Equivalent for a subresource other than status (generic/webhook.go ShouldCallHook,
// policy/matching matchesResourceRules): an equivalent version's rule matches, the invocation names
// that version's resource with the subresource's own kind (KindFor: Scale), and nothing converts.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { exampleWidgetsCrd } from './support/widgets-crd.ts';

let cluster: FakeCluster;
let apps: k8s.AppsV1Api;
let custom: k8s.CustomObjectsApi;
beforeEach(async () => {
  cluster = await createFakeCluster();
  apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
});
afterEach(() => cluster.close());

const ns = 'default';
const URL_VALIDATE = 'https://hooks.example.com/validate';
const URL_MUTATE = 'https://hooks.example.com/mutate';
const SCALE_KIND = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Review = { apiVersion: string; kind: string; request: any };
const answer = (review: Review, allowed: boolean, extra: Record<string, unknown> = {}) => ({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed, ...extra } });
const webhook = (name: string, url: string, rule: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name,
  clientConfig: { url },
  rules: [{ operations: ['UPDATE'], ...rule }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});
async function configuration(kind: 'Validating' | 'Mutating', ...webhooks: Record<string, unknown>[]) {
  await cluster.apply([{ apiVersion: 'admissionregistration.k8s.io/v1', kind: `${kind}WebhookConfiguration`, metadata: { name: kind.toLowerCase() }, webhooks }]);
}

async function deployment(name: string): Promise<void> {
  await apps.createNamespacedDeployment({
    namespace: ns,
    body: { metadata: { name }, spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } },
  });
}
const scaleTo = (name: string, replicas: number) =>
  apps.patchNamespacedDeploymentScale({ name, namespace: ns, body: { spec: { replicas } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));

describe('admission of a /scale write', () => {
  it('a webhook on deployments/scale sees the Scales (kind autoscaling/v1 Scale), old and new', async () => {
    await deployment('web');
    const reviews: Review[] = [];
    await configuration('Validating', webhook('v.example.com', URL_VALIDATE, { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments/scale'] }));
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => {
      reviews.push(review);
      return answer(review, true);
    });
    await scaleTo('web', 3);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.request).toMatchObject({
      kind: SCALE_KIND,
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      subResource: 'scale',
      requestKind: SCALE_KIND,
      name: 'web',
      operation: 'UPDATE',
      object: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: ns }, spec: { replicas: 3 }, status: { replicas: 0, selector: 'app=web' } },
      oldObject: { apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 1 } },
    });
  });

  it("a mutating webhook's patch of the Scale is what the Deployment takes; validating admission sees the mutated Scale and may refuse it", async () => {
    await deployment('web');
    await configuration(
      'Mutating',
      webhook('m.example.com', URL_MUTATE, { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments/scale'] }),
    );
    cluster.serveWebhook(URL_MUTATE, (review: Review) =>
      answer(review, true, { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'replace', path: '/spec/replicas', value: Math.min(review.request.object.spec.replicas, 5) }])).toString('base64') }),
    );
    const scale = await scaleTo('web', 9);
    expect(scale.spec?.replicas).toBe(5);
    expect((await apps.readNamespacedDeployment({ name: 'web', namespace: ns })).spec?.replicas).toBe(5);
    await configuration('Validating', webhook('v.example.com', URL_VALIDATE, { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments/scale'] }));
    const seen: number[] = [];
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => {
      seen.push(review.request.object.spec.replicas);
      return answer(review, review.request.object.spec.replicas <= 4, { status: { code: 403, reason: 'Forbidden', message: 'at most 4' } });
    });
    await scaleTo('web', 2);
    await expectStatus(scaleTo('web', 7), { code: 403, reason: 'Forbidden', message: 'admission webhook "v.example.com" denied the request: at most 4' });
    expect(seen).toEqual([2, 5]);
    expect((await apps.readNamespacedDeployment({ name: 'web', namespace: ns })).spec?.replicas).toBe(2);
  });

  it('a ValidatingAdmissionPolicy on deployments/scale evaluates the Scale', async () => {
    await deployment('web');
    const admission = cluster.kubeConfig.makeApiClient(k8s.AdmissionregistrationV1Api);
    await admission.createValidatingAdmissionPolicy({
      body: {
        metadata: { name: 'max-replicas' },
        spec: {
          matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['deployments/scale'] }] },
          validations: [{ expression: "request.kind.kind == 'Scale' && object.kind == 'Scale' && object.spec.replicas <= 3", message: 'at most 3 replicas' }],
        },
      },
    });
    await admission.createValidatingAdmissionPolicyBinding({ body: { metadata: { name: 'max-replicas-b' }, spec: { policyName: 'max-replicas', validationActions: ['Deny'] } } });
    await scaleTo('web', 3);
    const message = "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-b' denied request: at most 3 replicas";
    await expectStatus(scaleTo('web', 4), { code: 422, reason: 'Invalid', message: `deployments.apps "web" is forbidden: ${message}` });
    expect((await apps.readNamespacedDeployment({ name: 'web', namespace: ns })).spec?.replicas).toBe(3);
  });
});

describe('a MutatingAdmissionPolicy on /scale', () => {
  it('mutates the Scale (an ApplyConfiguration on autoscaling/v1 Scale) and the Deployment takes its replicas', async () => {
    await deployment('web');
    await cluster.apply([
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingAdmissionPolicy',
        metadata: { name: 'cap' },
        spec: {
          matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['deployments/scale'] }] },
          reinvocationPolicy: 'Never',
          mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'object.spec.replicas > 4 ? Object{spec: Object.spec{replicas: 4}} : Object{}' } }],
        },
      },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: 'cap-binding' }, spec: { policyName: 'cap' } },
    ]);
    expect((await scaleTo('web', 8)).spec?.replicas).toBe(4);
    expect((await apps.readNamespacedDeployment({ name: 'web', namespace: ns })).spec?.replicas).toBe(4);
    expect((await scaleTo('web', 2)).spec?.replicas).toBe(2);
  });
});

describe('matchPolicy Equivalent for /scale', () => {
  const crd = exampleWidgetsCrd(['v1', 'v2'].map((name) => ({
    name,
    served: true,
    storage: name === 'v1',
    subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
    schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } }, status: { type: 'object', properties: { replicas: { type: 'integer' } } } } } },
  })));
  const v2ScaleRule = { apiGroups: ['example.com'], apiVersions: ['v2'], resources: ['widgets/scale'] };
  const scaleWidget = (replicas: number) =>
    custom.patchNamespacedCustomObjectScale(
      { group: 'example.com', version: 'v1', namespace: ns, plural: 'widgets', name: 'w', body: { spec: { replicas } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );

  beforeEach(async () => {
    await cluster.apply([crd]);
    await cluster.settle();
    await custom.createNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace: ns, plural: 'widgets', body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { replicas: 1 } } });
  });

  it('a v2 widgets/scale webhook is called for a v1 scale write: resource v2, kind and object the unconverted Scale', async () => {
    const reviews: Review[] = [];
    await configuration('Validating', webhook('v.example.com', URL_VALIDATE, v2ScaleRule, { matchPolicy: 'Equivalent' }));
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => {
      reviews.push(review);
      return answer(review, true);
    });
    await scaleWidget(2);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.request).toMatchObject({
      kind: SCALE_KIND,
      resource: { group: 'example.com', version: 'v2', resource: 'widgets' },
      subResource: 'scale',
      requestKind: SCALE_KIND,
      requestResource: { group: 'example.com', version: 'v1', resource: 'widgets' },
      requestSubResource: 'scale',
      object: { apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 2 } },
    });
  });

  it('Exact does not match the other version; an Equivalent denial refuses the write', async () => {
    let asked = 0;
    await configuration('Validating', webhook('v.example.com', URL_VALIDATE, v2ScaleRule, { matchPolicy: 'Exact' }));
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => {
      asked++;
      return answer(review, false, { status: { code: 403, reason: 'Forbidden', message: 'frozen' } });
    });
    await scaleWidget(2);
    expect(asked).toBe(0);
    await configuration('Validating', webhook('v.example.com', URL_VALIDATE, v2ScaleRule, { matchPolicy: 'Equivalent' }));
    await expectStatus(scaleWidget(3), { code: 403, reason: 'Forbidden', message: 'admission webhook "v.example.com" denied the request: frozen' });
    expect(asked).toBe(1);
  });

  it('a policy matching v2 widgets/scale by equivalence sees request.resource v2 and the Scale', async () => {
    const admission = cluster.kubeConfig.makeApiClient(k8s.AdmissionregistrationV1Api);
    await admission.createValidatingAdmissionPolicy({
      body: {
        metadata: { name: 'p' },
        spec: {
          matchConstraints: { matchPolicy: 'Equivalent', resourceRules: [{ operations: ['UPDATE'], ...v2ScaleRule }] },
          validations: [{ expression: "request.resource.version == 'v2' && request.requestResource.version == 'v1' && object.kind == 'Scale' && object.spec.replicas < 5", message: 'too many' }],
        },
      },
    });
    await admission.createValidatingAdmissionPolicyBinding({ body: { metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny'] } } });
    await scaleWidget(4);
    const message = "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: too many";
    await expectStatus(scaleWidget(5), { code: 422, reason: 'Invalid', message: `widgets.example.com "w" is forbidden: ${message}` });
  });
});
