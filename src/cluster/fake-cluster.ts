// createFakeCluster(): one isolated API server with its own store, host name and catalog.
import type { KubeConfig } from '@kubernetes/client-node';
import { builtinResourceTypes, createBuiltinContext } from '../apis/builtin/index.ts';
import { ApiCatalog } from '../apis/catalog.ts';
import type { KubeObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import { ApiHandler } from '../http/api-handler.ts';
import { DEFAULT_WATCH_TUNING } from '../http/watch-stream.ts';
import { ServedWatches } from '../http/served-watches.ts';
import { registerInternals } from './internals.ts';
import type { RegistryContext } from '../registry/context.ts';
import type { Clock } from '../util/clock-and-random.ts';
import { GenericRegistry } from '../registry/generic-registry.ts';
import { VersionedStore } from '../storage/versioned-store.ts';
import type { ListenOptions, Listener } from '../transport/http-listener.ts';
import { attachHost, CLUSTER_DOMAIN, detachHost } from '../transport/msw-network.ts';
import { InProcessDispatcher } from '../transport/in-process-dispatcher.ts';
import { clusterWriteId, type ControllerContext } from '../controllers/context.ts';
import { ControllerManager } from '../controllers/controller-manager.ts';
import { GarbageCollector } from '../controllers/garbage-collector.ts';
import { NamespaceController } from '../controllers/namespace-controller.ts';
import { PodTermination } from '../controllers/pod-termination.ts';
import { ClusterRoleAggregationController } from '../controllers/clusterrole-aggregation.ts';
import { ResourceQuotaController } from '../controllers/resource-quota-controller.ts';
import { assertSupportedNode } from '../node-support.ts';
import { CrdController } from '../controllers/crd-controller.ts';
import { ValidatingAdmissionPolicyStatusController } from '../controllers/admission-policy-status-controller.ts';
import { ServiceAccountController } from '../controllers/service-account-controller.ts';
import { RootCaPublisher } from '../controllers/root-ca-publisher.ts';
import { PvcProtectionController, PvProtectionController } from '../controllers/storage-protection.ts';
import { KubernetesServiceController } from '../controllers/kubernetes-service.ts';
import { ServiceAllocationRelease } from '../controllers/service-allocations.ts';
import { clusterCaCertificate } from '../util/cluster-ca.ts';
import type { KubeletControl } from './workloads.ts';
import { kubeConfigYaml, makeKubeConfig } from './kubeconfig.ts';
import type { Manifests } from './manifests.ts';
import { applyManifests } from './apply-manifests.ts';
import type { ApplyOptions } from './server-fields.ts';
import { KUBERNETES_VERSION } from '../apis/version.ts';
import type { ClusterClock, Instant } from '../harness/clock.ts';
import type { Seed } from '../harness/seeded-random.ts';
import { resolveDeterminism } from '../harness/determinism.ts';
import { Harness } from '../harness/harness.ts';
import { CassettePlayer, loadCassette, type Cassette } from '../harness/cassette.ts';
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
import type { Identity } from '../auth/authenticator.ts';
import type { Permissions } from './cluster-auth.ts';
import { permissionsWithoutAuth } from './permissions-without-auth.ts';
import { bootstrapSystemPriorityClasses } from '../admission/priority.ts';
import { installBootstrapRbac } from './bootstrap-rbac.ts';
import type { WebhookHandler, WebhookTarget } from '../webhooks/types.ts';

export type { Manifests, ManifestSource } from './manifests.ts';
export type { ApplyOptions, ServerFieldsMode } from './server-fields.ts';
export type { Identity } from '../auth/authenticator.ts';
export type { Permissions } from './cluster-auth.ts';
export type { UsedPermission } from '../auth/permissions.ts';
export type { ListenOptions } from '../transport/http-listener.ts';

/** Options of createFakeCluster(); all optional. */
export interface FakeClusterOptions {
  /** Objects installed before createFakeCluster() resolves (same forms as apply(): text, objects, file and directory paths). */
  manifests?: Manifests;
  /**
   * Authentication and RBAC as a real server runs them (docs/auth.md): every request needs a
   * known bearer token (`cluster.kubeConfig` is the administrator, in system:masters;
   * `cluster.kubeConfigFor(identity)` any other), is authorized by the Roles and bindings
   * stored (every cluster has the bootstrap roles), and is recorded in `cluster.permissions`. Default off.
   */
  auth?: boolean;
  /**
   * Real-cluster mode: a kubeconfig (file path or YAML text) of a real cluster to run against
   * instead of an in-process fake; KUBEFAKE_KUBECONFIG sets it for every cluster. See docs/real-cluster.md.
   */
  kubeconfig?: string;
  /** How `manifests` are applied: dumps of a server's state kept or cleaned, missing namespaces created (as apply()'s options). */
  manifestOptions?: ApplyOptions;
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
  requestLog?: { limit?: number; bodies?: boolean; watchBodies?: boolean };
  /**
   * Replay mode: answer every request from a cassette (`cluster.requests.save(file)`: a path, or
   * the parsed object) instead of the cluster's own state. See docs/harness.md.
   */
  replay?: string | Cassette;
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
  /**
   * A simulated control plane on the cluster clock (docs/workloads.md): Ready nodes, a scheduler,
   * a kubelet stand-in (`cluster.kubelet`) and the workload controllers, so Deployments get
   * ReplicaSets and pods, pods become Running and Ready, Jobs complete. Default off.
   */
  workloads?: boolean;
  /** With `workloads`: how many Ready nodes the cluster registers (`kubefake-node-1`, ...). Default 1. */
  nodes?: number;
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
  /** An `auth: true` cluster: kubeconfig YAML for this listener that authenticates as `identity` (a bearer token). */
  kubeconfigFor(identity: Identity): string;
  /** An `auth: true` cluster: kubeconfig YAML that authenticates as `identity` with a client certificate (CN the user, O its groups). */
  certificateKubeconfigFor(identity: Identity): Promise<string>;
}

/** A running fake API server, made by createFakeCluster(); close it (or `await using` it) when done. */
export interface FakeCluster extends AsyncDisposable {
  /** `'fake'`: this process answers; `'real'`: a real cluster does (KUBEFAKE_KUBECONFIG, see docs/real-cluster.md). */
  readonly mode: 'fake' | 'real';
  /**
   * The namespace a test works in: `default` on the fake; on a real cluster, a namespace of the
   * test's own (`kubefake-…`), deleted by close(). apply(), get() and waitFor() default to it.
   */
  readonly namespace: string;
  /** A @kubernetes/client-node KubeConfig wired to this cluster (namespace `default`). */
  readonly kubeConfig: KubeConfig;
  /** The cluster's own server URL (`https://<id>.kubefake.local`), answered in-process. */
  readonly url: string;
  /**
   * Create-or-update of YAML/JSON text (multi-document), file or directory paths (`file:` URLs
   * too), objects, or an array of these; resolves to the stored objects in input order.
   */
  apply(manifests: Manifests, options?: ApplyOptions): Promise<KubeObject[]>;
  /** The clock every timestamp and age of this cluster reads; advance() moves it. */
  readonly clock: ClusterClock;
  /** An `auth: true` cluster: a KubeConfig whose requests authenticate as `identity` (a user with groups, or `{ serviceAccount: 'ns/name' }`). */
  kubeConfigFor(identity: Identity): KubeConfig;
  /** An `auth: true` cluster: what each identity was allowed to do, and the least Role that allows it (docs/auth.md). */
  readonly permissions: Permissions;
  /**
   * What is stored, as plain data ordered by apiVersion, kind, namespace and name (objects the
   * cluster made itself are left out while unchanged; see `includeBootstrap`). Volatile fields
   * are normalised unless the cluster is deterministic. With `format: 'yaml'`, multi-document YAML
   * text instead.
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
  /** With `workloads`: programs what the kubelet stand-in does with the pods it runs (docs/workloads.md). */
  readonly kubelet: KubeletControl;
}

// The loopback listener (node:http, node:https and its own code) loads with the first listen(); one
// import shared by concurrent first calls (concurrent import()s break Jest's ESM runtime, jestjs/jest#11434).
let listenerModule: Promise<typeof import('../transport/http-listener.ts')> | undefined;
const httpListener = () => (listenerModule ??= import('../transport/http-listener.ts'));
// Likewise the in-process server of WebSocket connections (client-node's Exec), with the first one.
let upgradesModule: Promise<typeof import('../transport/in-process-upgrades.ts')> | undefined;
const inProcessUpgrades = async () => (upgradesModule ??= (async () => (await httpListener(), import('../transport/in-process-upgrades.ts')))());
// The simulated control plane of `workloads: true` (its controllers, scheduler and kubelet stand-in:
// ~20 modules) loads with the first cluster that asks for it, not with kubefake.
let workloadsModule: Promise<typeof import('./workloads.ts')> | undefined;
const workloadsKit = () => (workloadsModule ??= import('./workloads.ts'));

/** The namespaces every cluster starts with, as kube-apiserver creates them. */
export const BOOT_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
let clusterCounter = 0;

/**
 * Starts a fake API server in this process and resolves once it answers, with `options.manifests`
 * installed (CRDs Established). Point `cluster.kubeConfig` at it; every cluster has its own state.
 */
export async function createInProcessCluster(options: FakeClusterOptions = {}): Promise<FakeCluster> {
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
  const builtinContext = createBuiltinContext({ now: () => clock.now() });
  for (const type of builtinResourceTypes(builtinContext)) catalog.add(type);
  // Weak: CRD versions come and go, and their types with them.
  const registries = new WeakMap<ResourceType, GenericRegistry>();
  const registryFor = (type: ResourceType): GenericRegistry => {
    let registry = registries.get(type);
    if (!registry) registries.set(type, (registry = new GenericRegistry(type, ctx)));
    return registry;
  };
  let serviceAccounts: ServiceAccountController | undefined;
  const whenServiceAccountsSynced = () => serviceAccounts?.whenIdle() ?? Promise.resolve();
  // Authentication and RBAC load only for a cluster that asks for them.
  const authKit = options.auth ? await import('./cluster-auth.ts') : undefined;
  const auth = authKit?.clusterAuth(store, (resource) => registryFor(catalog.find('', 'v1', resource)!), clock);
  if (auth) ctx.tokens = auth.authenticator;
  if (auth) ctx.access = { authorize: (q) => auth.authorizer.authorize(q), rulesFor: (user, namespace) => auth.authorizer.rulesFor(user, namespace) as Record<string, unknown>[] };
  // RBAC's escalation checks run where the RBAC storage runs them: before the write, after validation.
  ctx.admission = defaultAdmissionChain({ store, catalog, clock, random, registryFor, whenServiceAccountsSynced, webhooks, access: ctx.access }, auth ? [authKit!.escalationPlugin(auth.authorizer)] : []);
  const controllers = new ControllerManager();
  const clusterWrites = new Map<string, string>();
  const controllerContext: ControllerContext = {
    store: ctx.store,
    catalog,
    clock: ctx.clock,
    random: ctx.random,
    registryFor,
    recordClusterWrite: (type, object) => clusterWrites.set(clusterWriteId(type, object), object.metadata!.resourceVersion!),
  };
  if (options.nodes !== undefined && !options.workloads) throw new TypeError('kubefake: nodes needs workloads: true (nodes are registered by the simulated control plane)');
  const workloads = options.workloads ? new (await workloadsKit()).Workloads(controllerContext, clock, { nodes: options.nodes ?? 1 }, controllers.reportError) : undefined;
  const servedWatches = new ServedWatches();
  const handler = new ApiHandler({
    catalog,
    registryFor,
    version: KUBERNETES_VERSION,
    serverAddress: (request) => new URL(request.url).host,
    watchTuning: { ...DEFAULT_WATCH_TUNING, ...options.watch },
    servedWatches,
    clock,
    kubelet: workloads?.kubelet,
  });
  const harnessContext = { store: ctx.store, catalog, registryFor, clusterWrites };
  const harness = new Harness(harnessContext, { requestLimit: options.requestLog?.limit, requestBodies: options.requestLog?.bodies, watchBodies: options.requestLog?.watchBodies, historyLimit: options.history?.limit, normalizeSnapshots: !reproducible, endWatches: () => servedWatches.endAll() });
  const player = options.replay === undefined ? undefined : new CassettePlayer(await loadCassette(options.replay));
  const serve = (request: Request) => handler.handle(request);
  const handle = harness.wrap(player ? player.handle : auth ? authKit!.withAuthorization(serve, auth) : serve);

  const namespaces = registryFor(catalog.find('', 'v1', 'namespaces')!);
  for (const name of BOOT_NAMESPACES) await namespaces.create(undefined, { metadata: { name } });
  await bootstrapSystemPriorityClasses(registryFor(catalog.find('scheduling.k8s.io', 'v1', 'priorityclasses')!));
  // kube-apiserver's rbac/bootstrap-roles hook runs whatever the authorization mode.
  installBootstrapRbac(ctx.store, clock, random);

  controllers.add(new GarbageCollector(controllerContext, controllers.reportError));
  controllers.add(new NamespaceController(controllerContext, controllers.reportError));
  // With workloads the kubelet stand-in ends graceful deletions, on the clock.
  if (workloads) await workloads.start(controllers, controllers.reportError);
  else controllers.add(new PodTermination(controllerContext, controllers.reportError));
  controllers.add(new ClusterRoleAggregationController(controllerContext, controllers.reportError));
  controllers.add(new ValidatingAdmissionPolicyStatusController(controllerContext, controllers.reportError));
  controllers.add(new ResourceQuotaController(controllerContext, controllers.reportError));
  // pvc-protection and pv-protection run on every cluster: without them a deleted claim or
  // volume would keep its protection finalizer and never go.
  controllers.add(new PvcProtectionController(controllerContext, controllers.reportError));
  controllers.add(new PvProtectionController(controllerContext, controllers.reportError));
  const crdController = new CrdController(controllerContext, controllers.reportError);
  controllers.add(crdController);
  controllers.add(new ServiceAllocationRelease(controllerContext, builtinContext));
  // What kube-apiserver and kube-controller-manager keep in every cluster: the `kubernetes`
  // Service, each namespace's `default` ServiceAccount and `kube-root-ca.crt` (docs/served-apis.md).
  // Their first sync runs here, awaited, so a new cluster already holds what they keep.
  for (const controller of [
    new KubernetesServiceController(controllerContext, controllers.reportError, (ip) => builtinContext.serviceIPs.allocate(ip)),
    (serviceAccounts = new ServiceAccountController(controllerContext, controllers.reportError)),
    new RootCaPublisher(controllerContext, controllers.reportError, clusterCaCertificate()),
  ]) {
    controllers.add(controller);
    await controller.syncExisting();
  }
  harness.ready();

  const listeners: Listener[] = [];
  let closed = false;

  const apply = (manifests: Manifests, applyOptions?: ApplyOptions): Promise<KubeObject[]> =>
    applyManifests({ catalog, registryFor, settle: () => controllers.settle() }, manifests, applyOptions);

  // The msw transport needs interception now; otherwise it waits for a client that connects.
  await attachHost(host, handle, transport === 'msw' ? 'now' : 'on-connect');
  const dispatcher = transport === 'dispatcher' ? new InProcessDispatcher(url, handle) : undefined;
  // client-node's WebSocket calls (Exec) reach neither transport: they get in-memory connections
  // to a server made for them on first use (transport/in-process-upgrades.ts).
  let upgrades: import('../transport/in-process-upgrades.ts').InProcessUpgrades | undefined;
  const connectSockets = async () => {
    if (!upgrades) {
      const created = new (await inProcessUpgrades()).InProcessUpgrades(url, handle);
      upgrades ??= created;
      if (closed) upgrades.close();
    }
    const target = upgrades;
    return () => target.connect();
  };
  const cluster: FakeCluster = {
    mode: 'fake',
    namespace: 'default',
    url,
    kubeConfig: makeKubeConfig(url, dispatcher, undefined, connectSockets),
    kubeConfigFor(identity) {
      if (!auth) throw new Error('kubefake: kubeConfigFor() needs a cluster created with { auth: true }');
      return makeKubeConfig(url, dispatcher, auth.authenticator.tokenFor(identity), connectSockets);
    },
    permissions: auth ? authKit!.permissionsApi(auth) : permissionsWithoutAuth,
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
      // kubectl sends no credentials over plain http: it would be system:anonymous there.
      if (auth && !listenOptions?.tls) throw new Error('kubefake: an auth: true cluster serves kubectl over HTTPS only (kubectl sends no credentials over plain http): listen({ tls: true })');
      const listener = await (await httpListener()).listen(handle, listenOptions, { authenticatedByHandler: !!auth, upgrades: !!workloads });
      // An auth cluster takes the listener's own token as its administrator's, and any identity's.
      if (auth && listener.token) auth.authenticator.register(listener.token, authKit!.ADMIN_IDENTITY);
      listeners.push(listener);
      const credentials = listener.caCert && listener.token ? { caCert: listener.caCert, token: listener.token } : undefined;
      const kubeconfigFor = (identity: Identity) => {
        if (!auth) throw new Error('kubefake: kubeconfigFor() needs a cluster created with { auth: true }');
        return kubeConfigYaml(listener.url, credentials, auth.authenticator.tokenFor(identity));
      };
      const certificateKubeconfigFor = async (identity: Identity) => {
        if (!auth || !listener.issueClientCertificate) throw new Error('kubefake: certificateKubeconfigFor() needs a cluster created with { auth: true } and listen({ tls: true })');
        const user = authKit!.userOf(identity);
        const groups = (user.groups ?? []).filter((g) => g !== 'system:authenticated');
        return kubeConfigYaml(listener.url, credentials, undefined, await listener.issueClientCertificate(user.username, groups));
      };
      return { url: listener.url, kubeconfig: kubeConfigYaml(listener.url, credentials), ...credentials, kubeconfigFor, certificateKubeconfigFor };
    },
    settle: () => controllers.settle(),
    async compact() {
      ctx.store.compact();
    },
    async close() {
      if (closed) return;
      closed = true;
      controllers.stop();
      workloads?.stop();
      servedWatches.close();
      player?.close();
      harness.close();
      await Promise.all(listeners.map((l) => l.close()));
      upgrades?.close();
      await dispatcher?.close();
      await detachHost(host);
    },
    [Symbol.asyncDispose]() {
      return cluster.close();
    },
    kubelet: workloads?.control ?? {
      on() {
        throw new TypeError('kubefake: cluster.kubelet needs createFakeCluster({ workloads: true })');
      },
      log() {
        throw new TypeError('kubefake: cluster.kubelet needs createFakeCluster({ workloads: true })');
      },
    },
  };
  registerInternals(cluster, { store: ctx.store, servedWatches, registryContext: ctx });
  try {
    if (options.manifests) await apply(options.manifests, options.manifestOptions);
  } catch (err) {
    await cluster.close();
    throw err;
  }
  return cluster;
}
