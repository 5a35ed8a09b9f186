// The cluster's root CA certificate: what the root-CA publisher puts in every namespace's
// `kube-root-ca.crt` ConfigMap (a real cluster publishes the CA that signed the apiserver's serving
// certificate, from kube-controller-manager's --root-ca-file).
//
// One CA per process, made on first use: an ECDSA P-256 key from node:crypto (well under a
// millisecond) and a self-signed X.509 v3 certificate built here in DER, synchronously, so a
// cluster's start-up neither waits for WebCrypto nor loads an X.509 library (issue 20's start-up
// budget). Its private key never leaves this module and signs nothing else: no kubefake listener
// serves a certificate under it (listen({ tls: true }) makes its own CA per listener).
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

const HOUR_MS = 60 * 60 * 1000;
/** kubeadm's CA lifetime (pkg/util/pkiutil: ten years). */
const CA_VALIDITY_MS = 10 * 365 * 24 * HOUR_MS;
export const CLUSTER_CA_COMMON_NAME = 'kubefake-ca';

let cached: string | undefined;

/** PEM of the process's cluster CA certificate, made on the first call. */
export function clusterCaCertificate(): string {
  return (cached ??= createCaCertificate(CLUSTER_CA_COMMON_NAME, new Date()));
}

/** A fresh self-signed CA certificate (PEM) for `commonName`, valid from an hour before `now` for ten years. */
export function createCaCertificate(commonName: string, now: Date): string {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  // The subjectPublicKey BIT STRING of a P-256 SPKI is its last 65 bytes (an uncompressed point).
  const keyId = createHash('sha1').update(spki.subarray(spki.length - 65)).digest();
  const serial = randomBytes(16);
  // A positive INTEGER in minimal DER: no leading 0x00, high bit clear.
  serial[0] = (serial[0]! % 0x7f) + 1;
  const name = seq(set(seq(oid(OID.commonName), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
  const ecdsaWithSha256 = seq(oid(OID.ecdsaWithSha256));
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([2]))), // [0] EXPLICIT version v3
    integer(serial),
    ecdsaWithSha256,
    name,
    seq(time(new Date(now.getTime() - HOUR_MS)), time(new Date(now.getTime() + CA_VALIDITY_MS))),
    name,
    spki,
    tlv(
      0xa3, // [3] EXPLICIT extensions
      seq(
        // keyUsage (critical): digitalSignature, keyEncipherment, keyCertSign, as kubeadm's CA.
        extension(OID.keyUsage, true, tlv(0x03, Buffer.from([0x02, 0xa4]))),
        // basicConstraints (critical): cA TRUE.
        extension(OID.basicConstraints, true, seq(tlv(0x01, Buffer.from([0xff])))),
        extension(OID.subjectKeyIdentifier, false, tlv(0x04, keyId)),
      ),
    ),
  );
  const signature = sign('sha256', tbs, privateKey); // DER ECDSA-Sig-Value
  const der = seq(tbs, ecdsaWithSha256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const base64 = der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n`;
}

const OID = {
  commonName: '2.5.4.3',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  subjectKeyIdentifier: '2.5.29.14',
};

function tlv(tag: number, content: Buffer): Buffer {
  const n = content.length;
  let length: Buffer;
  if (n < 0x80) length = Buffer.from([n]);
  else {
    const bytes: number[] = [];
    for (let rest = n; rest > 0; rest >>>= 8) bytes.unshift(rest & 0xff);
    length = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), length, content]);
}

const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
/** INTEGER of positive, already-minimal big-endian bytes. */
const integer = (bytes: Buffer) => tlv(0x02, bytes);

function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const out = [arcs[0]! * 40 + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const chunk = [arc & 0x7f];
    for (let rest = arc >>> 7; rest > 0; rest >>>= 7) chunk.unshift(0x80 | (rest & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050. */
function time(date: Date): Buffer {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '');
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${digits}Z`));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [tlv(0x01, Buffer.from([0xff]))] : []), tlv(0x04, value));
}
