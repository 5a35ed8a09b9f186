// The TLS identity of a `listen({ tls: true })` listener: a fresh CA per listener (its
// certificate goes into the kubeconfig as certificate-authority-data) and a serving certificate
// it signs for the addresses clients dial. node:crypto reads X.509 but cannot issue it, so the
// certificates are built with pkijs (no global polyfills, unlike @peculiar/x509's tsyringe) and
// signed through WebCrypto. ECDSA P-256: accepted by Go, OpenSSL and Node, generated in a millisecond.
import { isIP } from 'node:net';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const HOUR_MS = 60 * 60 * 1000;
const YEAR_MS = 365 * 24 * HOUR_MS;

const OID = {
  commonName: '2.5.4.3',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  organization: '2.5.4.10',
};

// KeyUsage bits (RFC 5280 4.2.1.3), first byte of the BIT STRING: bit 0 is 0x80.
const DIGITAL_SIGNATURE = 0x80;
const KEY_CERT_SIGN = 0x04;
const CRL_SIGN = 0x02;

export interface ServingCertificates {
  /** PEM of the CA certificate clients trust. */
  caCert: string;
  /** PEM of the serving certificate. */
  cert: string;
  /** PEM (PKCS#8) of the serving certificate's private key. */
  key: string;
  /**
   * A client certificate signed by the same CA, as kube-apiserver's x509 authenticator reads one:
   * the common name is the user, each organization a group.
   */
  issueClientCertificate(user: string, groups: readonly string[]): Promise<{ cert: string; key: string }>;
}

const engine = new pkijs.CryptoEngine({ name: 'node', crypto: globalThis.crypto });

const pem = (label: string, der: ArrayBuffer): string =>
  `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;

const extension = (extnID: string, critical: boolean, value: { toSchema(): asn1js.BaseBlock } | asn1js.BaseBlock) =>
  new pkijs.Extension({ extnID, critical, extnValue: ('toSchema' in value ? value.toSchema() : value).toBER(false) });

const keyUsage = (bits: number) => new asn1js.BitString({ valueHex: new Uint8Array([bits]).buffer });

function ipBytes(ip: string): ArrayBuffer {
  // Callers pass plain IPv4 or IPv6 (no embedded IPv4 such as ::ffff:1.2.3.4).
  if (isIP(ip) === 4) return new Uint8Array(ip.split('.').map(Number)).buffer;
  // IPv6: expand `::`, then 8 groups of 16 bits.
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const v = parseInt(g, 16);
    out[i * 2] = v >> 8;
    out[i * 2 + 1] = v & 0xff;
  });
  return out.buffer;
}

async function certificate(options: {
  subject: string;
  /** Organizations (O) after the common name: a client certificate's groups. */
  organizations?: readonly string[];
  issuer: string;
  publicKey: CryptoKey;
  signingKey: CryptoKey;
  extensions: pkijs.Extension[];
}): Promise<pkijs.Certificate> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  const serial = globalThis.crypto.getRandomValues(new Uint8Array(16));
  // A positive INTEGER in minimal DER: a first byte of 0x00 (1 in 128 draws) would be padding
  // OpenSSL refuses ("asn1 encoding routines::illegal padding"), so it is kept in 0x01..0x7f.
  serial[0] = (serial[0]! % 0x7f) + 1;
  cert.serialNumber = new asn1js.Integer({ valueHex: serial.buffer });
  const name = (cn: string) => new pkijs.AttributeTypeAndValue({ type: OID.commonName, value: new asn1js.Utf8String({ value: cn }) });
  cert.subject.typesAndValues.push(name(options.subject));
  for (const o of options.organizations ?? []) cert.subject.typesAndValues.push(new pkijs.AttributeTypeAndValue({ type: OID.organization, value: new asn1js.Utf8String({ value: o }) }));
  cert.issuer.typesAndValues.push(name(options.issuer));
  // An hour back for clock skew between the test machine and a container.
  cert.notBefore.value = new Date(Date.now() - HOUR_MS);
  cert.notAfter.value = new Date(Date.now() + YEAR_MS);
  cert.extensions = options.extensions;
  await cert.subjectPublicKeyInfo.importKey(options.publicKey, engine);
  await cert.sign(options.signingKey, 'SHA-256', engine);
  return cert;
}

/** A CA and a serving certificate for `hosts` (IP addresses and DNS names), valid for a year. */
export async function createServingCertificates(hosts: readonly string[]): Promise<ServingCertificates> {
  const caKeys = await globalThis.crypto.subtle.generateKey(KEY_ALGORITHM, false, ['sign', 'verify']);
  const ca = await certificate({
    subject: 'kubefake-ca',
    issuer: 'kubefake-ca',
    publicKey: caKeys.publicKey,
    signingKey: caKeys.privateKey,
    extensions: [
      extension(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: true, pathLenConstraint: 0 })),
      extension(OID.keyUsage, true, keyUsage(KEY_CERT_SIGN | CRL_SIGN)),
    ],
  });
  const servingKeys = await globalThis.crypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
  const altNames = new pkijs.GeneralNames({
    names: [...new Set(hosts)].filter((h) => !(isIP(h) === 6 && h.includes('.'))).map((h) =>
      isIP(h) ? new pkijs.GeneralName({ type: 7, value: new asn1js.OctetString({ valueHex: ipBytes(h) }) }) : new pkijs.GeneralName({ type: 2, value: h }),
    ),
  });
  const serving = await certificate({
    subject: 'kubefake',
    issuer: 'kubefake-ca',
    publicKey: servingKeys.publicKey,
    signingKey: caKeys.privateKey,
    extensions: [
      extension(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: false })),
      extension(OID.keyUsage, true, keyUsage(DIGITAL_SIGNATURE)),
      extension(OID.extKeyUsage, false, new pkijs.ExtKeyUsage({ keyPurposes: [OID.serverAuth] })),
      extension(OID.subjectAltName, false, altNames),
    ],
  });
  return {
    caCert: pem('CERTIFICATE', ca.toSchema().toBER(false)),
    cert: pem('CERTIFICATE', serving.toSchema().toBER(false)),
    key: pem('PRIVATE KEY', await globalThis.crypto.subtle.exportKey('pkcs8', servingKeys.privateKey)),
    async issueClientCertificate(user, groups) {
      const keys = await globalThis.crypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
      const client = await certificate({
        subject: user,
        organizations: groups,
        issuer: 'kubefake-ca',
        publicKey: keys.publicKey,
        signingKey: caKeys.privateKey,
        extensions: [
          extension(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: false })),
          extension(OID.keyUsage, true, keyUsage(DIGITAL_SIGNATURE)),
          extension(OID.extKeyUsage, false, new pkijs.ExtKeyUsage({ keyPurposes: [OID.clientAuth] })),
        ],
      });
      return { cert: pem('CERTIFICATE', client.toSchema().toBER(false)), key: pem('PRIVATE KEY', await globalThis.crypto.subtle.exportKey('pkcs8', keys.privateKey)) };
    },
  };
}
