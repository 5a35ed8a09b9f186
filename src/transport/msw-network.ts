// One msw network per process, shared by every cluster: client-node 2.x sends through undici,
// which only the socket-level HttpRequestInterceptor sees. Each cluster owns a host name; other
// hosts pass through untouched, and interception is released when the last cluster detaches.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import type { InterceptorSource, NetworkApi } from 'msw/experimental';
import { frame } from './framing.ts';

import type { RequestHandlerFn } from './in-process-dispatcher.ts';

export const CLUSTER_DOMAIN = 'kubefake.local';

const routes = new Map<string, RequestHandlerFn>();
let network: NetworkApi<[InterceptorSource]> | undefined;

// msw and @mswjs/interceptors (45 modules, 30-45 ms of CPU) load when something first needs them,
// not with kubefake nor with a cluster: `cluster.kubeConfig` answers through the in-process
// dispatcher by default and needs no interception; only another client (a raw fetch or
// http.request to `cluster.url`, a KubeConfig rebuilt from it, `transport: 'msw'`) does. They load
// synchronously (Node >= 22.12 `require()`s ES modules; the same module instances `import()` gives,
// so a user's own msw shares them) and msw's `enable()` patches synchronously, so interception can
// be switched on at the last moment before a connection is made (see armInterception).
type MswModules = readonly [typeof import('@mswjs/interceptors/http'), typeof import('msw'), typeof import('msw/experimental')];
let mswModules: MswModules | undefined;

function loadMsw(): MswModules {
  if (mswModules) return mswModules;
  const load = createRequire(import.meta.url);
  const interceptors = load('@mswjs/interceptors/http') as typeof import('@mswjs/interceptors/http');
  const msw = load('msw') as typeof import('msw');
  const experimental = load('msw/experimental') as typeof import('msw/experimental');
  return (mswModules = [interceptors, msw, experimental]);
}

/** Creates msw's network for the cluster hosts and enables it (synchronously); a network is created anew each time interception goes from off to on. */
function enableInterception(): void {
  if (network) return;
  const modules = loadMsw(); // a failure leaves the hook armed: the client's connect reports it
  disarm();
  const [{ HttpRequestInterceptor }, { http: mswHttp }, { defineNetwork, InMemoryHandlersController, InterceptorSource }] = modules;
  const handler = mswHttp.all(`https://*.${CLUSTER_DOMAIN}/*`, async ({ request }) => {
    const route = routes.get(new URL(request.url).host);
    // A cluster host that is gone (closed) or never was: a network error at once, as the
    // dispatcher's ENOTFOUND, instead of a real DNS lookup of a name no resolver knows (which can
    // take seconds where lookups of .local names wait for mDNS).
    if (!route) return Response.error();
    const response = await route(request);
    frame(request.method.toUpperCase(), response);
    return response;
  });
  const created = defineNetwork({
    sources: [new InterceptorSource({ interceptors: [new HttpRequestInterceptor()] })],
    handlers: new InMemoryHandlersController([handler]),
    onUnhandledFrame: 'bypass',
    context: { quiet: true },
  });
  // enable() applies the interceptors' patches before it returns (msw 3; a promise it might
  // answer is awaited by nothing that needs it: the patches are what intercepts).
  void created.enable();
  network = created;
  subscribe(UNDICI_CONNECTED, releaseHandlesOnClose);
}

/**
 * Routes requests for `host` to `handler`. `'now'`: interception is active when this resolves
 * (the msw transport of `cluster.kubeConfig`); `'on-connect'`: it is switched on just before the
 * first connection any client makes while a cluster is open (see armInterception).
 */
export async function attachHost(host: string, handler: RequestHandlerFn, interception: 'now' | 'on-connect' = 'now'): Promise<void> {
  if (routes.has(host)) throw new Error(`invariant: host ${host} is already attached`);
  routes.set(host, handler);
  if (network) return;
  if (interception === 'now') enableInterception();
  else armInterception();
}

export async function detachHost(host: string): Promise<void> {
  if (!routes.delete(host) || routes.size > 0) return;
  disarm();
  const current = network;
  if (current) {
    network = undefined;
    unsubscribe(UNDICI_CONNECTED, releaseHandlesOnClose);
    await current.disable();
  }
  if (routes.size === 0 && !network) removeHooks();
}

