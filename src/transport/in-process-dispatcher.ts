// The in-process transport of `cluster.kubeConfig`: an undici Dispatcher that hands each request
// to the cluster's handler as a WHATWG Request and streams the Response back through undici's
// handler controller API (undici 8). No socket, no TLS, no HTTP parsing: client-node's fetch
// (generated APIs, Watch, Log, informers) gets it per request through
// KubeConfig.applySecurityAuthentication → RequestContext.setDispatcher, so undici's global
// dispatcher and any msw interception in the process are left alone.
//
// It is the undici copy client-node itself depends on (package.json pins the same range).
import { STATUS_CODES } from 'node:http';
import { Dispatcher } from 'undici';
import { internalError } from '../errors/status-error.ts';
import { rememberRequestTarget } from '../http/request-target.ts';
import { errorResponse } from '../http/responses.ts';
import { frame } from './framing.ts';

/** What every transport hands requests to: the cluster's handler. */
export type RequestHandlerFn = (request: Request) => Promise<Response>;

type DispatchOptions = Dispatcher.DispatchOptions;
type DispatchHandler = Dispatcher.DispatchHandler;
type DispatchController = Dispatcher.DispatchController;

// Node's own Request class, taken before msw's interception (enabled with the first cluster) wraps
// the global one in a Proxy that records raw headers: a cost on every request and no use here.
const NativeRequest = globalThis.Request;

/** Statuses whose answers have no body (fetch's null body statuses, and HEAD). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export class InProcessDispatcher extends Dispatcher {
  private readonly handler: RequestHandlerFn;
  private readonly origin: string;
  private readonly host: string;
  private readonly inFlight = new Set<Exchange>();
  private closed = false;

  /** `origin` is the cluster's server URL; requests for any other origin are refused. */
  constructor(origin: string, handler: RequestHandlerFn) {
    super();
    this.origin = new URL(origin).origin;
    this.host = new URL(origin).host;
    this.handler = handler;
  }

  override dispatch(options: DispatchOptions, handler: DispatchHandler): boolean {
    const exchange = new Exchange(handler, (e) => this.inFlight.delete(e));
    if (this.closed) {
      // What the msw path answers once the cluster is closed: its host name no longer resolves.
      exchange.fail(unknownHost(this.host));
      return true;
    }
    const origin = options.origin === undefined ? this.origin : new URL(String(options.origin)).origin;
    if (origin !== this.origin) {
      exchange.fail(new TypeError(`kubefake: this dispatcher serves ${this.origin} only, not ${origin}`));
      return true;
    }
    this.inFlight.add(exchange);
    void exchange.run(this.origin, this.host, options, this.handler);
    return true;
  }

  /**
   * Ends the cluster's transport: requests from now on fail as for an unknown host. Open ones
   * finish as the server answers them (the cluster ends its watch streams itself on close).
   */
  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    this.closed = true;
    if (callback) queueMicrotask(callback);
    else return Promise.resolve();
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  /** As close(), and what is still open is cut off, as a dropped connection is (watches end on the server side too). */
  override destroy(errOrCallback?: Error | null | (() => void), callback?: () => void): Promise<void> | void {
    const cb = typeof errOrCallback === 'function' ? errOrCallback : callback;
    this.closed = true;
    for (const exchange of [...this.inFlight]) exchange.abort(unknownHost(this.host));
    if (cb) queueMicrotask(cb);
    else return Promise.resolve();
  }
}

/** getaddrinfo's error, as a client sees it for a closed cluster's host name on the msw path. */
function unknownHost(host: string): Error {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: host, errno: -3008 });
}

/** One request and its answer: the controller undici's handler steers (pause, resume, abort). */
class Exchange implements DispatchController {
  rawHeaders: string[] | null = null;
  rawTrailers: string[] | null = null;
  private _aborted = false;
  private _paused = false;
  private _reason: Error | null = null;
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private pumping = false;
  private finished = false;
  private readonly handler: DispatchHandler;
  private readonly forget: (e: Exchange) => void;

  constructor(handler: DispatchHandler, forget: (e: Exchange) => void) {
    this.handler = handler;
    this.forget = forget;
  }

  get aborted(): boolean {
    return this._aborted;
  }
  get paused(): boolean {
    return this._paused;
  }
  get reason(): Error | null {
    return this._reason;
  }

  pause(): void {
    this._paused = true;
  }

  resume(): void {
    if (!this._paused) return;
    this._paused = false;
    if (this.reader && !this.pumping) void this.pump();
  }

  /** The client gave up (AbortSignal, body destroyed): the server side sees the stream cancelled. */
  abort(reason: Error): void {
    if (this._aborted || this.finished) return;
    this._aborted = true;
    this._reason = reason;
    this.release();
    this.handler.onResponseError?.(this, reason);
  }

  /** Fails before anything was sent. */
  fail(err: Error): void {
    this.handler.onRequestStart?.(this, {});
    if (this._aborted) return;
    this.finished = true;
    this.handler.onResponseError?.(this, err);
  }

