// pods/log, exec, attach, portforward and proxy as kube-apiserver answers them when it cannot reach
// a kubelet: kubefake runs none, so a pod without spec.nodeName gets exactly what a real server
// says (pkg/registry/core/pod/strategy.go LogLocation, streamLocation, PortForwardLocation,
// ResourceLocation), and a pod bound to a node gets the error of a kubelet that does not answer.
import type { KubeObject } from '../../apis/object.ts';
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { badRequest, invalid, notFound, serviceUnavailable, StatusError } from '../../errors/status-error.ts';
import { IS_NEGATIVE_ERROR_MSG } from '../../validation/meta-fields.ts';
import type { GenericRegistry } from '../generic-registry.ts';

export type PodConnectSubresource = 'log' | 'exec' | 'attach' | 'portforward' | 'proxy';

/**
 * The pod a connect request names: `<name>`, and for proxy also `<name>:<port>` or
 * `<scheme>:<name>:<port>` (utilnet.SplitSchemeNamePort); an unparsable proxy name is a 400.
 */
export function podConnectTarget(subresource: PodConnectSubresource, id: string): { name: string; port?: string } {
  if (subresource !== 'proxy') return { name: id };
  const parts = id.split(':');
  const [name, port] = parts.length === 1 ? [id, undefined] : parts.length === 3 ? [parts[1]!, parts[2]!] : [parts[0]!, parts[1]];
  if (parts.length > 3 || name === '') throw badRequest(`invalid pod request ${JSON.stringify(id)}`);
  return port === undefined ? { name } : { name, port };
}

interface Container {
  name?: string;
  ports?: Array<{ containerPort?: number }>;
}

const containersOf = (pod: KubeObject, key: string): Container[] => {
  const list = (pod.spec as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(list) ? (list as Container[]) : [];
};

/** podutil.VisitContainers order: init containers, containers, ephemeral containers. */
const allContainerNames = (pod: KubeObject): string[] =>
  ['initContainers', 'containers', 'ephemeralContainers'].flatMap((key) => containersOf(pod, key).map((c) => c.name ?? ''));

/** strategy.go validateContainer: the named container, or the only one. */
function validateContainer(container: string, pod: KubeObject): string {
  const name = pod.metadata?.name ?? '';
  if (container === '') {
    const containers = containersOf(pod, 'containers');
    if (containers.length === 1) return containers[0]!.name ?? '';
    if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${name}`);
    // fmt's %s of a []string: [a b c]
    throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${allContainerNames(pod).join(' ')}]`);
  }
  if (!allContainerNames(pod).includes(container)) throw badRequest(`container ${container} is not valid for pod ${name}`);
  return container;
}

/**
 * A container's log as the kubelet answers it: the bytes there are, or (following a running
 * container) a stream that goes on as the container logs and ends when it stops.
 */
export type ContainerLog = { kind: 'text'; body: Uint8Array } | { kind: 'stream'; body: ReadableStream<Uint8Array> };

/** What answers a connect request: nothing to stream (log of an unscheduled pod: 204), a log, or an error thrown. */
export type PodConnectOutcome =
  | { kind: 'no-content' }
  | { kind: 'log'; log: ContainerLog }
  | { kind: 'exec'; result: ExecResult }
  | { kind: 'attach'; output: ReadableStream<Uint8Array> };

/** What a command run in a container printed and how it exited. */
export interface ExecResult {
  stdout?: string;
  stderr?: string;
  exitCode?: number;
}

/** corev1.PodLogOptions, as far as a kubelet stand-in reads logs by them (sinceTime in epoch ms). */
export interface PodLogOptions {
  follow?: boolean;
  previous?: boolean;
  timestamps?: boolean;
  tailLines?: number;
  limitBytes?: number;
  sinceSeconds?: number;
  sinceTime?: number;
  /** `stream` as sent: selecting stdout or stderr needs the PodLogsQuerySplitStreams gate, alpha and off in v1.36. */
  stream?: string;
}

