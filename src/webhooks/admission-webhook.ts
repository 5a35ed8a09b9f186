// Helpers to serve an admission webhook written in TypeScript from a test, with
// `cluster.serveWebhook(target, …)`: a function from the AdmissionRequest to its answer
// (`admissionWebhook`), or an existing Node HTTP handler — an Express app, Fastify's
// `routing`, a plain `(req, res)` listener — mounted on a loopback server of this process
// (`nodeWebhook`). Both receive exactly what kube-apiserver posts and answer over the same path.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeObject } from '../apis/object.ts';
import type { Status } from '../errors/status-error.ts';
import type { WebhookHandler } from './types.ts';

/** An object in a review: its own fields are `any`, to read as a webhook does (`object.spec.replicas`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AdmissionObject = KubeObject & Record<string, any>;

/** admission/v1 AdmissionRequest, as the apiserver sends it. */
export interface AdmissionRequest {
  uid: string;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  requestKind?: { group: string; version: string; kind: string };
  requestResource?: { group: string; version: string; resource: string };
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  userInfo: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  object: AdmissionObject | null;
  oldObject: AdmissionObject | null;
  dryRun?: boolean;
  options: Record<string, unknown> | null;
}

/** An AdmissionReview as posted to a webhook (admission.k8s.io/v1 or v1beta1). */
export interface AdmissionReview {
  apiVersion: string;
  kind: 'AdmissionReview';
  request: AdmissionRequest;
  response?: Record<string, unknown>;
}

/** One JSON patch operation (RFC 6902). */
export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

/** What an admissionWebhook function answers; uid, apiVersion, kind and the patch encoding are filled in. */
export interface AdmissionDecision {
  allowed: boolean;
  /** The refusal: message, reason, code (400 when below 400). */
  status?: Partial<Pick<Status, 'message' | 'reason' | 'code' | 'details'>>;
  /** A JSON patch for the object (mutating webhooks); sent base64-encoded with patchType JSONPatch. */
  patch?: JsonPatchOperation[];
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
}

/**
 * A webhook handler from a function of the AdmissionRequest (and the whole review). It may be
 * async; whatever it throws is a failing webhook (a 500), as from a real server.
 */
export function admissionWebhook(decide: (request: AdmissionRequest, review: AdmissionReview) => AdmissionDecision | Promise<AdmissionDecision>): WebhookHandler {
  return async (review: AdmissionReview) => {
    const decision = await decide(review.request, review);
    const response: Record<string, unknown> = { uid: review.request.uid, allowed: decision.allowed === true };
    if (decision.status) response.status = decision.status;
    if (decision.patch && decision.patch.length > 0) {
      response.patch = Buffer.from(JSON.stringify(decision.patch)).toString('base64');
      response.patchType = 'JSONPatch';
    }
    if (decision.warnings?.length) response.warnings = decision.warnings;
    if (decision.auditAnnotations) response.auditAnnotations = decision.auditAnnotations;
    return { apiVersion: review.apiVersion, kind: 'AdmissionReview', response };
  };
}

/** A Node HTTP request listener: `(req, res)` as Express apps and http.createServer take. */
export type NodeRequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;

/** A WebhookHandler that also stops the loopback server it started. */
export type NodeWebhookHandler = WebhookHandler & { close(): Promise<void> };

/**
 * Mounts a Node request listener (an Express app, Fastify's `routing`, …): each call is posted,
 * with the apiserver's path, query and headers, to a loopback HTTP server in this process that
 * runs `listener`, and its answer is the webhook's. The server starts on the first call and does
 * not keep the process alive; `close()` stops it.
 */
export function nodeWebhook(listener: NodeRequestListener): NodeWebhookHandler {
  let server: http.Server | undefined;
  let origin: Promise<string> | undefined;
  const start = (): Promise<string> =>
    (origin ??= new Promise<string>((resolve, reject) => {
      server = http.createServer((req, res) => {
        try {
          const out = listener(req, res) as unknown;
          if (out instanceof Promise) out.catch((err: unknown) => fail(res, err));
        } catch (err) {
          fail(res, err);
        }
      });
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server!.unref();
        resolve(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`);
      });
    }));
  const handler = (async (_body: unknown, request: Request) => {
    const base = await start();
    const target = new URL(request.url);
    const headers = new Headers(request.headers);
    headers.delete('host');
    const reply = await fetch(`${base}${target.pathname}${target.search}`, { method: request.method, headers, body: await request.text() });
    return new Response(await reply.arrayBuffer(), { status: reply.status, headers: reply.headers });
  }) as NodeWebhookHandler;
  handler.close = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.close(() => resolve());
      server.closeAllConnections?.();
    });
  return handler;
}

/** A listener that threw: a 500 with the error's text, as an unhandled error in a server answers. */
function fail(res: http.ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(err instanceof Error ? err.message : String(err));
}
