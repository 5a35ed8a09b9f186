// The EndpointSlice and Endpoints controllers (pkg/controller/endpointslice, pkg/controller/
// endpoint), reduced: for each Service with a selector, the pods it selects that have an IP become
// endpoints: EndpointSlices (at most 100 endpoints each) owned by the Service and labelled with
// its name and the managing controller, with ready/serving/terminating conditions, node names and
// pod references, ports resolved from the pods' (named) container ports; and the legacy Endpoints
// object with ready and not-ready addresses.
import type { KubeObject, StoredObject } from '../../apis/object.ts';
import { StatusError } from '../../errors/status-error.ts';
import type { StoreEvent } from '../../storage/versioned-store.ts';
import { QueueController } from '../queue-controller.ts';
import { CONTROLLER_MANAGER, OwnedIndex } from './controller-support.ts';
import { isPodReady, isTerminal, labelsOf, newControllerRef, selectorOfSet, specOf, stableJson, statusOf, type Json } from './objects.ts';
import { deepEqual } from '../../util/deep-equal.ts';

const SERVICES = '/services';
const PODS = '/pods';
const SLICES = 'discovery.k8s.io/endpointslices';
const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
const MANAGED_BY = 'endpointslice-controller.k8s.io';
const HEADLESS_LABEL = 'service.kubernetes.io/headless';
/** --max-endpoints-per-slice's default. */
const MAX_ENDPOINTS_PER_SLICE = 100;

interface SlicePort {
  name: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

/** podutil.FindPort: a numeric targetPort as is, a named one from the pod's container ports (undefined when the pod has none of that name). */
function resolvePort(pod: KubeObject, targetPort: unknown, protocol: string): number | undefined {
  if (typeof targetPort === 'number') return targetPort;
  for (const c of (specOf(pod).containers as Json[] | undefined) ?? []) {
    for (const p of (c.ports as Json[] | undefined) ?? []) if (p.name === targetPort && ((p.protocol as string | undefined) ?? 'TCP') === protocol) return p.containerPort as number;
  }
  return undefined;
}

/** endpointutil.ShouldSetHostname: a pod's hostname is published only by the Service its subdomain names. */
function hostnameFor(pod: KubeObject, svc: KubeObject): { hostname: string } | undefined {
  const spec = specOf(pod);
  return spec.hostname && spec.subdomain === svc.metadata?.name && pod.metadata?.namespace === svc.metadata?.namespace ? { hostname: spec.hostname as string } : undefined;
}

function portsFor(svc: KubeObject, pod: KubeObject): SlicePort[] | undefined {
  const out: SlicePort[] = [];
  for (const p of (specOf(svc).ports as Json[] | undefined) ?? []) {
    const protocol = (p.protocol as string | undefined) ?? 'TCP';
    const port = resolvePort(pod, p.targetPort ?? p.port, protocol);
    if (port === undefined) return undefined;
    out.push({ name: (p.name as string | undefined) ?? '', port, protocol, ...(p.appProtocol ? { appProtocol: p.appProtocol as string } : {}) });
  }
  return out;
}

export class EndpointsController extends QueueController {
  readonly name = 'endpoints';
  private readonly slices = new OwnedIndex(SLICES);

  protected observe(event: StoreEvent): void {
    if (event.bucket === SERVICES) this.queue.add(event.key);
    else if (event.bucket === SLICES) this.slices.observe(event);
    else if (event.bucket === PODS) {
      const namespace = event.object.metadata.namespace!;
      const labels = [labelsOf(event.object), event.previous ? labelsOf(event.previous) : undefined];
      for (const { key, object } of this.ctx.store.list(SERVICES, `${namespace}/`)) {
        const selector = selectorOfSet(specOf(object).selector);
        if (selector && labels.some((l) => l && selector.matches(l))) this.queue.add(key);
      }
    }
  }

  protected async sync(key: string): Promise<void> {
    const svc = this.ctx.store.get(SERVICES, key);
    if (!svc || svc.metadata.deletionTimestamp) return;
    const selector = selectorOfSet(specOf(svc).selector);
    if (!selector) return;
    const namespace = svc.metadata.namespace!;
    const publishNotReady = specOf(svc).publishNotReadyAddresses === true;
    const pods = this.ctx.store
      .list(PODS, `${namespace}/`)
      .map((e) => e.object)
      .filter((p) => selector.matches(labelsOf(p)) && statusOf(p).podIP && !isTerminal(p));
    await this.syncSlices(svc, pods, publishNotReady);
    await this.syncEndpoints(svc, pods, publishNotReady);
  }