/** validation.ValidatePodLogOptions, which LogREST.Get runs before it looks the pod up: a 422 on PodLogOptions. */
export function validatePodLogOptions(name: string, options: PodLogOptions): void {
  const errors: FieldError[] = [];
  if (options.tailLines !== undefined && options.tailLines < 0) errors.push(fieldError.invalid('tailLines', options.tailLines, IS_NEGATIVE_ERROR_MSG));
  if (options.limitBytes !== undefined && options.limitBytes < 1) errors.push(fieldError.invalid('limitBytes', options.limitBytes, 'must be greater than 0'));
  if (options.sinceSeconds !== undefined && options.sinceTime !== undefined) {
    errors.push(fieldError.forbidden('', 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  } else if (options.sinceSeconds !== undefined && options.sinceSeconds < 1) {
    errors.push(fieldError.invalid('sinceSeconds', options.sinceSeconds, 'must be greater than 0'));
  }
  // allowStreamSelection is the feature gate, off: any stream is refused.
  if (options.stream !== undefined) errors.push(fieldError.forbidden('stream', 'may not be specified'));
  if (errors.length) throw invalid({ group: '', kind: 'PodLogOptions' }, name, errors);
}

/** A kubelet the apiserver can reach (the stand-in of `workloads` clusters): the nodes it runs and their containers' logs. */
export interface KubeletConnection {
  servesNode(name: string): boolean;
  /** The container's log as the options cut it; throws a StatusError the way a kubelet refuses. */
  logs(pod: KubeObject, container: string, options: PodLogOptions): ContainerLog;
  /** Runs `command` in the container; throws a StatusError the way a kubelet refuses. */
  exec(pod: KubeObject, container: string, command: string[]): ExecResult;
  /** What the running container prints from now on, ending when it stops; throws a StatusError the way a kubelet refuses. */
  attach(pod: KubeObject, container: string): ReadableStream<Uint8Array>;
}

export interface PodConnectRequest {
  subresource: PodConnectSubresource;
  pod: KubeObject;
  /** The `container` query parameter. */
  container: string;
  /** For proxy: the port named in the URL (`pods/<name>:<port>/proxy`), if any. */
  port?: string;
  /** The registry of a served resource (`nodes`, to look up the node a pod is bound to). */
  registryOf(group: string, version: string, resource: string): GenericRegistry | undefined;
  /** The kubelet that runs the cluster's nodes, if any. */
  kubelet?: KubeletConnection;
  /** For log: the request's PodLogOptions. */
  logOptions?: PodLogOptions;
  /** For exec: the command (the `command` query parameters). */
  command?: string[];
}

export function podConnect(r: PodConnectRequest): PodConnectOutcome {
  const { pod } = r;
  const name = pod.metadata?.name ?? '';
  const spec = (pod.spec ?? {}) as { nodeName?: string };
  if (r.subresource === 'proxy') return proxy(r);
  const container = r.subresource === 'portforward' ? '' : validateContainer(r.container, pod);
  const nodeName = spec.nodeName ?? '';
  if (nodeName === '') {
    // LogLocation: "If pod has not been assigned a host, return an empty location" (a null stream).
    if (r.subresource === 'log') return { kind: 'no-content' };
    throw badRequest(`pod ${name} does not have a host assigned`);
  }
  // client.ConnectionInfoGetter looks the node up first.
  if (r.registryOf('', 'v1', 'nodes')?.peek(undefined, nodeName) === undefined) throw notFound({ group: '', resource: 'nodes' }, nodeName);
  if (r.subresource === 'log' && r.kubelet?.servesNode(nodeName)) return { kind: 'log', log: r.kubelet.logs(pod, container, r.logOptions ?? {}) };
  if (r.subresource === 'exec' && r.kubelet?.servesNode(nodeName)) return { kind: 'exec', result: r.kubelet.exec(pod, container, r.command ?? []) };
  if (r.subresource === 'attach' && r.kubelet?.servesNode(nodeName)) return { kind: 'attach', output: r.kubelet.attach(pod, container) };
  const path = r.subresource === 'log' ? 'containerLogs' : r.subresource === 'portforward' ? 'portForward' : r.subresource;
  const target = `https://${nodeName}:10250/${path}/${pod.metadata?.namespace}/${name}${container ? `/${container}` : ''}`;
  // A transport error is not an APIStatus: ErrorToAPIStatus makes it a 500 with its text and no reason.
  throw new StatusError({ message: `Get "${target}": dial tcp: lookup ${nodeName}: no such host (kubefake runs no kubelet)`, code: 500 });
}

/** strategy.go ResourceLocation: the pod's first IP and a port; an unusable address is refused. */
function proxy(r: PodConnectRequest): PodConnectOutcome {
  const status = (r.pod.status ?? {}) as { podIPs?: Array<{ ip?: string }> };
  const ip = status.podIPs?.[0]?.ip ?? '';
  if (!isGlobalUnicast(ip)) throw badRequest('address not allowed');
  const port = r.port || String(containersOf(r.pod, 'containers').find((c) => c.ports?.length)?.ports?.[0]?.containerPort ?? '');
  const host = ip.includes(':') ? `[${ip}]` : ip;
  throw serviceUnavailable(`error trying to reach service: dial tcp ${port ? `${host}:${port}` : host}: connect: connection refused`);
}

/** net.IP.IsGlobalUnicast of a parsed address (ParseIPSloppy): not unspecified, loopback, link-local or multicast. */
function isGlobalUnicast(ip: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (v4.slice(1).some((o) => Number(o) > 255)) return false;
    return !(a === 0 || a === 127 || (a === 169 && b === 254) || a >= 224);
  }
  if (!ip.includes(':')) return false;
  const lower = ip.toLowerCase();
  return !(lower === '::' || lower === '::1' || lower.startsWith('fe8') || lower.startsWith('fe9') || lower.startsWith('fea') || lower.startsWith('feb') || lower.startsWith('ff'));
}
