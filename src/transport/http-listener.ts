// A real HTTP(S) listener that serves the same handler as the in-process transport, for kubectl
// and clients in other languages. Safe by default: plain http only on loopback, and there only
// for requests that name the listener in `Host` (no DNS rebinding) and come from no other web
// origin; `tls: true` serves HTTPS with a generated CA and requires a bearer token. Whatever a
// request holds, it gets an answer: conversion errors are answered, never thrown at the server.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { isIP, type AddressInfo, type Socket } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { Readable } from 'node:stream';
import { forbidden, internalError, methodNotAllowed, toStatusError, unauthorized, type StatusError } from '../errors/status-error.ts';
import { rememberRequestTarget } from '../http/request-target.ts';
import { encodeGoJson } from '../go/json-encode.ts';
import { errorResponse } from '../http/responses.ts';
import type { RequestHandlerFn } from './in-process-dispatcher.ts';
import type { ServingCertificates } from './serving-certs.ts';
import type { TLSSocket } from 'node:tls';
import type { UserInfo } from '../apis/options.ts';
import { rememberClientCertificate } from '../http/request-user.ts';
import { answerPlainly, answerUpgrade } from './websocket-upgrade.ts';

/** Where `cluster.listen()` serves. */
export interface ListenOptions {
  /** TCP port; default 0 (any free port). */
  port?: number;
  /**
   * Address to bind; default `127.0.0.1`. Plain http is refused on anything but a loopback
   * address: other hosts (`0.0.0.0`, `::`) need `tls`.
   */
  host?: string;
  /**
   * Serve HTTPS with a CA generated for this listener, and require the bearer token the
   * kubeconfig carries (401 Unauthorized otherwise, as kube-apiserver).
   */
  tls?: boolean;
}

export interface Listener {
  url: string;
  /** With `tls` on an `auth: true` cluster: a client certificate and key for `user` in `groups`. */
  issueClientCertificate?: (user: string, groups: readonly string[]) => Promise<{ cert: string; key: string }>;
  /** PEM of the CA that signed the serving certificate (`tls` only). */
  caCert?: string;
  /** The bearer token every request must carry (`tls` only). */
  token?: string;
  close(): Promise<void>;
}

/**
 * net/http's limit on the request line and headers: kube-apiserver's MaxHeaderBytes (1 MiB, Go's
 * DefaultMaxHeaderBytes) plus the 4096 bytes of bufio slop conn.readRequest allows. Node's
 * default (16 KiB) would refuse URLs the real server serves, such as long label selectors.
 */
export const MAX_HEADER_BYTES = (1 << 20) + 4096;

/** How long a connection refused at parse time stays open after the last data the client sent (Go's rstAvoidanceDelay). */
const REFUSED_LINGER_MS = 500;
const REFUSED_LINGER_CAP_MS = 5_000;

/** Methods a WHATWG Request cannot carry. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

const isWildcardHost = (host: string): boolean => host === '0.0.0.0' || host === '::' || host === '';

/** `host` as it appears in a URL or a Host header: IPv6 in brackets. */
const urlHost = (host: string): string => (host.includes(':') ? `[${host}]` : host);

/**
 * A TLS listener's CA and serving certificate. The X.509 machinery (pkijs, asn1js and theirs,
 * ~850 KB of modules) loads with the first TLS listener, not with kubefake: most processes serve
 * plain loopback or nothing at all.
 */
let certsModule: Promise<typeof import('./serving-certs.ts')> | undefined;
async function servingCertificates(hosts: readonly string[]): Promise<ServingCertificates> {
  // One import shared by concurrent first listeners (concurrent import()s break Jest's ESM runtime).
  const { createServingCertificates } = await (certsModule ??= import('./serving-certs.ts'));
  return createServingCertificates(hosts);
}

/** The names a TLS client may dial this listener by, for the serving certificate. */
function certificateHosts(host: string): string[] {
  const hosts = ['127.0.0.1', '::1', 'localhost'];
  if (!isWildcardHost(host)) return [...hosts, host];
  for (const addrs of Object.values(networkInterfaces())) for (const a of addrs ?? []) if (!a.address.includes('%')) hosts.push(a.address);
  return [...hosts, hostname()];
}

/** The Host header values that name a plain-http loopback listener on `port`. */
function loopbackAuthorities(host: string, port: number): Set<string> {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]', urlHost(host).toLowerCase()]);
  return new Set([...names].map((n) => `${n}:${port}`));
}

