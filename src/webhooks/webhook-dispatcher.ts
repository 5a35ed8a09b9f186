// Delivers the cluster's webhook calls: to the handler a test registered with
// `cluster.serveWebhook(target, handler)` when one matches the client config, else over real
// HTTPS for a URL. A service reference nobody serves fails as the apiserver's service resolver
// makes it fail. Calls are POSTs to the URL the apiserver's webhook REST client builds, with its
// `?timeout=` query and absolute timeout (30 s).
import type { KubeObject } from '../apis/object.ts';
import { httpsPost } from './https-post.ts';
import { WebhookTransportError, type WebhookCallOptions, type WebhookCaller, type WebhookClientConfig, type WebhookHandler, type WebhookReply, type WebhookTarget } from './types.ts';

/** The apiserver's webhook client timeout (apiserver/pkg/util/webhook authentication.go). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 30_000;

export interface WebhookDispatcherOptions {
  /** Absolute timeout of one call. */
  timeoutMs?: number;
  /** The Service a service reference names, if it exists (decides the error when nothing answers). */
  findService?(namespace: string, name: string): KubeObject | undefined;
}

/** Go's time.Duration.String() for whole milliseconds (`30s`, `500ms`, `1m30s`). */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = (ms % 60_000) / 1000;
  return minutes > 0 ? `${minutes}m${seconds}s` : `${seconds}s`;
}

const serviceKey = (namespace: string, name: string, port: number, path: string) => `${namespace}/${name}:${port}${path}`;
const normalizePath = (path: string | undefined) => (path ? path : '/');

/** `https://host[:port]/path` with the default port dropped, for matching registered URLs. */
function urlKey(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

export class WebhookDispatcher implements WebhookCaller {
  private readonly byUrl = new Map<string, WebhookHandler>();
  private readonly byService = new Map<string, WebhookHandler>();
  private readonly timeoutMs: number;
  private readonly findService: WebhookDispatcherOptions['findService'];

  constructor(options: WebhookDispatcherOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    this.findService = options.findService;
  }

  /** Registers `handler` for `target`, replacing an earlier one; answers a function that unregisters it. */
  serve(target: WebhookTarget, handler: WebhookHandler): () => void {
    if (typeof handler !== 'function') throw new TypeError('kubefake: serveWebhook needs a handler function');
    const [map, key] = this.keyOf(target);
    map.set(key, handler);
    return () => {
      if (map.get(key) === handler) map.delete(key);
    };
  }

  async post(config: WebhookClientConfig, body: unknown, options: WebhookCallOptions = {}): Promise<WebhookReply> {
    const { url, handler } = this.resolve(config);
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const target = `${url}?timeout=${goDuration(timeoutMs)}`;
    const text = JSON.stringify(body);
    const headers = { 'content-type': 'application/json', accept: 'application/json, */*', 'user-agent': 'kube-apiserver-admission' };
    if (handler) return this.callHandler(handler, new Request(target, { method: 'POST', headers, body: text }), body, target, timeoutMs);
    if (config.service) throw new WebhookTransportError(`Post ${JSON.stringify(target)}: ${this.unservedServiceReason(config.service, url)}`);
    return httpsPost(target, text, { headers, caBundle: config.caBundle, timeoutMs });
  }

  private keyOf(target: WebhookTarget): [Map<string, WebhookHandler>, string] {
    if (typeof target === 'string') {
      let key: string;
      try {
        key = urlKey(target);
      } catch {
        throw new TypeError(`kubefake: serveWebhook target is not a URL: ${target}`);
      }
      return [this.byUrl, key];
    }
    if (!target || typeof target.namespace !== 'string' || typeof target.name !== 'string') {
      throw new TypeError('kubefake: serveWebhook target must be a URL or { namespace, name, path?, port? }');
    }
    return [this.byService, serviceKey(target.namespace, target.name, target.port ?? 443, normalizePath(target.path))];
  }

  /** The URL the apiserver posts to (hookClientConfig) and the in-process handler for it, if any. */
  private resolve(config: WebhookClientConfig): { url: string; handler: WebhookHandler | undefined } {
    if (config.service) {
      const { namespace = '', name = '', path, port = 443 } = config.service;
      const url = `https://${name}.${namespace}.svc:${port}${normalizePath(path)}`;
      return { url, handler: this.byService.get(serviceKey(namespace, name, port, normalizePath(path))) };
    }
    const url = config.url ?? '';
    let key: string | undefined;
    try {
      key = urlKey(url);
    } catch {
      key = undefined;
    }
    return { url, handler: key === undefined ? undefined : this.byUrl.get(key) };
  }

  /** What Go's dialer reports when the service resolver has no backend for the reference. */
  private unservedServiceReason(service: NonNullable<WebhookClientConfig['service']>, url: string): string {
    const { namespace = '', name = '', port = 443 } = service;
    const svc = this.findService?.(namespace, name);
    if (!svc) return `services ${JSON.stringify(name)} not found`;
    const clusterIP = ((svc as Record<string, unknown>).spec as { clusterIP?: unknown } | undefined)?.clusterIP;
    const ip = typeof clusterIP === 'string' && clusterIP ? clusterIP : new URL(url).hostname;
    return `dial tcp ${ip}:${port}: connect: connection refused`;
  }

  private async callHandler(handler: WebhookHandler, request: Request, body: unknown, target: string, timeoutMs: number): Promise<WebhookReply> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new WebhookTransportError(`Post ${JSON.stringify(target)}: context deadline exceeded`)), timeoutMs);
    });
    try {
      return await Promise.race([answer(handler, request, structuredClone(body)), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Runs a handler and reads its answer the way an HTTP client would see it. */
async function answer(handler: WebhookHandler, request: Request, body: unknown): Promise<WebhookReply> {
  let result: unknown;
  try {
    result = await handler(body, request);
  } catch (err) {
    return { status: 500, contentType: 'text/plain; charset=utf-8', body: err instanceof Error ? err.message : String(err) };
  }
  if (result instanceof Response) {
    return { status: result.status, contentType: result.headers.get('content-type') ?? undefined, body: await result.text() };
  }
  // A handler that writes nothing: Go's ResponseWriter answers 200 with an empty body.
  if (result === undefined) return { status: 200, contentType: undefined, body: '' };
  try {
    return { status: 200, contentType: 'application/json', body: JSON.stringify(result) };
  } catch (err) {
    // What the handler answered cannot be written as JSON (a BigInt, a cycle): a failing server.
    return { status: 500, contentType: 'text/plain; charset=utf-8', body: err instanceof Error ? err.message : String(err) };
  }
}
