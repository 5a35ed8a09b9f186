// Real-cluster mode: the FakeCluster API backed by a real Kubernetes cluster (KUBEFAKE_KUBECONFIG
// or the `kubeconfig` option), so tests written against kubefake run unchanged against kind, k3s
// or a staging cluster. Each cluster object is one test's: it works in a namespace of its own
// (`cluster.namespace`, created here and deleted by close() with every cluster-scoped object
// apply() created). Reads (get, list, waitFor, snapshot, diff, history) answer from a copy kept by
// watches (mirror.ts); requests through `cluster.kubeConfig` are recorded on the client side.
// What only a fake can do throws NotSupportedOnRealCluster.
import { KubeConfig } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import type { Dispatcher } from 'undici';
import { apiVersionOf, parseApiVersion, type KubeObject } from '../../apis/object.ts';
import { storageKeyOf, type ResourceType } from '../../apis/resource-type.ts';
import { StatusError, type Status } from '../../errors/status-error.ts';
import { diffEntries } from '../../harness/diff.ts';
import { getObject, listObjects } from '../../harness/direct-reads.ts';
import { Harness } from '../../harness/harness.ts';
import { toRef, type ObjectTarget } from '../../harness/object-ref.ts';
import type { SnapshotOptions } from '../../harness/snapshot.ts';
import { InProcessDispatcher } from '../../transport/in-process-dispatcher.ts';
import { loadManifests } from '../manifests.ts';
import type { FakeCluster, FakeClusterOptions } from '../fake-cluster.ts';
import type { ApplyOptions } from '../server-fields.ts';
import { fixtureObjects, remapOwnerUids } from '../server-fields.ts';
import { connect, resourcePath, type RealConnection } from './connection.ts';
import { routedKubeConfig } from '../kubeconfig.ts';
import { ClusterMirror } from './mirror.ts';
import { NotSupportedOnRealCluster } from './not-supported.ts';

/** How long close() waits for the test's namespace (and each cluster-scoped object it created) to be gone. */
const DELETION_TIMEOUT_MS = 120_000;
/** How long apply() waits for a CustomResourceDefinition to be Established. */
const ESTABLISH_TIMEOUT_MS = 30_000;

/** The options only a fake cluster can honour, by the name the error gives. */
const FAKE_ONLY_OPTIONS: [keyof FakeClusterOptions, string][] = [
  ['deterministic', 'deterministic mode'],
  ['clock', 'a cluster clock (`clock` option)'],
  ['seed', 'seeded uids (`seed` option)'],
  ['replay', 'replay mode'],
  ['nodes', 'a node count (`nodes` option: a real cluster has its own nodes)'],
  ['auth', 'auth: true (a real cluster authenticates with its own identities)'],
];

