// Serves /openapi/v2, /openapi/v3 and /openapi/v3/<gv> with the headers and caching of the real
// apiserver: the v3 index comes from kube-aggregator's specProxier (http.ServeContent, no ETag),
// the documents from kube-openapi handler3/handler (ETag = hash, 301 on a stale ?hash=, immutable
// caching on a matching one, 304 on If-None-Match, 406 when no acceptable format is asked for).
// /openapi/v2 is also served in protobuf (gnostic's openapi_v2.Document), which kubectl asks for.
import type { ApiCatalog } from '../apis/catalog.ts';
import type { OpenAPIService, SerializedDocument } from '../apis/openapi/service.ts';
import { KUBERNETES_VERSION } from '../apis/version.ts';
import { parseGoautonegAccept } from './goautoneg.ts';
import { sentResponse } from './sent-bodies.ts';

const services = new WeakMap<ApiCatalog, OpenAPIService>();
let Service: typeof OpenAPIService | undefined;
let swaggerToProtobuf: typeof import('./protobuf/openapi-v2.ts').swaggerToProtobuf | undefined;

/**
 * Loads the OpenAPI tables (a dozen modules) and the protobuf rendition of /openapi/v2 (gnostic's
 * message tables) on the first /openapi request, not with kubefake; openapiResponse() needs them.
 * One import after the other: concurrent import()s break Jest's ESM runtime (jestjs/jest#11434).
 */
export async function loadOpenAPI(): Promise<void> {
  Service ??= (await import('../apis/openapi/service.ts')).OpenAPIService;
  swaggerToProtobuf ??= (await import('./protobuf/openapi-v2.ts')).swaggerToProtobuf;
}

function serviceFor(catalog: ApiCatalog): OpenAPIService {
  if (!Service) throw new Error('kubefake internal error: /openapi served before loadOpenAPI()');
  let service = services.get(catalog);
  if (!service) services.set(catalog, (service = new Service({ version: KUBERNETES_VERSION.gitVersion })));
  return service;
}

/** Answers /openapi/v2, /openapi/v3 and /openapi/v3/<gv>; undefined for other paths. */
export function openapiResponse(request: Request, path: string, catalog: ApiCatalog): Response | undefined {
  if (path === '/openapi/v2') return swagger(request, catalog);
  if (path === '/openapi/v3') return index(request, catalog);
  if (path.startsWith('/openapi/v3/')) return groupVersion(request, path.slice('/openapi/v3/'.length), catalog);
  return undefined;
}

/** genericfilters.WithCacheControl puts this on every answer that does not set its own. */
const NO_CACHE = 'no-cache, private';

function index(request: Request, catalog: ApiCatalog): Response {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const [key, doc] of serviceFor(catalog).documents(catalog)) paths[key] = { serverRelativeURL: serverRelativeURL(key, doc.hash) };
  const body = JSON.stringify({ paths });
  // ServeContent sniffs the type of a name without extension: JSON text is text/plain.
  const headers = new Headers({
    'cache-control': NO_CACHE,
    'content-type': 'text/plain; charset=utf-8',
    'last-modified': new Date().toUTCString(),
    'accept-ranges': 'bytes',
  });
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
}

function serverRelativeURL(key: string, hash: string): string {
  return `/openapi/v3/${key}?${new URLSearchParams({ hash })}`;
}

function groupVersion(request: Request, key: string, catalog: ApiCatalog): Response {
  const doc = serviceFor(catalog).documents(catalog).get(key);
  // The aggregator answers an unknown group version with a bare 404 before looking at Accept.
  if (!doc) return new Response(null, { status: 404, headers: { 'cache-control': NO_CACHE } });
  const headers = new Headers({ 'cache-control': NO_CACHE, vary: 'Accept' });
  if (!acceptsJson(request)) return new Response(null, { status: 406, headers });
  headers.set('content-type', 'application/json');
  headers.set('etag', `"${doc.hash}"`);
  const hash = new URL(request.url).searchParams.get('hash');
  if (hash) {
    if (hash !== doc.hash) {
      headers.set('location', serverRelativeURL(key, doc.hash));
      return new Response(null, { status: 301, headers });
    }
    headers.set('cache-control', 'public, immutable');
    headers.set('expires', oneYearFromNow());
  }
  return serveContent(request, doc, headers);
}

