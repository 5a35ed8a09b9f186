// The body a Response was built from, kept by reference: the request log reads an answer from
// here on demand instead of cloning every Response (a tee of its stream that the client's read
// then pays for). Likewise the bytes the handler read from a request.
const responseBodies = new WeakMap<Response, string | Uint8Array>();

// The Response class as Node defines it, taken before msw's interception (enabled with the first
// cluster) wraps the global one in a Proxy that records raw headers for msw's own use: kubefake's
// answers need none of that, and the in-process dispatcher would pay for it on every request.
const NativeResponse = globalThis.Response;
const NativeReadableStream = globalThis.ReadableStream;
const requestBodies = new WeakMap<Request, Uint8Array>();

/**
 * `new Response(body, init)`, remembering `body` for bodyOfResponse(). The Response's stream
 * yields the body's bytes only when read: the transports send the remembered body itself, and
 * undici's own handling of a string or bytes body (measuring and encoding a string, copying
 * bytes) cost as much as building a 500-item list.
 */
export function sentResponse(body: string | Uint8Array, init: ResponseInit): Response {
  const stream = new NativeReadableStream<Uint8Array>(
    {
      pull(controller) {
        // Each reader gets bytes of its own: the remembered body is the request log's too.
        const bytes = typeof body === 'string' ? Buffer.from(body) : new Uint8Array(body);
        if (bytes.byteLength > 0) controller.enqueue(bytes);
        controller.close();
      },
    },
    // Nothing is pulled before a reader asks (the default high-water mark of 1 would pull at once).
    { highWaterMark: 0 },
  );
  const response = new NativeResponse(stream, init);
  // What fetch gives a string body with no content-type of its own (extractBody).
  if (typeof body === 'string' && !response.headers.has('content-type')) response.headers.set('content-type', 'text/plain;charset=UTF-8');
  responseBodies.set(response, body);
  return response;
}

/** What `response` was built from by sentResponse(), or undefined for any other Response. */
export function bodyOfResponse(response: Response): string | Uint8Array | undefined {
  return responseBodies.get(response);
}

/** Remembers the bytes read from `request`'s body (readBody() consumes the stream). */
export function rememberRequestBody(request: Request, bytes: Uint8Array): void {
  requestBodies.set(request, bytes);
}

/** The bytes the handler read from `request`, if it read the whole body. */
export function bodyOfRequest(request: Request): Uint8Array | undefined {
  return requestBodies.get(request);
}

// Answers that stream for as long as their source goes on (a followed pod log), which the request
// log must not copy: a copy would buffer the whole stream and keep it open after the client left.
const streamedResponses = new WeakSet<Response>();

/** Marks `response` as a stream with no end in sight; answers it. */
export function markStreamed(response: Response): Response {
  streamedResponses.add(response);
  return response;
}

export function isStreamed(response: Response): boolean {
  return streamedResponses.has(response);
}
