// A real HTTP listener on loopback that serves the same handler as the in-process transport,
// for kubectl and clients in other languages.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { RequestHandlerFn } from './msw-network.ts';

/** Where `cluster.listen()` serves. */
export interface ListenOptions {
  /** TCP port; default 0 (any free port). */
  port?: number;
  /** Address to bind; default `127.0.0.1` (loopback only). */
  host?: string;
}

export interface Listener {
  url: string;
  close(): Promise<void>;
}

function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(key, v));
    else if (value !== undefined) headers.set(key, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: 'half',
  } as RequestInit);
}

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  // A client that goes away must end the stream, so a watch unsubscribes.
  res.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Backpressure: read no more of the body until the socket takes what it has, so a client
      // that stops reading leaves the unread events in the watch stream's own queue, where its
      // backlog limit sees them (http/watch-stream.ts), not in an ever-growing socket buffer.
      if (value.byteLength && !res.write(value)) await drained(res);
    }
  } catch {
    // The reader was cancelled because the client left.
  }
  res.end();
}

/** Resolves once `res` can take more data, or it closed (a client that left never drains). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export async function listen(handler: RequestHandlerFn, options: ListenOptions = {}): Promise<Listener> {
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer((req, res) => {
    const origin = `http://${req.headers.host ?? host}`;
    handler(toRequest(req, origin))
      .then((response) => writeResponse(response, res))
      .catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
