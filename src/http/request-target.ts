// The request target (path and query) as the client sent it, decoded as Go's net/http does.
// Every `Request` has gone through WHATWG URL parsing, which resolves dot segments: `new
// Request('…/namespaces/victim/configmaps/%2e%2e')` addresses `/namespaces/victim`. kube-apiserver
// never normalises a path (net/http's url.ParseRequestURI keeps `..`; the registry then refuses
// the name), so a transport that sees the raw request line remembers it here, and the handler
// reads the path from it.
import { parseRequestURI, UrlError } from '../go/net-url.ts';

const rawTargets = new WeakMap<Request, string>();

/** Remembers the request-target of the request line (`/api/v1/…?…`) a transport read from the wire. */
export function rememberRequestTarget(request: Request, target: string): void {
  rawTargets.set(request, target);
}

/** The request-target as sent when a transport remembered it, else the path and query of the Request's URL. */
export function rawRequestTarget(request: Request): string {
  const raw = rawTargets.get(request);
  if (raw !== undefined) return raw;
  const url = new URL(request.url);
  return url.pathname + url.search;
}

export interface RequestTarget {
  /** URL.Path: percent-decoded, dot segments kept. */
  path: string;
  /** URL.Query(): pairs Go cannot decode are dropped, `;` is no separator. */
  query: URLSearchParams;
}

/**
 * The target as net/http parses it (url.ParseRequestURI), or undefined when net/http refuses it
 * (an invalid escape such as `%ZZ`): Go's server then answers a plain `400 Bad Request`.
 */
export function requestTargetOf(request: Request): RequestTarget | undefined {
  let url;
  try {
    url = parseRequestURI(rawRequestTarget(request));
  } catch (err) {
    if (err instanceof UrlError) return undefined;
    throw err;
  }
  const query = new URLSearchParams();
  for (const [key, values] of url.getQuery()) for (const value of values) query.append(key, value);
  return { path: url.getPath(), query };
}
