// Bound service account tokens are refused as kube-apiserver's serviceaccount token validator
// refuses them (pkg/serviceaccount/claims.go, validator.Validate): once the service account, or the
// Pod, Secret or Node the token is bound to, is gone or re-created with another uid, or was deleted
// more than a minute ago, the token is a 401 Unauthorized and TokenReview answers the validator's
// text in status.error. Through client-node, on an `auth: true` cluster with a frozen clock.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';

async function authCluster() {
  const cluster = await createFakeCluster({ auth: true, clock: new Date('2026-01-01T00:00:00Z') });
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const sa = await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'bot' } } });
  return { cluster, core, sa, authn: cluster.kubeConfig.makeApiClient(k8s.AuthenticationV1Api) };
}

/** A client-node KubeConfig of the cluster whose user is just this bearer token. */
function kubeConfigWithToken(cluster: FakeCluster, token: string): k8s.KubeConfig {
  const kc = cluster.kubeConfigFor({ user: 'placeholder' });
  kc.loadFromOptions({ clusters: kc.clusters, contexts: kc.contexts, currentContext: kc.currentContext, users: [{ name: kc.getCurrentUser()!.name, token }] });
  return kc;
}

/** Who the token authenticates as (SelfSubjectReview: every authenticated user may ask). */
const whoAmI = (cluster: FakeCluster, token: string) => kubeConfigWithToken(cluster, token).makeApiClient(k8s.AuthenticationV1Api).createSelfSubjectReview({ body: {} });

/**
 * The token is refused: client-node's call fails with 401 (its generated code drops the body of a
 * 401), and the body is the Status kube-apiserver answers for any refused bearer token.
 */
async function expectUnauthorized(cluster: FakeCluster, token: string): Promise<void> {
  const error = await whoAmI(cluster, token).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(k8s.ApiException);
  expect((error as k8s.ApiException<unknown>).code).toBe(401);
  const raw = await cluster.handle(new Request(`${cluster.url}/api/v1/namespaces/default/pods`, { headers: { authorization: `Bearer ${token}` } }));
  expect(raw.status).toBe(401);
  expect(await raw.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
}

async function tokenFor(core: k8s.CoreV1Api, boundObjectRef?: k8s.V1BoundObjectReference, expirationSeconds?: number): Promise<string> {
  const out = await core.createNamespacedServiceAccountToken({ name: 'bot', namespace: 'default', body: { spec: { audiences: [], boundObjectRef, expirationSeconds } } });
  return out.status!.token!;
}

const review = async (authn: k8s.AuthenticationV1Api, token: string, audiences?: string[]) => (await authn.createTokenReview({ body: { spec: { token, audiences } } })).status;

const podSpec = { serviceAccountName: 'bot', containers: [{ name: 'c', image: 'busybox' }] };

describe('tokens bound to a pod', () => {
  it('authenticate while the pod exists (its name and uid in the user extra), then 401 once it is deleted or re-created', async () => {
    const { cluster, core, sa, authn } = await authCluster();
    await using _ = cluster;
    const pod = await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'job' }, spec: podSpec } });
    const token = await tokenFor(core, { kind: 'Pod', apiVersion: 'v1', name: 'job', uid: pod.metadata!.uid });
    const jti = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti as string;

    const me = await whoAmI(cluster, token);
    expect(me.status!.userInfo).toEqual({
      username: 'system:serviceaccount:default:bot',
      uid: sa.metadata!.uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/pod-name': ['job'], 'authentication.kubernetes.io/pod-uid': [pod.metadata!.uid!], 'authentication.kubernetes.io/credential-id': [`JTI=${jti}`] },
    });
    expect(await review(authn, token)).toEqual({
      authenticated: true,
      user: me.status!.userInfo,
      audiences: [ISSUER],
    });

    await core.deleteNamespacedPod({ name: 'job', namespace: 'default' });
    await expectUnauthorized(cluster, token);
    expect(await review(authn, token)).toEqual({ user: {}, error: 'service account token has been invalidated' });

    const again = await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'job' }, spec: podSpec } });
    await expectUnauthorized(cluster, token);
    expect(await review(authn, token)).toEqual({ user: {}, error: `pod UID (${again.metadata!.uid}) does not match service account pod ref claim (${pod.metadata!.uid})` });
  });

  it('authenticate through a pod’s graceful deletion until a minute past its deletionTimestamp (jwt.DefaultLeeway)', async () => {
    const { cluster, core, authn } = await authCluster();
    await using _ = cluster;
    // A pod on a node is deleted gracefully: it stays, with deletionTimestamp = now + grace period.
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'job' }, spec: { ...podSpec, nodeName: 'node-a' } } });
    const token = await tokenFor(core, { kind: 'Pod', apiVersion: 'v1', name: 'job' });
    await core.deleteNamespacedPod({ name: 'job', namespace: 'default', gracePeriodSeconds: 30 });
    expect((await core.readNamespacedPod({ name: 'job', namespace: 'default' })).metadata!.deletionTimestamp).toEqual(new Date('2026-01-01T00:00:30Z'));
    cluster.clock.advance(90_000);
    expect((await whoAmI(cluster, token)).status!.userInfo!.username).toBe('system:serviceaccount:default:bot');
    cluster.clock.advance(1_000);
    await expectUnauthorized(cluster, token);
    expect(await review(authn, token)).toEqual({ user: {}, error: 'service account token has been invalidated' });
  });
});

