// One msw network per process, shared by every cluster: client-node 2.x sends through undici,
// which only the socket-level HttpRequestInterceptor sees. Each cluster owns a host name; other
// hosts pass through untouched, and interception is released when the last cluster detaches.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import type { InterceptorSource, NetworkApi } from 'msw/experimental';
import { frame } from './framing.ts';

import type { RequestHandlerFn } from './in-process-dispatcher.ts';

export const CLUSTER_DOMAIN = 'kubefake.local';

const routes = new Map<string, RequestHandlerFn>();
let network: Promise<NetworkApi<[InterceptorSource]>> | undefined;
let enabling: Promise<unknown> | undefined;

// msw and @mswjs/interceptors (dozens of modules) load when the first cluster attaches, not
// when kubefake is imported: a process that never intercepts (cluster.kubeConfig on the
// dispatcher only after the first cluster) pays for them once, inside createFakeCluster, which
// still resolves only once interception is active.
// Imported once: a network is created anew each time interception goes from off to on.
let mswModules: Promise<readonly [typeof import('@mswjs/interceptors/http'), typeof import('msw'), typeof import('msw/experimental')]> | undefined;

async function createNetwork(): Promise<NetworkApi<[InterceptorSource]>> {
  // One import after the other: concurrent import()s of modules sharing dependencies (msw and
  // msw/experimental do) break Jest's ESM runtime ("request for … is from a module not been
  // linked", jestjs/jest#11434), and kubefake must work under Jest.
  mswModules ??= (async () => {
    const interceptors = await import('@mswjs/interceptors/http');
    const msw = await import('msw');
    const experimental = await import('msw/experimental');
    return [interceptors, msw, experimental] as const;
  })();
  const [{ HttpRequestInterceptor }, { http }, { defineNetwork, InMemoryHandlersController, InterceptorSource }] = await mswModules;
  const handler = http.all(`https://*.${CLUSTER_DOMAIN}/*`, async ({ request }) => {
    const route = routes.get(new URL(request.url).host);
    // A cluster host that is gone (closed) or never was: a network error at once, as the
    // dispatcher's ENOTFOUND, instead of a real DNS lookup of a name no resolver knows (which can
    // take seconds where lookups of .local names wait for mDNS).
    if (!route) return Response.error();
    const response = await route(request);
    frame(request.method.toUpperCase(), response);
    return response;
  });
  return defineNetwork({
    sources: [new InterceptorSource({ interceptors: [new HttpRequestInterceptor()] })],
    handlers: new InMemoryHandlersController([handler]),
    onUnhandledFrame: 'bypass',
    context: { quiet: true },
  });
}

/** Routes requests for `host` to `handler`; resolves once interception is active. */
export async function attachHost(host: string, handler: RequestHandlerFn): Promise<void> {
  if (routes.has(host)) throw new Error(`invariant: host ${host} is already attached`);
  routes.set(host, handler);
  if (!network) {
    network = createNetwork();
    enabling = network.then((created) => created.enable());
    subscribe(UNDICI_CONNECTED, releaseHandlesOnClose);
  }
  await enabling;
}

export async function detachHost(host: string): Promise<void> {
  if (!routes.delete(host) || routes.size > 0 || !network) return;
  const current = network;
  const enabled = enabling;
  network = undefined;
  enabling = undefined;
  unsubscribe(UNDICI_CONNECTED, releaseHandlesOnClose);
  await enabled?.catch(() => undefined);
  await (await current).disable();
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
