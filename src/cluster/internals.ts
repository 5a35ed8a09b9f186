// A cluster's insides for kubefake's own tests and benchmarks (not exported from the package):
// the store, and the watch streams being served.
import type { ServedWatches } from '../http/served-watches.ts';
import type { VersionedStore } from '../storage/versioned-store.ts';
import type { RegistryContext } from '../registry/context.ts';

export interface ClusterInternals {
  store: VersionedStore;
  servedWatches: ServedWatches;
  /** What every registry runs with (the benchmarks take the admission chain out of it). */
  registryContext: RegistryContext;
}

const byCluster = new WeakMap<object, ClusterInternals>();

export function registerInternals(cluster: object, internals: ClusterInternals): void {
  byCluster.set(cluster, internals);
}

export function clusterInternals(cluster: object): ClusterInternals {
  const internals = byCluster.get(cluster);
  if (!internals) throw new Error('invariant: not a cluster made by createFakeCluster()');
  return internals;
}