export async function createRealCluster(kubeconfig: string, options: FakeClusterOptions): Promise<FakeCluster> {
  for (const [option, feature] of FAKE_ONLY_OPTIONS) if (options[option] !== undefined && options[option] !== false) throw new NotSupportedOnRealCluster(feature);
  const connection = connect(kubeconfig);
  const namespace = await createTestNamespace(connection);
  const mirror = new ClusterMirror(connection, namespace);
  const harnessContext = { store: mirror.store, catalog: mirror.catalog, registryFor: mirror.registryFor };
  const harness = new Harness(harnessContext, {
    requestLimit: options.requestLog?.limit,
    requestBodies: options.requestLog?.bodies,
    watchBodies: options.requestLog?.watchBodies,
    historyLimit: options.history?.limit,
    normalizeSnapshots: true,
    endWatches: () => 0,
  });
  /** Cluster-scoped objects this test created (apply() or its clients), deleted by close() (last first). */
  const created: { type: ResourceType; name: string }[] = [];
  const track = (obj: KubeObject) => {
    const type = obj.apiVersion && obj.kind ? mirror.catalog.findKind(parseApiVersion(String(obj.apiVersion)).group, parseApiVersion(String(obj.apiVersion)).version, String(obj.kind)) : undefined;
    if (type && !type.namespaced && type.verbs.includes('delete') && obj.metadata?.name) created.push({ type, name: obj.metadata.name });
  };
  // Requests through cluster.kubeConfig pass the harness (the request log) on their way out; the
  // cluster-scoped objects they create are noted for close().
  const handle = harness.wrap(async (request) => {
    const response = await forward(connection, request);
    if (request.method === 'POST' && response.status === 201) {
      const copy = response.clone();
      try {
        track((await copy.json()) as KubeObject);
      } catch {
        // not an object (a create-only review answers one too, and is tracked harmlessly)
      }
    }
    return response;
  });
  const dispatcher = new InProcessDispatcher(connection.server, handle);
  const kubeConfig = recordingKubeConfig(connection.kubeConfig, namespace, connection.server, dispatcher);
  let closed = false;

  try {
    await mirror.start();
  } catch (err) {
    mirror.close();
    await deleteAndWait(connection, `/api/v1/namespaces/${encodeURIComponent(namespace)}`).catch(() => undefined);
    throw err;
  }
  harness.ready();

  const withNamespace = (target: ObjectTarget) => {
    const ref = toRef(target);
    return { ...ref, namespace: ref.namespace ?? namespace };
  };
  const serverView = (obj: KubeObject | undefined) => {
    if (!obj) return obj;
    const { group, version } = parseApiVersion(String(obj.apiVersion));
    const type = mirror.catalog.findKind(group, version, String(obj.kind));
    return type ? mirror.serverView(storageKeyOf(type), obj) : obj;
  };

  const apply = async (manifests: Parameters<FakeCluster['apply']>[0], applyOptions: ApplyOptions = {}): Promise<KubeObject[]> => {
    if (applyOptions.serverFields === 'keep') throw new NotSupportedOnRealCluster("apply() with serverFields: 'keep' (a real server assigns uids and times)");
    const objects = await loadManifests(manifests);
    const plan = applyOptions.serverFields ? fixtureObjects(objects, 'clean', () => false) : objects.map((object, index) => ({ index, object }));
    const out: KubeObject[] = new Array(objects.length);
    const newUids = new Map<string, string>();
    for (const { index, object } of plan) {
      const type = typeOf(mirror, object);
      const body = remapOwnerUids(object, newUids);
      const { stored, createdNow } = await applyOne(connection, type, body, namespace);
      const dumpedUid = objects[index]!.metadata?.uid;
      if (typeof dumpedUid === 'string') newUids.set(dumpedUid, stored.metadata!.uid!);
      await mirror.upsert(type, stored);
      if (!type.namespaced) {
        if (createdNow) track(stored);
        await mirror.follow(type, stored.metadata!.name!);
      }
      out[index] = structuredClone(stored);
      if (type.group === 'apiextensions.k8s.io' && type.kind === 'CustomResourceDefinition') {
        out[index] = await waitEstablished(connection, stored.metadata!.name!);
        await mirror.settle(); // its kind is known and reflected before the next document
      }
    }
    return out;
  };

  const cluster: FakeCluster = {
    mode: 'real',
    namespace,
    url: connection.server,
    kubeConfig,
    apply,
    handle,
    clock: unsupported<FakeCluster['clock']>('cluster.clock'),
    faults: unsupported<FakeCluster['faults']>('cluster.faults'),
    kubeConfigFor() {
      throw new NotSupportedOnRealCluster('cluster.kubeConfigFor() (identities are the real cluster’s own)');
    },
    permissions: unsupported<FakeCluster['permissions']>('cluster.permissions'),
    kubelet: unsupported<FakeCluster['kubelet']>('cluster.kubelet (a real cluster runs its own kubelets)'),
    requests: harness.requests,
    history: harness.history,
    snapshot: ((snapshotOptions?: SnapshotOptions & { format?: 'objects' | 'yaml' }) => {
      if (snapshotOptions?.normalize === false) throw new NotSupportedOnRealCluster('snapshot({ normalize: false })');
      return snapshotOptions?.format === 'yaml' ? harness.snapshots.yaml(snapshotOptions) : harness.snapshots.take(snapshotOptions);
    }) as FakeCluster['snapshot'],
    diff(before) {
      const memory = harness.snapshots.memoryOf(before);
      return diffEntries(memory.entries, harness.snapshots.entries(memory.options), memory.options.normalize ?? true);
    },
    waitFor: async (target, predicate, waitOptions) => serverView(await harness.waiters.waitFor(withNamespace(target), predicate, waitOptions)),
    get: (target) => serverView(getObject(harnessContext, withNamespace(target))),
    list: (kind, listOptions) => listObjects(harnessContext, kind, listOptions).map((o) => serverView(o)!),
    async listen() {
      return {
        url: connection.server,
        kubeconfig: kubeconfigYaml(connection.kubeConfig, namespace),
        kubeconfigFor: () => {
          throw new NotSupportedOnRealCluster('kubeconfigFor() (identities are the real cluster’s own)');
        },
        certificateKubeconfigFor: async () => {
          throw new NotSupportedOnRealCluster('certificateKubeconfigFor() (identities are the real cluster’s own)');
        },
      };
    },
    settle: () => mirror.settle(),
    async compact() {
      throw new NotSupportedOnRealCluster('cluster.compact()');
    },
    serveWebhook() {
      throw new NotSupportedOnRealCluster('cluster.serveWebhook() (a real cluster cannot call into this process)');
    },
    async close() {
      if (closed) return;
      closed = true;
      mirror.close();
      harness.close();
      await dispatcher.close();
      // The next test may create the same cluster-scoped objects (a CRD): wait until they are gone.
      for (const { type, name } of created.reverse()) await deleteAndWait(connection, resourcePath(type, undefined, name));
      await deleteAndWait(connection, `/api/v1/namespaces/${encodeURIComponent(namespace)}`);
    },
    [Symbol.asyncDispose]() {
      return cluster.close();
    },
  };
  return cluster;
}

