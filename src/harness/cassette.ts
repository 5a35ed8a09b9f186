// Record and replay: the request log saved as a cassette (every request with the bytes answered),
// and a handler that answers a recorded session from one, byte for byte, so a controller test
// captured once runs offline against the recording.
import { readFile, writeFile } from 'node:fs/promises';
import { rawRequestTarget } from '../http/request-target.ts';

/** One request and its answer as sent: what a cassette stores and a replay answers. */
export interface RawExchange {
  accept: string | undefined;
  contentType: string | undefined;
  requestBody: Uint8Array | undefined;
  responseHeaders: [string, string][];
  /** The whole body; for a watch, the chunks streamed while it was recorded (`requestLog.watchBodies`). */
  responseBody: Uint8Array | undefined;
  /** A watch stream: the chunks as they were sent, when recorded. */
  responseChunks?: Uint8Array[];
}

/** What a cassette is made of: a logged request (request-log.ts's RecordedRequest). */
export interface ExchangeSource {
  method: string;
  path: string;
  verb: string;
  status: number;
  exchange(): Promise<RawExchange>;
}

/** A body as a cassette stores it: UTF-8 text when it is text, base64 otherwise. */
export type CassetteBody = { text: string } | { base64: string };

export interface CassetteInteraction {
  request: { method: string; path: string; accept?: string; contentType?: string; body?: CassetteBody };
  response: {
    status: number;
    headers: [string, string][];
    body?: CassetteBody;
    /** A watch stream: the chunks as sent while it was recorded (absent when they were not recorded). */
    chunks?: CassetteBody[];
    watch?: boolean;
  };
}

export interface Cassette {
  kubefakeCassette: 1;
  interactions: CassetteInteraction[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function encode(bytes: Uint8Array | undefined): CassetteBody | undefined {
  if (bytes === undefined || bytes.byteLength === 0) return undefined;
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { base64: Buffer.from(bytes).toString('base64') };
  }
}

function decode(body: CassetteBody | undefined): Uint8Array {
  if (!body) return new Uint8Array();
  return 'text' in body ? new TextEncoder().encode(body.text) : new Uint8Array(Buffer.from(body.base64, 'base64'));
}

/** The recorded requests as a cassette. */
export async function cassetteOf(requests: ExchangeSource[]): Promise<Cassette> {
  const interactions: CassetteInteraction[] = [];
  for (const r of requests) {
    const x = await r.exchange();
    const watch = x.responseChunks !== undefined || r.verb === 'watch';
    interactions.push({
      request: { method: r.method, path: r.path, ...(x.accept ? { accept: x.accept } : {}), ...(x.contentType ? { contentType: x.contentType } : {}), ...optional('body', encode(x.requestBody)) },
      response: {
        status: r.status,
        headers: x.responseHeaders,
        ...(watch ? { watch: true, ...(x.responseChunks ? { chunks: x.responseChunks.map((c) => encode(c) ?? { text: '' }) } : {}) } : optional('body', encode(x.responseBody))),
      },
    });
  }
  return { kubefakeCassette: 1, interactions };
}

const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));

export async function saveCassette(requests: ExchangeSource[], path: string): Promise<void> {
  await writeFile(path, JSON.stringify(await cassetteOf(requests), null, 1) + '\n');
}

export async function loadCassette(source: string | Cassette): Promise<Cassette> {
  const cassette = typeof source === 'string' ? (JSON.parse(await readFile(source, 'utf8')) as Cassette) : source;
  if (cassette?.kubefakeCassette !== 1 || !Array.isArray(cassette.interactions)) throw new TypeError('kubefake: not a kubefake cassette (kubefakeCassette: 1 with interactions)');
  return cassette;
}

/**
 * Answers requests from a cassette: each recorded interaction once, in recorded order among those
 * with the same method, path and Accept header, preferring one whose request body is the same
 * bytes. A request with nothing left to answer it gets a 500 Status that says so. A replayed
 * watch sends its recorded chunks and stays open until the client goes or close() is called.
 */
export class CassettePlayer {
  private readonly unused: CassetteInteraction[];
  private readonly open = new Set<ReadableStreamDefaultController<Uint8Array>>();

  constructor(cassette: Cassette) {
    this.unused = [...cassette.interactions];
  }

  /** How many recorded interactions have not been asked for yet. */
  get remaining(): number {
    return this.unused.length;
  }

  readonly handle = async (request: Request): Promise<Response> => {
    const path = rawRequestTarget(request);
    const accept = request.headers.get('accept') ?? undefined;
    const body = new Uint8Array(await request.arrayBuffer());
    const sameTarget = (i: CassetteInteraction) => i.request.method === request.method.toUpperCase() && i.request.path === path && i.request.accept === accept;
    const sameBody = (i: CassetteInteraction) => Buffer.from(decode(i.request.body)).equals(Buffer.from(body));
    let at = this.unused.findIndex((i) => sameTarget(i) && sameBody(i));
    if (at < 0) at = this.unused.findIndex(sameTarget);
    if (at < 0) return notRecorded(request.method, path);
    const [interaction] = this.unused.splice(at, 1);
    const { status, headers, watch, chunks } = interaction!.response;
    if (!watch) return new Response(status === 204 || status === 304 ? null : (decode(interaction!.response.body) as BodyInit), { status, headers });
    const open = this.open;
    let controllerOf: ReadableStreamDefaultController<Uint8Array> | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controllerOf = controller;
        // msw holds response headers until the first chunk: an empty one goes first.
        controller.enqueue(new Uint8Array());
        for (const chunk of chunks ?? []) controller.enqueue(decode(chunk));
        open.add(controller);
        request.signal?.addEventListener('abort', () => {
          if (open.delete(controller)) controller.close();
        });
      },
      cancel() {
        if (controllerOf) open.delete(controllerOf);
      },
    });
    return new Response(stream, { status, headers });
  };

  /** Ends every replayed watch that is still open. */
  close(): void {
    for (const controller of this.open) controller.close();
    this.open.clear();
  }
}

function notRecorded(method: string, path: string): Response {
  const message = `kubefake replay: no recorded answer left for ${method.toUpperCase()} ${path}`;
  const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'InternalError', code: 500 };
  return new Response(JSON.stringify(status) + '\n', { status: 500, headers: { 'content-type': 'application/json' } });
}
