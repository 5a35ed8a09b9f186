import { X509Certificate } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServingCertificates } from './serving-certs.ts';

afterEach(() => vi.restoreAllMocks());

describe('createServingCertificates', () => {
  it('encodes every serial number in minimal DER, also when the random bytes start with zeros', async () => {
    // All-zero randomness: the draw that once produced a padded INTEGER OpenSSL refused.
    vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      if (array) new Uint8Array(array.buffer, array.byteOffset, array.byteLength).fill(0);
      return array;
    });
    const certs = await createServingCertificates(['127.0.0.1', 'localhost']);
    const ca = new X509Certificate(certs.caCert);
    const serving = new X509Certificate(certs.cert);
    expect(serving.checkIssued(ca)).toBe(true);
    expect(serving.verify(ca.publicKey)).toBe(true);
    for (const cert of [ca, serving]) expect(cert.serialNumber).toMatch(/^01(00)+$/);
  });
});
