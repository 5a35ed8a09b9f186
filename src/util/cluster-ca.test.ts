import { X509Certificate } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { clusterCaCertificate, createCaCertificate } from './cluster-ca.ts';

describe('the cluster CA certificate', () => {
  test('is one self-signed CA certificate per process, which OpenSSL parses and verifies', () => {
    const pem = clusterCaCertificate();
    expect(clusterCaCertificate()).toBe(pem);
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n([A-Za-z0-9+/=]{64}\n)*[A-Za-z0-9+/=]{1,64}\n-----END CERTIFICATE-----\n$/);
    const cert = new X509Certificate(pem);
    expect(cert.ca).toBe(true);
    expect(cert.subject).toBe('CN=kubefake-ca');
    expect(cert.issuer).toBe('CN=kubefake-ca');
    expect(cert.checkIssued(cert)).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.publicKey.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
  });

  test('is valid from an hour before its creation for ten years (GeneralizedTime past 2049)', () => {
    const cert = new X509Certificate(createCaCertificate('late', new Date('2045-06-01T00:00:00Z')));
    expect(new Date(cert.validFrom).toISOString()).toBe('2045-05-31T23:00:00.000Z');
    expect(new Date(cert.validTo).toISOString()).toBe('2055-05-30T00:00:00.000Z');
    expect(cert.verify(cert.publicKey)).toBe(true);
  });

  test('each created certificate has its own key and serial number', () => {
    const a = new X509Certificate(createCaCertificate('a', new Date()));
    const b = new X509Certificate(createCaCertificate('a', new Date()));
    expect(a.serialNumber).not.toBe(b.serialNumber);
    expect(a.verify(b.publicKey)).toBe(false);
  });
});
