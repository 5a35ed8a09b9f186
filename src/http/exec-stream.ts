// pods/exec over a WebSocket, as a kubelet stand-in answers it: the channel protocols of
// k8s.io/apimachinery/pkg/util/remotecommand (v4 and v5.channel.k8s.io: every message starts with
// its channel: 1 stdout, 2 stderr, 3 the error channel carrying a Status). The command has already
// run, so the answer is a fixed list of messages; stdin is not read.
import type { ApiCatalog } from '../apis/catalog.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import type { GenericRegistry } from '../registry/generic-registry.ts';
import { podConnect, podConnectTarget, type ExecResult, type KubeletConnection } from '../registry/subresources/pod-connect.ts';
import { encodeGoJson } from '../go/json-encode.ts';
import { parseRequestPath } from './request-info.ts';
import { requestTargetOf } from './request-target.ts';

/** The protocols a stand-in exec speaks, most preferred first. */
const PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io'];

/** What the listener sends after the handshake: the chosen subprotocol and the binary messages. */
export interface UpgradeAnswer {
  protocol: string;
  messages: Uint8Array[];
}

export interface ExecDeps {
  catalog: ApiCatalog;
  registryFor(type: ResourceType): GenericRegistry;
  kubelet: KubeletConnection;
}

const message = (channel: number, text: string): Uint8Array => {
  const bytes = Buffer.from(text);
  const out = new Uint8Array(bytes.length + 1);
  out[0] = channel;
  out.set(bytes, 1);
  return out;
};

/**
 * The error channel's Status (remotecommand's v4 writeStatus): Success, or NonZeroExitCode with the
 * exit code as the ExitCode cause (what kubectl turns into "command terminated with exit code N").
 */
function exitStatus(result: ExecResult, command: string[]): string {
  const code = result.exitCode ?? 0;
  if (code === 0) return encodeGoJson({ metadata: {}, status: 'Success' });
  return encodeGoJson({
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${code}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
  });
}

/**
 * The answer to a WebSocket upgrade of pods/exec on a pod the kubelet stand-in runs, or undefined
 * when the request is anything else (the listener then answers it as a plain request).
 */
export function execUpgrade(deps: ExecDeps, request: Request): UpgradeAnswer | undefined {
  if (request.method !== 'GET') return undefined;
  const offered = (request.headers.get('sec-websocket-protocol') ?? '').split(',').map((p) => p.trim());
  const protocol = PROTOCOLS.find((p) => offered.includes(p));
  const target = requestTargetOf(request);
  if (!protocol || !target) return undefined;
  const info = parseRequestPath(target.path);
  if (info.kind !== 'resource' || info.group !== '' || info.resource !== 'pods' || info.subresource !== 'exec' || !info.name || !info.namespace) return undefined;
  const type = deps.catalog.find('', info.version, 'pods');
  if (!type) return undefined;
  const pod = deps.registryFor(type).peek(info.namespace, podConnectTarget('exec', info.name).name);
  if (!pod) return undefined;
  const { query } = target;
  const command = query.getAll('command');
  const registryOf = (group: string, version: string, resource: string) => {
    const other = deps.catalog.find(group, version, resource);
    return other ? deps.registryFor(other) : undefined;
  };
  let outcome;
  try {
    outcome = podConnect({ subresource: 'exec', pod, container: query.get('container') ?? '', registryOf, kubelet: deps.kubelet, command });
  } catch {
    // Refusals are answered by the plain request path, with their Status.
    return undefined;
  }
  if (outcome.kind !== 'exec') return undefined;
  const wants = (name: string) => ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(query.get(name) ?? '');
  const messages: Uint8Array[] = [];
  if (wants('stdout') && outcome.result.stdout) messages.push(message(1, outcome.result.stdout));
  if (wants('stderr') && outcome.result.stderr) messages.push(message(2, outcome.result.stderr));
  messages.push(message(3, exitStatus(outcome.result, command)));
  return { protocol, messages };
}
