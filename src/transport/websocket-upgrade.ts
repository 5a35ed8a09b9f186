// The server side of a WebSocket upgrade (RFC 6455) for answers that only send: the handshake
// naming the chosen subprotocol, each message as one unmasked binary frame as it comes, then a
// normal close. What the client sends is read and dropped. Used for pods/exec and pods/attach of
// the kubelet stand-in, by the loopback listener and the in-process upgrades.
import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { toStatusError } from '../errors/status-error.ts';
import { upgradeAnswerOf } from '../http/exec-stream.ts';
import { errorResponse } from '../http/responses.ts';
import type { RequestHandlerFn } from './in-process-dispatcher.ts';

const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** One final (FIN) frame of `opcode`: the 7-bit, 16-bit or 64-bit length form RFC 6455 5.2 asks for. */
function frame(opcode: number, payload: Uint8Array): Buffer {
  const length = payload.byteLength;
  const head = Buffer.alloc(length < 126 ? 2 : length < 65536 ? 4 : 10);
  head[0] = 0x80 | opcode;
  if (length < 126) head[1] = length;
  else if (length < 65536) {
    head[1] = 126;
    head.writeUInt16BE(length, 2);
  } else {
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([head, payload]);
}

/**
 * Completes the handshake for `key` (Sec-WebSocket-Key), sends the messages as they come and
 * closes after the last; a client that goes away cancels the rest.
 */
function answerWebSocket(socket: Duplex, key: string, protocol: string, messages: ReadableStream<Uint8Array>): void {
  const accept = createHash('sha1').update(key + WEBSOCKET_GUID).digest('base64');
  socket.on('data', () => undefined);
  socket.on('error', () => undefined);
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\nSec-WebSocket-Protocol: ${protocol}\r\n\r\n`);
  const reader = messages.getReader();
  socket.once('close', () => void reader.cancel().catch(() => undefined));
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || socket.destroyed) break;
        socket.write(frame(0x2, value));
      }
    } catch {
      // Cancelled: the client went away.
    }
    // Close with 1000 (normal closure); the client answers and the connection ends.
    if (!socket.destroyed) socket.end(frame(0x8, Uint8Array.from([0x03, 0xe8])));
  })();
}

/** Writes a whole HTTP response on a socket that asked for an upgrade the server does not make. */
export async function answerPlainly(socket: Duplex | Socket, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  let head = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}\r\n`;
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection') head += `${name}: ${value}\r\n`;
  });
  head += `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  socket.on('error', () => undefined);
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
}

/**
 * Hands an upgrade request to the cluster's handler, which authenticates, authorizes and records
 * it as any request: the upgrade it makes is completed on `socket`, any other answer is written
 * plainly (a refusal, `400 Upgrade request required`).
 */
export function answerUpgrade(socket: Duplex, req: IncomingMessage, request: Request, handler: RequestHandlerFn): void {
  socket.on('error', () => undefined);
  const key = req.headers['sec-websocket-key'];
  handler(request)
    .then(
      (response) => {
        const answer = upgradeAnswerOf(response);
        if (answer && typeof key === 'string') answerWebSocket(socket, key, answer.protocol, answer.messages);
        else {
          // No handshake to complete: what would have been sent is let go.
          void answer?.messages.cancel().catch(() => undefined);
          return answerPlainly(socket, response);
        }
      },
      (err: unknown) => answerPlainly(socket, errorResponse(toStatusError(err))),
    )
    // A body that failed while being read: the connection is all there is to end.
    .catch(() => socket.destroy());
}
