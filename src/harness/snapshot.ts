// cluster.snapshot(): what is stored, as plain data in a stable order (apiVersion, kind,
// namespace, name), filtered by kinds, namespaces and labels, volatile fields normalised unless
// the cluster is deterministic; also as multi-document YAML for file snapshots.
import { dump } from 'js-yaml';
import { apiVersionOf, parseApiVersion, type KubeObject, type StoredObject } from '../apis/object.ts';
import { storageKeyOf, type ResourceType } from '../apis/resource-type.ts';
import { compileLabelSelector } from '../registry/list.ts';
import type { HarnessContext } from './context.ts';
import { labelSelectorText } from './direct-reads.ts';
import { normalizeObject, Placeholders } from './normalize.ts';
import { kindMatches, presentCopy, type KindSpec } from './object-ref.ts';
import type { SnapshotEntry } from './snapshot-entry.ts';
import { compareKeys, stableOrder } from './stable-order.ts';

/** Options of `cluster.snapshot()` (also `format: 'objects' | 'yaml'`, default objects). */
export interface SnapshotOptions {
  /** Only these kinds (`'Deployment'`, `'deployments.apps'`, `{ apiVersion, kind }`…); all kinds when omitted. */
  kinds?: KindSpec[];
  /** Only objects in these namespaces; cluster-scoped objects are left out when this is given. */
  namespaces?: string[];
  /** Only objects whose labels match: selector text (`app=web`) or a map of required labels. */
  labels?: string | Record<string, string>;
  /**
   * Replace volatile fields by placeholders: uids (`<uid-1>`, numbered by first appearance so
   * owner references stay linked), the random suffix of names generated from `generateName`
   * (`web-x7k2p` → `web-<suffix-1>`, and every string in the snapshot equal to that name), resourceVersions,
   * RFC 3339 times under `…Time`/`…Timestamp` keys. Default: on, unless the cluster is deterministic.
   */
  normalize?: boolean;
  /** Keep `metadata.managedFields` (server-side apply bookkeeping). Default false: they are left out. */
  managedFields?: boolean;
  /**
   * Include the objects the cluster made itself: what it starts with (its four namespaces, the
   * `kubernetes` Service and its endpoints, each boot namespace's `default` ServiceAccount and
   * `kube-root-ca.crt` ConfigMap) even while unchanged, and what its controllers have written
   * since, while nothing else has changed it (the `default` ServiceAccount and `kube-root-ca.crt`
   * of every namespace created later, and the Events a workloads cluster records). Default false: a
   * snapshot shows what the test wrote.
   */
  includeBootstrap?: boolean;
}

const ENTRIES = Symbol('kubefake.snapshot');

/** The array snapshot() answers; it remembers the stored state it was taken from, for diff(). */
export type ClusterSnapshot = KubeObject[];

interface SnapshotMemory {
  entries: SnapshotEntry[];
  options: SnapshotOptions;
}

export class Snapshots {
  private readonly ctx: HarnessContext;
  private readonly normalizeByDefault: boolean;
  /** Boot objects by id → the resourceVersion they had when the cluster was ready. */
  private readonly bootstrap = new Map<string, string>();

  constructor(ctx: HarnessContext, normalizeByDefault: boolean) {
    this.ctx = ctx;
    this.normalizeByDefault = normalizeByDefault;
  }

  /** Remembers everything stored now as the cluster's bootstrap state. */
  markBootstrap(): void {
    for (const entry of this.entries({ includeBootstrap: true })) this.bootstrap.set(entry.id, entry.object.metadata.resourceVersion);
  }

  take(options: SnapshotOptions = {}): ClusterSnapshot {
    const normalize = options.normalize ?? this.normalizeByDefault;
    const entries = normalize ? stableOrder(this.entries(options)) : this.entries(options);
    const placeholders = new Placeholders();
    if (normalize) {
      // Objects' own uids are numbered first, in snapshot order, so `<uid-3>` is the third object;
      // then their generated names, so `web-<suffix-1>` is the first one generated from `web-`… in the snapshot.
      for (const e of entries) if (e.object.metadata.uid) placeholders.uid(e.object.metadata.uid);
      for (const e of entries) placeholders.addGeneratedNames(e.object);
    }
    const out = entries.map((e) => {
      const copy = presentCopy(e.type, e.object);
      if (!options.managedFields) delete copy.metadata?.managedFields;
      return normalize ? normalizeObject(copy, placeholders) : copy;
    });
    const memory: SnapshotMemory = { entries, options };
    Object.defineProperty(out, ENTRIES, { value: memory, enumerable: false });
    return out;
  }

  yaml(options: SnapshotOptions = {}): string {
    return toYaml(this.take(options));
  }

  /** What a snapshot remembers, or an error when `value` did not come from snapshot(). */
  memoryOf(value: unknown): SnapshotMemory {
    const memory = Array.isArray(value) ? (value as unknown as Record<symbol, SnapshotMemory | undefined>)[ENTRIES] : undefined;
    if (!memory) throw new TypeError('kubefake: diff() takes an array returned by cluster.snapshot() (not its YAML form or a copy)');
    return memory;
  }

  /** The stored objects the options select, in snapshot order. */
  entries(options: SnapshotOptions): SnapshotEntry[] {
    const { store, catalog } = this.ctx;
    const byLabel = compileLabelSelector(labelSelectorText(options.labels));
    const namespaces = options.namespaces && new Set(options.namespaces);
    // Every served version of a resource shares one bucket.
    const buckets = new Map<string, ResourceType[]>();
    for (const type of catalog.all()) {
      const key = storageKeyOf(type);
      const list = buckets.get(key);
      if (list) list.push(type);
      else buckets.set(key, [type]);
    }
    const out: Array<SnapshotEntry & { sortKey: string[] }> = [];
    for (const [bucket, types] of buckets) {
      if (options.kinds && !types.some((t) => options.kinds!.some((spec) => kindMatches(t, spec)))) continue;
      if (namespaces && !types[0]!.namespaced) continue;
      for (const { key, object } of store.list(bucket, '')) {
        const meta = object.metadata;
        if (namespaces && !namespaces.has(meta.namespace ?? '')) continue;
        if (byLabel && !byLabel(object)) continue;
        const id = `${bucket}\0${key}`;
        if (!options.includeBootstrap && (this.bootstrap.get(id) === meta.resourceVersion || this.ctx.clusterWrites?.get(id) === meta.resourceVersion)) continue;
        const type = typeServing(types, object);
        out.push({ id, type, object, sortKey: [apiVersionOf(type.group, type.version), type.kind, meta.namespace ?? '', meta.name] });
      }
    }
    out.sort((a, b) => compareKeys(a.sortKey, b.sortKey));
    return out.map(({ id, type, object }) => ({ id, type, object }));
  }
}

/** The bucket's type at the object's stored version, else its first served version. */
function typeServing(types: ResourceType[], object: StoredObject): ResourceType {
  if (typeof object.apiVersion === 'string') {
    const { group, version } = parseApiVersion(object.apiVersion);
    const match = types.find((t) => t.group === group && t.version === version);
    if (match) return match;
  }
  return types[0]!;
}

/** Multi-document YAML, one document per object (`---` between them), keys in stored order. */
export function toYaml(objects: readonly KubeObject[]): string {
  return objects.map((o) => dump(o, { noRefs: true, lineWidth: -1 })).join('---\n');
}
