// CertificateSigningRequest create validation (pkg/apis/certificates/validation, v1.36) through
// client-node: the request must be a signed PEM CERTIFICATE REQUEST (ECDSA, RSA and Ed25519
// signatures are verified), usages given, known and unique, the signer a domain and a path, and
// expirationSeconds at least ten minutes; an update keeps the stored spec.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { ED25519_REQUEST, P256_REQUEST, RSA_REQUEST, TAMPERED_REQUEST } from './data/csr.ts';
import { expectStatus } from './support/status.ts';
import { causeLines } from './support/validation.ts';

let cluster: FakeCluster;
let certs: k8s.CertificatesV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster();
  certs = cluster.kubeConfig.makeApiClient(k8s.CertificatesV1Api);
});
afterAll(() => cluster.close());

const create = (name: string, spec: Partial<k8s.V1CertificateSigningRequestSpec>) =>
  certs.createCertificateSigningRequest({ body: { metadata: { name }, spec: { request: P256_REQUEST, signerName: 'example.com/signer', usages: ['client auth'], ...spec } } });

describe('CertificateSigningRequest (validateCertificateSigningRequest)', () => {
  it('accepts requests signed with ECDSA, RSA and Ed25519 keys', async () => {
    for (const [name, request] of [['ecdsa', P256_REQUEST], ['rsa', RSA_REQUEST], ['ed25519', ED25519_REQUEST]] as const) {
      const created = await create(name, { request });
      expect(created.spec.request).toBe(request);
    }
  });

  it('refuses a request that is not a CERTIFICATE REQUEST PEM block, or whose signature does not verify', async () => {
    const notPem = Buffer.from('hello').toString('base64');
    await expectStatus(create('not-pem', { request: notPem }), {
      code: 422,
      message: `CertificateSigningRequest.certificates.k8s.io "not-pem" is invalid: spec.request: Invalid value: "${notPem}": PEM block type must be CERTIFICATE REQUEST`,
    });
    const certificate = Buffer.from('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n').toString('base64');
    await expectStatus(create('wrong-type', { request: certificate }), {
      code: 422,
      message: `CertificateSigningRequest.certificates.k8s.io "wrong-type" is invalid: spec.request: Invalid value: "${certificate}": PEM block type must be CERTIFICATE REQUEST`,
    });
    await expectStatus(create('tampered', { request: TAMPERED_REQUEST }), {
      code: 422,
      message: `CertificateSigningRequest.certificates.k8s.io "tampered" is invalid: spec.request: Invalid value: "${TAMPERED_REQUEST}": x509: Ed25519 verification failure`,
    });
  });

  it('checks usages, the signer name and expirationSeconds', async () => {
    expect(causeLines(await expectStatus(create('usages', { usages: ['client auth', 'flying', 'client auth'], expirationSeconds: 60 }), { code: 422 }))).toEqual([
      'spec.usages[1]: Unsupported value: "flying": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"',
      'spec.usages[2]: Duplicate value: "client auth"',
      'spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)',
    ]);
    expect(causeLines(await expectStatus(create('no-usages', { usages: [] }), { code: 422 }))).toEqual(['spec.usages: Required value']);
    await expectStatus(create('legacy', { signerName: 'kubernetes.io/legacy-unknown' }), {
      code: 422,
      message: 'CertificateSigningRequest.certificates.k8s.io "legacy" is invalid: spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version',
    });
    await expectStatus(create('no-path', { signerName: 'example.com' }), {
      code: 422,
      message: "CertificateSigningRequest.certificates.k8s.io \"no-path\" is invalid: spec.signerName: Invalid value: \"example.com\": must be a fully qualified domain and path of the form 'example.com/signer-name'",
    });
    expect(causeLines(await expectStatus(create('bad-domain', { signerName: 'Example/signer_1' }), { code: 422 }))).toEqual([
      `spec.signerName: Invalid value: "Example": validating label "Example": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      'spec.signerName: Invalid value: "Example": should be a domain with at least two segments separated by dots',
      `spec.signerName: Invalid value: "signer_1": validating label "signer_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]);
  });

  it('keeps the stored spec on update', async () => {
    const created = await create('kept', {});
    const updated = await certs.replaceCertificateSigningRequest({ name: 'kept', body: { ...created, metadata: { ...created.metadata, labels: { a: 'b' } }, spec: { ...created.spec, usages: ['server auth'] } } });
    expect(updated.spec.usages).toEqual(['client auth']);
    expect(updated.metadata!.labels).toEqual({ a: 'b' });
  });
});
