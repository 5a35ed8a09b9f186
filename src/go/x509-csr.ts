// certificates.ParseCSR and x509.CertificateRequest.CheckSignature, as CSR validation runs them
// (pkg/apis/certificates/helpers.go; Go's crypto/x509): the first PEM block must be a
// CERTIFICATE REQUEST, its DER a PKCS#10 CertificationRequest, and its signature must verify with
// the public key it carries. The texts are Go's for the PEM check and for a failed signature; a
// DER that does not parse answers Go's generic "x509: malformed certificate request" (Go's
// encoding/asn1 names the exact tag or length at fault, which is not reproduced). RSASSA-PSS
// signatures are not verified ("algorithm unimplemented"). The subject's organizations are read
// as pkix.Name.FillFromRDNSequence reads them (CertificateSubjectRestriction looks at them).
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/** pem.Decode's first block: its type and bytes, or undefined when there is none. */
export function decodeFirstPemBlock(text: string): { type: string; bytes: Buffer } | undefined {
  const begin = /-----BEGIN ([^\r\n-]*)-----\r?\n/.exec(text);
  if (!begin) return undefined;
  const type = begin[1]!;
  const rest = text.slice(begin.index + begin[0].length);
  const end = rest.indexOf(`-----END ${type}-----`);
  if (end < 0) return undefined;
  const body = rest.slice(0, end);
  // Headers ("Key: value" lines before a blank line) are allowed by pem.Decode and skipped.
  const lines = body.split(/\r?\n/);
  const blank = lines.findIndex((l) => l.trim() === '');
  const base64Lines = lines.some((l) => l.includes(':')) && blank >= 0 ? lines.slice(blank + 1) : lines;
  const base64 = base64Lines.join('').replace(/[ \t]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) return undefined;
  return { type, bytes: Buffer.from(base64, 'base64') };
}

interface Tlv {
  tag: number;
  /** The whole element, header included (what a signature covers). */
  raw: Buffer;
  content: Buffer;
}

class Malformed extends Error {}

/** One DER element at `offset`; throws Malformed on a truncated or indefinite length. */
function readTlv(buf: Buffer, offset: number): { tlv: Tlv; next: number } {
  if (offset + 2 > buf.length) throw new Malformed();
  const tag = buf[offset]!;
  let length = buf[offset + 1]!;
  let header = 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || offset + 2 + count > buf.length) throw new Malformed();
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + buf[offset + 2 + i]!;
    header += count;
  }
  const end = offset + header + length;
  if (end > buf.length) throw new Malformed();
  return { tlv: { tag, raw: buf.subarray(offset, end), content: buf.subarray(offset + header, end) }, next: end };
}

function children(tlv: Tlv): Tlv[] {
  const out: Tlv[] = [];
  let offset = 0;
  while (offset < tlv.content.length) {
    const { tlv: child, next } = readTlv(tlv.content, offset);
    out.push(child);
    offset = next;
  }
  return out;
}

/** An OBJECT IDENTIFIER's dotted form. */
function oid(content: Buffer): string {
  const parts: number[] = [];
  let value = 0;
  for (const byte of content) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  const first = parts.shift() ?? 0;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...parts].join('.');
}

// Signature algorithms Go verifies on a CSR (SHA-1 is allowed for requests), by OID.
const SIGNATURE_ALGORITHMS: Record<string, { hash: string | null; key: 'rsa' | 'ecdsa' | 'ed25519' }> = {
  '1.2.840.113549.1.1.5': { hash: 'sha1', key: 'rsa' },
  '1.2.840.113549.1.1.11': { hash: 'sha256', key: 'rsa' },
  '1.2.840.113549.1.1.12': { hash: 'sha384', key: 'rsa' },
  '1.2.840.113549.1.1.13': { hash: 'sha512', key: 'rsa' },
  '1.2.840.10045.4.1': { hash: 'sha1', key: 'ecdsa' },
  '1.2.840.10045.4.3.2': { hash: 'sha256', key: 'ecdsa' },
  '1.2.840.10045.4.3.3': { hash: 'sha384', key: 'ecdsa' },
  '1.2.840.10045.4.3.4': { hash: 'sha512', key: 'ecdsa' },
  '1.3.101.112': { hash: null, key: 'ed25519' },
};