describe('tokens bound to a pod on a node', () => {
  it('carry the node in the user extra, and outlive the node (only the pod is checked)', async () => {
    const { cluster, core } = await authCluster();
    await using _ = cluster;
    const node = await core.createNode({ body: { metadata: { name: 'node-a' } } });
    const pod = await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'job' }, spec: { ...podSpec, nodeName: 'node-a' } } });
    const token = await tokenFor(core, { kind: 'Pod', apiVersion: 'v1', name: 'job' });
    const extra = { 'authentication.kubernetes.io/pod-name': ['job'], 'authentication.kubernetes.io/pod-uid': [pod.metadata!.uid!], 'authentication.kubernetes.io/node-name': ['node-a'], 'authentication.kubernetes.io/node-uid': [node.metadata!.uid!] };
    expect((await whoAmI(cluster, token)).status!.userInfo!.extra).toMatchObject(extra);
    await core.deleteNode({ name: 'node-a' });
    expect((await whoAmI(cluster, token)).status!.userInfo!.extra).toMatchObject(extra);
  });

  it("a pod's extended projected token authenticates past its requested expiry", async () => {
    const { cluster, core } = await authCluster();
    await using _ = cluster;
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'job' }, spec: podSpec } });
    const token = await tokenFor(core, { kind: 'Pod', apiVersion: 'v1', name: 'job' }, 3607);
    cluster.clock.advance(24 * 3600_000);
    expect((await whoAmI(cluster, token)).status!.userInfo!.username).toBe('system:serviceaccount:default:bot');
  });
});

describe('tokens bound to a secret', () => {
  it('authenticate while the secret exists, then 401 once it is deleted or re-created', async () => {
    const { cluster, core, authn } = await authCluster();
    await using _ = cluster;
    const secret = await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'creds' } } });
    const token = await tokenFor(core, { kind: 'Secret', apiVersion: 'v1', name: 'creds' });
    const me = await whoAmI(cluster, token);
    expect(me.status!.userInfo!.username).toBe('system:serviceaccount:default:bot');
    // A secret binding adds nothing to the user's extra but the credential id.
    expect(Object.keys(me.status!.userInfo!.extra ?? {})).toEqual(['authentication.kubernetes.io/credential-id']);
    expect((await review(authn, token))!.authenticated).toBe(true);

    await core.deleteNamespacedSecret({ name: 'creds', namespace: 'default' });
    await expectUnauthorized(cluster, token);
    expect(await review(authn, token)).toEqual({ user: {}, error: 'service account token has been invalidated' });

    const again = await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'creds' } } });
    await expectUnauthorized(cluster, token);
    expect(await review(authn, token)).toEqual({ user: {}, error: `secret UID (${again.metadata!.uid}) does not match service account secret ref claim (${secret.metadata!.uid})` });
  });
});

