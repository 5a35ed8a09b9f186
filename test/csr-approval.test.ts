// certificatesigningrequests/approval as csrApprovalStrategy serves it: only status.conditions
// change, their timestamps are filled in, ValidateCertificateSigningRequestApprovalUpdate's
// condition rules hold; get, update and patch through client-node, approve/deny through kubectl.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner, type Kubectl } from './support/kubectl.ts';
import { expectStatus } from './support/status.ts';
import { P256_REQUEST } from './data/csr.ts';

const REQUEST = P256_REQUEST;
const START = '2026-03-01T10:00:00Z';

const csr = (name: string): k8s.V1CertificateSigningRequest => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name },
  spec: { request: REQUEST, signerName: 'example.com/signer', usages: ['client auth'] },
});

const approved = { type: 'Approved', status: 'True', reason: 'Reviewed', message: 'looks fine' };
const denied = { type: 'Denied', status: 'True', reason: 'Refused', message: 'no' };

let cluster: FakeCluster;
let certs: k8s.CertificatesV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster({ clock: START });
  certs = cluster.kubeConfig.makeApiClient(k8s.CertificatesV1Api);
});
afterAll(() => cluster.close());

describe('certificatesigningrequests/approval', () => {
  it('changes status.conditions only, stamping lastUpdateTime and lastTransitionTime', async () => {
    const created = await certs.createCertificateSigningRequest({ body: csr('one') });
    const out = await certs.replaceCertificateSigningRequestApproval({
      name: 'one',
      body: {
        ...created,
        metadata: { ...created.metadata, labels: { reviewed: 'yes' } },
        spec: { ...created.spec, usages: ['server auth'], signerName: 'example.com/other' },
        status: { conditions: [approved as k8s.V1CertificateSigningRequestCondition], certificate: 'Zm9v' },
      },
    });
    expect(out.spec).toEqual(created.spec);
    expect(out.metadata?.labels).toEqual({ reviewed: 'yes' });
    expect(out.status?.certificate).toBeUndefined();
    expect(out.status?.conditions).toEqual([{ ...approved, lastUpdateTime: new Date(START), lastTransitionTime: new Date(START) }]);
    const raw = cluster.get({ kind: 'CertificateSigningRequest', name: 'one' })!;
    expect(raw.status).toEqual({ conditions: [{ ...approved, lastUpdateTime: START, lastTransitionTime: START }] });
  });

  it('carries lastTransitionTime from the stored condition of the same type and status; lastUpdateTime is now', async () => {
    cluster.clock.advance(60_000);
    const later = new Date(cluster.clock.now()).toISOString().replace('.000', '');
    // A JSON merge patch replaces the conditions list: the Approved condition comes back without times.
    const out = await certs.patchCertificateSigningRequestApproval(
      { name: 'one', body: { status: { conditions: [approved, { type: 'Reviewed', status: 'False', reason: 'Pending' }] } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    expect(out.status?.conditions).toEqual([
      { ...approved, lastUpdateTime: new Date(later), lastTransitionTime: new Date(START) },
      { type: 'Reviewed', status: 'False', reason: 'Pending', lastUpdateTime: new Date(later), lastTransitionTime: new Date(later) },
    ]);
  });

  it('serves get, and a strategic merge patch keeps spec', async () => {
    const got = await certs.readCertificateSigningRequestApproval({ name: 'one' });
    expect(got.status?.conditions?.map((c) => c.type)).toEqual(['Approved', 'Reviewed']);
    const out = await certs.patchCertificateSigningRequestApproval(
      { name: 'one', body: { spec: { signerName: 'example.com/other' }, metadata: { annotations: { note: 'x' } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
    expect(out.spec?.signerName).toBe('example.com/signer');
    expect(out.metadata?.annotations).toEqual({ note: 'x' });
  });

  it('is not served for DELETE or POST', async () => {
    for (const method of ['DELETE', 'POST']) {
      const res = await fetch(`${cluster.url}/apis/certificates.k8s.io/v1/certificatesigningrequests/one/approval`, { method, body: method === 'POST' ? '{}' : undefined });
      expect(res.status, method).toBe(405);
    }
  });

  it('refuses Approved and Denied together', async () => {
    const created = await certs.createCertificateSigningRequest({ body: csr('both') });
    await expectStatus(certs.replaceCertificateSigningRequestApproval({ name: 'both', body: { ...created, status: { conditions: [approved, denied] } } }), {
      code: 422,
      reason: 'Invalid',
      message: 'CertificateSigningRequest.certificates.k8s.io "both" is invalid: status.conditions: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
    });
  });

  it('refuses removing an Approved condition', async () => {
    const current = await certs.readCertificateSigningRequest({ name: 'one' });
    await expectStatus(certs.replaceCertificateSigningRequestApproval({ name: 'one', body: { ...current, status: { conditions: [] } } }), {
      code: 422,
      reason: 'Invalid',
      message: 'CertificateSigningRequest.certificates.k8s.io "one" is invalid: status.conditions: Forbidden: updates may not remove a condition of type "Approved"',
    });
  });

  it('refuses a status other than True for Approved, Denied and Failed, a missing status and a duplicate type', async () => {
    const created = await certs.createCertificateSigningRequest({ body: csr('bad') });
    const conditions = [
      { type: 'Failed', status: 'False' },
      { type: 'Ready', status: '' },
      { type: 'Ready', status: 'Maybe' },
    ] as k8s.V1CertificateSigningRequestCondition[];
    await expectStatus(certs.replaceCertificateSigningRequestApproval({ name: 'bad', body: { ...created, status: { conditions } } }), {
      code: 422,
      reason: 'Invalid',
      message:
        'CertificateSigningRequest.certificates.k8s.io "bad" is invalid: [status.conditions[0].status: Unsupported value: "False": supported values: "True", ' +
        'status.conditions[1].status: Required value, status.conditions[2].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown", ' +
        'status.conditions[2].type: Duplicate value: "Ready"]',
    });
    expect(cluster.get({ kind: 'CertificateSigningRequest', name: 'bad' })!.status).toEqual({});
  });

  it('is answered 404 for a missing request', async () => {
    await expectStatus(certs.readCertificateSigningRequestApproval({ name: 'nope' }), {
      code: 404,
      reason: 'NotFound',
      message: 'certificatesigningrequests.certificates.k8s.io "nope" not found',
    });
  });
});

describe.skipIf(!kubectlAvailable)('kubectl certificate approve / deny', () => {
  let kubectl: Kubectl;
  beforeAll(async () => {
    kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
  });

  it('approves through the approval subresource', async () => {
    await certs.createCertificateSigningRequest({ body: csr('by-kubectl') });
    const res = await kubectl(['certificate', 'approve', 'by-kubectl']);
    expect(res).toMatchObject({ code: 0, stdout: 'certificatesigningrequest.certificates.k8s.io/by-kubectl approved\n' });
    const stored = cluster.get({ kind: 'CertificateSigningRequest', name: 'by-kubectl' })!;
    // kubectl's write is recorded under the approval subresource, owning the conditions it set.
    const entry = (stored.metadata?.managedFields as Array<Record<string, any>>).find((m) => m.manager === 'kubectl');
    expect(entry).toMatchObject({ operation: 'Update', subresource: 'approval' });
    expect(Object.keys(entry!.fieldsV1)).toEqual(['f:status']);
    expect(Object.keys(entry!.fieldsV1['f:status'])).toEqual(['f:conditions']);
    expect(stored.status).toEqual({
      conditions: [
        {
          type: 'Approved',
          status: 'True',
          reason: 'KubectlApprove',
          message: 'This CSR was approved by kubectl certificate approve.',
          lastUpdateTime: expect.any(String),
          lastTransitionTime: expect.any(String),
        },
      ],
    });
  });

  it('denies, and refuses to deny an approved request', async () => {
    await certs.createCertificateSigningRequest({ body: csr('to-deny') });
    expect(await kubectl(['certificate', 'deny', 'to-deny'])).toMatchObject({ code: 0, stdout: 'certificatesigningrequest.certificates.k8s.io/to-deny denied\n' });
    expect(cluster.get({ kind: 'CertificateSigningRequest', name: 'to-deny' })!.status).toMatchObject({ conditions: [{ type: 'Denied', status: 'True', reason: 'KubectlDeny' }] });
    const res = await kubectl(['certificate', 'deny', 'by-kubectl']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('is already Approved');
  });
});
