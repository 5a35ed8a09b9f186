// cluster.requests: every HTTP request the cluster answered (in-process, listen() and handle()),
// with its attributes, the status code, and its bodies parsed when asked for.
import { load } from 'js-yaml';
import { BoundedLog } from './bounded-log.ts';
import { matchesRequest, type RequestAttributes, type RequestMatch } from './request-attributes.ts';

export interface RecordedRequest extends RequestAttributes {
  /** The HTTP status code answered (200 for a watch that started streaming). */
  status: number;
  /** True when a fault rule or hook answered or delayed this request. */
  fault: boolean;
  /** The request body parsed (JSON or YAML); raw bytes for other content types; undefined when there was none (or bodies are not kept). */
  body(): Promise<unknown>;
  /** The response body parsed (JSON or YAML), or its text; undefined for watch streams (or when bodies are not kept). */
  responseBody(): Promise<unknown>;
}

/** Selects recorded requests: attribute filters, or any predicate. */
export type RequestFilter = RequestMatch | ((request: RecordedRequest) => boolean);

/** The request log; bounded (oldest dropped first) and clearable. */
export interface RequestLog extends Iterable<RecordedRequest> {
  /** How many requests are recorded now. */
  readonly length: number;
  /** How many the log keeps at most (`requestLog.limit`). */
  readonly limit: number;
  /** Recorded requests, oldest first, optionally filtered. */
  all(filter?: RequestFilter): RecordedRequest[];
  /** The newest recorded request the filter selects. */
  last(filter?: RequestFilter): RecordedRequest | undefined;
  /** Forgets every recorded request. */
  clear(): void;
}

export class RequestRecorder implements RequestLog {
  private readonly log: BoundedLog<RecordedRequest>;
  /** Whether request and response bodies are copied for body()/responseBody(). */
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

  /** Whether requests are kept at all (a limit of 0 turns the log off and saves the body copies). */
  get enabled(): boolean {
    return this.log.limit > 0;
  }

  record(attrs: RequestAttributes, status: number, fault: boolean, request: Request | undefined, response: Response | undefined): void {
    this.log.push({ ...attrs, status, fault, body: once(() => parseBody(request)), responseBody: once(() => parseBody(response)) });
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

/** Reads a copied body: JSON and YAML parsed, text for text types, bytes otherwise. */
async function parseBody(message: Request | Response | undefined): Promise<unknown> {
  if (!message?.body) return undefined;
  const bytes = new Uint8Array(await message.arrayBuffer());
  if (bytes.length === 0) return undefined;
  const type = (message.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const text = () => Buffer.from(bytes).toString('utf8');
  if (type === '' || type.endsWith('json')) {
    try {
      return JSON.parse(text());
    } catch {
      return text();
    }
  }
  if (type.endsWith('yaml')) return load(text());
  if (type.startsWith('text/')) return text();
  return bytes;
}
