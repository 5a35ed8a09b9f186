// The Table of CertificateSigningRequests (printCertificateSigningRequest of
// pkg/printers/internalversion/printers.go, v1.36) through raw Table requests and kubectl get:
// the signer, the requested duration as HumanDuration prints it, and the condition summary.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { P256_REQUEST } from './data/csr.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { fetchTableNames } from './support/table.ts';

let cluster: FakeCluster;
let url: string;
let certs: k8s.CertificatesV1Api;

const table = (path: string) => fetchTableNames(url, path);
const csr = (name: string, expirationSeconds?: number): k8s.V1CertificateSigningRequest => ({
  metadata: { name },
  spec: { request: P256_REQUEST, signerName: 'example.com/signer', usages: ['client auth'], ...(expirationSeconds ? { expirationSeconds } : {}) },
});

beforeAll(async () => {
  cluster = await createFakeCluster();
  url = (await cluster.listen()).url;
  certs = cluster.kubeConfig.makeApiClient(k8s.CertificatesV1Api);
  await certs.createCertificateSigningRequest({ body: csr('pending', 3600) });
  const denied = await certs.createCertificateSigningRequest({ body: csr('denied', 86400 * 3) });
  await certs.replaceCertificateSigningRequestApproval({
    name: 'denied',
    body: { ...denied, status: { conditions: [{ type: 'Denied', status: 'True', reason: 'No', message: 'no' }, { type: 'Failed', status: 'True', reason: 'Broken', message: 'x' }] } },
  });
  await certs.createCertificateSigningRequest({ body: csr('to-approve') });
});
afterAll(() => cluster.close());

describe('CertificateSigningRequest Tables', () => {
  it('print the signer, the requested duration and Pending, Denied,Failed', async () => {
    const t = await table('/apis/certificates.k8s.io/v1/certificatesigningrequests');
    expect(t.columns).toEqual(['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']);
    const byName = Object.fromEntries(t.rows.map((r) => [r[0], r.slice(1)]));
    // The requestor is spec.username, which the registry stamps (kubefake's administrator here).
    expect(byName).toEqual({
      denied: ['example.com/signer', 'system:admin', '3d', 'Denied,Failed'],
      pending: ['example.com/signer', 'system:admin', '60m', 'Pending'],
      'to-approve': ['example.com/signer', 'system:admin', '<none>', 'Pending'],
    });
  });
});

describe.skipIf(!kubectlAvailable)('kubectl', () => {
  it('shows Approved after kubectl certificate approve', async () => {
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    expect((await kubectl(['certificate', 'approve', 'to-approve'])).code).toBe(0);
    const lines = (await kubectl(['get', 'csr', 'to-approve'])).stdout.trim().split('\n').map((l) => l.split(/\s{2,}/).filter(Boolean));
    expect(lines[0]).toEqual(['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION']);
    // Columns: name, age, signer, requestor, duration, condition.
    expect(lines[1]![0]).toBe('to-approve');
    expect(lines[1]!.slice(-4)).toEqual(['example.com/signer', 'system:admin', '<none>', 'Approved']);
  });
});
