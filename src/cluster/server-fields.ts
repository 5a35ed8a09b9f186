// Objects dumped from a server (`kubectl get -o yaml`, a snapshot, a must-gather tree) as apply()
// input: the fields the server set are either kept, so the fixture is the state that was dumped
// (uids, creation times, generations, status, managedFields), or cleaned, so the objects are
// created afresh as a client would create them. resourceVersion and selfLink are never kept: the
// revision is this cluster's own.
import { isPlainObject, type KubeObject, type ObjectMeta } from '../apis/object.ts';

export type ServerFieldsMode = 'keep' | 'clean';

/** How apply() treats what it is given (besides create-or-update). */
export interface ApplyOptions {
  /**
   * Objects carrying fields a server set (a dump): `'keep'` restores uid, creationTimestamp,
   * generation, status and managedFields as dumped; `'clean'` drops them and status, as if the
   * objects were written anew. Either way resourceVersion and selfLink are dropped, objects that
   * others name as owners are created first, and an owner reference to an object neither in the
   * input nor in the cluster is left out (the garbage collector would delete its dependent at
   * once). Unset: objects are applied as given, and a resourceVersion is refused as on create.
   */
  serverFields?: ServerFieldsMode;
  /** Create the namespaces that namespaced objects name and that neither exist nor are in the input. */
  createNamespaces?: boolean;
}

/** What a restore writes after the create: the server-set fields the create itself does not take. */
export interface RestoredFields {
  uid?: string;
  creationTimestamp?: string;
  generation?: number;
  status?: unknown;
  managedFields?: unknown[];
  /**
   * Spec fields the create strategy stamps from the request rather than taking from the body: a
   * CertificateSigningRequest's requester (spec.username, uid, groups, extra).
   */
  requester?: Record<string, unknown>;
}

const REQUESTER_FIELDS = ['username', 'uid', 'groups', 'extra'];

export interface FixtureObject {
  /** The object's place in the input (results are answered in input order). */
  index: number;
  object: KubeObject;
  /** In 'keep' mode: the dumped server-set fields to restore. */
  restore?: RestoredFields;
}

const ALWAYS_DROPPED: (keyof ObjectMeta)[] = ['resourceVersion', 'selfLink'];
const SERVER_SET: (keyof ObjectMeta)[] = ['uid', 'creationTimestamp', 'generation', 'managedFields', 'deletionTimestamp', 'deletionGracePeriodSeconds'];

/**
 * The objects in the order they are written (namespaces first, then owners before the objects
 * that name them, otherwise as given) with their server-set fields split off per `mode`.
 * `ownerExists(ref, namespace)` tells whether the cluster already holds an owner.
 */
export function fixtureObjects(
  objects: KubeObject[],
  mode: ServerFieldsMode,
  ownerExists: (ref: OwnerRef, namespace: string | undefined) => boolean,
): FixtureObject[] {
  const dumpedUids = new Set(objects.map((o) => o.metadata?.uid).filter((u): u is string => typeof u === 'string' && u !== ''));
  const prepared = objects.map((input, index) => prepare(input, index, mode, dumpedUids, ownerExists));
  return ownersFirst(prepared, objects);
}

export interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

function prepare(input: KubeObject, index: number, mode: ServerFieldsMode, dumpedUids: Set<string>, ownerExists: FixtureOwnerCheck): FixtureObject {
  const metaIn = isPlainObject(input.metadata) ? (input.metadata as ObjectMeta) : {};
  const meta: ObjectMeta = { ...metaIn };
  for (const key of ALWAYS_DROPPED) delete meta[key];
  const restore: RestoredFields = {};
  if (mode === 'keep') {
    if (typeof metaIn.uid === 'string' && metaIn.uid) restore.uid = metaIn.uid;
    if (typeof metaIn.creationTimestamp === 'string') restore.creationTimestamp = metaIn.creationTimestamp;
    if (typeof metaIn.generation === 'number') restore.generation = metaIn.generation;
    if (Array.isArray(metaIn.managedFields)) restore.managedFields = metaIn.managedFields;
    if (input.status !== undefined) restore.status = input.status;
    const spec = input.spec;
    if (input.kind === 'CertificateSigningRequest' && typeof input.apiVersion === 'string' && input.apiVersion.startsWith('certificates.k8s.io/') && isPlainObject(spec)) {
      const requester = Object.fromEntries(REQUESTER_FIELDS.filter((k) => spec[k] !== undefined).map((k) => [k, spec[k]]));
      if (Object.keys(requester).length) restore.requester = requester;
    }
  }
  for (const key of SERVER_SET) delete meta[key];
  const refs = Array.isArray(metaIn.ownerReferences) ? (metaIn.ownerReferences as OwnerRef[]) : undefined;
  if (refs) {
    // A reference is kept when its owner comes with the fixture (linked by uid, remapped in
    // 'clean' mode once the owner exists) or is in the cluster already.
    const kept = refs.filter((ref) => isPlainObject(ref) && (dumpedUids.has(ref.uid) || ownerExists(ref, meta.namespace)));
    if (kept.length) meta.ownerReferences = kept;
    else delete meta.ownerReferences;
  }
  const { status: _status, ...rest } = input;
  const object = { ...rest, metadata: meta } as KubeObject;
  return mode === 'keep' && Object.keys(restore).length ? { index, object, restore } : { index, object };
}

type FixtureOwnerCheck = (ref: OwnerRef, namespace: string | undefined) => boolean;

/** Namespaces first, then a depth-first order that puts every owner (by dumped uid) before its dependents. */
function ownersFirst(prepared: FixtureObject[], originals: KubeObject[]): FixtureObject[] {
  const byUid = new Map<string, number>();
  originals.forEach((o, i) => {
    const uid = o.metadata?.uid;
    if (typeof uid === 'string' && uid) byUid.set(uid, i);
  });
  const order: number[] = [];
  const state = new Uint8Array(prepared.length); // 0 new, 1 visiting, 2 placed
  const visit = (i: number) => {
    if (state[i]) return; // placed, or an ownership circle: the first one seen goes first
    state[i] = 1;
    for (const ref of prepared[i]!.object.metadata?.ownerReferences ?? []) {
      const owner = byUid.get((ref as OwnerRef).uid);
      if (owner !== undefined) visit(owner);
    }
    state[i] = 2;
    order.push(i);
  };
  const isNamespace = (o: KubeObject) => o.kind === 'Namespace' && o.apiVersion === 'v1';
  prepared.forEach((p, i) => isNamespace(p.object) && visit(i));
  prepared.forEach((_, i) => visit(i));
  return order.map((i) => prepared[i]!);
}

/** The owner references of `obj` with dumped uids replaced by the uids their owners got here. */
export function remapOwnerUids(obj: KubeObject, newUids: ReadonlyMap<string, string>): KubeObject {
  const refs = obj.metadata?.ownerReferences;
  if (!refs?.length || !newUids.size) return obj;
  const remapped = refs.map((ref) => {
    const uid = newUids.get(ref.uid);
    return uid ? { ...ref, uid } : ref;
  });
  return { ...obj, metadata: { ...obj.metadata, ownerReferences: remapped } };
}
