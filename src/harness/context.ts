// What the harness reads: the cluster's store (objects and change events), its catalog (kinds)
// and its registries (keys and stored objects, the way clients' requests see them).
import type { ApiCatalog } from '../apis/catalog.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import type { GenericRegistry } from '../registry/generic-registry.ts';
import type { VersionedStore } from '../storage/versioned-store.ts';

export interface HarnessContext {
  store: VersionedStore;
  catalog: ApiCatalog;
  registryFor(type: ResourceType): GenericRegistry;
  /**
   * The objects the cluster's own controllers wrote last (the `kubernetes` Service, each
   * namespace's `default` ServiceAccount and `kube-root-ca.crt`): `<bucket>\0<key>` → the
   * resourceVersion of that write. Snapshots leave them out while unchanged.
   */
  clusterWrites?: ReadonlyMap<string, string>;
}
