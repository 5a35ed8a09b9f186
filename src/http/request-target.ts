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
  // request.url is serialised WHATWG: `<scheme>://<authority><path>[?query][#fragment]`.
  const url = request.url;
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const hash = url.indexOf('#', start);
  return hash < 0 ? url.slice(start) : url.slice(start, hash);
}

export interface RequestTarget {
  /** URL.Path: percent-decoded, dot segments kept. */
  path: string;
  /** URL.Query(): pairs Go cannot decode are dropped, `;` is no separator. */
  query: URLSearchParams;
}

const parsedTargets = new WeakMap<Request, RequestTarget | null>();

const INVALID_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

/**
 * The target as net/http parses it (url.ParseRequestURI), or undefined when net/http refuses it
 * (an invalid escape such as `%ZZ`): Go's server then answers a plain `400 Bad Request`. Parsed
 * once per request (the request log and the handler both ask).
 */
export function requestTargetOf(request: Request): RequestTarget | undefined {
  let parsed = parsedTargets.get(request);
  if (parsed === undefined) parsedTargets.set(request, (parsed = parseTarget(rawRequestTarget(request))));
  return parsed ?? undefined;
}

function parseTarget(raw: string): RequestTarget | null {
  // The common case, cheaply: an origin-form target with no escape in its path has nothing to
  // decode there, and a query without `;` or invalid escapes, and short of Go's 10,000-parameter
  // limit, splits and decodes in URLSearchParams as in url.ParseQuery.
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  const query = q < 0 ? '' : raw.slice(q + 1);
  if (path.startsWith('/') && !path.includes('%') && query.length < 19_999 && !query.includes(';') && !INVALID_ESCAPE.test(query)) {
    return { path, query: new URLSearchParams(query) };
  }
  let url;
  try {
    url = parseRequestURI(raw);
  } catch (err) {
    if (err instanceof UrlError) return null;
    throw err;
  }
  const params = new URLSearchParams();
  for (const [key, values] of url.getQuery()) for (const value of values) params.append(key, value);
  return { path: url.getPath(), query: params };
}
