// CertificateSigningRequests as kube-apiserver v1.36 admits them, through client-node: the
// registry stamps the requester into spec (csrStrategy.PrepareForCreate), and the default-on
// plugins CertificateSubjectRestriction, CertificateApproval and CertificateSigning
// (plugin/pkg/admission/certificates) refuse a kube-apiserver-client request for system:masters,
// and an approval or signing by a user without `approve`/`sign` on the signer, with their texts.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { P256_REQUEST, SYSTEM_MASTERS_REQUEST } from './data/csr.ts';
import { expectStatus } from './support/status.ts';

const csr = (name: string, spec: Partial<k8s.V1CertificateSigningRequestSpec> = {}): k8s.V1CertificateSigningRequest => ({
  metadata: { name },
  spec: { request: P256_REQUEST, signerName: 'example.com/signer', usages: ['client auth'], ...spec },
});
const approved = { type: 'Approved', status: 'True', reason: 'Reviewed', message: 'ok' };
const certsOf = (kc: k8s.KubeConfig) => kc.makeApiClient(k8s.CertificatesV1Api);

/** A ClusterRole with `rules` bound to user `user`. */
async function grant(cluster: FakeCluster, user: string, rules: k8s.V1PolicyRule[]) {
  const rbac = cluster.kubeConfig.makeApiClient(k8s.RbacAuthorizationV1Api);
  await rbac.createClusterRole({ body: { metadata: { name: user }, rules } });
  await rbac.createClusterRoleBinding({ body: { metadata: { name: user }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: user }, subjects: [{ kind: 'User', name: user, apiGroup: 'rbac.authorization.k8s.io' }] } });
}
const CSR_RULES: k8s.V1PolicyRule[] = [
  { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['create', 'get'] },
  { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/approval', 'certificatesigningrequests/status'], verbs: ['update'] },
];

describe('the requester in spec (csrStrategy.PrepareForCreate)', () => {
  it('without authentication, is kubefake’s administrator whatever the client sent', async () => {
    await using cluster = await createFakeCluster();
    const created = await certsOf(cluster.kubeConfig).createCertificateSigningRequest({ body: csr('mine', { username: 'someone-else', uid: 'u-1', groups: ['g'], extra: { k: ['v'] } }) });
    expect(created.spec).toMatchObject({ username: 'system:admin', groups: ['system:masters', 'system:authenticated'] });
    expect(created.spec.uid).toBeUndefined();
    expect(created.spec.extra).toBeUndefined();
    expect(created.status).toEqual({});
  });

  it('with auth: true, is the authenticated user, uid and extra included', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    await grant(cluster, 'jane', CSR_RULES);
    const jane = cluster.kubeConfigFor({ user: 'jane', groups: ['team'], uid: 'jane-uid', extra: { scopes: ['a', 'b'] } });
    const created = await certsOf(jane).createCertificateSigningRequest({ body: csr('janes', { username: 'admin' }) });
    expect(created.spec).toMatchObject({ username: 'jane', uid: 'jane-uid', groups: ['team', 'system:authenticated'], extra: { scopes: ['a', 'b'] } });
  });
});

describe('CertificateSubjectRestriction', () => {
  it('refuses a kube-apiserver-client request whose subject asks for system:masters; other signers may', async () => {
    await using cluster = await createFakeCluster();
    const certs = certsOf(cluster.kubeConfig);
    await expectStatus(certs.createCertificateSigningRequest({ body: csr('masters', { request: SYSTEM_MASTERS_REQUEST, signerName: 'kubernetes.io/kube-apiserver-client' }) }), {
      code: 403,
      reason: 'Forbidden',
      message: 'certificatesigningrequests.certificates.k8s.io "masters" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed',
    });
    const elsewhere = await certs.createCertificateSigningRequest({ body: csr('masters-elsewhere', { request: SYSTEM_MASTERS_REQUEST }) });
    expect(elsewhere.spec.signerName).toBe('example.com/signer');
    const team = await certs.createCertificateSigningRequest({ body: csr('team', { signerName: 'kubernetes.io/kube-apiserver-client' }) });
    expect(team.spec.signerName).toBe('kubernetes.io/kube-apiserver-client');
  });
});

describe('CertificateApproval and CertificateSigning (auth: true)', () => {
  it('an approval needs approve on the signer (or its domain’s wildcard)', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    await grant(cluster, 'jane', CSR_RULES);
    await grant(cluster, 'approver', [...CSR_RULES, { apiGroups: ['certificates.k8s.io'], resources: ['signers'], verbs: ['approve'], resourceNames: ['example.com/*'] }]);
    const created = await certsOf(cluster.kubeConfigFor({ user: 'jane' })).createCertificateSigningRequest({ body: csr('a') });
    const approve = (user: string) => certsOf(cluster.kubeConfigFor({ user })).replaceCertificateSigningRequestApproval({ name: 'a', body: { ...created, status: { conditions: [approved] } } });
    await expectStatus(approve('jane'), {
      code: 403,
      reason: 'Forbidden',
      message: 'certificatesigningrequests.certificates.k8s.io "a" is forbidden: user not permitted to approve requests with signerName "example.com/signer"',
    });
    const out = await approve('approver');
    expect(out.status?.conditions?.map((c) => c.type)).toEqual(['Approved']);
  });

  it('a status write that sets the certificate needs sign on the signer; the conditions stay the approval’s', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    await grant(cluster, 'jane', CSR_RULES);
    await grant(cluster, 'signer', [...CSR_RULES, { apiGroups: ['certificates.k8s.io'], resources: ['signers'], verbs: ['sign'], resourceNames: ['example.com/signer'] }]);
    const created = await certsOf(cluster.kubeConfigFor({ user: 'jane' })).createCertificateSigningRequest({ body: csr('s') });
    const certificate = Buffer.from('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n').toString('base64');
    const sign = (user: string) => certsOf(cluster.kubeConfigFor({ user })).replaceCertificateSigningRequestStatus({ name: 's', body: { ...created, status: { certificate, conditions: [approved] } } });
    await expectStatus(sign('jane'), {
      code: 403,
      reason: 'Forbidden',
      message: 'certificatesigningrequests.certificates.k8s.io "s" is forbidden: user not permitted to sign requests with signerName "example.com/signer"',
    });
    const signed = await sign('signer');
    expect(signed.status?.certificate).toBe(certificate);
    expect(signed.status?.conditions).toBeUndefined();
    // A status write that changes neither is no signing: jane may make it.
    const relabelled = await certsOf(cluster.kubeConfigFor({ user: 'jane' })).replaceCertificateSigningRequestStatus({ name: 's', body: { ...signed, metadata: { ...signed.metadata, labels: { seen: 'yes' } } } });
    expect(relabelled.metadata?.labels).toEqual({ seen: 'yes' });
  });
});