/** httpguts.ValidHostHeader: the bytes a Host header may hold (no check of its form). */
const VALID_HOST = /^[A-Za-z0-9!$%&'()*+,\-.:;=[\]_~]*$/;

/** net/http's readRequest checks of Host, with the text its 400 carries; undefined when it passes. */
function hostHeaderError(req: IncomingMessage): string | undefined {
  const hosts = req.headersDistinct.host ?? [];
  if (hosts.length === 0 && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) return 'missing required Host header';
  if (hosts.length > 1) return 'too many Host headers';
  if (hosts.length === 1 && !VALID_HOST.test(hosts[0]!)) return 'malformed Host header';
  return undefined;
}

/** What net/http writes for a request it refuses while reading it: plain text, then it closes the connection. */
function plainRefusal(res: ServerResponse, code: number, text: string): void {
  const body = `${code} ${STATUS_CODES[code]}${text ? ': ' + text : ''}`;
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
  res.end(body);
}

/** The token of an `Authorization: Bearer <token>` header, read as apiserver's bearertoken authenticator does. */
function bearerToken(header: string | undefined): Buffer | undefined {
  const parts = (header ?? '').trim().split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer' || parts[1] === '') return undefined;
  return Buffer.from(parts[1]!);
}

/** A Status written directly, when writing the handler's answer has failed: the bytes errorResponse() sends. */
function statusAnswer(res: ServerResponse, err: StatusError): void {
  const body = encodeGoJson(err.status);
  res.writeHead(err.code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The user of a client certificate the listener's CA signed: CN, and each O a group. */
function verifiedClientCertificate(req: IncomingMessage): UserInfo | undefined {
  const socket = req.socket as TLSSocket;
  if (typeof socket.getPeerCertificate !== 'function' || !socket.authorized) return undefined;
  const subject = socket.getPeerCertificate().subject as Record<string, string | string[] | undefined> | undefined;
  const cn = subject?.CN;
  if (!cn || Array.isArray(cn)) return undefined;
  const o = subject?.O;
  const groups = o === undefined ? [] : Array.isArray(o) ? o : [o];
  return { username: cn, groups: [...groups, 'system:authenticated'] };
}

/** The WHATWG Request of what `req` asked for (its body streamed), addressed at `origin`. */
export function toRequest(req: IncomingMessage, origin: string, target: string): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(key, v));
    else if (value !== undefined) headers.set(key, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  // The URL is only the Request's address: the handler reads the target as sent (see
  // request-target.ts), as WHATWG parsing resolves `..` and would read `//x` as a host.
  const request = new Request(origin + (target.startsWith('/') ? '' : '/') + target.replace(/^\/+/, '/'), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: 'half',
  } as RequestInit);
  rememberRequestTarget(request, target);
  return request;
}

/** Writes `response` on `res`, streaming its body as it comes. */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  // Send the head now (a watch answers before its first event). Not flushHeaders(): it writes the
  // head as UTF-8, re-encoding header bytes above 0x7f (a Warning's UTF-8); an empty Buffer write
  // sends it as latin1, byte for byte, as Go does.
  res.write(new Uint8Array(0));
  const reader = response.body.getReader();
  // A client that goes away must end the stream, so a watch unsubscribes.
  res.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Backpressure: read no more of the body until the socket takes what it has, so a client
      // that stops reading leaves the unread events in the watch stream's own queue, where its
      // backlog limit sees them (http/watch-stream.ts), not in an ever-growing socket buffer.
      if (value.byteLength && !res.write(value)) await drained(res);
    }
  } catch {
    // The reader was cancelled because the client left.
  }
  res.end();
}

/**
 * What net/http writes for a request it cannot parse (conn.serve): a plain-text status line,
 * then the connection is closed after the client had time to read it (no reset).
 */