describe('tokens bound to a node', () => {
  it('authenticate while the node exists (its name and uid in the user extra), then 401 once it is deleted or re-created', async () => {
    const { cluster, core, authn } = await authCluster();
    await using _ = cluster;
    const node = await core.createNode({ body: { metadata: { name: 'node-a' } } });
    const token = await tokenFor(core, { kind: 'Node', apiVersion: 'v1', name: 'node-a' });
    const me = await whoAmI(cluster, token);
    expect(me.status!.userInfo!.extra).toMatchObject({ 'authentication.kubernetes.io/node-name': ['node-a'], 'authentication.kubernetes.io/node-uid': [node.metadata!.uid!] });

    await core.deleteNode({ name: 'node-a' });
    await expectUnauthorized(cluster, token);
    expect(await review(authn, token)).toEqual({ user: {}, error: 'service account token has been invalidated' });

    const again = await core.createNode({ body: { metadata: { name: 'node-a' } } });
    await expectUnauthorized(cluster, token);
    expect(await review(authn, token)).toEqual({ user: {}, error: `node UID (${again.metadata!.uid}) does not match service account node ref claim (${node.metadata!.uid})` });
  });
});

describe('the service account of a token', () => {
  it('must still exist with the uid the token names', async () => {
    const { cluster, core, sa, authn } = await authCluster();
    await using _ = cluster;
    const token = await tokenFor(core);
    expect((await whoAmI(cluster, token)).status!.userInfo!.uid).toBe(sa.metadata!.uid);

    await core.deleteNamespacedServiceAccount({ name: 'bot', namespace: 'default' });
    await expectUnauthorized(cluster, token);
    // The getter's own NotFound, as the client Get answers it.
    expect(await review(authn, token)).toEqual({ user: {}, error: 'serviceaccounts "bot" not found' });

    const again = await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'bot' } } });
    await expectUnauthorized(cluster, token);
    expect(await review(authn, token)).toEqual({ user: {}, error: `service account UID (${again.metadata!.uid}) does not match claim (${sa.metadata!.uid})` });
  });

  it('being deleted (held by a finalizer) is refused a minute after its deletionTimestamp', async () => {
    const { cluster, core, authn } = await authCluster();
    await using _ = cluster;
    await core.patchNamespacedServiceAccount({ name: 'bot', namespace: 'default', body: [{ op: 'add', path: '/metadata/finalizers', value: ['example.com/hold'] }] });
    const token = await tokenFor(core);
    await core.deleteNamespacedServiceAccount({ name: 'bot', namespace: 'default' });
    cluster.clock.advance(60_000);
    expect((await whoAmI(cluster, token)).status!.userInfo!.username).toBe('system:serviceaccount:default:bot');
    cluster.clock.advance(1_000);
    await expectUnauthorized(cluster, token);
    expect(await review(authn, token)).toEqual({ user: {}, error: 'service account default/bot has been deleted' });
  });
});

