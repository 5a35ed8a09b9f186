// The in-process transport of client-node's WebSocket calls (Exec, Attach, PortForward). They do
// not go through fetch: WebSocketHandler opens a `ws` WebSocket with the options
// KubeConfig.applyToHTTPSOptions fills in, and `ws` makes its HTTP request with node:http(s),
// which neither the undici Dispatcher nor msw's interception of undici sees. `ws` takes a
// `createConnection` option, though, and node:http's client uses it instead of a TCP/TLS
// connection: cluster.kubeConfig hands it one end of an in-memory stream pair whose other end is
// served by a node:http Server that never listens (any Duplex may be emitted as a 'connection').
// The request then goes to the cluster's handler as over the loopback listener, so nothing is
// opened on the network and no `listen()` is needed. ProtoClient (the other user of
// applyToHTTPSOptions) gets plain requests answered the same way.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { duplexPair, type Duplex } from 'node:stream';
import { errorResponse } from '../http/responses.ts';
import { internalError } from '../errors/status-error.ts';
import type { RequestHandlerFn } from './in-process-dispatcher.ts';
import { toRequest, writeResponse } from './http-listener.ts';
import { answerUpgrade } from './websocket-upgrade.ts';

/** What node:http and `ws` call on a socket that an in-memory stream does not have. */
function socketLike(stream: Duplex): Duplex {
  return Object.assign(stream, {
    setNoDelay: () => stream,
    setKeepAlive: () => stream,
    setTimeout: () => stream,
    ref: () => stream,
    unref: () => stream,
  });
}

export class InProcessUpgrades {
  private readonly origin: string;
  private readonly host: string;
  private readonly handler: RequestHandlerFn;
  private server: Server | undefined;
  private readonly open = new Set<Duplex>();
  private closed = false;

  /** `origin` is the cluster's server URL, which the requests are addressed to. */
  constructor(origin: string, handler: RequestHandlerFn) {
    this.origin = new URL(origin).origin;
    this.host = new URL(origin).host;
    this.handler = handler;
  }

  /** A new connection to the cluster: the client end of an in-memory stream pair. */
  connect(): Duplex {
    const [client, served] = duplexPair();
    if (this.closed) {
      // What the dispatcher answers once the cluster is closed: its host name no longer resolves.
      queueMicrotask(() => client.destroy(Object.assign(new Error(`getaddrinfo ENOTFOUND ${this.host}`), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: this.host })));
      return socketLike(client);
    }
    for (const end of [client, served]) {
      this.open.add(end);
      end.once('close', () => this.open.delete(end));
    }
    this.serverOf().emit('connection', socketLike(served));
    return socketLike(client);
  }

  /** Ends every connection still open; later ones fail as for an unknown host. */
  close(): void {
    this.closed = true;
    for (const end of this.open) end.destroy();
    this.open.clear();
    this.server?.close();
  }

  private serverOf(): Server {
    if (this.server) return this.server;
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      this.handler(toRequest(req, this.origin, req.url ?? '/'))
        .catch((err: unknown) => errorResponse(internalError(String(err))))
        .then((response) => writeResponse(response, res))
        .catch(() => res.destroy());
    });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex) => answerUpgrade(socket, req, toRequest(req, this.origin, req.url ?? '/'), this.handler));
    this.server = server;
    return server;
  }
}
