// Raw HTTP/1.1 exchanges over a socket, for requests no client would send (TRACE, a malformed Host,
// `%2e%2e` kept as sent, invalid escapes, a megabyte of URL) and to see exactly what comes back,
// including whether the connection was reset instead of answered.
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body, de-chunked. */
  body: string;
  /** The socket failed (ECONNRESET…) instead of ending cleanly. */
  error?: string;
}

export interface RawTarget {
  port: number;
  /** The CA to trust: makes the exchange TLS. */
  ca?: string;
}

function dechunk(body: Buffer): Buffer {
  const out: Buffer[] = [];
  let rest = body;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    if (eol < 0) return Buffer.concat(out);
    const size = parseInt(rest.subarray(0, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) return Buffer.concat(out);
    out.push(rest.subarray(eol + 2, eol + 2 + size));
    rest = rest.subarray(eol + 2 + size + 2);
  }
}

/** Sends `head` (request line and headers, CRLF-separated, without the blank line) and `body`; reads until the server closes. */
export function rawExchange(target: RawTarget, head: string, body = ''): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket: Socket = target.ca ? tlsConnect({ port: target.port, host: '127.0.0.1', ca: target.ca, servername: 'localhost' }) : netConnect(target.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    socket.on('close', () => {
      const bytes = Buffer.concat(chunks);
      const split = bytes.indexOf('\r\n\r\n');
      if (split < 0) {
        if (error) resolve({ status: 0, headers: {}, body: bytes.toString('utf8'), error });
        else reject(new Error(`no HTTP answer: ${JSON.stringify(bytes.toString('utf8').slice(0, 200))}`));
        return;
      }
      const [statusLine, ...lines] = bytes.subarray(0, split).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const raw = bytes.subarray(split + 4);
      const body = (headers['transfer-encoding'] === 'chunked' ? dechunk(raw) : raw).toString('utf8');
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body, error });
    });
    // No half-close: `Connection: close` has the server end the exchange once it answered.
    socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`);
  });
}

/** A request with the usual headers: `Host` for the listener unless `headers` sets one (`null` leaves it out). */
export function rawRequest(target: RawTarget, method: string, path: string, headers: Record<string, string | null> = {}, body = ''): Promise<RawAnswer> {
  const all: Record<string, string | null> = { host: `127.0.0.1:${target.port}`, ...headers };
  if (body) all['content-length'] = String(Buffer.byteLength(body));
  const lines = Object.entries(all)
    .filter((e): e is [string, string] => e[1] !== null)
    .map(([k, v]) => `${k}: ${v}`);
  return rawExchange(target, [`${method} ${path} HTTP/1.1`, ...lines].join('\r\n'), body);
}
