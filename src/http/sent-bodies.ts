// The body a Response was built from, kept by reference: the request log reads an answer from
// here on demand instead of cloning every Response (a tee of its stream that the client's read
// then pays for). Likewise the bytes the handler read from a request.
const responseBodies = new WeakMap<Response, string | Uint8Array>();

// The Response class as Node defines it, taken before msw's interception (enabled with the first
// cluster) wraps the global one in a Proxy that records raw headers for msw's own use: kubefake's
// answers need none of that, and the in-process dispatcher would pay for it on every request.
const NativeResponse = globalThis.Response;
const requestBodies = new WeakMap<Request, Uint8Array>();

/** `new Response(body, init)`, remembering `body` for bodyOfResponse(). */
export function sentResponse(body: string | Uint8Array, init: ResponseInit): Response {
  const response = new NativeResponse(body as BodyInit, init);
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