/**
 * A member only the fake has: any use of it (a method, a property) throws NotSupportedOnRealCluster
 * naming it, while looking at the cluster object (equality, printing) does not.
 */
function unsupported<T extends object>(feature: string): T {
  return new Proxy({} as T, {
    get(_target, prop) {
      if (typeof prop === 'symbol' || prop === 'then' || prop === 'toJSON' || prop === 'asymmetricMatch' || prop === '$$typeof' || prop === 'constructor') return undefined;
      throw new NotSupportedOnRealCluster(`${feature}.${prop}`);
    },
  });
}

/** A namespace of the test's own, named `kubefake-<random>` by the server. */
async function createTestNamespace(connection: RealConnection): Promise<string> {
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { generateName: 'kubefake-', labels: { 'app.kubernetes.io/managed-by': 'kubefake' } } });
  const response = await connection.fetch('/api/v1/namespaces', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const created = (await response.json()) as KubeObject | Status;
  if (response.status !== 201) throw statusError(created as Status, 'creating the test namespace');
  return (created as KubeObject).metadata!.name!;
}

/** Deletes the object at `path` and waits until it is gone (a namespace: its objects with it). */
async function deleteAndWait(connection: RealConnection, path: string): Promise<void> {
  const deleted = await connection.fetch(path, { method: 'DELETE' });
  await deleted.body?.cancel();
  if (deleted.status === 404) return;
  const deadline = Date.now() + DELETION_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const read = await connection.fetch(path);
    await read.body?.cancel();
    if (read.status === 404) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`kubefake: ${path} was not deleted within ${DELETION_TIMEOUT_MS / 1000} s`);
}

function typeOf(mirror: ClusterMirror, obj: KubeObject): ResourceType {
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') {
    throw new TypeError(`kubefake: a manifest needs apiVersion and kind: ${JSON.stringify(obj).slice(0, 120)}`);
  }
  const { group, version } = parseApiVersion(obj.apiVersion);
  const type = mirror.catalog.findKind(group, version, obj.kind);
  if (!type) throw new TypeError(`kubefake: no resource serves ${obj.kind} in ${apiVersionOf(group, version)}`);
  return type;
}

