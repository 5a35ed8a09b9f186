// The create-only review APIs (authentication.k8s.io, authorization.k8s.io) through client-node's
// typed clients: what their REST storage answers for a cluster administrator under
// --authorization-mode=AlwaysAllow with no token authenticator, and the validation texts of
// pkg/apis/authorization/validation. Plus the routes discovery verbs leave out.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let authn: k8s.AuthenticationV1Api;
let authz: k8s.AuthorizationV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  authn = cluster.kubeConfig.makeApiClient(k8s.AuthenticationV1Api);
  authz = cluster.kubeConfig.makeApiClient(k8s.AuthorizationV1Api);
});
afterEach(() => cluster.close());

describe('authentication.k8s.io/v1', () => {
  it('TokenReview: an unknown token is not authenticated, and the review is not stored', async () => {
    const review = await authn.createTokenReview({ body: { spec: { token: 'abc' } } });
    expect(review).toMatchObject({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'abc' }, status: { user: {} } });
    expect(review.status?.authenticated).toBeUndefined();
    expect(review.metadata?.uid).toBeUndefined();
  });

  it('TokenReview: an empty token is a 400', async () => {
    await expectStatus(authn.createTokenReview({ body: { spec: {} as k8s.V1TokenReviewSpec } }), { code: 400, reason: 'BadRequest', message: 'token is required for TokenReview in authentication' });
  });

  it('SelfSubjectReview: answers the requester, stamped now', async () => {
    const review = await authn.createSelfSubjectReview({ body: {} });
    expect(review.status?.userInfo).toEqual({ username: 'system:admin', groups: ['system:masters', 'system:authenticated'] });
    expect(review.metadata?.creationTimestamp).toBeInstanceOf(Date);
  });
});

describe('authorization.k8s.io/v1', () => {
  it('SubjectAccessReview: allowed, spec echoed', async () => {
    const review = await authz.createSubjectAccessReview({ body: { spec: { user: 'jane', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } } } });
    expect(review.status).toEqual({ allowed: true });
    expect(review.spec).toEqual({ user: 'jane', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } });
  });

  it('SubjectAccessReview: no attributes and no subject are both reported, with an empty kind', async () => {
    const status = await expectStatus(authz.createSubjectAccessReview({ body: { spec: {} } }), {
      code: 422,
      reason: 'Invalid',
      message:
        '.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
    });
    expect((status.details as { causes: { field: string }[] }).causes.map((c) => c.field)).toEqual(['spec.resourceAttributes', 'spec.user']);
  });

  it('SelfSubjectAccessReview: both attribute kinds at once, and metadata that is not empty', async () => {
    const status = await expectStatus(
      authz.createSelfSubjectAccessReview({ body: { metadata: { name: 'x' }, spec: { resourceAttributes: { verb: 'get' }, nonResourceAttributes: { path: '/x', verb: 'get' } } } }),
      { code: 422, reason: 'Invalid' },
    );
    // The metadata printed is the review's ObjectMeta as the REST storage sees it: the create
    // handler's field manager has already added managedFields (which the check itself ignores).
    expect(status.message).toMatch(
      /^\.authorization\.k8s\.io "" is invalid: \[spec\.nonResourceAttributes: Invalid value: \{"path":"\/x","verb":"get"\}: cannot be specified in combination with resourceAttributes, metadata: Invalid value: \{"name":"x","managedFields":\[\{"manager":"kubernetes-client-javascript","operation":"Update",.*\}\]\}: must be empty\]$/,
    );
  });

  it('LocalSubjectAccessReview: the attributes namespace must be the review’s', async () => {
    const ok = await authz.createNamespacedLocalSubjectAccessReview({ namespace: 'default', body: { spec: { user: 'jane', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } } } });
    expect(ok.status).toEqual({ allowed: true });
    // Echoed with its namespace and the managedFields the create handler's field manager recorded.
    expect(ok.metadata?.namespace).toBe('default');
    expect(ok.metadata?.managedFields?.map((e) => [e.manager, e.operation, e.apiVersion])).toEqual([['kubernetes-client-javascript', 'Update', 'authorization.k8s.io/v1']]);
    expect(Object.keys(ok.metadata ?? {}).sort()).toEqual(['managedFields', 'namespace']);
    await expectStatus(
      authz.createNamespacedLocalSubjectAccessReview({ namespace: 'default', body: { spec: { user: 'jane', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'other' } } } }),
      { code: 422, reason: 'Invalid', message: '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace' },
    );
  });

  it('SelfSubjectRulesReview: every rule under AlwaysAllow, spec not echoed; no namespace is a 400', async () => {
    const review = await authz.createSelfSubjectRulesReview({ body: { spec: { namespace: 'default' } } });
    expect(review.spec).toEqual({});
    expect(review.status).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
    await expectStatus(authz.createSelfSubjectRulesReview({ body: { spec: {} } }), { code: 400, reason: 'BadRequest', message: 'no namespace on request' });
  });
});

describe('routes a resource’s discovery verbs leave out', () => {
  const raw = (path: string, method = 'GET') => fetch(cluster.url + path, { method });

  it('answers 405 for a method at a path with other routes, 404 for a path with none', async () => {
    expect((await raw('/apis/authentication.k8s.io/v1/tokenreviews')).status).toBe(405);
    expect((await raw('/apis/authentication.k8s.io/v1/tokenreviews/x')).status).toBe(404);
    // Namespaces serve no deletecollection.
    const del = await raw('/api/v1/namespaces', 'DELETE');
    expect(del.status).toBe(405);
    expect(await del.json()).toMatchObject({ reason: 'MethodNotAllowed', message: '405: Method Not Allowed' });
    expect((await raw('/api/v1/watch/componentstatuses')).status).toBe(404);
  });

  it('answers a watch of a list-only resource with MethodNotSupported', async () => {
    const res = await raw('/api/v1/componentstatuses?watch=true');
    expect(res.status).toBe(405);
    expect(await res.json()).toMatchObject({ reason: 'MethodNotAllowed', message: 'watch is not supported on resources of kind "componentstatuses"' });
  });
});
