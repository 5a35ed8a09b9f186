// A local copy of what a real cluster holds for one test, so the harness (get, list, waitFor,
// snapshot, diff, history) reads it synchronously as it reads a fake cluster's store. Kept by
// reflectors (list, then watch from its resourceVersion, relist on 410), as client-go's
// reflector keeps an informer's cache: every namespaced resource in the test's namespace, the
// CustomResourceDefinitions (so their kinds are known, by the same CRD controller the fake runs),
// and the cluster-scoped objects the test applied, by name. Objects are stored as the server sent
// them; the copy's own revisions are mapped back to the server's resourceVersions on the way out.
import { builtinResourceTypes, createBuiltinContext } from '../../apis/builtin/index.ts';
import { ApiCatalog } from '../../apis/catalog.ts';
import { apiVersionOf, isPlainObject, type KubeObject } from '../../apis/object.ts';
import { storageKeyOf, type ResourceType } from '../../apis/resource-type.ts';
import { storedResources } from '../../controllers/context.ts';
import { ControllerManager } from '../../controllers/controller-manager.ts';
import { CrdController } from '../../controllers/crd-controller.ts';
import { GenericRegistry } from '../../registry/generic-registry.ts';
import { loadCelFor } from '../../cel/lazy.ts';
import { VersionedStore } from '../../storage/versioned-store.ts';
import { cryptoRandom, systemClock } from '../../util/clock-and-random.ts';
import { resourcePath, type RealConnection } from './connection.ts';

/** How long the copy must have been quiet for settle() to call it caught up. */
const QUIET_MS = 150;

interface Reflector {
  key: string;
  stopped: boolean;
  abort: AbortController;
  /** Resolves once the first list is in the copy (or the resource turned out not to be served). */
  synced: Promise<void>;
}

export class ClusterMirror {
  readonly store = new VersionedStore({ historyLimit: 10_000 });
  readonly catalog = new ApiCatalog();
  private readonly registries = new WeakMap<ResourceType, GenericRegistry>();
  private readonly reflectors = new Map<string, Reflector>();
  private readonly controllers = new ControllerManager();
  /** The server's resourceVersion of each object in the copy, by `bucket|key`. */
  private readonly serverRevisions = new Map<string, string>();
  private lastChange = Date.now();
  private closed = false;

  private readonly connection: RealConnection;
  readonly namespace: string;

  constructor(connection: RealConnection, namespace: string) {
    this.connection = connection;
    this.namespace = namespace;
    for (const type of builtinResourceTypes(createBuiltinContext({ now: () => systemClock.now() }))) this.catalog.add(type);
    const registryFor = this.registryFor;
    this.controllers.add(new CrdController({ store: this.store, catalog: this.catalog, clock: systemClock, random: cryptoRandom, registryFor }, this.controllers.reportError));
  }

  readonly registryFor = (type: ResourceType): GenericRegistry => {
    let registry = this.registries.get(type);
    if (!registry) this.registries.set(type, (registry = new GenericRegistry(type, { store: this.store, clock: systemClock, random: cryptoRandom })));
    return registry;
  };

  /** Starts the reflectors and resolves once each has listed once. */
  async start(): Promise<void> {
    const crds = this.catalog.find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
    await this.reflect(crds, undefined).synced;
    await this.controllers.settle(); // the CRDs' kinds are served by the copy's catalog now
    await this.reflectNamespaced();
  }

  /** Reflectors for every namespaced resource (CRDs' kinds included) not reflected yet. */
  async reflectNamespaced(): Promise<void> {
    const started: Promise<void>[] = [];
    for (const type of storedResources(this.catalog)) {
      if (!type.namespaced || !type.verbs.includes('list') || !type.verbs.includes('watch')) continue;
      const key = storageKeyOf(type);
      if (!this.reflectors.has(key)) started.push(this.reflect(type, this.namespace).synced);
    }
    await Promise.all(started);
  }

