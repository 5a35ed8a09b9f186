// csrStrategy.PrepareForCreate (pkg/registry/certificates/certificates/strategy.go): a new
// CertificateSigningRequest records who asked for it in spec.username, uid, groups and extra (the
// impersonated user, when the client impersonates), whatever the client wrote there, and starts
// with an empty status. Found by kubectl's own test/cmd/testdata/authorization.txtar.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster, type KubeObject } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner, type Kubectl } from './support/kubectl.ts';
import { P256_REQUEST } from './data/csr.ts';

const csr = (name: string, spec: Partial<k8s.V1CertificateSigningRequestSpec> = {}): k8s.V1CertificateSigningRequest => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name },
  spec: { request: P256_REQUEST, signerName: 'kubernetes.io/kube-apiserver-client', usages: ['digital signature', 'key encipherment', 'client auth'], ...spec },
});

describe('CertificateSigningRequest create on a cluster that authenticates', () => {
  let cluster: FakeCluster;
  let kubectl: Kubectl;
  let manifest: string;
  beforeAll(async () => {
    cluster = await createFakeCluster({ auth: true });
    // user1 (impersonated below) may create CertificateSigningRequests; nothing else is granted.
    const rbac = cluster.kubeConfig.makeApiClient(k8s.RbacAuthorizationV1Api);
    await rbac.createClusterRole({ body: { metadata: { name: 'csr-creator' }, rules: [{ apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['create'] }] } });
    await rbac.createClusterRoleBinding({ body: { metadata: { name: 'csr-creator' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'csr-creator' }, subjects: [{ kind: 'User', name: 'user1', apiGroup: 'rbac.authorization.k8s.io' }] } });
    kubectl = kubectlRunner((await cluster.listen({ tls: true })).kubeconfig);
    manifest = join(mkdtempSync(join(tmpdir(), 'kubefake-csr-')), 'csr.json');
    writeFileSync(manifest, JSON.stringify(csr('foo')));
  });
  afterAll(() => cluster.close());
  const spec = async () => JSON.parse((await kubectl(['get', 'csr/foo', '-o', 'jsonpath={.spec}'])).stdout) as Record<string, unknown>;

  it.runIf(kubectlAvailable)('records the kubectl user itself', async () => {
    expect((await kubectl(['create', '-f', manifest])).stdout).toBe('certificatesigningrequest.certificates.k8s.io/foo created\n');
    expect(await spec()).toMatchObject({ username: 'kubefake-admin', groups: ['system:masters', 'system:authenticated'] });
    expect((await spec()).uid).toBeUndefined();
    expect((await kubectl(['delete', 'csr', 'foo'])).code).toBe(0);
  });

  it.runIf(kubectlAvailable)('records the impersonated user, uid and groups of kubectl --as, --as-uid and --as-group, system:authenticated added', async () => {
    const created = await kubectl(['create', '-f', manifest, '--as=user1', '--as-uid=abc123', '--as-group=group2', '--as-group=group1', '--as-group=,,,chameleon']);
    expect(created.stderr).toBe('');
    expect(await spec()).toMatchObject({ username: 'user1', uid: 'abc123', groups: ['group2', 'group1', ',,,chameleon', 'system:authenticated'] });
    expect((await kubectl(['delete', 'csr', 'foo'])).code).toBe(0);
  });

  it('records impersonated extra values, and replaces what the client wrote in the requester fields and status', async () => {
    const certs = cluster.kubeConfig.makeApiClient(k8s.CertificatesV1Api);
    let options = k8s.setHeaderOptions('Impersonate-User', 'user1');
    options = k8s.setHeaderOptions('Impersonate-Extra-Key1', 'one,two', options);
    options = k8s.setHeaderOptions('Impersonate-Extra-Key2', 'val3', options);
    const forged = csr('forged', { username: 'someone-else', uid: 'u-9', groups: ['system:masters'], extra: { key9: ['x'] } });
    const created = await certs.createCertificateSigningRequest(
      { body: { ...forged, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Forged', message: 'pre-approved' }] } } },
      options,
    );
    // Header names are case-insensitive; extra keys are lower-case as Go's textproto reads them.
    expect(created.spec).toMatchObject({ username: 'user1', groups: ['system:authenticated'], extra: { key1: ['one,two'], key2: ['val3'] } });
    expect(created.spec.uid).toBeUndefined();
    expect(created.status).toEqual({});
    const stored = cluster.get({ kind: 'CertificateSigningRequest', name: 'forged' })!;
    expect(stored.status).toEqual({});
  });
});

describe('CertificateSigningRequest create on a cluster without authentication', () => {
  let cluster: FakeCluster;
  beforeAll(async () => {
    cluster = await createFakeCluster();
  });
  afterAll(() => cluster.close());

  it('records the user every request is served as (the one SelfSubjectReview reports)', async () => {
    const certs = cluster.kubeConfig.makeApiClient(k8s.CertificatesV1Api);
    const created = await certs.createCertificateSigningRequest({ body: csr('plain', { username: 'forged', groups: ['forged'] }) });
    const whoami = await cluster.kubeConfig.makeApiClient(k8s.AuthenticationV1Api).createSelfSubjectReview({ body: {} });
    expect(created.spec.username).toBe('system:admin');
    expect(created.spec.groups).toEqual(['system:masters', 'system:authenticated']);
    expect(whoami.status?.userInfo).toEqual({ username: created.spec.username, groups: created.spec.groups });
    expect(created.spec.extra).toBeUndefined();
  });
});

describe("CertificateSigningRequest in apply(dump, { serverFields: 'keep' })", () => {
  it('keeps the dumped requester instead of stamping the harness as the requester', async () => {
    await using cluster = await createFakeCluster();
    const base = csr('dumped');
    const dumped: KubeObject = { apiVersion: base.apiVersion, kind: base.kind, metadata: { name: 'dumped' }, spec: { ...base.spec, username: 'user1', uid: 'abc123', groups: ['group1', 'system:authenticated'], extra: { key2: ['val3'] } } };
    await cluster.apply([dumped], { serverFields: 'keep' });
    const stored = cluster.get({ kind: 'CertificateSigningRequest', name: 'dumped' })!;
    expect(stored.spec).toEqual(dumped.spec);
    expect(Object.keys(stored.spec as object).slice(-4)).toEqual(['username', 'uid', 'groups', 'extra']);
    // 'clean' mode creates afresh: the request is the harness's own.
    await cluster.apply([{ ...dumped, metadata: { name: 'fresh' } }], { serverFields: 'clean' });
    expect(cluster.get({ kind: 'CertificateSigningRequest', name: 'fresh' })!.spec).toMatchObject({ username: 'system:admin', groups: ['system:masters', 'system:authenticated'] });
  });
});
