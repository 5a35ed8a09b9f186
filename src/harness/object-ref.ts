// Naming objects and kinds in harness calls: `{ kind, name, namespace? }` (or an object itself),
// kinds as kubectl accepts them (Kind, plural, singular or short name, optionally `.group`).
import type { ApiCatalog } from '../apis/catalog.ts';
import { apiVersionOf, parseApiVersion, type KubeObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import { deepCopyJson } from '../schema/json-value.ts';

/**
 * A kind: `'Deployment'`, `'deployments'`, `'deploy'`, `'Deployment.apps'`, `'crontabs.stable.example.com'`,
 * or `{ apiVersion, kind }` for an exact version.
 */
export type KindSpec = string | { apiVersion?: string; kind: string };

/** One object: its kind (see KindSpec), name and, for namespaced kinds, namespace (default `default`). */
export interface ObjectRef {
  /** Picks one version of the kind (`apps/v1`); the kind's served version when omitted. */
  apiVersion?: string;
  /** The kind, as KindSpec text (`Deployment`, `deploy`, `crontabs.stable.example.com`). */
  kind: string;
  /** The object's name. */
  name: string;
  /** Namespace of a namespaced kind; default `default`. */
  namespace?: string;
}

/** What harness calls accept to name an object: a reference or the object itself. */
export type ObjectTarget = ObjectRef | KubeObject;

/** A resolved reference: the served type and the key parts. */
export interface ResolvedRef {
  type: ResourceType;
  namespace: string | undefined;
  name: string;
}

/** Whether a served type answers to a kind spec. */
export function kindMatches(type: ResourceType, spec: KindSpec): boolean {
  if (typeof spec !== 'string') {
    if (spec.kind !== type.kind) return false;
    if (spec.apiVersion === undefined) return true;
    const { group, version } = parseApiVersion(spec.apiVersion);
    return group === type.group && version === type.version;
  }
  const dot = spec.indexOf('.');
  const name = dot < 0 ? spec : spec.slice(0, dot);
  if (dot >= 0 && spec.slice(dot + 1) !== type.group) return false;
  if (name === type.kind) return true;
  const lower = name.toLowerCase();
  return lower === type.kind.toLowerCase() || lower === type.plural || lower === type.singular || type.shortNames.includes(lower);
}

/** The served type for a kind spec: core group first, then discovery order (as kubectl prefers). */
export function resolveKind(catalog: ApiCatalog, spec: KindSpec): ResourceType {
  const matches = catalog.all().filter((t) => kindMatches(t, spec));
  const type = matches.find((t) => t.group === '') ?? matches[0];
  if (!type) throw new TypeError(`kubefake: no served resource matches ${describeKind(spec)}`);
  return type;
}

export function describeKind(spec: KindSpec): string {
  return typeof spec === 'string' ? JSON.stringify(spec) : spec.apiVersion ? `${spec.apiVersion} ${spec.kind}` : spec.kind;
}

/** Turns an object or a reference into a served type and key parts. */
export function resolveRef(catalog: ApiCatalog, target: ObjectTarget): ResolvedRef {
  const ref = toRef(target);
  const type = resolveKind(catalog, ref.apiVersion ? { apiVersion: ref.apiVersion, kind: ref.kind } : ref.kind);
  return { type, namespace: type.namespaced ? (ref.namespace ?? 'default') : undefined, name: ref.name };
}

export function toRef(target: ObjectTarget): ObjectRef {
  if (target === null || typeof target !== 'object') throw new TypeError(`kubefake: expected an object reference, got ${String(target)}`);
  const meta = (target as KubeObject).metadata;
  if (meta && typeof meta === 'object') {
    const { apiVersion, kind } = target as KubeObject;
    if (typeof kind !== 'string' || typeof meta.name !== 'string') throw new TypeError('kubefake: an object used as a reference needs kind and metadata.name');
    return { apiVersion: typeof apiVersion === 'string' ? apiVersion : undefined, kind, name: meta.name, namespace: meta.namespace };
  }
  const ref = target as ObjectRef;
  if (typeof ref.kind !== 'string' || typeof ref.name !== 'string') throw new TypeError('kubefake: an object reference needs kind and name');
  return ref;
}

/** `apps/v1 Deployment default/web`, for messages. */
export function describeRef(ref: ResolvedRef): string {
  const where = ref.namespace === undefined ? ref.name : `${ref.namespace}/${ref.name}`;
  return `${apiVersionOf(ref.type.group, ref.type.version)} ${ref.type.kind} ${where}`;
}

/**
 * A stored object as a mutable copy, apiVersion and kind first. It keeps the apiVersion it is
 * stored at: direct reads do not convert (a webhook conversion is asynchronous), so a custom
 * resource of a multi-version CRD shows its storage version's fields under that version's name.
 */
export function presentCopy(type: ResourceType, obj: KubeObject): KubeObject {
  // A JSON walk, not structuredClone: stored objects are plain JSON, and cluster.list() of many
  // objects must cost no more than serialising them for an HTTP list.
  const { apiVersion, kind, ...rest } = deepCopyJson(obj);
  return { apiVersion: apiVersion || apiVersionOf(type.group, type.version), kind: kind || type.kind, ...rest };
}
