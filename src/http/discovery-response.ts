// Serves /api and /apis in the form the client asked for: aggregated discovery (with ETag/304,
// which kubectl revalidates with) or the legacy documents.
import { createHash } from 'node:crypto';
import { AGGREGATED_DISCOVERY_CONTENT_TYPE } from '../apis/discovery.ts';
import { marshalGoJson } from '../go/json-encode.ts';
import { parseAccept } from './media-types.ts';
import { objectResponse } from './responses.ts';
import { sentResponse } from './sent-bodies.ts';

function wantsAggregated(request: Request): boolean {
  return parseAccept(request.headers.get('accept')).some(
    (r) => r.type === 'application' && r.subtype === 'json' && r.params.g === 'apidiscovery.k8s.io' && r.params.v === 'v2' && r.params.as === 'APIGroupDiscoveryList',
  );
}

export function discoveryResponse(request: Request, legacy: unknown, aggregated: () => unknown): Response {
  if (!wantsAggregated(request)) return objectResponse(legacy);
  // aggregated/etag.go: the ETag is the upper-case hex SHA-512 of json.Marshal of the document, the
  // body what WriteObjectNegotiated writes (the same bytes and a newline); Cache-Control: public.
  const marshalled = marshalGoJson(aggregated());
  const etag = `"${createHash('sha512').update(marshalled).digest('hex').toUpperCase()}"`;
  const headers = { 'content-type': AGGREGATED_DISCOVERY_CONTENT_TYPE, etag, vary: 'Accept', 'cache-control': 'public' };
  const body = marshalled + '\n';
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  return sentResponse(body, { status: 200, headers });
}
