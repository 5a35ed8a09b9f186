// The ServiceAccount controller (pkg/controller/serviceaccount/serviceaccounts_controller.go): a
// `default` ServiceAccount in every active namespace, created when the namespace appears and
// again whenever it is deleted. Pods that name no ServiceAccount run as it (the ServiceAccount
// admission plugin waits for this controller, see admission/service-account.ts).
import type { StoreEvent } from '../storage/versioned-store.ts';
import { NamespaceObjectController } from './namespace-objects.ts';

export const DEFAULT_SERVICE_ACCOUNT = 'default';
const SERVICE_ACCOUNTS_BUCKET = '/serviceaccounts';

export class ServiceAccountController extends NamespaceObjectController {
  readonly name = 'serviceaccount-controller';

  protected observe(event: StoreEvent): void {
    const namespace = this.namespaceEvent(event);
    if (namespace !== undefined) this.queue.add(namespace);
    // serviceAccountDeleted: any ServiceAccount's deletion queues its namespace.
    else if (event.bucket === SERVICE_ACCOUNTS_BUCKET && event.type === 'DELETED' && event.object.metadata.namespace) this.queue.add(event.object.metadata.namespace);
  }

  /** syncNamespace: creates each ServiceAccount to ensure that is missing (DefaultServiceAccountsControllerOptions: `default`). */
  protected async sync(namespace: string): Promise<void> {
    const ns = this.namespace(namespace);
    if (!ns || !this.isActive(ns)) return;
    if (this.ctx.store.get(SERVICE_ACCOUNTS_BUCKET, `${namespace}/${DEFAULT_SERVICE_ACCOUNT}`)) return;
    await this.createIn(this.ctx.catalog.find('', 'v1', 'serviceaccounts')!, namespace, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace },
    });
  }
}