  /** Follows one cluster-scoped object the test created (by name). */
  async follow(type: ResourceType, name: string): Promise<void> {
    if (type.namespaced) return;
    await this.reflect(type, undefined, name).synced;
  }

  /** Puts a write's answer into the copy at once, so a read right after it sees it (the watch event follows). */
  async upsert(type: ResourceType, obj: KubeObject): Promise<void> {
    await loadCelFor(type, obj);
    const meta = obj.metadata;
    if (!meta?.name) return;
    const bucket = storageKeyOf(type);
    const key = type.namespaced ? `${meta.namespace}/${meta.name}` : meta.name;
    const known = this.serverRevisions.get(`${bucket}|${key}`);
    if (known !== undefined && meta.resourceVersion !== undefined && !isNewer(meta.resourceVersion, known)) return;
    this.write(bucket, key, obj);
  }

  /** The object with the server's resourceVersion in place of the copy's. */
  serverView = (bucket: string, obj: KubeObject): KubeObject => {
    const meta = obj.metadata;
    if (!meta?.name) return obj;
    const key = meta.namespace ? `${meta.namespace}/${meta.name}` : meta.name;
    const revision = this.serverRevisions.get(`${bucket}|${key}`);
    return revision === undefined ? obj : { ...obj, metadata: { ...meta, resourceVersion: revision } };
  };

