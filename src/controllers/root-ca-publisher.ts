// The root-CA publisher (pkg/controller/certificates/rootcacertpublisher/publisher.go): a
// `kube-root-ca.crt` ConfigMap in every namespace holding the cluster's CA certificate, created
// when the namespace appears, recreated when deleted and restored when its data or description
// annotation is changed. The projected volume the ServiceAccount admission plugin mounts reads it.
import { deepEqual } from '../util/deep-equal.ts';
import type { StoreEvent } from '../storage/versioned-store.ts';
import type { ControllerContext } from './context.ts';
import { CONTROLLER_MANAGER, NamespaceObjectController } from './namespace-objects.ts';

export const ROOT_CA_CONFIG_MAP = 'kube-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const ROOT_CA_DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';
const CONFIG_MAPS_BUCKET = '/configmaps';

export class RootCaPublisher extends NamespaceObjectController {
  readonly name = 'root-ca-cert-publisher';
  private readonly rootCA: string;

  constructor(ctx: ControllerContext, onError: (err: unknown, key: string) => void, rootCA: string) {
    super(ctx, onError);
    this.rootCA = rootCA;
  }

  protected observe(event: StoreEvent): void {
    const namespace = this.namespaceEvent(event);
    if (namespace !== undefined) this.queue.add(namespace);
    // configMapUpdated/configMapDeleted: only the published ConfigMap's own changes.
    else if (event.bucket === CONFIG_MAPS_BUCKET && event.type !== 'ADDED' && event.object.metadata.name === ROOT_CA_CONFIG_MAP && event.object.metadata.namespace) {
      this.queue.add(event.object.metadata.namespace);
    }
  }

  /** syncNamespace. */
  protected async sync(namespace: string): Promise<void> {
    const type = this.ctx.catalog.find('', 'v1', 'configmaps')!;
    const data = { 'ca.crt': this.rootCA };
    const cm = this.ctx.store.get(CONFIG_MAPS_BUCKET, `${namespace}/${ROOT_CA_CONFIG_MAP}`);
    if (!cm) {
      // The real publisher creates without looking at the namespace's phase (its create fails
      // on a terminating namespace and is dropped).
      if (!this.namespace(namespace)) return;
      await this.createIn(type, namespace, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: ROOT_CA_CONFIG_MAP, namespace, annotations: { [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION } },
        data,
      });
      return;
    }
    if (deepEqual((cm as { data?: unknown }).data, data) && cm.metadata.annotations?.[DESCRIPTION_ANNOTATION]) return;
    // An update from the stored object, so a conflicting write makes the queue retry on the new state.
    const body = structuredClone(cm) as Record<string, unknown> & typeof cm;
    body.data = data;
    body.metadata.annotations = { ...body.metadata.annotations, [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION };
    const { object } = await this.ctx.registryFor(type).update(namespace, ROOT_CA_CONFIG_MAP, body, { fieldManager: CONTROLLER_MANAGER });
    this.ctx.recordClusterWrite?.(type, object);
  }
}