/** The protobuf rendition's media type; kubectl asks for the older `@v1.0` spelling, which gets the same. */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const V2_FORMATS = [
  { subtype: 'json', contentType: 'application/json' },
  { subtype: 'com.github.proto-openapi.spec.v2@v1.0+protobuf', contentType: OPENAPI_V2_PROTOBUF },
  { subtype: 'com.github.proto-openapi.spec.v2.v1.0+protobuf', contentType: OPENAPI_V2_PROTOBUF },
] as const;

/**
 * kube-openapi's handler: the first format (json, then protobuf under either name) that the first
 * matching clause of the Accept list (goautoneg order: q, then specificity) names. Both share the
 * JSON's ETag, since Vary: Accept tells them apart.
 */
function swagger(request: Request, catalog: ApiCatalog): Response {
  const headers = new Headers({ 'cache-control': NO_CACHE, vary: 'Accept' });
  const header = request.headers.get('accept');
  const clauses = parseGoautonegAccept(header && header.trim() ? header : '*/*');
  for (const clause of clauses) {
    if (clause.type !== 'application' && clause.type !== '*') continue;
    const format = V2_FORMATS.find((f) => clause.subtype === f.subtype || clause.subtype === '*');
    if (!format) continue;
    const doc = serviceFor(catalog).swagger(catalog);
    headers.set('content-type', format.contentType);
    headers.set('etag', `"${doc.hash}"`);
    return serveContent(request, format.contentType === OPENAPI_V2_PROTOBUF ? protobufOf(doc) : doc, headers);
  }
  return new Response(null, { status: 406, headers });
}

const protobufRenditions = new WeakMap<SerializedDocument, SerializedDocument>();

/** ToProtoBinary of the JSON document, made once per document (kube-openapi caches it the same way). */
function protobufOf(doc: SerializedDocument): SerializedDocument {
  let proto = protobufRenditions.get(doc);
  if (!proto) protobufRenditions.set(doc, (proto = { ...doc, body: swaggerToProtobuf!(JSON.parse(doc.body as string)) }));
  return proto;
}

/**
 * Whether some Accept clause can be answered with JSON, for the v3 documents. The real handler3
 * could also answer protobuf (gnostic's v3 model), which no client asks for; kubefake has only
 * JSON there, so a clause that names only protobuf is skipped and an Accept with nothing else is 406.
 */
function acceptsJson(request: Request): boolean {
  const header = request.headers.get('accept');
  const clauses = parseGoautonegAccept(header && header.trim() ? header : '*/*');
  return clauses.some((c) => (c.type === 'application' || c.type === '*') && (c.subtype === 'json' || c.subtype === '*'));
}

/** http.ServeContent's conditional handling for a document with an ETag. */
function serveContent(request: Request, doc: SerializedDocument, headers: Headers): Response {
  headers.set('accept-ranges', 'bytes');
  headers.set('last-modified', doc.lastModified.toUTCString());
  const method = request.method.toUpperCase();
  const ifNoneMatch = request.headers.get('if-none-match');
  const etag = headers.get('etag')!;
  let notModified = false;
  if (ifNoneMatch !== null) {
    notModified = etagListMatches(ifNoneMatch, etag);
    if (notModified && method !== 'GET' && method !== 'HEAD') return new Response(null, { status: 412, headers });
  } else {
    const since = Date.parse(request.headers.get('if-modified-since') ?? '');
    notModified = (method === 'GET' || method === 'HEAD') && !Number.isNaN(since) && Math.floor(doc.lastModified.getTime() / 1000) * 1000 <= since;
  }
  if (notModified) {
    // RFC 7232 §4.1: a 304 carries the validators but no representation metadata.
    headers.delete('content-type');
    headers.delete('last-modified');
    return new Response(null, { status: 304, headers });
  }
  // The documents run to megabytes: sentResponse() spares the request log a copy of each.
  return method === 'HEAD' ? new Response(null, { status: 200, headers }) : sentResponse(doc.body, { status: 200, headers });
}

/** If-None-Match: `*` or a list of (possibly weak) entity tags, compared weakly. */
function etagListMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const strip = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => strip(t) === strip(etag));
}

/** time.Now().AddDate(1, 0, 0).Format(time.RFC1123) on a server running in UTC. */
function oneYearFromNow(): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.toUTCString().replace(/GMT$/, 'UTC');
}
