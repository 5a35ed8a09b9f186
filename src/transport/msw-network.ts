// One msw network per process, shared by every cluster: client-node 2.x sends through undici,
// which only the socket-level HttpRequestInterceptor sees. Each cluster owns a host name; other
// hosts pass through untouched, and interception is released when the last cluster detaches.
import { HttpRequestInterceptor } from '@mswjs/interceptors/http';
import { http } from 'msw';
import { defineNetwork, InMemoryHandlersController, InterceptorSource, type NetworkApi } from 'msw/experimental';

export type RequestHandlerFn = (request: Request) => Promise<Response>;

export const CLUSTER_DOMAIN = 'kubefake.local';

const routes = new Map<string, RequestHandlerFn>();
let network: NetworkApi<[InterceptorSource]> | undefined;
let enabling: Promise<unknown> | undefined;

function createNetwork(): NetworkApi<[InterceptorSource]> {
  const handler = http.all(`https://*.${CLUSTER_DOMAIN}/*`, async ({ request }) => {
    const route = routes.get(new URL(request.url).host);
    // No response means "not mine": msw then performs the request as it is.
    return route ? route(request) : undefined;
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
    enabling = Promise.resolve(network.enable());
  }
  await enabling;
}

export async function detachHost(host: string): Promise<void> {
  if (!routes.delete(host) || routes.size > 0 || !network) return;
  const current = network;
  network = undefined;
  enabling = undefined;
  await current.disable();
}
