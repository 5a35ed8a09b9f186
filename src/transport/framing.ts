// How an answer is framed on HTTP/1.1, as Go's net/http server frames kube-apiserver's: a handler
// that finished within the first 2,048 bytes of body gets a Content-Length, anything longer or
// still streaming goes out chunked (net/http server.go, chunkWriter.writeHeader and
// bufferBeforeChunkingSize). Both in-process transports put the same header on the Response, so a
// client sees one framing whichever it goes through, and msw (which ends the connection after a
// body with neither) can keep connections alive.
import { bodyOfResponse } from '../http/sent-bodies.ts';

/** net/http's bufferBeforeChunkingSize. */
const BUFFER_BEFORE_CHUNKING = 2048;

/** Statuses that never carry a body (net/http bodyAllowedForStatus). */
const noBody = (status: number) => (status >= 100 && status <= 199) || status === 204 || status === 304;

/**
 * Adds Content-Length or Transfer-Encoding to `response` unless it has either; answers the body
 * as bytes when the handler built it from bytes in hand (the transport can send those directly).
 */
export function frame(method: string, response: Response): Buffer | undefined {
  const sent = bodyOfResponse(response);
  const bytes = sent === undefined ? undefined : typeof sent === 'string' ? Buffer.from(sent) : Buffer.from(sent.buffer, sent.byteOffset, sent.byteLength);
  const headers = response.headers;
  if (method === 'HEAD' || noBody(response.status) || headers.has('content-length') || headers.has('transfer-encoding')) return bytes;
  if (bytes !== undefined && bytes.byteLength <= BUFFER_BEFORE_CHUNKING) headers.set('content-length', String(bytes.byteLength));
  else if (response.body) headers.set('transfer-encoding', 'chunked');
  else headers.set('content-length', '0');
  return bytes;
}
