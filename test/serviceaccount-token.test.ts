// serviceaccounts/token (TokenRequest) as TokenREST.Create answers it: a signed JWT with the claims
// kube-apiserver issues, the status's expiration, defaults, and the real refusals. Through
// client-node's createNamespacedServiceAccountToken.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
let sa: k8s.V1ServiceAccount;
beforeAll(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  sa = await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'builder' } } });
});
afterAll(() => cluster.close());

const requestToken = (spec: k8s.AuthenticationV1TokenRequest['spec'], name = 'builder') => core.createNamespacedServiceAccountToken({ name, namespace: 'default', body: { spec } });
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>;

describe('TokenRequest', () => {
  it('issues a signed JWT for the service account, with the default audience and a one-hour expiry', async () => {
    const before = Math.floor(Date.now() / 1000);
    const out = await requestToken({ audiences: [] });
    expect(out.metadata).toMatchObject({ name: 'builder', namespace: 'default' });
    expect(out.spec).toMatchObject({ audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 3600 });
    const [header, payload, signature] = out.status!.token!.split('.');
    expect(decode(header!)).toEqual({ alg: 'RS256', kid: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const claims = decode(payload!);
    expect(Object.keys(claims)).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
    expect(claims).toMatchObject({
      aud: ['https://kubernetes.default.svc.cluster.local'],
      iss: 'https://kubernetes.default.svc.cluster.local',
      sub: 'system:serviceaccount:default:builder',
      'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'builder', uid: sa.metadata!.uid } },
    });
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.exp).toBe((claims.iat as number) + 3600);
    expect(Math.floor(out.status!.expirationTimestamp!.getTime() / 1000)).toBe(claims.exp);
    expect(Buffer.from(signature!, 'base64url')).toHaveLength(256); // RS256 over a 2048-bit key
  });

  it('signs every token of a cluster with one key, and keeps requested audiences', async () => {
    const a = await requestToken({ audiences: ['vault'], expirationSeconds: 7200 });
    const b = await requestToken({ audiences: ['vault'] });
    expect(decode(a.status!.token!.split('.')[0]!).kid).toBe(decode(b.status!.token!.split('.')[0]!).kid);
    expect(decode(a.status!.token!.split('.')[1]!)).toMatchObject({ aud: ['vault'] });
    expect(a.spec!.expirationSeconds).toBe(7200);
  });

  it('binds the token to a pod that runs as the service account', async () => {
    const pod = await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'job' }, spec: { serviceAccountName: 'builder', containers: [{ name: 'c', image: 'busybox' }] } } });
    const out = await requestToken({ audiences: [], boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'job', uid: pod.metadata!.uid } });
    expect(decode(out.status!.token!.split('.')[1]!)['kubernetes.io']).toMatchObject({ pod: { name: 'job', uid: pod.metadata!.uid } });
    await expectStatus(requestToken({ audiences: [], boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'job', uid: 'stale' } }), {
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on Pod "job": the UID in the bound object reference (stale) does not match the UID in record. The object might have been deleted and then recreated',
    });
  });

  it('names the node of a pod on one, by uid when the Node is stored and by name alone when not', async () => {
    const node = await core.createNode({ body: { metadata: { name: 'node-a' } } });
    const onNode = (name: string, nodeName: string) => core.createNamespacedPod({ namespace: 'default', body: { metadata: { name }, spec: { serviceAccountName: 'builder', nodeName, containers: [{ name: 'c', image: 'busybox' }] } } });
    const placed = await onNode('placed', 'node-a');
    const out = await requestToken({ audiences: [], boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'placed' } });
    expect(decode(out.status!.token!.split('.')[1]!)['kubernetes.io']).toEqual({
      namespace: 'default',
      node: { name: 'node-a', uid: node.metadata!.uid },
      pod: { name: 'placed', uid: placed.metadata!.uid },
      serviceaccount: { name: 'builder', uid: sa.metadata!.uid },
    });
    await onNode('stray', 'node-gone');
    const stray = await requestToken({ audiences: [], boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'stray' } });
    expect((decode(stray.status!.token!.split('.')[1]!)['kubernetes.io'] as Record<string, unknown>).node).toEqual({ name: 'node-gone' });
  });

  it("extends a pod's projected API token (3607s) to a year, warning after the requested expiry; no other token", async () => {
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'projected' }, spec: { serviceAccountName: 'builder', containers: [{ name: 'c', image: 'busybox' }] } } });
    const pod = { kind: 'Pod', apiVersion: 'v1', name: 'projected' };
    const out = await requestToken({ audiences: [], expirationSeconds: 3607, boundObjectRef: pod });
    const claims = decode(out.status!.token!.split('.')[1]!);
    const iat = claims.iat as number;
    expect(claims.exp).toBe(iat + 365 * 24 * 3600);
    expect((claims['kubernetes.io'] as Record<string, unknown>).warnafter).toBe(iat + 3607);
    // The status still answers the expiry that was asked for.
    expect(out.spec!.expirationSeconds).toBe(3607);
    expect(Math.floor(out.status!.expirationTimestamp!.getTime() / 1000)).toBe(iat + 3607);
    // Another audience, another expiry, or no pod binding: not extended.
    for (const spec of [
      { audiences: ['vault'], expirationSeconds: 3607, boundObjectRef: pod },
      { audiences: [], expirationSeconds: 3600, boundObjectRef: pod },
      { audiences: [], expirationSeconds: 3607 },
    ]) {
      const plain = decode((await requestToken(spec)).status!.token!.split('.')[1]!);
      expect(plain.exp).toBe((plain.iat as number) + spec.expirationSeconds);
      expect(plain['kubernetes.io']).not.toHaveProperty('warnafter');
    }
  });

  it('refuses what TokenREST refuses, with its texts', async () => {
    await expectStatus(requestToken({ audiences: [], expirationSeconds: 60 }), {
      code: 422,
      reason: 'Invalid',
      message: 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    });
    await expectStatus(requestToken({ audiences: [] }, 'nobody'), { code: 404, reason: 'NotFound', message: 'serviceaccounts "nobody" not found' });
    await expectStatus(requestToken({ audiences: [], boundObjectRef: { kind: 'Deployment', apiVersion: 'apps/v1', name: 'web' } }), {
      code: 400,
      message: 'cannot bind token to object of type apps/v1, Kind=Deployment',
    });
    // The ServiceAccount admission plugin admits a pod only for an existing ServiceAccount.
    await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'someone-else' } } });
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'other' }, spec: { serviceAccountName: 'someone-else', containers: [{ name: 'c', image: 'busybox' }] } } });
    await expectStatus(requestToken({ audiences: [], boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'other' } }), {
      code: 400,
      message: 'cannot bind token for serviceaccount "builder" to pod running with different serviceaccount name.',
    });
    await expectStatus(requestToken({ audiences: [], boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'missing' } }), { code: 404, message: 'pods "missing" not found' });
  });
});
