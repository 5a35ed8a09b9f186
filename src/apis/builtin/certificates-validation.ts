// ValidateCertificateSigningRequestCreate's spec part (pkg/apis/certificates/validation/validation.go,
// v1.36): spec.request must be a PEM CERTIFICATE REQUEST whose signature verifies, usages must be
// given, known and unique, the signer name must be a domain and a path (ValidateSignerName in
// pkg/apis/core/validation/names.go; never the legacy-unknown signer through v1), and
// expirationSeconds at least 600. The status is empty on create (the strategy resets it) and the
// spec is kept from the stored object on update, so only create has spec errors to report.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { goQuote } from '../../errors/go-format.ts';
import { certificateRequestError } from '../../go/x509-csr.ts';
import { DNS1123_LABEL_MAX_LENGTH, DNS1123_SUBDOMAIN_MAX_LENGTH, isDNS1123Label, isDNS1123Subdomain } from '../../validation/names.ts';
import { isPlainObject, type KubeObject } from '../object.ts';
import { decodeGoBase64 } from '../../go/base64.ts';

type Json = Record<string, unknown>;

// allValidUsages, sorted as sets.String.List() returns them.
const VALID_USAGES = [
  'any', 'cert sign', 'client auth', 'code signing', 'content commitment', 'crl sign', 'data encipherment', 'decipher only', 'digital signature',
  'email protection', 'encipher only', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'key agreement', 'key encipherment', 'microsoft sgc',
  'netscape sgc', 'ocsp signing', 's/mime', 'server auth', 'signing', 'timestamping',
];
const LEGACY_UNKNOWN_SIGNER = 'kubernetes.io/legacy-unknown';

/** ValidateSignerName. */
export function validateSignerName(path: string, signerName: string): FieldError[] {
  if (signerName === '') return [fieldError.required(path)];
  const segments = signerName.split('/');
  if (segments.length !== 2) return [fieldError.invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain, rest] = segments as [string, string];
  const errs: FieldError[] = [];
  if (domain.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(fieldError.tooLong(path, DNS1123_SUBDOMAIN_MAX_LENGTH));
  const domainLabels = domain.split('.');
  for (const label of domainLabels) {
    const msgs = isDNS1123Label(label);
    if (msgs.length) {
      errs.push(...msgs.map((m) => fieldError.invalid(path, domain, `validating label ${goQuote(label)}: ${m}`)));
      break;
    }
  }
  if (domainLabels.length < 2) errs.push(fieldError.invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  for (const label of rest.split('.')) {
    const msgs = isDNS1123Subdomain(label);
    if (msgs.length) {
      errs.push(...msgs.map((m) => fieldError.invalid(path, rest, `validating label ${goQuote(label)}: ${m}`)));
      break;
    }
  }
  const max = DNS1123_SUBDOMAIN_MAX_LENGTH + (DNS1123_SUBDOMAIN_MAX_LENGTH + DNS1123_LABEL_MAX_LENGTH + 1) + 1;
  if (signerName.length > max) errs.push(fieldError.tooLong(path, max));
  return errs;
}

export function validateCertificateSigningRequestCreate(csr: KubeObject): FieldError[] {
  const spec = (isPlainObject(csr.spec) ? csr.spec : {}) as Json;
  const errs: FieldError[] = [];
  const request = typeof spec.request === 'string' ? spec.request : '';
  const decoded = decodeGoBase64(request);
  const requestError = certificateRequestError(decoded.ok ? Buffer.from(decoded.bytes).toString('latin1') : '');
  // The value is the request's bytes, which encoding/json prints as base64 (the JSON field itself).
  if (requestError !== undefined) errs.push(fieldError.invalid('spec.request', request, requestError));
  const usages = Array.isArray(spec.usages) ? spec.usages.map((u) => (typeof u === 'string' ? u : String(u))) : [];
  if (usages.length === 0) errs.push(fieldError.required('spec.usages'));
  usages.forEach((u, i) => {
    if (!VALID_USAGES.includes(u)) errs.push(fieldError.notSupported(`spec.usages[${i}]`, u, VALID_USAGES));
  });
  const seen = new Set<string>();
  usages.forEach((u, i) => {
    if (seen.has(u)) errs.push(fieldError.duplicate(`spec.usages[${i}]`, u));
    seen.add(u);
  });
  const signerName = typeof spec.signerName === 'string' ? spec.signerName : '';
  if (signerName === LEGACY_UNKNOWN_SIGNER) errs.push(fieldError.invalid('spec.signerName', signerName, 'the legacy signerName is not allowed via this API version'));
  else errs.push(...validateSignerName('spec.signerName', signerName));
  if (typeof spec.expirationSeconds === 'number' && spec.expirationSeconds < 600) {
    errs.push(fieldError.invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  return errs;
}