const VERIFICATION_ERRORS = { rsa: 'crypto/rsa: verification error', ecdsa: 'x509: ECDSA verification failure', ed25519: 'x509: Ed25519 verification failure' };

/** The error validateCSR reports for a spec.request (PEM text), or undefined when it is a valid, signed CSR. */
export function certificateRequestError(pemText: string): string | undefined {
  const block = decodeFirstPemBlock(pemText);
  if (!block || block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  let info: Tlv;
  let algorithm: string;
  let signature: Buffer;
  let key: KeyObject;
  try {
    const { tlv: outer, next } = readTlv(block.bytes, 0);
    if (outer.tag !== 0x30) throw new Malformed();
    if (next !== block.bytes.length) return 'asn1: syntax error: trailing data';
    const [requestInfo, algorithmId, signatureBits] = children(outer);
    if (!requestInfo || requestInfo.tag !== 0x30 || !algorithmId || algorithmId.tag !== 0x30 || !signatureBits || signatureBits.tag !== 0x03) throw new Malformed();
    const infoParts = children(requestInfo);
    const spki = infoParts[2];
    if (!spki || spki.tag !== 0x30) throw new Malformed();
    const algorithmOid = children(algorithmId)[0];
    if (!algorithmOid || algorithmOid.tag !== 0x06) throw new Malformed();
    info = requestInfo;
    algorithm = oid(algorithmOid.content);
    // A BIT STRING's first content byte counts the unused bits (0 for a signature).
    signature = signatureBits.content.subarray(1);
    key = createPublicKey({ key: spki.raw, format: 'der', type: 'spki' });
  } catch (err) {
    if (err instanceof Malformed) return 'x509: malformed certificate request';
    // A public key Node cannot read is one Go cannot use either.
    return 'x509: unsupported public key algorithm';
  }
  const known = SIGNATURE_ALGORITHMS[algorithm];
  if (!known) return 'x509: cannot verify signature: algorithm unimplemented';
  let ok = false;
  try {
    ok = verify(known.hash, info.raw, key, signature);
  } catch {
    ok = false;
  }
  return ok ? undefined : VERIFICATION_ERRORS[known.key];
}

const ORGANIZATION_OID = '2.5.4.10';

/** An attribute value's text, for the ASN.1 string types Go's asn1 decodes into a string. */
function asn1String(tlv: Tlv): string | undefined {
  switch (tlv.tag) {
    case 0x0c: // UTF8String
      return tlv.content.toString('utf8');
    case 0x12: // NumericString
    case 0x13: // PrintableString
    case 0x16: // IA5String
    case 0x14: // T61String (Go reads it as Latin-1)
      return tlv.content.toString('latin1');
    case 0x1e: // BMPString: UCS-2, big-endian
      return Buffer.from(tlv.content).swap16().toString('utf16le');
    default:
      return undefined;
  }
}

/**
 * certificates.ParseCSR's subject organizations (the O of every RDN, in order), or the error
 * ParseCSR answers for text that is not a parseable certificate request.
 */
export function certificateRequestOrganizations(pemText: string): { organizations: string[] } | { error: string } {
  const block = decodeFirstPemBlock(pemText);
  if (!block || block.type !== 'CERTIFICATE REQUEST') return { error: 'PEM block type must be CERTIFICATE REQUEST' };
  try {
    const { tlv: outer } = readTlv(block.bytes, 0);
    const requestInfo = children(outer)[0];
    if (!requestInfo) throw new Malformed();
    const subject = children(requestInfo)[1];
    if (!subject || subject.tag !== 0x30) throw new Malformed();
    const organizations: string[] = [];
    for (const rdn of children(subject)) {
      for (const attribute of children(rdn)) {
        const [type, value] = children(attribute);
        if (!type || type.tag !== 0x06 || !value) throw new Malformed();
        if (oid(type.content) !== ORGANIZATION_OID) continue;
        const text = asn1String(value);
        if (text !== undefined) organizations.push(text);
      }
    }
    return { organizations };
  } catch (err) {
    if (err instanceof Malformed) return { error: 'x509: malformed certificate request' };
    throw err;
  }
}
