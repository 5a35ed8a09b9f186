// The NamespaceLifecycle admission plugin for creates: the namespace must exist and not be terminating.
import type { ObjectMeta } from '../apis/object.ts';
import { forbidden, notFound, type GroupResource } from '../errors/status-error.ts';
import type { VersionedStore } from '../storage/versioned-store.ts';

export const NAMESPACES_BUCKET = '/namespaces';

export function admitNamespacedCreate(store: VersionedStore, gr: GroupResource, meta: ObjectMeta): void {
  const namespace = meta.namespace ?? '';
  const ns = store.get(NAMESPACES_BUCKET, namespace);
  if (!ns) throw notFound({ group: '', resource: 'namespaces' }, namespace);
  const phase = (ns as { status?: { phase?: string } }).status?.phase;
  if (ns.metadata.deletionTimestamp || phase === 'Terminating') {
    const name = meta.name || meta.generateName || 'Unknown';
    throw forbidden(gr, name, `unable to create new content in namespace ${namespace} because it is being terminated`, [
      { reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' },
    ]);
  }
}
