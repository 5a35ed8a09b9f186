// The `authorizer` variable of admission CEL (k8s.io/apiserver pkg/cel/library/authz.go) in
// webhook matchConditions and admission policies: on a cluster without auth it answers as
// kube-apiserver with AlwaysAllow (allowed, no reason); with auth: true it asks RBAC about the
// request's user (or the service account serviceAccount() names), with RBAC's reasons.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

const URL_VALIDATE = 'https://hooks.example.com/validate';
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Review = { apiVersion: string; request: any };
const deny = (review: Review) => ({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: false, status: { message: `no configmaps for ${review.request.userInfo.username}` } } });

async function webhookWithConditions(cluster: FakeCluster, expressions: string[]) {
  await cluster.apply({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'v' },
    webhooks: [
      {
        name: 'authz.example.com',
        clientConfig: { url: URL_VALIDATE },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        matchConditions: expressions.map((expression, i) => ({ name: `c${i}`, expression })),
      },
    ],
  });
  cluster.serveWebhook(URL_VALIDATE, deny);
}

async function policy(cluster: FakeCluster, spec: Record<string, unknown>) {
  await cluster.apply([
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' }, spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] }, ...spec } },
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny'] } },
  ]);
}

/** A Role named `name` with `verbs` on configmaps in default, bound to `subject`. */
async function allow(cluster: FakeCluster, name: string, verbs: string[], subject: Record<string, string>) {
  await cluster.apply([
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name, namespace: 'default' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs }] },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name, namespace: 'default' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name }, subjects: [subject] },
  ]);
}
const JANE = { kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' };
const createCM = (kc: k8s.KubeConfig, name: string) => kc.makeApiClient(k8s.CoreV1Api).createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name } } });
const policyDenied = (name: string, msg: string) => ({
  code: 422,
  reason: 'Invalid',
  message: `configmaps "${name}" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: ${msg}`,
});

describe('authorizer in webhook matchConditions', () => {
  it('compiles, and without auth answers every check allowed with no reason, no error (AlwaysAllow)', async () => {
    await using cluster = await createFakeCluster();
    await webhookWithConditions(cluster, [
      "authorizer.group('').resource('secrets').namespace('default').check('list').allowed()",
      "authorizer.requestResource.check('create').reason() == '' && !authorizer.path('/healthz').check('get').errored()",
      "authorizer.serviceAccount('default', 'bot').group('apps').resource('deployments').subresource('scale').name('web').check('update').error() == ''",
    ]);
    await expectStatus(createCM(cluster.kubeConfig, 'a'), { code: 400, message: 'admission webhook "authz.example.com" denied the request: no configmaps for system:admin' });
  });

  it('with auth: true asks RBAC about the requesting user: a condition on what the user may do picks who the webhook sees', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    await allow(cluster, 'jane', ['create'], JANE);
    await webhookWithConditions(cluster, ["!authorizer.group('').resource('configmaps').namespace('default').check('delete').allowed()"]);
    const jane = cluster.kubeConfigFor({ user: 'jane' });
    await expectStatus(createCM(jane, 'a'), { code: 400, message: 'admission webhook "authz.example.com" denied the request: no configmaps for jane' });
    // The administrator (system:masters) may delete them: the webhook is not called.
    expect((await createCM(cluster.kubeConfig, 'b')).metadata?.name).toBe('b');
  });

  it('a builder error fails the request closed, in the library words', async () => {
    await using cluster = await createFakeCluster();
    await webhookWithConditions(cluster, ["authorizer.path(' ').check('get').allowed()"]);
    await expectStatus(createCM(cluster.kubeConfig, 'a'), {
      code: 403,
      reason: 'Forbidden',
      message: `configmaps "a" is forbidden: expression 'authorizer.path(' ').check('get').allowed()' resulted in error: path must not be empty`,
    });
  });
});

describe('authorizer in admission policies', () => {
  it('with auth: true: allowed() and reason() are RBAC decisions for the user, and serviceAccount() asks about another identity', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    await allow(cluster, 'jane', ['create'], JANE);
    await policy(cluster, {
      variables: [
        { name: 'createReason', expression: "authorizer.requestResource.check('create').reason()" },
        { name: 'botMayGet', expression: "authorizer.serviceAccount('default', 'bot').group('').resource('configmaps').namespace('default').check('get').allowed()" },
      ],
      validations: [
        { expression: "authorizer.requestResource.check('delete').allowed()", messageExpression: "'may not delete; create allowed because ' + variables.createReason" },
        { expression: 'variables.botMayGet', message: 'bot may not get configmaps' },
      ],
    });
    const jane = cluster.kubeConfigFor({ user: 'jane' });
    await expectStatus(createCM(jane, 'a'), policyDenied('a', 'may not delete; create allowed because RBAC: allowed by RoleBinding "jane/default" of Role "jane" to User "jane"'));
    await allow(cluster, 'deleter', ['delete'], JANE);
    await expectStatus(createCM(jane, 'a'), policyDenied('a', 'bot may not get configmaps'));
    await allow(cluster, 'bot', ['get'], { kind: 'ServiceAccount', name: 'bot', namespace: 'default' });
    expect((await createCM(jane, 'a')).metadata?.name).toBe('a');
  });

  it('a MutatingAdmissionPolicy mutates by what RBAC allows the requesting user', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    await allow(cluster, 'jane', ['create', 'get'], JANE);
    await cluster.apply([
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingAdmissionPolicy',
        metadata: { name: 'm' },
        spec: {
          matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
          mutations: [
            {
              patchType: 'ApplyConfiguration',
              applyConfiguration: { expression: "Object{data: {'mayDelete': string(authorizer.requestResource.check('delete').allowed()), 'mayGet': string(authorizer.requestResource.check('get').allowed())}}" },
            },
          ],
        },
      },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: 'mb' }, spec: { policyName: 'm' } },
    ]);
    expect((await createCM(cluster.kubeConfigFor({ user: 'jane' }), 'a')).data).toEqual({ mayDelete: 'false', mayGet: 'true' });
    expect((await createCM(cluster.kubeConfig, 'b')).data).toEqual({ mayDelete: 'true', mayGet: 'true' });
  });

  it('without auth every check is allowed with an empty reason; an invalid service account name is an evaluation error', async () => {
    await using cluster = await createFakeCluster();
    await policy(cluster, {
      validations: [
        { expression: "authorizer.requestResource.check('delete').allowed() && authorizer.requestResource.check('delete').reason() == ''", message: 'not allowed' },
        { expression: "authorizer.serviceAccount('default', 'Not_Valid').path('/healthz').check('get').allowed()" },
      ],
    });
    await expectStatus(createCM(cluster.kubeConfig, 'a'), policyDenied('a', "expression 'authorizer.serviceAccount('default', 'Not_Valid').path('/healthz').check('get').allowed()' resulted in error: Invalid service account name"));
  });
});