function refuseUnparsable(err: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${status}`);
  // Keep reading what the client still sends, so closing does not reset the connection. net/http
  // waits rstAvoidanceDelay (500 ms) once; here the wait restarts while data still arrives (a
  // client on a loaded machine may still be writing a 1 MiB header after 500 ms, and a reset would
  // discard the 431 it has not read yet), bounded by REFUSED_LINGER_CAP_MS in all.
  let linger = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
  const cap = setTimeout(() => socket.destroy(), REFUSED_LINGER_CAP_MS).unref();
  socket.on('data', () => {
    clearTimeout(linger);
    linger = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    clearTimeout(linger);
    clearTimeout(cap);
  });
}

/** Resolves once `res` can take more data, or it closed (a client that left never drains). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * `authenticatedByHandler`: the handler authenticates every request itself (an `auth: true`
 * cluster), so a TLS listener passes any bearer token on instead of requiring its own.
 * `upgrades`: the handler makes WebSocket upgrades (pods/exec with workloads): upgrade requests are
 * handed to it instead of being answered as plain requests.
 */
export async function listen(
  handler: RequestHandlerFn,
  options: ListenOptions = {},
  { authenticatedByHandler = false, upgrades = false }: { authenticatedByHandler?: boolean; upgrades?: boolean } = {},
): Promise<Listener> {
  const host = options.host ?? '127.0.0.1';
  const tls = options.tls ?? false;
  if (!tls && !isLoopbackHost(host)) {
    throw new Error(
      `kubefake refuses to serve plain http on ${host}: anyone who reaches it could read and change the cluster. ` +
        'Bind a loopback address (127.0.0.1), or serve HTTPS with a bearer token: listen({ tls: true }) / kubefake serve --tls.',
    );
  }
  const certs = tls ? await servingCertificates(certificateHosts(host)) : undefined;
  const token = tls ? randomBytes(32).toString('base64url') : undefined;
  const expectedToken = token === undefined ? undefined : Buffer.from(token);
  let authorities = new Set<string>();
  let origin = '';

  /** An answer that refuses the request before the handler sees it, or undefined to serve it. */
  const refusal = (req: IncomingMessage): StatusError | undefined => {
    if (expectedToken) {
      // An `auth: true` cluster's own authentication filter checks the token.
      if (authenticatedByHandler) return undefined;
      // The authentication filter comes first; the token is compared in constant time.
      const sent = bearerToken(req.headers.authorization);
      return sent && sent.length === expectedToken.length && timingSafeEqual(sent, expectedToken) ? undefined : unauthorized();
    }
    // Plain http on loopback: a browser page must not reach it, neither through a name that
    // resolves to 127.0.0.1 (DNS rebinding: Host is that name) nor cross-origin (Origin is set;
    // no client kubefake serves sends one). A request with no Host is no browser's.
    const hostHeader = req.headers.host?.toLowerCase();
    if (hostHeader && !authorities.has(hostHeader)) {
      return forbidden(null, '', `Host ${JSON.stringify(req.headers.host)} does not name this kubefake listener (${[...authorities].join(', ')}); plain http is refused for other hosts, against DNS rebinding`);
    }
    const requestOrigin = req.headers.origin;
    if (requestOrigin !== undefined && !authorities.has(requestOrigin.toLowerCase().replace(/^http:\/\//, ''))) {
      return forbidden(null, '', `cross-origin requests (Origin ${JSON.stringify(requestOrigin)}) are refused by this kubefake listener`);
    }
    return undefined;
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    let answer: Promise<Response>;
    try {
      const hostError = hostHeaderError(req);
      if (hostError) {
        req.resume();
        plainRefusal(res, 400, hostError);
        return;
      }
      const refused = refusal(req);
      if (refused) {
        req.resume();
        statusAnswer(res, refused);
        return;
      }
      // go-restful has no route for these methods; a WHATWG Request cannot even carry them.
      if (FORBIDDEN_METHODS.has(req.method ?? '')) {
        req.resume();
        statusAnswer(res, methodNotAllowed());
        return;
      }
      const request = toRequest(req, origin, req.url ?? '/');
      const certificateUser = authenticatedByHandler ? verifiedClientCertificate(req) : undefined;
      if (certificateUser) rememberClientCertificate(request, certificateUser);
      answer = handler(request);
    } catch (err) {
      answer = Promise.resolve(errorResponse(toStatusError(err)));
    }
    answer
      .then((response) => writeResponse(response, res))
      .catch((err: unknown) => {
        if (res.headersSent) res.end();
        else statusAnswer(res, internalError(String(err)));
      });
  };

  // Host is checked by hostHeaderError, which answers with net/http's texts.
  const serverOptions = { maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false };
  // An `auth: true` cluster also authenticates client certificates its CA signed (x509 authenticator).
  const clientAuth = certs && authenticatedByHandler ? { requestCert: true, rejectUnauthorized: false, ca: certs.caCert } : {};
  const server: Server = certs ? createHttpsServer({ ...serverOptions, cert: certs.cert, key: certs.key, ...clientAuth }, onRequest) : createHttpServer(serverOptions, onRequest);
  server.on('clientError', refuseUnparsable);
  // WebSocket upgrades: the ones the cluster serves are answered here; the rest as plain requests
  // (without this listener Node hands them to the request handler, as before).
  if (upgrades) {
    server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
      const hostError = hostHeaderError(req);
      const refused = hostError ? undefined : refusal(req);
      if (hostError || refused) {
        void answerPlainly(socket, hostError ? new Response(`400 Bad Request: ${hostError}`, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } }) : errorResponse(refused!));
        return;
      }
      const request = toRequest(req, origin, req.url ?? '/');
      const certificateUser = authenticatedByHandler ? verifiedClientCertificate(req) : undefined;
      if (certificateUser) rememberClientCertificate(request, certificateUser);
      answerUpgrade(socket, req, request, handler);
    });
  }
  // CONNECT never reaches the request handler in Node; net/http would route it to go-restful.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    const body = encodeGoJson(methodNotAllowed().status);
    socket.end(`HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  authorities = loopbackAuthorities(host, port);
  const advertised = isWildcardHost(host) ? '127.0.0.1' : host;
  origin = `${tls ? 'https' : 'http'}://${urlHost(advertised)}:${port}`;
  return {
    url: origin,
    caCert: certs?.caCert,
    issueClientCertificate: certs && authenticatedByHandler ? certs.issueClientCertificate : undefined,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
