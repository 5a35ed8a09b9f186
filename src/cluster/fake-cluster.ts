// createFakeCluster(): one isolated API server with its own store, host name and catalog.
import type { KubeConfig } from '@kubernetes/client-node';
import { builtinResourceTypes, createBuiltinContext } from '../apis/builtin/index.ts';
import { ApiCatalog } from '../apis/catalog.ts';
import { apiVersionOf, parseApiVersion, type KubeObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import { StatusError } from '../errors/status-error.ts';
import { ApiHandler } from '../http/api-handler.ts';
import { DEFAULT_WATCH_TUNING } from '../http/watch-stream.ts';
import { ServedWatches } from '../http/served-watches.ts';
import { registerInternals } from './internals.ts';
import type { RegistryContext } from '../registry/context.ts';
import type { Clock } from '../util/clock-and-random.ts';
import { GenericRegistry } from '../registry/generic-registry.ts';
import { VersionedStore } from '../storage/versioned-store.ts';
import { listen as listenHttp, type ListenOptions, type Listener } from '../transport/http-listener.ts';
import { attachHost, CLUSTER_DOMAIN, detachHost } from '../transport/msw-network.ts';
import { InProcessDispatcher } from '../transport/in-process-dispatcher.ts';
import { findCrdCondition, isCrdConditionTrue } from '../apiextensions/crd-conditions.ts';
import type { ControllerContext } from '../controllers/context.ts';
import { ControllerManager } from '../controllers/controller-manager.ts';
import { GarbageCollector } from '../controllers/garbage-collector.ts';
import { NamespaceController } from '../controllers/namespace-controller.ts';
import { PodTermination } from '../controllers/pod-termination.ts';
import { assertSupportedNode } from '../node-support.ts';
import { CrdController } from '../controllers/crd-controller.ts';
import { kubeConfigYaml, makeKubeConfig } from './kubeconfig.ts';
import { loadManifests, type Manifests } from './manifests.ts';
import { KUBERNETES_VERSION } from '../apis/version.ts';
import type { ClusterClock, Instant } from '../harness/clock.ts';
import type { Seed } from '../harness/seeded-random.ts';
import { resolveDeterminism } from '../harness/determinism.ts';
import { Harness } from '../harness/harness.ts';
import type { ClusterSnapshot, SnapshotOptions } from '../harness/snapshot.ts';
import type { ClusterDiff } from '../harness/diff.ts';
import { diffEntries } from '../harness/diff.ts';
import type { RequestLog } from '../harness/request-log.ts';
import type { ChangeHistory } from '../harness/change-history.ts';
import type { Faults } from '../harness/faults.ts';
import type { ObjectPredicate, WaitForOptions } from '../harness/wait-for.ts';
import type { KindSpec, ObjectTarget } from '../harness/object-ref.ts';
import { getObject, listObjects, type DirectListOptions } from '../harness/direct-reads.ts';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.ts';
import { defaultAdmissionChain } from '../admission/chain.ts';
import type { WebhookHandler, WebhookTarget } from '../webhooks/types.ts';

export type { Manifests, ManifestSource } from './manifests.ts';
export type { ListenOptions } from '../transport/http-listener.ts';

/** Options of createFakeCluster(); all optional. */
export interface FakeClusterOptions {
  /** Objects installed before createFakeCluster() resolves (same forms as apply(): text, objects, file and directory paths). */
  manifests?: Manifests;
  /**
   * Deterministic mode: the clock starts frozen at 2025-01-01T00:00:00Z (unless `clock` says
   * otherwise) and uids and generateName suffixes come from a generator seeded with `seed`
   * (default 0). The same test then stores byte-identical objects on every run, and snapshots
   * are not normalised.
   */
  deterministic?: boolean;
  /**
   * The cluster's clock: an instant (Date, RFC 3339 text or epoch milliseconds) starts a frozen
   * clock there, which moves only with `cluster.clock.advance()`/`set()`; an object with `now()`
   * is used as the time source. Default: real time.
   */
  clock?: Instant | Clock;
  /** Seeds the generator of uids and generateName suffixes (a number or a string). Default: random. */
  seed?: Seed;
  /**
   * The request log (`cluster.requests`): `limit` is how many requests it keeps (default 1,000; 0
   * turns it off); `bodies: false` makes `body()`/`responseBody()` answer undefined, and the log
   * then holds no reference to requests and responses. The log keeps the bytes kubefake read and
   * sent and parses them only when asked; a Response a fault hook built itself is copied.
   */
  requestLog?: { limit?: number; bodies?: boolean };
  /** The change history (`cluster.history`): how many stored changes it keeps. Default 1,000; 0 turns it off. */
  history?: { limit?: number };
  /**
   * How many store events the watch history keeps; older resourceVersions get 410 Expired.
   * Default 10,000.
   */
  watchHistory?: number;
  /** Watch stream tuning. */
  watch?: {
    /** How often an idle watch with allowWatchBookmarks gets a BOOKMARK; default 60,000 ms, as the apiserver. */
    bookmarkIntervalMs?: number;
    /** How many events a watcher may leave unread before its stream is ended (no ERROR event, as the watch cache ends an unresponsive watcher); default 10,000. */
    maxBacklog?: number;
  };
  /**
   * How `cluster.kubeConfig` reaches the cluster: `'dispatcher'` (the default) answers its
   * requests in-process through an undici Dispatcher of the cluster's own (no sockets, nothing
   * global); `'msw'` through the process-wide msw interception every other client uses. The
   * environment variable `KUBEFAKE_TRANSPORT` sets the default. Clients answer the same either way.
   */
  transport?: ClusterTransport;
  /** Webhook calls the cluster makes (CRD conversion; an admission webhook call is bounded by its timeoutSeconds). */
  webhooks?: {
    /** Absolute timeout of one call; default 30,000 ms, as the apiserver. */
    timeoutMs?: number;
  };
}

/** See FakeClusterOptions.transport. */
export type ClusterTransport = 'dispatcher' | 'msw';

/** The transport `cluster.kubeConfig` uses: the option, else KUBEFAKE_TRANSPORT, else the dispatcher. */
function transportOf(options: FakeClusterOptions): ClusterTransport {
  const chosen = options.transport ?? (process.env.KUBEFAKE_TRANSPORT || 'dispatcher');
  if (chosen !== 'dispatcher' && chosen !== 'msw') throw new TypeError(`kubefake: unknown transport ${JSON.stringify(chosen)} (expected "dispatcher" or "msw")`);
  return chosen;
}

/** What `cluster.listen()` resolves to. */
export interface ListenResult {
  /** `http://127.0.0.1:<port>`, or `https://…` with `tls`. */
  url: string;
  /** kubeconfig YAML pointing at the listener, usable by kubectl as is (with `tls`: the CA and the token). */
  kubeconfig: string;
  /** With `tls`: PEM of the CA that signed the listener's serving certificate. */
  caCert?: string;
  /** With `tls`: the bearer token every request must carry. */
  token?: string;
}

/** A running fake API server, made by createFakeCluster(); close it (or `await using` it) when done. */
export interface FakeCluster extends AsyncDisposable {
  /** A @kubernetes/client-node KubeConfig wired to this cluster (namespace `default`). */
  readonly kubeConfig: KubeConfig;
  /** The cluster's own server URL (`https://<id>.kubefake.local`), answered in-process. */
  readonly url: string;
  /**
   * Create-or-update of YAML/JSON text (multi-document), file or directory paths (`file:` URLs
   * too), objects, or an array of these; resolves to the stored objects in input order.
   */
  apply(manifests: Manifests): Promise<KubeObject[]>;
  /** The clock every timestamp and age of this cluster reads; advance() moves it. */
  readonly clock: ClusterClock;
  /**
   * What is stored, as plain data ordered by apiVersion, kind, namespace and name (objects the
   * cluster starts with are left out while unchanged). Volatile fields are normalised unless the
   * cluster is deterministic. With `format: 'yaml'`, multi-document YAML text instead.
   */
  snapshot(options?: SnapshotOptions & { format?: 'objects' }): ClusterSnapshot;
  /** The snapshot as multi-document YAML (one document per object), for `toMatchFileSnapshot`. */
  snapshot(options: SnapshotOptions & { format: 'yaml' }): string;
  /** What changed since `before` (a snapshot() array): objects created, changed (field by field) and deleted. */
  diff(before: ClusterSnapshot): ClusterDiff;
  /** Every HTTP request the cluster answered, with its attributes and status; bounded and clearable. */
  readonly requests: RequestLog;
  /** Every change the store committed (clients, apply(), controllers) with before/after; bounded and clearable. */
  readonly history: ChangeHistory;
  /** Fault injection: failing or delaying requests, ending open watches. */
  readonly faults: Faults;
  /**
   * Resolves with the object once `predicate` answers truthy for it (by default: once it exists);
   * rejects after `timeout` ms (default 5,000) with the last state seen.
   */
  waitFor(target: ObjectTarget, predicate?: ObjectPredicate, options?: WaitForOptions): Promise<KubeObject | undefined>;
  /** The object as stored now (a copy), or undefined; no HTTP involved. */
  get(target: ObjectTarget): KubeObject | undefined;
  /** The stored objects of a kind (copies), in key order, optionally by namespace and selectors. */
  list(kind: KindSpec, options?: DirectListOptions): KubeObject[];
  /**
   * Serves the cluster on a real HTTP port as well (for kubectl and other languages): plain http
   * on loopback by default; `{ tls: true }` serves HTTPS with a generated CA and requires a bearer
   * token (both in the kubeconfig), and is required to bind anything but loopback. See SECURITY.md.
   */
  listen(options?: ListenOptions): Promise<ListenResult>;
  /**
   * Resolves once the cluster's controllers (garbage collector, namespace lifecycle, CRD
   * establishing) have nothing left to do: wait on this instead of sleeping after a delete.
   * Rejects if a controller failed.
   */
  settle(): Promise<void>;
  /** Drops the watch history now, so older resourceVersions and continue tokens get 410 Expired. */
  compact(): Promise<void>;
  /**
   * Answers one request directly, without any transport (what both transports call). A `Request`'s
   * URL is WHATWG-parsed: dot segments (`..`, `%2e%2e`) are resolved before the cluster sees it,
   * as for any server reached through `fetch`; the listener reads the raw request line instead.
   */
  handle(request: Request): Promise<Response>;
  /**
   * Answers the webhook at `target` (a `clientConfig.url`, or a service reference
   * `{ namespace, name, path?, port? }`) in-process: CRD conversion webhooks post their
   * ConversionReview to `handler` instead of the network. Answers a function that unregisters it.
   */
  serveWebhook(target: WebhookTarget, handler: WebhookHandler): () => void;
  /** Stops serving; the in-process interception is released with the last open cluster. */
  close(): Promise<void>;
}

/** The namespaces every cluster starts with, as kube-apiserver creates them. */
export const BOOT_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
let clusterCounter = 0;

/**
 * Starts a fake API server in this process and resolves once it answers, with `options.manifests`
 * installed (CRDs Established). Point `cluster.kubeConfig` at it; every cluster has its own state.
 */
export async function createFakeCluster(options: FakeClusterOptions = {}): Promise<FakeCluster> {
  assertSupportedNode();
  const transport = transportOf(options);
  const id = `c${(++clusterCounter).toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const host = `${id}.${CLUSTER_DOMAIN}`;
  const url = `https://${host}`;
  const { clock, random, reproducible } = resolveDeterminism(options);
  const store = new VersionedStore({ historyLimit: options.watchHistory ?? 10_000 });
  // Conversion webhooks: registered handlers first, then the network; a service reference names a Service of this cluster.
  const webhooks = new WebhookDispatcher({ timeoutMs: options.webhooks?.timeoutMs, findService: (namespace, name) => store.get('/services', `${namespace}/${name}`) });
  const ctx: RegistryContext = {
    store,
    webhooks,
    clock,
    random,
  };
  const catalog = new ApiCatalog();
  for (const type of builtinResourceTypes(createBuiltinContext({ now: () => clock.now() }))) catalog.add(type);
  // Weak: CRD versions come and go, and their types with them.
  const registries = new WeakMap<ResourceType, GenericRegistry>();
  const registryFor = (type: ResourceType): GenericRegistry => {
    let registry = registries.get(type);
    if (!registry) registries.set(type, (registry = new GenericRegistry(type, ctx)));
    return registry;
  };
  ctx.admission = defaultAdmissionChain({ store, catalog, clock, random, registryFor, webhooks });
  const servedWatches = new ServedWatches();
  const handler = new ApiHandler({
    catalog,
    registryFor,
    version: KUBERNETES_VERSION,
    serverAddress: (request) => new URL(request.url).host,
    watchTuning: { ...DEFAULT_WATCH_TUNING, ...options.watch },
    servedWatches,
    clock,
  });
  const harnessContext = { store: ctx.store, catalog, registryFor };
  const harness = new Harness(harnessContext, { requestLimit: options.requestLog?.limit, requestBodies: options.requestLog?.bodies, historyLimit: options.history?.limit, normalizeSnapshots: !reproducible, endWatches: () => servedWatches.endAll() });
  const handle = harness.wrap((request: Request) => handler.handle(request));

  const namespaces = registryFor(catalog.find('', 'v1', 'namespaces')!);
  for (const name of BOOT_NAMESPACES) await namespaces.create(undefined, { metadata: { name } });

  const controllers = new ControllerManager();
  const controllerContext: ControllerContext = { store: ctx.store, catalog, clock: ctx.clock, registryFor };
  controllers.add(new GarbageCollector(controllerContext, controllers.reportError));
  controllers.add(new NamespaceController(controllerContext, controllers.reportError));
  controllers.add(new PodTermination(controllerContext, controllers.reportError));
  const crdController = new CrdController(controllerContext, controllers.reportError);
  controllers.add(crdController);
  harness.ready();

  const listeners: Listener[] = [];
  let closed = false;

  const apply = async (manifests: Manifests): Promise<KubeObject[]> => {
    const out: KubeObject[] = [];
    // CRDs applied but not yet waited for, by index in `out`.
    let pendingCrds: number[] = [];
    const establish = async () => {
      if (!pendingCrds.length) return;
      await controllers.settle();
      for (const i of pendingCrds) out[i] = structuredClone(requireEstablished(registryFor(catalog.find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!), out[i]!));
      pendingCrds = [];
    };
    for (const obj of await loadManifests(manifests)) {
      const isCrd = obj.kind === 'CustomResourceDefinition' && typeof obj.apiVersion === 'string' && obj.apiVersion.startsWith('apiextensions.k8s.io/');
      // Later documents may be objects of these CRDs: they must be served first.
      if (!isCrd) await establish();
      // Registry results share frozen stored state; users get their own mutable copies.
      out.push(structuredClone(await applyOne(catalog, registryFor, obj)));
      if (isCrd) pendingCrds.push(out.length - 1);
    }
    await establish();
    return out;
  };

  await attachHost(host, handle);
  const dispatcher = transport === 'dispatcher' ? new InProcessDispatcher(url, handle) : undefined;
  const cluster: FakeCluster = {
    url,
    kubeConfig: makeKubeConfig(url, dispatcher),
    apply,
    handle,
    serveWebhook: (target, webhookHandler) => webhooks.serve(target, webhookHandler),
    clock,
    requests: harness.requests,
    history: harness.history,
    faults: harness.faults,
    snapshot: ((snapshotOptions?: SnapshotOptions & { format?: 'objects' | 'yaml' }) =>
      snapshotOptions?.format === 'yaml' ? harness.snapshots.yaml(snapshotOptions) : harness.snapshots.take(snapshotOptions)) as FakeCluster['snapshot'],
    diff(before) {
      const memory = harness.snapshots.memoryOf(before);
      const normalize = memory.options.normalize ?? !reproducible;
      return diffEntries(memory.entries, harness.snapshots.entries(memory.options), normalize);
    },
    waitFor: (target, predicate, waitOptions) => harness.waiters.waitFor(target, predicate, waitOptions),
    get: (target) => getObject(harnessContext, target),
    list: (kind, listOptions) => listObjects(harnessContext, kind, listOptions),
    async listen(listenOptions) {
      const listener = await listenHttp(handle, listenOptions);
      listeners.push(listener);
      const credentials = listener.caCert && listener.token ? { caCert: listener.caCert, token: listener.token } : undefined;
      return { url: listener.url, kubeconfig: kubeConfigYaml(listener.url, credentials), ...credentials };
    },
    settle: () => controllers.settle(),
    async compact() {
      ctx.store.compact();
    },
    async close() {
      if (closed) return;
      closed = true;
      controllers.stop();
      servedWatches.close();
      harness.close();
      await Promise.all(listeners.map((l) => l.close()));
      await dispatcher?.close();
      await detachHost(host);
    },
    [Symbol.asyncDispose]() {
      return cluster.close();
    },
  };
  registerInternals(cluster, { store: ctx.store, servedWatches, registryContext: ctx });
  try {
    if (options.manifests) await apply(options.manifests);
  } catch (err) {
    await cluster.close();
    throw err;
  }
  return cluster;
}

/** The CRD as stored now, once Established; a CRD whose names were refused is an error for apply(). */
function requireEstablished(crds: GenericRegistry, applied: KubeObject): KubeObject {
  const name = applied.metadata!.name!;
  const current = crds.peek(undefined, name);
  if (!current) return applied;
  if (isCrdConditionTrue(current, 'Established')) return current;
  const names = findCrdCondition(current, 'NamesAccepted');
  throw new Error(`kubefake: CustomResourceDefinition ${name} was not established${names?.message ? `: ${names.message}` : ''}`);
}

/** Create, or update the existing object with the given content (keeping its resourceVersion check). */
async function applyOne(catalog: ApiCatalog, registryFor: (t: ResourceType) => GenericRegistry, obj: KubeObject): Promise<KubeObject> {
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') {
    throw new TypeError(`kubefake: a manifest needs apiVersion and kind: ${JSON.stringify(obj).slice(0, 120)}`);
  }
  const { group, version } = parseApiVersion(obj.apiVersion);
  const type = catalog.findKind(group, version, obj.kind);
  if (!type) throw new TypeError(`kubefake: no resource serves ${obj.kind} in ${apiVersionOf(group, version)}`);
  const registry = registryFor(type);
  const namespace = type.namespaced ? (obj.metadata?.namespace ?? 'default') : undefined;
  const name = obj.metadata?.name;
  for (;;) {
    const existing = name ? registry.peek(namespace, name) : undefined;
    try {
      if (!existing) return (await registry.create(namespace, obj)).object;
      const body = { ...obj, metadata: { ...obj.metadata, resourceVersion: existing.metadata.resourceVersion } };
      return (await registry.update(namespace, name!, body)).object;
    } catch (err) {
      // Raced with another writer: read again and retry, as an apply loop would.
      if (err instanceof StatusError && err.status.reason === 'Conflict') continue;
      if (err instanceof StatusError && err.status.reason === 'AlreadyExists' && name) continue;
      throw err;
    }
  }
}