describe('TokenReview on an authenticating cluster', () => {
  it('says why an expired token, a token for another audience and an unknown token are not authenticated', async () => {
    const { cluster, core, authn } = await authCluster();
    await using _ = cluster;
    const token = await tokenFor(core, undefined, 600);
    const vault = (await core.createNamespacedServiceAccountToken({ name: 'bot', namespace: 'default', body: { spec: { audiences: ['vault'] } } })).status!.token!;

    // A token for another audience: refused by the API server, accepted when the review names it.
    await expectUnauthorized(cluster, vault);
    expect(await review(authn, vault)).toEqual({ user: {}, error: `token audiences ["vault"] is invalid for the target audiences ["${ISSUER}"]` });
    expect(await review(authn, vault, ['vault'])).toMatchObject({ authenticated: true, user: { username: 'system:serviceaccount:default:bot' }, audiences: ['vault'] });

    // The cluster's own tokens are for the API server's audience only.
    const jane = (cluster.kubeConfigFor({ user: 'jane' }).getCurrentUser() as { token: string }).token;
    expect(await review(authn, jane)).toEqual({ authenticated: true, user: { username: 'jane', groups: ['system:authenticated'] }, audiences: [ISSUER] });
    expect(await review(authn, jane, ['vault'])).toEqual({ user: {}, error: 'invalid bearer token' });
    expect(await review(authn, 'who-knows')).toEqual({ user: {}, error: 'invalid bearer token' });

    cluster.clock.advance(660_000 + 1_000);
    await expectUnauthorized(cluster, token);
    expect(await review(authn, token)).toEqual({ user: {}, error: 'service account token has expired' });
  });

  it('answers the audiences granted in the order the review asks for them (authenticator.Audiences.Intersect)', async () => {
    const { cluster, core, authn } = await authCluster();
    await using _ = cluster;
    const token = (await core.createNamespacedServiceAccountToken({ name: 'bot', namespace: 'default', body: { spec: { audiences: ['a', 'b', ISSUER] } } })).status!.token!;
    expect((await review(authn, token, ['b', 'a']))!.audiences).toEqual(['b', 'a']);
    expect((await review(authn, token, ['c', 'b', 'b']))!.audiences).toEqual(['b', 'b']);
    // The cluster's own tokens too (authenticator.WrapAudienceAgnosticToken intersects the same way).
    const jane = (cluster.kubeConfigFor({ user: 'jane' }).getCurrentUser() as { token: string }).token;
    expect((await review(authn, jane, ['x', ISSUER, ISSUER]))!.audiences).toEqual([ISSUER, ISSUER]);
  });

  it('answers the user extra as Go encodes a map: keys sorted (credential-id, node-name, node-uid, pod-name, pod-uid)', async () => {
    const { cluster, core, authn } = await authCluster();
    await using _ = cluster;
    await core.createNode({ body: { metadata: { name: 'node-a' } } });
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'job' }, spec: { ...podSpec, nodeName: 'node-a' } } });
    const token = await tokenFor(core, { kind: 'Pod', apiVersion: 'v1', name: 'job' });
    const keys = ['credential-id', 'node-name', 'node-uid', 'pod-name', 'pod-uid'].map((k) => `authentication.kubernetes.io/${k}`);
    expect(Object.keys((await review(authn, token))!.user!.extra!)).toEqual(keys);
    expect(Object.keys((await whoAmI(cluster, token)).status!.userInfo!.extra!)).toEqual(keys);
  });

  it("refuses another cluster's token by its key id, and a tampered one by its signature (pkg/serviceaccount/jwt.go)", async () => {
    const a = await authCluster();
    await using _a = a.cluster;
    const b = await authCluster();
    await using _b = b.cluster;
    const foreign = await tokenFor(a.core);
    await expectUnauthorized(b.cluster, foreign);
    expect(await review(b.authn, foreign)).toEqual({ user: {}, error: 'invalid signature, no keys found' });

    // Same key id, payload changed: the signature no longer verifies.
    const [header, payload, signature] = (await tokenFor(b.core)).split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = [header, Buffer.from(JSON.stringify({ ...claims, sub: 'system:serviceaccount:default:root' })).toString('base64url'), signature].join('.');
    await expectUnauthorized(b.cluster, tampered);
    expect(await review(b.authn, tampered)).toEqual({ user: {}, error: 'go-jose/go-jose: error in cryptographic primitive' });

    // A header that is no JWS header: not a token the service account authenticator parses.
    const garbled = [Buffer.from('not json').toString('base64url'), payload, signature].join('.');
    expect(await review(b.authn, garbled)).toEqual({ user: {}, error: 'invalid bearer token' });
  });
});