  async run(origin: string, host: string, options: DispatchOptions, handle: RequestHandlerFn): Promise<void> {
    try {
      this.handler.onRequestStart?.(this, {});
      if (this._aborted) return;
      const body = await readRequestBody(options.body);
      if (this._aborted) return;
      this.handler.onRequestSent?.();
      const request = toRequest(origin, host, options, body);
      let response: Response;
      try {
        response = await handle(request);
      } catch (err) {
        // What the loopback listener answers when the handler itself throws.
        response = errorResponse(internalError(String(err)));
      }
      if (this._aborted) {
        void response.body?.cancel().catch(() => undefined);
        return;
      }
      this.respond(options.method, response);
    } catch (err) {
      this.finishWithError(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private respond(method: string, response: Response): void {
    const sent = frame(method.toUpperCase(), response);
    const raw: string[] = [];
    const headers: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      raw.push(name, value);
      const prior = headers[name];
      headers[name] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
    });
    this.rawHeaders = raw;
    this.handler.onResponseStart?.(this, response.status, headers, STATUS_CODES[response.status] ?? '');
    if (this._aborted) {
      void response.body?.cancel().catch(() => undefined);
      return;
    }
    if (method.toUpperCase() === 'HEAD' || NULL_BODY_STATUSES.has(response.status) || !response.body) {
      void response.body?.cancel().catch(() => undefined);
      this.end();
      return;
    }
    // A body the handler built from bytes in hand goes over in one piece, without reading the stream.
    if (sent !== undefined) {
      if (sent.length > 0) this.handler.onResponseData?.(this, sent);
      if (!this._aborted) this.end();
      return;
    }
    this.reader = response.body.getReader();
    void this.pump();
  }

  private async pump(): Promise<void> {
    const reader = this.reader!;
    this.pumping = true;
    try {
      while (!this._paused && !this._aborted) {
        const { done, value } = await reader.read();
        if (this._aborted) return;
        if (done) {
          this.end();
          return;
        }
        if (value.byteLength > 0) this.handler.onResponseData?.(this, Buffer.from(value.buffer, value.byteOffset, value.byteLength));
      }
    } catch (err) {
      if (!this._aborted) this.finishWithError(err instanceof Error ? err : new Error(String(err)));
    } finally {
      this.pumping = false;
    }
  }

  private end(): void {
    if (this.finished) return;
    this.finished = true;
    this.rawTrailers = [];
    this.forget(this);
    this.handler.onResponseEnd?.(this, {});
  }

  private finishWithError(err: Error): void {
    if (this.finished || this._aborted) return;
    this.finished = true;
    this.release();
    this.handler.onResponseError?.(this, err);
  }

  /** Cancels the answer's stream (a watch stops on the server side) and forgets the exchange. */
  private release(): void {
    this.forget(this);
    const reader = this.reader;
    this.reader = undefined;
    if (reader) void reader.cancel(this._reason ?? undefined).catch(() => undefined);
  }
}

/** The request body as bytes (client-node's bodies are small JSON/YAML documents). */
async function readRequestBody(body: DispatchOptions['body']): Promise<Uint8Array | undefined> {
  if (body == null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof FormData) return new Uint8Array(await new Response(body).arrayBuffer());
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<string | Uint8Array>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * The Request a server would have parsed off the wire: the client's headers plus what undici's
 * HTTP/1.1 client adds (host, connection, content-length), so handlers cannot tell the transports
 * apart. Headers go in as a list: a Headers object would be built through msw's Headers proxy.
 */
function toRequest(origin: string, host: string, options: DispatchOptions, body: Uint8Array | undefined): Request {
  const headers: [string, string][] = [];
  let hostGiven = false;
  let lengthGiven = false;
  forEachHeader(options.headers, (name, value) => {
    const lower = name.toLowerCase();
    if (lower === 'host') hostGiven = true;
    else if (lower === 'content-length') lengthGiven = true;
    headers.push([name, value]);
  });
  if (!hostGiven) headers.push(['host', host]);
  headers.push(['connection', 'keep-alive']);
  const method = options.method;
  const bodyless = method === 'GET' || method === 'HEAD';
  if (body !== undefined && !bodyless && !lengthGiven) headers.push(['content-length', String(body.byteLength)]);
  const request = new NativeRequest(origin + options.path, { method, headers, body: bodyless ? undefined : (body as BodyInit | undefined) });
  // The URL parser resolves dot segments; the server must see the target as sent, as the listener does.
  rememberRequestTarget(request, options.path);
  return request;
}

function forEachHeader(headers: DispatchOptions['headers'], add: (name: string, value: string) => void): void {
  if (headers == null) return;
  if (Array.isArray(headers)) {
    // undici accepts a flat [name, value, name, value] list or [name, value] pairs.
    if (headers.length > 0 && Array.isArray(headers[0])) {
      for (const [name, value] of headers as unknown as [string, string][]) add(name, value);
    } else {
      for (let i = 0; i + 1 < headers.length; i += 2) add(String(headers[i]), String(headers[i + 1]));
    }
    return;
  }
  if (typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [name, value] of headers as Iterable<[string, string]>) add(name, value);
    return;
  }
  for (const name in headers) {
    const value = (headers as Record<string, string | string[] | undefined>)[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) add(name, v);
    else add(name, String(value));
  }
}