  /** Resolves once every reflector has listed and the copy has been quiet for a moment. */
  async settle(): Promise<void> {
    for (;;) {
      await this.controllers.settle();
      // After the controllers: a CRD that arrived meanwhile has its kind served by the copy's CRD
      // controller only once that has run (it loads the custom resource machinery on first use),
      // and the kind needs its reflector before the copy can be quiet.
      await this.reflectNamespaced();
      await Promise.all([...this.reflectors.values()].map((r) => r.synced));
      const quietFor = Date.now() - this.lastChange;
      if (quietFor >= QUIET_MS) return;
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS - quietFor));
    }
  }

  close(): void {
    this.closed = true;
    this.controllers.stop();
    for (const r of this.reflectors.values()) {
      r.stopped = true;
      r.abort.abort();
    }
  }

  private reflect(type: ResourceType, namespace: string | undefined, name?: string): Reflector {
    const key = name === undefined ? storageKeyOf(type) : `${storageKeyOf(type)}|${name}`;
    const existing = this.reflectors.get(key);
    if (existing) return existing;
    let markSynced!: () => void;
    const reflector: Reflector = { key, stopped: false, abort: new AbortController(), synced: new Promise((resolve) => (markSynced = resolve)) };
    this.reflectors.set(key, reflector);
    void this.run(reflector, type, namespace, name, markSynced);
    return reflector;
  }

  private async run(reflector: Reflector, type: ResourceType, namespace: string | undefined, name: string | undefined, markSynced: () => void): Promise<void> {
    const path = resourcePath(type, namespace);
    const selector = name === undefined ? '' : `fieldSelector=${encodeURIComponent(`metadata.name=${name}`)}`;
    const bucket = storageKeyOf(type);
    const apiVersion = apiVersionOf(type.group, type.version);
    while (!reflector.stopped && !this.closed) {
      try {
        const listed = await this.connection.fetch(`${path}${selector ? `?${selector}` : ''}`, { signal: reflector.abort.signal, headers: { accept: 'application/json' } });
        if (listed.status === 404 || listed.status === 403 || listed.status === 405) {
          // Not served by this server (or not for us): nothing to copy.
          await listed.body?.cancel();
          break;
        }
        if (listed.status !== 200) throw new Error(`list ${path}: ${listed.status}`);
        const list = (await listed.json()) as { metadata?: { resourceVersion?: string }; items?: KubeObject[] };
        const items = (list.items ?? []).map((o) => ({ ...o, apiVersion, kind: type.kind }));
        for (const item of items) await loadCelFor(type, item); // a CRD's rules compile when its kind is served
        this.replace(type, bucket, namespace, name, items);
        markSynced();
        let revision = list.metadata?.resourceVersion ?? '';
        // Watch from the list's revision until the server ends the watch; relist on 410.
        for (;;) {
          const query = `watch=1&allowWatchBookmarks=true&resourceVersion=${encodeURIComponent(revision)}${selector ? `&${selector}` : ''}`;
          const watched = await this.connection.fetch(`${path}?${query}`, { signal: reflector.abort.signal, headers: { accept: 'application/json' } });
          if (watched.status !== 200 || !watched.body) throw new Error(`watch ${path}: ${watched.status}`);
          const next = await this.consume(watched.body, type, bucket, revision);
          if (next === undefined) break; // expired: relist
          revision = next;
        }
      } catch (err) {
        if (reflector.stopped || this.closed) break;
        void err;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    markSynced();
  }

  /** Applies a watch stream's events; answers the last revision seen, or undefined after a 410. */
  private async consume(body: ReadableStream<Uint8Array>, type: ResourceType, bucket: string, from: string): Promise<string | undefined> {
    let revision = from;
    let pending = '';
    const decoder = new TextDecoder();
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      pending += decoder.decode(chunk, { stream: true });
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline).trim();
        pending = pending.slice(newline + 1);
        if (!line) continue;
        const event = JSON.parse(line) as { type: string; object: KubeObject & { code?: number } };
        if (event.type === 'ERROR') {
          if (event.object.code === 410) return undefined;
          throw new Error(`watch error: ${JSON.stringify(event.object)}`);
        }
        const obj = event.object;
        revision = obj.metadata?.resourceVersion ?? revision;
        if (event.type === 'BOOKMARK') continue;
        const meta = obj.metadata!;
        const key = type.namespaced ? `${meta.namespace}/${meta.name}` : meta.name!;
        if (event.type === 'DELETED') {
          this.remove(bucket, key);
        } else {
          await loadCelFor(type, obj);
          this.write(bucket, key, { ...obj, apiVersion: apiVersionOf(type.group, type.version), kind: type.kind });
        }
      }
    }
    return revision;
  }

  /** A list's answer replaces what the copy holds of that resource (and namespace or name). */
  private replace(type: ResourceType, bucket: string, namespace: string | undefined, name: string | undefined, items: KubeObject[]): void {
    const keep = new Set<string>();
    for (const obj of items) {
      const meta = obj.metadata!;
      const key = type.namespaced ? `${meta.namespace}/${meta.name}` : meta.name!;
      keep.add(key);
      this.write(bucket, key, obj);
    }
    const prefix = namespace ? `${namespace}/` : '';
    for (const { key } of this.store.list(bucket, prefix)) {
      if (name !== undefined && key !== name) continue;
      if (!keep.has(key)) this.remove(bucket, key);
    }
  }

  private write(bucket: string, key: string, obj: KubeObject): void {
    if (!isPlainObject(obj.metadata)) return;
    const serverRevision = obj.metadata.resourceVersion;
    const copy = { ...obj, metadata: { ...obj.metadata } };
    delete copy.metadata.resourceVersion;
    const existing = this.store.get(bucket, key);
    if (existing) this.store.update(bucket, key, copy, existing.metadata.resourceVersion);
    else this.store.create(bucket, key, copy);
    if (serverRevision !== undefined) this.serverRevisions.set(`${bucket}|${key}`, serverRevision);
    this.lastChange = Date.now();
  }

  private remove(bucket: string, key: string): void {
    const existing = this.store.get(bucket, key);
    if (existing) this.store.delete(bucket, key, existing.metadata.resourceVersion);
    this.serverRevisions.delete(`${bucket}|${key}`);
    this.lastChange = Date.now();
  }
}

/** Whether resourceVersion `a` is later than `b` (etcd revisions are integers; others: assume so). */
function isNewer(a: string, b: string): boolean {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return BigInt(a) > BigInt(b);
  return a !== b;
}