  /** reconciler.go, reduced: endpoints grouped by their port set, at most 100 to a slice; slices updated in place, extra ones deleted. */
  private async syncSlices(svc: StoredObject, pods: StoredObject[], publishNotReady: boolean): Promise<void> {
    const groups = new Map<string, { ports: SlicePort[]; endpoints: Json[] }>();
    for (const pod of pods) {
      const ports = portsFor(svc, pod);
      if (!ports) continue;
      const terminating = !!pod.metadata.deletionTimestamp;
      const ready = isPodReady(pod);
      const id = stableJson(ports);
      let group = groups.get(id);
      if (!group) groups.set(id, (group = { ports, endpoints: [] }));
      group.endpoints.push({
        addresses: [statusOf(pod).podIP],
        conditions: { ready: publishNotReady || (ready && !terminating), serving: ready, terminating },
        ...hostnameFor(pod, svc),
        targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid },
        ...(specOf(pod).nodeName ? { nodeName: specOf(pod).nodeName } : {}),
      });
    }
    const wanted: Array<{ ports: SlicePort[]; endpoints: Json[] }> = [];
    for (const group of groups.values()) {
      for (let i = 0; i < group.endpoints.length; i += MAX_ENDPOINTS_PER_SLICE) wanted.push({ ports: group.ports, endpoints: group.endpoints.slice(i, i + MAX_ENDPOINTS_PER_SLICE) });
    }
    // A service with no endpoints still has one placeholder slice, with no endpoints and no ports (reconciler.go).
    if (wanted.length === 0) wanted.push({ ports: [], endpoints: [] });
    const namespace = svc.metadata.namespace!;
    const registry = this.ctx.registryFor(this.resourceType('discovery.k8s.io', 'endpointslices'));
    const existing = this.slices
      .keysOf(svc.metadata.uid!)
      .map((k) => this.ctx.store.get(SLICES, k))
      .filter((s): s is StoredObject => s !== undefined && s.metadata.labels?.[MANAGED_BY_LABEL] === MANAGED_BY)
      .sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
    const labels: Record<string, string> = { ...(svc.metadata.labels ?? {}), [SERVICE_NAME_LABEL]: svc.metadata.name!, [MANAGED_BY_LABEL]: MANAGED_BY };
    if (specOf(svc).clusterIP === 'None') labels[HEADLESS_LABEL] = '';
    for (let i = 0; i < wanted.length; i++) {
      const { ports, endpoints } = wanted[i]!;
      const body = { addressType: 'IPv4', endpoints, ports };
      const current = existing[i];
      // A conflict or a slice deleted meanwhile throws: the queue retries the service.
      if (!current) {
        await registry.create(
          namespace,
          { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { generateName: `${svc.metadata.name}-`, namespace, labels, ownerReferences: [newControllerRef(svc, 'v1', 'Service')] }, ...body },
          { fieldManager: CONTROLLER_MANAGER },
        );
      } else if (!deepEqual({ addressType: current.addressType, endpoints: current.endpoints ?? [], ports: current.ports ?? [] }, body) || !deepEqual(current.metadata.labels, labels)) {
        await registry.update(namespace, current.metadata.name!, { ...current, metadata: { ...current.metadata, labels }, ...body } as KubeObject, { fieldManager: CONTROLLER_MANAGER });
      }
    }
    for (const extra of existing.slice(wanted.length)) {
      try {
        await registry.delete(namespace, extra.metadata.name!, { preconditions: { uid: extra.metadata.uid! } });
      } catch (err) {
        if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
      }
    }
  }

  /** endpoints_controller.go syncService: one subset per port set, ready and not-ready addresses sorted by IP. */
  private async syncEndpoints(svc: StoredObject, pods: StoredObject[], publishNotReady: boolean): Promise<void> {
    const subsets = new Map<string, { ports: SlicePort[]; addresses: Json[]; notReadyAddresses: Json[] }>();
    for (const pod of pods) {
      // The legacy controller leaves terminating pods out unless not-ready addresses are published.
      if (pod.metadata.deletionTimestamp && !publishNotReady) continue;
      const ports = portsFor(svc, pod);
      if (!ports) continue;
      const id = stableJson(ports);
      let subset = subsets.get(id);
      if (!subset) subsets.set(id, (subset = { ports, addresses: [], notReadyAddresses: [] }));
      const address = {
        ip: statusOf(pod).podIP,
        ...hostnameFor(pod, svc),
        ...(specOf(pod).nodeName ? { nodeName: specOf(pod).nodeName } : {}),
        targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid },
      };
      (publishNotReady || isPodReady(pod) ? subset.addresses : subset.notReadyAddresses).push(address);
    }
    const byIp = (a: Json, b: Json) => (String(a.ip) < String(b.ip) ? -1 : 1);
    const out = [...subsets.values()].map((s) => ({
      ...(s.addresses.length ? { addresses: s.addresses.sort(byIp) } : {}),
      ...(s.notReadyAddresses.length ? { notReadyAddresses: s.notReadyAddresses.sort(byIp) } : {}),
      ports: s.ports.map((p) => ({ ...(p.name ? { name: p.name } : {}), port: p.port, protocol: p.protocol, ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) })),
    }));
    const namespace = svc.metadata.namespace!;
    const name = svc.metadata.name!;
    const registry = this.ctx.registryFor(this.resourceType('', 'endpoints'));
    const labels: Record<string, string> = { ...(svc.metadata.labels ?? {}), 'endpoints.kubernetes.io/managed-by': 'endpoint-controller' };
    if (specOf(svc).clusterIP === 'None') labels[HEADLESS_LABEL] = '';
    const current = registry.peek(namespace, name);
    const body: KubeObject = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace, labels }, ...(out.length ? { subsets: out } : {}) };
    if (current && deepEqual(current.subsets ?? [], out) && deepEqual(current.metadata.labels, labels)) return;
    if (!current) await registry.create(namespace, body, { fieldManager: CONTROLLER_MANAGER });
    else await registry.update(namespace, name, { ...body, metadata: { ...current.metadata, labels } }, { fieldManager: CONTROLLER_MANAGER });
  }
}