/** Create, or replace the existing object with the given content (as the fake's apply() does). */
async function applyOne(connection: RealConnection, type: ResourceType, obj: KubeObject, testNamespace: string): Promise<{ stored: KubeObject; createdNow: boolean }> {
  const namespace = type.namespaced ? (obj.metadata?.namespace ?? testNamespace) : undefined;
  const body = { ...obj, metadata: { ...obj.metadata, ...(namespace ? { namespace } : {}) } };
  const name = body.metadata.name;
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  for (;;) {
    const existing = name ? await connection.fetch(resourcePath(type, namespace, name), { headers: { accept: 'application/json' } }) : undefined;
    const current = existing ? ((await existing.json()) as KubeObject | Status) : undefined;
    let response: Response;
    if (!existing || existing.status === 404) {
      response = await connection.fetch(resourcePath(type, namespace), { method: 'POST', headers: json, body: JSON.stringify(body) });
    } else if (existing.status === 200) {
      const replaced = { ...body, metadata: { ...body.metadata, resourceVersion: (current as KubeObject).metadata?.resourceVersion } };
      response = await connection.fetch(resourcePath(type, namespace, name), { method: 'PUT', headers: json, body: JSON.stringify(replaced) });
    } else {
      throw statusError(current as Status, `reading ${type.plural} ${name}`);
    }
    const answer = (await response.json()) as KubeObject | Status;
    if (response.status === 409) continue; // raced with another writer: read again, as the fake's apply() does
    if (response.status >= 300) throw statusError(answer as Status, `applying ${type.kind} ${name ?? ''}`);
    return { stored: answer as KubeObject, createdNow: response.status === 201 };
  }
}

async function waitEstablished(connection: RealConnection, name: string): Promise<KubeObject> {
  const deadline = Date.now() + ESTABLISH_TIMEOUT_MS;
  const path = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${encodeURIComponent(name)}`;
  for (;;) {
    const response = await connection.fetch(path, { headers: { accept: 'application/json' } });
    const crd = (await response.json()) as KubeObject & { status?: { conditions?: { type: string; status: string; message?: string }[] } };
    const conditions = crd.status?.conditions ?? [];
    if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) return crd;
    const names = conditions.find((c) => c.type === 'NamesAccepted' && c.status === 'False');
    if (names) throw new Error(`kubefake: CustomResourceDefinition ${name} was not established: ${names.message}`);
    if (Date.now() > deadline) throw new Error(`kubefake: CustomResourceDefinition ${name} was not established within ${ESTABLISH_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function statusError(status: Status, doing: string): Error {
  if (status && status.kind === 'Status') return new StatusError(status);
  return new Error(`kubefake: ${doing} on the real cluster failed: ${JSON.stringify(status).slice(0, 300)}`);
}

/** Sends a request of cluster.kubeConfig's to the real server as it is (credentials included). */
async function forward(connection: RealConnection, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => {
    if (key !== 'host' && key !== 'connection' && key !== 'content-length') headers[key] = value;
  });
  const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
  return connection.fetch(url.pathname + url.search, { method: request.method, headers, body, signal: request.signal });
}

/**
 * The real kubeconfig, its context's namespace the test's, and its fetch requests sent through
 * `dispatcher` (the request log) on their way to the same server (kubeconfig.ts's seam).
 */
function recordingKubeConfig(real: KubeConfig, namespace: string, server: string, dispatcher: Dispatcher): KubeConfig {
  return routedKubeConfig(server, dispatcher, (kc) => kc.loadFromString(kubeconfigYaml(real, namespace)));
}

/** The kubeconfig as YAML, its current context's namespace set to `namespace`. */
function kubeconfigYaml(real: KubeConfig, namespace: string): string {
  const exported = JSON.parse(real.exportConfig()) as { contexts?: { name: string; context: Record<string, unknown> }[]; 'current-context'?: string };
  for (const ctx of exported.contexts ?? []) if (ctx.name === exported['current-context']) ctx.context.namespace = namespace;
  return dump(exported);
}
