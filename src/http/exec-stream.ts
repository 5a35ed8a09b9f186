// pods/exec and pods/attach over a WebSocket, as a kubelet stand-in answers them: the channel
// protocols of k8s.io/apimachinery/pkg/util/remotecommand (v4 and v5.channel.k8s.io: every message
// starts with its channel: 1 stdout, 2 stderr, 3 the error channel carrying a Status). An exec's
// command has already run, so its answer is a fixed list of messages; an attach streams the
// container's output until it stops. Stdin is not read.
import type { ExecResult } from '../registry/subresources/pod-connect.ts';
import { encodeGoJson } from '../go/json-encode.ts';

/** The protocols a stand-in exec speaks, most preferred first. */
const PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io'];

/**
 * What a transport sends after the handshake: the chosen subprotocol and the binary messages, as
 * they come (cancelled when the client goes); the connection closes after the last.
 */
export interface UpgradeAnswer {
  protocol: string;
  messages: ReadableStream<Uint8Array>;
}

// The handler answers an upgrade it makes with a Response the transports recognise, so the request
// goes the way of every other (authentication, authorization, faults, the request log) and only
// the socket work is the transport's: the listener's and the in-process upgrade server alike.
const upgradeAnswers = new WeakMap<Response, UpgradeAnswer>();

/** The WebSocket answer `response` stands for, when the handler made the upgrade. */
export function upgradeAnswerOf(response: Response): UpgradeAnswer | undefined {
  return upgradeAnswers.get(response);
}

const STDOUT = 1;
const STDERR = 2;
const ERROR = 3;

/** One channel message: the channel's byte, then the data. */
const message = (channel: number, data: string | Uint8Array): Uint8Array => {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const out = new Uint8Array(bytes.byteLength + 1);
  out[0] = channel;
  out.set(bytes, 1);
  return out;
};

const SUCCESS = encodeGoJson({ metadata: {}, status: 'Success' });

/**
 * The error channel's Status (remotecommand's v4 writeStatus): Success, or NonZeroExitCode with the
 * exit code as the ExitCode cause (what kubectl turns into "command terminated with exit code N").
 */
function exitStatus(result: ExecResult, command: string[]): string {
  const code = result.exitCode ?? 0;
  if (code === 0) return SUCCESS;
  return encodeGoJson({
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${code}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
  });
}

/** The protocol of a GET asking for a WebSocket in a protocol the stand-in speaks, if it is one. */
function negotiatedProtocol(request: Request): string | undefined {
  if (request.method !== 'GET' || request.headers.get('upgrade')?.toLowerCase() !== 'websocket') return undefined;
  const offered = (request.headers.get('sec-websocket-protocol') ?? '').split(',').map((p) => p.trim());
  return PROTOCOLS.find((p) => offered.includes(p));
}

/** The stream options of the request (strconv.ParseBool, as remotecommand's NewOptions reads them). */
const wants = (query: URLSearchParams, name: string) => ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(query.get(name) ?? '');

function upgradeResponse(protocol: string, messages: ReadableStream<Uint8Array>): Response {
  // Fetch's Response cannot say 101: the transports answer the handshake themselves.
  const response = new Response(null, { status: 200 });
  upgradeAnswers.set(response, { protocol, messages });
  return response;
}

/**
 * The answer to pods/exec the kubelet stand-in ran, for a GET asking for a WebSocket in a protocol
 * it speaks; undefined for any other request (the kubelet's handshake refuses those).
 */
export function execUpgradeResponse(request: Request, query: URLSearchParams, result: ExecResult): Response | undefined {
  const protocol = negotiatedProtocol(request);
  if (!protocol) return undefined;
  const command = query.getAll('command');
  const messages: Uint8Array[] = [];
  if (wants(query, 'stdout') && result.stdout) messages.push(message(STDOUT, result.stdout));
  if (wants(query, 'stderr') && result.stderr) messages.push(message(STDERR, result.stderr));
  messages.push(message(ERROR, exitStatus(result, command)));
  return upgradeResponse(
    protocol,
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const m of messages) controller.enqueue(m);
        controller.close();
      },
    }),
  );
}

/**
 * The answer to pods/attach of a container the stand-in runs: its output on the stdout channel
 * (when asked for) as it is written, then Success on the error channel once the container stops
 * (remotecommand ServeAttach); undefined for a request that is no WebSocket upgrade.
 */
export function attachUpgradeResponse(request: Request, query: URLSearchParams, output: ReadableStream<Uint8Array>): Response | undefined {
  const protocol = negotiatedProtocol(request);
  if (!protocol) {
    void output.cancel();
    return undefined;
  }
  const toStdout = wants(query, 'stdout');
  const framed = output.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (toStdout) controller.enqueue(message(STDOUT, chunk));
      },
      flush(controller) {
        controller.enqueue(message(ERROR, SUCCESS));
      },
    }),
  );
  return upgradeResponse(protocol, framed);
}
