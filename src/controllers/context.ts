// What the cluster's controllers act on: the store (to observe), the catalog (to resolve kinds)
// and the registries (to write through the same pipeline clients use).
import type { ApiCatalog } from '../apis/catalog.ts';
import type { KubeObject } from '../apis/object.ts';
import { storageKeyOf, type ResourceType } from '../apis/resource-type.ts';
import type { Clock, RandomSource } from '../util/clock-and-random.ts';
import type { GenericRegistry } from '../registry/generic-registry.ts';
import type { VersionedStore } from '../storage/versioned-store.ts';
import type { EventRecorders } from './events/recorders.ts';

export interface ControllerContext {
  store: VersionedStore;
  catalog: ApiCatalog;
  clock: Clock;
  /** The cluster's uids (boot-templates.ts stamps copies with them). */
  random: RandomSource;
  registryFor(type: ResourceType): GenericRegistry;
  /**
   * Records an object a controller has just created or updated on the cluster's behalf (the
   * harness leaves such objects out of snapshots until someone else changes them).
   */
  recordClusterWrite?(type: ResourceType, object: KubeObject): void;
  /** Where the simulated control plane records its Events (workloads: true; absent otherwise). */
  events?: EventRecorders;
}

/** Any served type stored in this bucket (every version of a resource shares one bucket). */
export function typeForBucket(catalog: ApiCatalog, bucket: string): ResourceType | undefined {
  return catalog.all().find((t) => storageKeyOf(t) === bucket);
}

/** One type per stored resource (the first served version), in discovery order. */
export function storedResources(catalog: ApiCatalog): ResourceType[] {
  const seen = new Set<string>();
  return catalog.all().filter((t) => {
    const key = storageKeyOf(t);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Splits a store key into namespace and name. */
export function splitKey(type: ResourceType, key: string): { namespace: string | undefined; name: string } {
  if (!type.namespaced) return { namespace: undefined, name: key };
  const slash = key.indexOf('/');
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** A controller the manager runs for the life of the cluster. */
export interface Controller {
  readonly name: string;
  start(): void;
  stop(): void;
  readonly idle: boolean;
  whenIdle(): Promise<void>;
}

/** The key `recordClusterWrite` files a write under: `<bucket>\0<namespace>/<name>` (the snapshot's id). */
export function clusterWriteId(type: ResourceType, object: KubeObject): string {
  const meta = object.metadata ?? {};
  return `${storageKeyOf(type)}\0${type.namespaced ? `${meta.namespace}/` : ''}${meta.name}`;
}
