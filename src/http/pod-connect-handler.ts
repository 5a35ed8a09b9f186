// Routes pods/log, pods/exec, pods/attach and pods/portforward as the apiserver installs them
// (log: GET; the streams: GET and POST, the connect verbs) and answers what a server whose pods no
// node has taken answers (see registry/subresources/pod-connect.ts).
import type { ResourceType } from '../apis/resource-type.ts';
import type { StatusError } from '../errors/status-error.ts';
import type { GenericRegistry } from '../registry/generic-registry.ts';
import { connectPod, type PodConnection } from '../registry/subresources/pod-connect.ts';

export interface PodConnectRequest {
  connection: PodConnection;
  namespace: string | undefined;
  name: string;
  method: string;
  query: URLSearchParams;
  pods: GenericRegistry;
  nodes: GenericRegistry | undefined;
  methodNotAllowed(): StatusError;
}

export async function servePodConnect(r: PodConnectRequest): Promise<Response> {
  const allowed = r.connection === 'log' ? ['GET'] : ['GET', 'POST'];
  if (!allowed.includes(r.method)) throw r.methodNotAllowed();
  const pod = await r.pods.get(r.namespace, r.name);
  await connectPod(r.connection, pod, r.query.get('container') ?? '', {
    getNode: async (node) => {
      if (!r.nodes) throw new Error('invariant: no nodes registry');
      return r.nodes.get(undefined, node);
    },
  });
  // rest.LocationStreamer without a location: StreamObject answers 204 with no body.
  return new Response(null, { status: 204 });
}

/** Whether `type` is core/v1 pods, whose connect subresources this handler serves. */
export const isCorePods = (type: ResourceType): boolean => type.group === '' && type.plural === 'pods';
