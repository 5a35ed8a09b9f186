// k8s.io/apiserver/pkg/util/webhook/validation.go: a webhook's URL, service reference
// and CA bundle.
import { X509Certificate } from 'node:crypto';
import { fieldError, fieldPath, type FieldError } from '../errors/field-error.ts';
import { isDNS1123Subdomain } from './names.ts';
import { isValidPortNum } from './ports.ts';
import { parseURL, UrlError } from '../go/net-url.ts';

const FORM = '; desired format: https://host[/path]';

export function validateWebhookURL(path: string, url: string, forceHttps: boolean): FieldError[] {
  const errs: FieldError[] = [];
  let u;
  try {
    u = parseURL(url);
  } catch (e) {
    if (!(e instanceof UrlError)) throw e;
    return [fieldError.required(path, 'url must be a valid URL: ' + e.message + FORM)];
  }
  const user = u.getUserinfo();
  if (forceHttps && u.scheme !== 'https') errs.push(fieldError.invalid(path, u.getScheme(), "'https' is the only allowed URL scheme" + FORM));
  if (u.host.length === 0) errs.push(fieldError.invalid(path, '', 'host must be specified' + FORM));
  if (user !== undefined) errs.push(fieldError.invalid(path, user, 'user information is not permitted in the URL'));
  if (u.fragment.length !== 0) errs.push(fieldError.invalid(path, u.getFragment(), 'fragments are not permitted in the URL'));
  if (u.rawQuery.length !== 0) errs.push(fieldError.invalid(path, u.getRawQuery(), 'query parameters are not permitted in the URL'));
  return errs;
}

export function validateWebhookService(path: string, namespace: string, name: string, urlPath: string | undefined, port: number): FieldError[] {
  const errs: FieldError[] = [];
  if (name.length === 0) errs.push(fieldError.required(fieldPath.child(path, 'name'), ''));
  if (namespace.length === 0) errs.push(fieldError.required(fieldPath.child(path, 'namespace'), ''));
  const portErrs = isValidPortNum(port);
  if (portErrs.length) errs.push(fieldError.invalid(fieldPath.child(path, 'port'), port, `port is not valid: ${portErrs.join(', ')}`));
  if (urlPath === undefined || urlPath === '/' || urlPath.length === 0) return errs;
  const pathField = fieldPath.child(path, 'path');
  if (urlPath === '//') {
    errs.push(fieldError.invalid(pathField, urlPath, 'segment[0] may not be empty'));
    return errs;
  }
  if (!urlPath.startsWith('/')) errs.push(fieldError.invalid(pathField, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step.length === 0) {
      errs.push(fieldError.invalid(pathField, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step)) errs.push(fieldError.invalid(pathField, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

/**
 * ValidateCABundle: client-go's TLSConfigFor loads the bundle into a cert pool. The PEM walk and its
 * texts follow client-go (createErrorParsingCAData); certificate parse failures carry Node's reason,
 * not Go's x509 text.
 */
export function validateCABundle(path: string, caBundleBase64: string): FieldError[] {
  const err = caBundleError(Buffer.from(caBundleBase64, 'base64').toString('latin1'));
  return err === undefined ? [] : [fieldError.invalid(path, caBundleBase64, 'unable to load root certificates: ' + err)];
}

const PEM_BLOCK = /-----BEGIN ([^-\r\n]*)-----\r?\n([\s\S]*?)-----END \1-----/;

interface PemBlock {
  type: string;
  hasHeaders: boolean;
  der: Buffer;
}

/** pem.Decode over the whole input: the blocks, and whether undecodable bytes remain after them. */
function pemBlocks(pem: string): { blocks: PemBlock[]; trailing: boolean } {
  const blocks: PemBlock[] = [];
  let rest = pem;
  for (;;) {
    const m = PEM_BLOCK.exec(rest);
    if (!m) return { blocks, trailing: rest.length > 0 };
    rest = rest.slice(m.index + m[0].length).replace(/^\r?\n/, '');
    const body = m[2]!;
    blocks.push({ type: m[1]!, hasHeaders: /^[^\s:]+:/m.test(body), der: Buffer.from(body.replace(/\s+/g, ''), 'base64') });
  }
}

function parses(der: Buffer): string | undefined {
  try {
    new X509Certificate(der);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

// x509.CertPool.AppendCertsFromPEM succeeds when any certificate loads; otherwise client-go's
// createErrorParsingCAData explains the first problem.
function caBundleError(pem: string): string | undefined {
  const { blocks, trailing } = pemBlocks(pem);
  const isCert = (b: PemBlock): boolean => b.type === 'CERTIFICATE' && !b.hasHeaders;
  if (blocks.some((b) => isCert(b) && parses(b.der) === undefined)) return undefined;
  for (const b of blocks) {
    if (!isCert(b)) continue;
    const err = parses(b.der);
    if (err !== undefined) return `failed to parse certificate: ${err}`;
  }
  if (trailing) return 'unable to parse bytes as PEM block';
  return 'no valid certificate authority data seen';
}
