// The `kubernetes` Service of the `default` namespace and its endpoints, as kube-apiserver's own
// controllers keep them (pkg/controlplane/controller/kubernetesservice/controller.go,
// createOrUpdateMasterServiceIfNeeded; the lease endpoint reconciler,
// pkg/controlplane/reconcilers/lease.go, through endpointsadapter.go, which writes the Endpoints
// and mirrors them into an EndpointSlice of the same name). The real controller polls every ten
// seconds and recreates whatever is missing; this one does it as soon as one of them is deleted.
import type { KubeObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import { StatusError } from '../errors/status-error.ts';
import type { StoreEvent } from '../storage/versioned-store.ts';
import { bootCreate } from './boot-templates.ts';
import type { ControllerContext } from './context.ts';
import { QueueController } from './queue-controller.ts';

export const KUBERNETES_SERVICE = 'kubernetes';
/** The first address of the default service CIDR (10.96.0.0/12), which the allocator keeps back for it. */
export const KUBERNETES_SERVICE_IP = '10.96.0.1';
/**
 * The address the apiserver advertises (its --advertise-address): no real one exists, so the
 * address a kind control-plane node has; Endpoints refuse loopback addresses.
 */
export const APISERVER_ADVERTISE_ADDRESS = '172.18.0.2';
/** kube-apiserver's --secure-port default, the Service's targetPort and the endpoints' port. */
export const APISERVER_SECURE_PORT = 6443;
export const APISERVER_MANAGER = 'kube-apiserver';

const NAMESPACE = 'default';
const KEY = `${NAMESPACE}/${KUBERNETES_SERVICE}`;
const BUCKETS = { service: '/services', endpoints: '/endpoints', endpointSlice: 'discovery.k8s.io/endpointslices' } as const;

export class KubernetesServiceController extends QueueController {
  readonly name = 'kubernetes-service-controller';
  /** Claims the Service's ClusterIP in this cluster's allocator when the boot copy skips the Service strategy. */
  private readonly claimClusterIP: (ip: string) => void;
  private booting = false;

  constructor(ctx: ControllerContext, onError: (err: unknown, key: string) => void, claimClusterIP: (ip: string) => void) {
    super(ctx, onError);
    this.claimClusterIP = claimClusterIP;
  }

  /** The first sync, awaited by the cluster at boot (the real controller's Start runs one before its loop). */
  async syncExisting(): Promise<void> {
    this.booting = true;
    try {
      await this.sync();
    } finally {
      this.booting = false;
    }
  }

  protected observe(event: StoreEvent): void {
    if (event.type === 'DELETED' && event.key === KEY && Object.values(BUCKETS).includes(event.bucket as never)) this.queue.add(KEY);
  }

  /** UpdateKubernetesService(false): the Service, then the Endpoints and their EndpointSlice. */
  protected async sync(): Promise<void> {
    const { store, catalog } = this.ctx;
    if (!store.get(BUCKETS.service, KEY)) {
      await this.create(catalog.find('', 'v1', 'services')!, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: KUBERNETES_SERVICE, namespace: NAMESPACE, labels: { provider: 'kubernetes', component: 'apiserver' } },
        spec: {
          // createPortAndServiceSpec: 443 → the secure port, named https.
          ports: [{ protocol: 'TCP', port: 443, name: 'https', targetPort: APISERVER_SECURE_PORT }],
          clusterIP: KUBERNETES_SERVICE_IP,
          ipFamilyPolicy: 'SingleStack',
          sessionAffinity: 'None',
          type: 'ClusterIP',
        },
      });
    }
    const ports = [{ name: 'https', port: APISERVER_SECURE_PORT, protocol: 'TCP' }];
    if (!store.get(BUCKETS.endpoints, KEY)) {
      await this.create(catalog.find('', 'v1', 'endpoints')!, {
        apiVersion: 'v1',
        kind: 'Endpoints',
        // setSkipMirrorTrue: the EndpointSlice mirroring controller leaves them alone.
        metadata: { name: KUBERNETES_SERVICE, namespace: NAMESPACE, labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
        subsets: [{ addresses: [{ ip: APISERVER_ADVERTISE_ADDRESS }], ports }],
      });
    }
    if (!store.get(BUCKETS.endpointSlice, KEY)) {
      // endpointSliceFromEndpoints.
      await this.create(catalog.find('discovery.k8s.io', 'v1', 'endpointslices')!, {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: KUBERNETES_SERVICE, namespace: NAMESPACE, labels: { 'kubernetes.io/service-name': KUBERNETES_SERVICE } },
        addressType: 'IPv4',
        endpoints: [{ addresses: [APISERVER_ADVERTISE_ADDRESS], conditions: { ready: true } }],
        ports,
      });
    }
  }

  private async create(type: ResourceType, body: KubeObject): Promise<void> {
    try {
      const object = this.booting
        ? await bootCreate(this.ctx, type, NAMESPACE, body, APISERVER_MANAGER, () => {
            if (type.kind === 'Service') this.claimClusterIP(KUBERNETES_SERVICE_IP);
          })
        : (await this.ctx.registryFor(type).create(NAMESPACE, body, { fieldManager: APISERVER_MANAGER })).object;
      this.ctx.recordClusterWrite?.(type, object);
    } catch (err) {
      // Created meanwhile, or `default` is gone or terminating: the next deletion or start tries again.
      if (err instanceof StatusError && (err.status.reason === 'AlreadyExists' || err.status.reason === 'NotFound' || err.status.details?.causes?.some((c) => c.reason === 'NamespaceTerminating'))) return;
      throw err;
    }
  }
}