// Armed: a cluster is open and msw is not enabled. The first connection any client then makes
// enables it, synchronously, before the connection is made: what enabling it with the cluster did
// for that connection. The hook sits where msw's own socket interceptor sits,
// net.Socket.prototype.connect, which every client connection goes through (undici's for
// client-node and fetch, node:http and https agents, a bare net or tls socket), so every
// connection msw would have intercepted meets the hook first. A socket caught there is handed to
// the interception just switched on (msw wraps the hook; its own connections come back through
// it, disarmed). The hook is a pass-through while disarmed, and is taken out when the last
// cluster closes unless another patch (a user's own msw) has wrapped it since; then it stays, a
// pass-through, and a later cluster puts a new one on top.
let armed = false;

type Connect = (this: Socket, ...args: unknown[]) => unknown;
interface Hook {
  descriptor: PropertyDescriptor;
  hook: Connect;
}
const hooks: Hook[] = [];
const ownHooks = new WeakSet<object>();

function armInterception(): void {
  if (armed) return;
  armed = true;
  const proto = net.Socket.prototype;
  const descriptor = Object.getOwnPropertyDescriptor(proto, 'connect');
  if (!descriptor || typeof descriptor.value !== 'function') throw new Error('invariant: net.Socket.prototype.connect is not a method');
  if (ownHooks.has(descriptor.value as object)) return;
  const original = descriptor.value as Connect;
  const hook: Connect = function connect(this: Socket, ...args: unknown[]) {
    if (!armed) return original.apply(this, args);
    const start = startOf(tls.TLSSocket.prototype);
    enableInterception();
    // tls.connect() passes its handshake trigger (`_start`, read before msw patched it) as the
    // connect callback; msw tells it from a caller's callback by comparing it with `_start` as it
    // is now, and must, or the handshake it emulates starts natively too (TLSWrap aborts the process).
    if (this instanceof tls.TLSSocket && startOf(this) !== start) replaceArgument(args, start, startOf(this));
    return (proto.connect as Connect).apply(this, args);
  };
  ownHooks.add(hook);
  Object.defineProperty(proto, 'connect', { ...descriptor, value: hook });
  hooks.push({ descriptor, hook });
}

const startOf = (socket: object): unknown => (socket as { _start?: unknown })._start;

/** Replaces `from` by `to` among connect()'s arguments, also inside the normalized array tls.connect() passes (kept in place: Node marks it). */
function replaceArgument(args: unknown[], from: unknown, to: unknown): void {
  const list = Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
  for (let i = 0; i < list.length; i++) if (list[i] === from) list[i] = to;
}

function disarm(): void {
  armed = false;
}

/** With no cluster left and msw let go: Node's own method back, where no other patch wrapped the hook since. */
function removeHooks(): void {
  const proto = net.Socket.prototype;
  while (hooks.length > 0 && Object.getOwnPropertyDescriptor(proto, 'connect')?.value === hooks.at(-1)!.hook) {
    Object.defineProperty(proto, 'connect', hooks.pop()!.descriptor);
  }
}

// @mswjs/interceptors (0.45) mocks a TLS connection on a TLSWrap over a TCP handle of its own
// (its tls `_wrapHandle` patch); when undici closes such a socket, the socket is destroyed and
// emits 'close' but both handles stay open, holding the socket and everything it references:
// one TCP handle and ~45 KiB of heap per connection, for the life of the process. Every undici
// copy (client-node's and Node's own fetch) reports its connections on this channel; closing the
// leftover handles of ours once the socket has closed is what Node's own destroy would have done.
const UNDICI_CONNECTED = 'undici:client:connected';

interface HandleLike {
  close(): void;
  _parent?: HandleLike;
}

function releaseHandlesOnClose(message: unknown): void {
  const { socket, connectParams } = message as { socket?: Socket & { _handle?: HandleLike | null }; connectParams?: { hostname?: string } };
  const name = connectParams?.hostname;
  if (!socket || typeof name !== 'string' || !name.endsWith(`.${CLUSTER_DOMAIN}`)) return;
  socket.once('close', () => {
    const handle = socket._handle;
    if (!handle || !socket.destroyed) return;
    socket._handle = null;
    handle.close();
    handle._parent?.close();
  });
}
