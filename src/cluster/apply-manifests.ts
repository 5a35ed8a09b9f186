// cluster.apply(): create-or-update of manifests through the registries, CRDs established before
// the documents after them, and dumps of a server's state restored or cleaned (server-fields.ts).
import type { ApiCatalog } from '../apis/catalog.ts';
import { apiVersionOf, parseApiVersion, type KubeObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import type { WriteOptions } from '../apis/options.ts';
import { findCrdCondition, isCrdConditionTrue } from '../apiextensions/crd-conditions.ts';
import { StatusError } from '../errors/status-error.ts';
import type { GenericRegistry } from '../registry/generic-registry.ts';
import { loadManifests, type Manifests } from './manifests.ts';
import { fixtureObjects, remapOwnerUids, type ApplyOptions, type FixtureObject, type OwnerRef, type RestoredFields } from './server-fields.ts';

export interface ApplyContext {
  catalog: ApiCatalog;
  registryFor(type: ResourceType): GenericRegistry;
  /** Resolves once the controllers have nothing left to do (a CRD applied is then Established). */
  settle(): Promise<void>;
}

const isCrd = (obj: KubeObject) => obj.kind === 'CustomResourceDefinition' && typeof obj.apiVersion === 'string' && obj.apiVersion.startsWith('apiextensions.k8s.io/');

/** Applies every object of `manifests` in order; resolves to the stored objects in input order. */
export async function applyManifests(ctx: ApplyContext, manifests: Manifests, options: ApplyOptions = {}): Promise<KubeObject[]> {
  const objects = await loadManifests(manifests);
  const mode = options.serverFields;
  const plan: FixtureObject[] = mode ? fixtureObjects(objects, mode, (ref, namespace) => ownerExists(ctx, ref, namespace)) : objects.map((object, index) => ({ index, object }));
  if (options.createNamespaces) await createMissingNamespaces(ctx, objects);
  const out: KubeObject[] = new Array(objects.length);
  // CRDs applied but not yet waited for, by index in `out`.
  let pendingCrds: number[] = [];
  const establish = async () => {
    if (!pendingCrds.length) return;
    await ctx.settle();
    for (const i of pendingCrds) out[i] = structuredClone(requireEstablished(ctx.registryFor(ctx.catalog.find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!), out[i]!));
    pendingCrds = [];
  };
  // 'clean' mode: the uids owners had in the dump, mapped to the ones they got here.
  const newUids = new Map<string, string>();
  for (const { index, object, restore } of plan) {
    // Later documents may be objects of these CRDs: they must be served first.
    if (!isCrd(object)) await establish();
    const dumpedUid = objects[index]!.metadata?.uid;
    const stored = await applyOne(ctx, mode === 'clean' ? remapOwnerUids(object, newUids) : object, restore);
    if (mode === 'clean' && typeof dumpedUid === 'string' && dumpedUid) newUids.set(dumpedUid, stored.metadata!.uid!);
    // Registry results share frozen stored state; users get their own mutable copies.
    out[index] = structuredClone(stored);
    if (isCrd(object)) pendingCrds.push(index);
  }
  await establish();
  return out;
}

function typeOf(catalog: ApiCatalog, obj: { apiVersion?: unknown; kind?: unknown }): ResourceType | undefined {
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return undefined;
  const { group, version } = parseApiVersion(obj.apiVersion);
  return catalog.findKind(group, version, obj.kind);
}

function ownerExists(ctx: ApplyContext, ref: OwnerRef, namespace: string | undefined): boolean {
  const type = typeOf(ctx.catalog, ref);
  if (!type || typeof ref.name !== 'string') return false;
  return ctx.registryFor(type).peek(type.namespaced ? namespace : undefined, ref.name)?.metadata.uid === ref.uid;
}

/** Namespaces named by namespaced objects that neither exist nor are created by the input, created first. */
async function createMissingNamespaces(ctx: ApplyContext, objects: KubeObject[]): Promise<void> {
  const namespaces = ctx.registryFor(ctx.catalog.find('', 'v1', 'namespaces')!);
  const inInput = new Set(objects.filter((o) => o.apiVersion === 'v1' && o.kind === 'Namespace').map((o) => o.metadata?.name));
  const wanted = new Set<string>();
  for (const obj of objects) {
    const type = typeOf(ctx.catalog, obj);
    if (type?.namespaced) wanted.add(obj.metadata?.namespace ?? 'default');
  }
  for (const name of wanted) {
    if (inInput.has(name) || namespaces.peek(undefined, name)) continue;
    await namespaces.create(undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
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

/**
 * Create, or update the existing object with the given content (keeping its resourceVersion
 * check). `restore`: the dumped uid and creation time are taken by the create; status,
 * generation and managedFields are written after it as the controllers' own writes are, around
 * the strategy that would reset them.
 */
async function applyOne(ctx: ApplyContext, obj: KubeObject, restore?: RestoredFields): Promise<KubeObject> {
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') {
    throw new TypeError(`kubefake: a manifest needs apiVersion and kind: ${JSON.stringify(obj).slice(0, 120)}`);
  }
  const type = typeOf(ctx.catalog, obj);
  if (!type) {
    const { group, version } = parseApiVersion(obj.apiVersion);
    throw new TypeError(`kubefake: no resource serves ${obj.kind} in ${apiVersionOf(group, version)}`);
  }
  const registry = ctx.registryFor(type);
  const namespace = type.namespaced ? (obj.metadata?.namespace ?? 'default') : undefined;
  const name = obj.metadata?.name;
  const writeOptions: WriteOptions = restore ? { restore: { uid: restore.uid, creationTimestamp: restore.creationTimestamp } } : {};
  let written: KubeObject;
  for (;;) {
    const existing = name ? registry.peek(namespace, name) : undefined;
    try {
      if (!existing) written = (await registry.create(namespace, obj, writeOptions)).object;
      else written = (await registry.update(namespace, name!, { ...obj, metadata: { ...obj.metadata, resourceVersion: existing.metadata.resourceVersion } })).object;
      break;
    } catch (err) {
      // Raced with another writer: read again and retry, as an apply loop would.
      if (err instanceof StatusError && err.status.reason === 'Conflict') continue;
      if (err instanceof StatusError && err.status.reason === 'AlreadyExists' && name) continue;
      throw err;
    }
  }
  if (!restore || (restore.status === undefined && restore.generation === undefined && restore.managedFields === undefined && restore.requester === undefined)) return written;
  const meta = written.metadata!;
  registry.systemUpdate(namespace, meta.name!, (current) => {
    if (restore.status !== undefined) current.status = restore.status;
    if (restore.requester !== undefined) {
      // The dumped requester replaces the one the create stamped; these are the spec's last fields.
      const spec = Object.entries(current.spec as Record<string, unknown>).filter(([k]) => !['username', 'uid', 'groups', 'extra'].includes(k));
      current.spec = { ...Object.fromEntries(spec), ...restore.requester };
    }
    if (restore.generation !== undefined) current.metadata!.generation = restore.generation;
    if (restore.managedFields !== undefined) current.metadata!.managedFields = restore.managedFields;
    return true;
  }, meta.uid);
  return registry.get(namespace, meta.name!);
}
