// cluster.requests: every HTTP request the cluster answered (in-process, listen() and handle()),
// with its attributes, the status code, and its bodies parsed when asked for.
import { goYamlToJson } from '../go/yaml.ts';
import { bodyOfRequest, bodyOfResponse } from '../http/sent-bodies.ts';
import { auditAnnotationsOf } from '../http/admission-outcome.ts';
import { BoundedLog, type RecordLog } from './bounded-log.ts';
import { saveCassette, type RawExchange } from './cassette.ts';
import { matchesRequest, type RequestAttributes, type RequestMatch } from './request-attributes.ts';

/** One request the cluster answered. */
export interface RecordedRequest extends RequestAttributes {
  /** The HTTP status code answered (200 for a watch that started streaming). */
  status: number;
  /** True when a fault rule or hook answered or delayed this request. */
  fault: boolean;
  /**
   * The audit annotations admission added (a refused request's too), keyed as the audit event
   * keys them: `<webhook name>/<key>`, `<policy name>/<key>`,
   * `validation.policy.admission.k8s.io/validation_failure`, `pod-security.kubernetes.io/enforce-policy`,
   * `failed-open.validating.webhook.admission.k8s.io/round_0_index_<i>`, …; empty when there are none.
   */
  auditAnnotations: Record<string, string>;
  /** The request body parsed (JSON or YAML); raw bytes for other content types; undefined when there was none (or bodies are not kept). */
  body(): Promise<unknown>;
  /** The response body parsed (JSON or YAML), or its text; undefined for watch streams (or when bodies are not kept). */
  responseBody(): Promise<unknown>;
  /** The exchange as bytes on the wire, for a cassette (cassette.ts); bodies undefined when not kept. */
  exchange(): Promise<RawExchange>;
}


/** Selects recorded requests: attribute filters, or any predicate. */
export type RequestFilter = RequestMatch | ((request: RecordedRequest) => boolean);

/** The request log; bounded (oldest dropped first) and clearable. */
export type RequestLog = RecordLog<RecordedRequest, RequestFilter> & {
  /** Writes the logged requests (or those `filter` selects) as a cassette `createFakeCluster({ replay })` answers from. */
  save(path: string, filter?: RequestFilter): Promise<void>;
};

export class RequestRecorder implements RequestLog {
  private readonly log: BoundedLog<RecordedRequest>;
  /** Whether body()/responseBody() answer the bodies (`requestLog.bodies`); off, the log holds no reference to them. */
  readonly keepsBodies: boolean;

  constructor(limit: number, keepBodies = true) {
    this.log = new BoundedLog(limit);
    this.keepsBodies = keepBodies && limit > 0;
  }

  get length(): number {
    return this.log.length;
  }

  get limit(): number {
    return this.log.limit;
  }

  /** Whether requests are kept at all (a limit of 0 turns the log off). */
  get enabled(): boolean {
    return this.log.limit > 0;
  }

  /**
   * Records one answered request. Bodies are not copied: body() reads the bytes the handler read
   * (or the still unread stream), responseBody() the text the Response was built from (a clone
   * only for Responses made elsewhere, such as a fault hook's). Pass no response for a watch stream.
   */
  record(attrs: RequestAttributes, status: number, fault: boolean, request: Request, response: Response | undefined, streamed?: StreamedResponse): void {
    const headersOf = (r: Response | undefined) => (r ? [...r.headers] : streamed ? [...streamed.headers] : []);
    const base = { accept: request.headers.get('accept') ?? undefined, contentType: request.headers.get('content-type') ?? undefined };
    if (!this.keepsBodies) {
      const exchange = async (): Promise<RawExchange> => ({ ...base, requestBody: undefined, responseHeaders: headersOf(response), responseBody: undefined });
      this.log.push({ ...attrs, status, fault, auditAnnotations: auditAnnotationsOf(request), body: noBody, responseBody: noBody, exchange });
      return;
    }
    // An unread body may be gone by the time it is asked for (a listen() connection closed): then there is none.
    const readRequest = async () => bodyOfRequest(request) ?? (request.body && !request.bodyUsed ? await request.arrayBuffer().then((b) => new Uint8Array(b), () => undefined) : undefined);
    let readResponse: () => Promise<string | Uint8Array | undefined> = async () => undefined;
    if (response) {
      const sent = bodyOfResponse(response);
      // A Response built elsewhere is copied now: the client is about to consume this one.
      const copy = sent === undefined && response.body ? response.clone() : undefined;
      readResponse = async () => sent ?? (copy ? new Uint8Array(await copy.arrayBuffer()) : undefined);
    }
    this.log.push({
      ...attrs,
      status,
      fault,
      auditAnnotations: auditAnnotationsOf(request),
      body: once(async () => parseBody(request.headers.get('content-type'), await readRequest())),
      responseBody: once(async () => parseBody(response?.headers.get('content-type') ?? null, await readResponse())),
      exchange: once(async () => {
        const requestBody = await readRequest();
        const sent = await readResponse();
        const chunks = streamed?.chunks?.slice();
        return {
          ...base,
          requestBody,
          responseHeaders: headersOf(response),
          responseBody: sent === undefined ? (chunks ? concat(chunks) : undefined) : typeof sent === 'string' ? new TextEncoder().encode(sent) : sent,
          ...(chunks ? { responseChunks: chunks } : {}),
        };
      }),
    });
  }

  all(filter?: RequestFilter): RecordedRequest[] {
    const items = this.log.toArray();
    return filter ? items.filter(predicate(filter)) : items;
  }

  last(filter?: RequestFilter): RecordedRequest | undefined {
    const items = this.all(filter);
    return items[items.length - 1];
  }

  clear(): void {
    this.log.clear();
  }

  async save(path: string, filter?: RequestFilter): Promise<void> {
    if (!this.keepsBodies) throw new Error('kubefake: a cassette needs the request bodies: requestLog.bodies is false');
    await saveCassette(this.all(filter), path);
  }

  [Symbol.iterator](): Iterator<RecordedRequest> {
    return this.log.toArray()[Symbol.iterator]();
  }
}

function predicate(filter: RequestFilter): (r: RecordedRequest) => boolean {
  return typeof filter === 'function' ? filter : (r) => matchesRequest(r, filter);
}

function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= fn());
}

const noBody = async (): Promise<undefined> => undefined;

/** A watch stream's answer: its headers, and the chunks sent so far when they are recorded. */
export interface StreamedResponse {
  headers: Headers;
  /** Undefined when the chunks are not recorded. */
  chunks?: Uint8Array[];
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** A body as the log (and a fault hook's `body()`) answers it: JSON and YAML parsed (text when they do not parse), text for text types, bytes otherwise. */
export function parseBody(contentType: string | null, body: string | Uint8Array | undefined): unknown {
  if (body === undefined || body.length === 0) return undefined;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const text = () => (typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  if (type === '' || type.endsWith('json')) {
    try {
      return JSON.parse(text());
    } catch {
      return text();
    }
  }
  if (type.endsWith('yaml')) {
    // As the server read it: an alias bomb stays text instead of expanding in the test process.
    const decoded = goYamlToJson(text());
    return decoded.ok ? decoded.value : text();
  }
  if (type.startsWith('text/')) return text();
  return typeof body === 'string' ? new TextEncoder().encode(body) : body;
}
