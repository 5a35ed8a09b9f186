// Helpers of the transport tests (test/transport.test.ts, test/transport-named.test.ts).
import * as k8s from '@kubernetes/client-node';

/** The dispatcher client-node's fetch would use for a request through `kc` (undefined: undici's global one). */
export async function dispatcherOf(kc: k8s.KubeConfig): Promise<unknown> {
  const ctx = new k8s.RequestContext('https://example.invalid/', k8s.HttpMethod.GET);
  await kc.applySecurityAuthentication(ctx);
  return ctx.getDispatcher();
}

/** Open handles by kind (sockets, servers, timers), from Node's own list; immediates come and go by the tick. */
export function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) if (kind !== 'Immediate') counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/** Kinds of which more are open now than `before` (an msw keep-alive socket of an earlier test may close meanwhile). */
export function grownSince(before: Record<string, number>): Record<string, number> {
  const grown: Record<string, number> = {};
  for (const [kind, count] of Object.entries(activeResources())) if (count > (before[kind] ?? 0)) grown[kind] = count - (before[kind] ?? 0);
  return grown;
}

