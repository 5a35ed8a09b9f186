// A webhook call over the network, for a `clientConfig.url` no in-process handler answers: POST
// with the CA bundle of the client config (system roots without one) and the apiserver's absolute
// timeout. Failures carry the texts Go's HTTP client gives for the same situations.
import * as http from 'node:http';
import * as https from 'node:https';
import { WebhookTransportError, type WebhookReply } from './types.ts';

export interface HttpsPostOptions {
  headers: Record<string, string>;
  /** base64 of PEM certificates (clientConfig.caBundle). */
  caBundle?: string | undefined;
  timeoutMs: number;
}

const UNKNOWN_AUTHORITY = new Set(['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_GET_ISSUER_CERT']);

/** Go's reason for a failed round trip, as `*url.Error` prints it after the URL. */
function goReason(err: NodeJS.ErrnoException & { hostname?: string }, url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (err.code === 'ECONNREFUSED') return `dial tcp ${url.hostname}:${port}: connect: connection refused`;
  if (err.code === 'ENOTFOUND') return `dial tcp: lookup ${url.hostname}: no such host`;
  if (err.code && UNKNOWN_AUTHORITY.has(err.code)) return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  if (err.code === 'CERT_HAS_EXPIRED') return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  if (err.code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `tls: failed to verify certificate: x509: certificate is not valid for ${url.hostname}`;
  if (err.code === 'ECONNRESET') return 'EOF';
  return err.message;
}

export function httpsPost(target: string, body: string, options: HttpsPostOptions): Promise<WebhookReply> {
  const url = new URL(target);
  const fail = (reason: string) => new WebhookTransportError(`Post ${JSON.stringify(target)}: ${reason}`);
  return new Promise<WebhookReply>((resolve, reject) => {
    const ca = options.caBundle ? Buffer.from(options.caBundle, 'base64').toString('utf8') : undefined;
    const send = url.protocol === 'http:' ? http.request : https.request;
    let timedOut = false;
    const req = send(url, { method: 'POST', headers: { ...options.headers, 'content-length': String(Buffer.byteLength(body)) }, ...(ca ? { ca } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => reject(fail(timedOut ? 'context deadline exceeded' : goReason(err, url))));
      res.on('end', () => {
        clearTimeout(timer);
        const contentType = res.headers['content-type'];
        resolve({ status: res.statusCode ?? 0, contentType: contentType || undefined, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy();
    }, options.timeoutMs);
    timer.unref?.();
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(fail(timedOut ? 'context deadline exceeded' : goReason(err, url)));
    });
    req.end(body);
  });
}
