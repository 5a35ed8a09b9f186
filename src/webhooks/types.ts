// What the cluster needs to call a webhook (conversion now, admission later) and what a test
// registers to answer one in-process with `cluster.serveWebhook(target, handler)`.

/** A webhook Service, as `clientConfig.service` names it (port 443 and path `/` by default). */
export interface WebhookServiceReference {
  /** The Service's namespace. */
  namespace: string;
  /** The Service's name. */
  name: string;
  /** URL path the apiserver posts to; default `/`. */
  path?: string;
  /** Service port; default 443. */
  port?: number;
}

/** Where a webhook lives: a `clientConfig.url` (`https://host[:port]/path`) or a service reference. */
export type WebhookTarget = string | WebhookServiceReference;

/**
 * Answers one webhook call in-process. It receives the parsed JSON body (a ConversionReview for
 * conversion webhooks) and the HTTP request the apiserver would send. Return the response body
 * (sent as JSON with 200), or a `Response` to control the status code, headers and body exactly.
 * A thrown error becomes a 500 with the error's message as text, as a failing server answers.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type WebhookHandler = (body: any, request: Request) => unknown;

/** apiextensions WebhookClientConfig (and admissionregistration's): exactly one of url and service. */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace?: string; name?: string; path?: string; port?: number };
  /** base64 of PEM certificates trusted for the webhook's serving certificate. */
  caBundle?: string;
}

/** The HTTP answer of a webhook, as the apiserver's REST client reads it. */
export interface WebhookReply {
  status: number;
  /** The Content-Type header, when the webhook sent one. */
  contentType: string | undefined;
  body: string;
}

/**
 * The transport the apiserver's webhook REST client uses. `post` resolves with whatever HTTP answer
 * came back and rejects with a WebhookTransportError when none did (refused, timed out, no such
 * service).
 */
export interface WebhookCaller {
  post(config: WebhookClientConfig, body: unknown, options?: WebhookCallOptions): Promise<WebhookReply>;
}

/** Per-call settings: admission webhooks carry their own `timeoutSeconds`. */
export interface WebhookCallOptions {
  /** Absolute timeout of this call (the `?timeout=` query too); the caller's default without it. */
  timeoutMs?: number;
}

/** No HTTP answer at all; the message is Go's `*url.Error` text (`Post "<url>": <reason>`). */
export class WebhookTransportError extends Error {
  override readonly name = 'WebhookTransportError';
}
