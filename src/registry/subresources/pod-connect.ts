// pods/log, pods/exec, pods/attach and pods/portforward on a cluster without nodes. The apiserver
// answers these by proxying to the kubelet of the pod's node; before that it checks the container
// and the node (pkg/registry/core/pod/strategy.go LogLocation, streamLocation,
// PortForwardLocation, validateContainer). kubefake schedules nothing, so what a client gets is
// what a real server answers for a pod no node has taken: no log stream at all (LocationStreamer
// with no location: 204 No Content) and 400 "does not have a host assigned" for the streams.
import type { KubeObject } from '../../apis/object.ts';
import { badRequest, internalError } from '../../errors/status-error.ts';

export type PodConnection = 'log' | 'exec' | 'attach' | 'portforward';

export const POD_CONNECTIONS: ReadonlySet<string> = new Set<PodConnection>(['log', 'exec', 'attach', 'portforward']);

/** What the server does for a pod with no node: answer 204 (log), or the error thrown. */
export interface PodConnectDeps {
  /** Reads a Node; throws the registry's NotFound when there is none (connInfo.GetConnectionInfo). */
  getNode(name: string): Promise<unknown>;
}

interface ContainerLike {
  name?: string;
}

/**
 * Answers `'no-content'` when the server has nothing to stream (a log of an unscheduled pod), or
 * throws the Status error the apiserver answers with.
 */
export async function connectPod(kind: PodConnection, pod: KubeObject, container: string, deps: PodConnectDeps): Promise<'no-content'> {
  const name = pod.metadata?.name ?? '';
  const spec = (pod.spec ?? {}) as { nodeName?: string; containers?: ContainerLike[]; initContainers?: ContainerLike[]; ephemeralContainers?: ContainerLike[] };
  // Port forwarding names no container.
  if (kind !== 'portforward') validateContainer(container, name, spec);
  const nodeName = spec.nodeName ?? '';
  if (nodeName === '') {
    if (kind === 'log') return 'no-content';
    throw badRequest(`pod ${name} does not have a host assigned`);
  }
  await deps.getNode(nodeName);
  // A Node object exists, but no kubelet serves it: the proxy to it cannot be dialled.
  throw internalError(`kubefake runs no kubelet: node "${nodeName}" cannot serve pods/${kind}`);
}

/** validateContainer: a named container must exist; with none named, the pod must have exactly one. */
function validateContainer(container: string, pod: string, spec: { containers?: ContainerLike[]; initContainers?: ContainerLike[]; ephemeralContainers?: ContainerLike[] }): void {
  const containers = spec.containers ?? [];
  // podutil.VisitContainers order: init containers, containers, ephemeral containers.
  const all = [...(spec.initContainers ?? []), ...containers, ...(spec.ephemeralContainers ?? [])].map((c) => c.name ?? '');
  if (container === '') {
    if (containers.length === 1) return;
    if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${pod}`);
    // Go's %s of a []string: [a b c].
    throw badRequest(`a container name must be specified for pod ${pod}, choose one of: [${all.join(' ')}]`);
  }
  if (!all.includes(container)) throw badRequest(`container ${container} is not valid for pod ${pod}`);
}
