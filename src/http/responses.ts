// Serialising answers: JSON or YAML bodies with an explicit content-type (clients parse by it),
// Status errors with HTTP status = code, and Warning headers.
import { dump } from 'js-yaml';
import type { Status, StatusError } from '../errors/status-error.ts';
import type { OutputFormat } from './media-types.ts';
import { sentResponse } from './sent-bodies.ts';
import { encodeBodyJson } from './object-json.ts';

export interface ResponseOptions {
  status?: number;
  format?: OutputFormat;
  warnings?: readonly string[];
  headers?: Record<string, string>;
  contentType?: string;
}

/**
 * `299 - "<text>"` with quotes and backslashes escaped (apimachinery/pkg/util/net NewWarningHeader),
 * as the bytes Go writes: the text's UTF-8, each byte one character of the header string (a Fetch
 * header value is a ByteString; node:http writes it back as latin1, so the wire carries UTF-8 as
 * from Go, and a client reads it as it would from kube-apiserver).
 */
export function warningHeader(text: string): string {
  return Buffer.from(`299 - "${text.replace(/[\\"]/g, (c) => '\\' + c)}"`, 'utf8').toString('latin1');
}

/** NewWarningHeader refuses texts that are not valid UTF-8 (a lone surrogate) or hold control characters; the recorder then drops that warning. */
function sendableWarning(text: string): boolean {
  // With the u flag a lone surrogate is one code point of category Cs (a paired one is not).
  return !/[\p{Cc}\p{Cs}]/u.test(text);
}

export function objectResponse(body: unknown, options: ResponseOptions = {}): Response {
  const format = options.format ?? 'json';
  // JSON as the apiserver's serializer writes it (json.NewEncoder: HTML escaped, a trailing newline),
  // each frozen object's text serialised once (object-json.ts).
  const text = format === 'yaml' ? dump(body, { noRefs: true, lineWidth: -1 }) : encodeBodyJson(body);
  // A list, not a Headers object: the global Headers is msw's recording Proxy while interception is on.
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(options.headers ?? {})) if (name.toLowerCase() !== 'content-type') headers.push([name, value]);
  headers.push(['content-type', options.contentType ?? (format === 'yaml' ? 'application/yaml' : 'application/json')]);
  // A YAML strict error has newlines: that warning is dropped.
  if (options.warnings?.length) for (const w of new Set(options.warnings)) if (sendableWarning(w)) headers.push(['warning', warningHeader(w)]);
  return sentResponse(text, { status: options.status ?? 200, headers });
}

export function statusResponse(status: Status, format: OutputFormat = 'json', warnings?: readonly string[]): Response {
  // responsewriters.ErrorNegotiated: a Status asking for a retry delay says so in Retry-After too.
  const retryAfter = status.details?.retryAfterSeconds;
  const headers = retryAfter && retryAfter > 0 ? { 'retry-after': String(retryAfter) } : undefined;
  return objectResponse(status, { status: status.code ?? (status.status === 'Success' ? 200 : 500), format, warnings, headers });
}

export function errorResponse(err: StatusError, format: OutputFormat = 'json'): Response {
  return statusResponse(err.status, format);
}

/** Go's http.NotFound, which answers paths outside every served API group. */
export function plainNotFound(): Response {
  return sentResponse('404 page not found\n', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' } });
}

/** What Go's net/http answers a request it cannot parse (an invalid escape in the request-target). */
export function plainBadRequest(): Response {
  return sentResponse('400 Bad Request', { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8', connection: 'close' } });
}
