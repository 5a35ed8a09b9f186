// The body a Response was built from, kept by reference: the request log reads an answer from
// here on demand instead of cloning every Response (a tee of its stream that the client's read
// then pays for). Likewise the bytes the handler read from a request.
const responseBodies = new WeakMap<Response, string | Uint8Array>();
const requestBodies = new WeakMap<Request, Uint8Array>();

/** `new Response(body, init)`, remembering `body` for bodyOfResponse(). */
export function sentResponse(body: string | Uint8Array, init: ResponseInit): Response {
  const response = new Response(body as BodyInit, init);
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
