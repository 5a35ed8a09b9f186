// Discovery documents built from the catalog: legacy (/api, /apis, per group version) and
// aggregated apidiscovery.k8s.io/v2 (what kubectl asks for first). Shapes per apiserver-wire.md §7.
import { createHash } from 'node:crypto';
import type { ApiCatalog } from './catalog.ts';
import { apiVersionOf } from './object.ts';
import type { DiscoverySubresource, ResourceType } from './resource-type.ts';

export const AGGREGATED_DISCOVERY_CONTENT_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** base64 of the first 8 bytes of sha256("<group>/<version>/<Kind>") (discovery/storageversionhash.go). */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

/** Kubernetes version priority: GA > beta > alpha, higher numbers first, then other strings. */
export function compareKubeVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number, string] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [0, 0, 0, v];
    const level = m[2] === 'alpha' ? 1 : m[2] === 'beta' ? 2 : 3;
    return [level, Number(m[1]), m[3] ? Number(m[3]) : 0, v];
  };
  const [la, ma, na, sa] = rank(a);
  const [lb, mb, nb, sb] = rank(b);
  if (la !== lb) return lb - la;
  if (la === 0) return sa < sb ? -1 : sa > sb ? 1 : 0;
  if (ma !== mb) return mb - ma;
  return nb - na;
}

interface GroupVersions {
  group: string;
  versions: string[];
}

/**
 * Groups in discovery order. Built-in groups keep the catalog order (their API service
 * priorities); CRD groups are API services of priority 1000, below every built-in, and tie-break
 * by name: the legacy `/apis` list (SortedByGroupAndVersion) compares API service names
 * (`<version>.<group>`), aggregated discovery compares group names. Versions go by kube-aware
 * version priority (all CRD versions share one VersionPriority).
 */
function groupsOf(catalog: ApiCatalog, tieBreak: 'service' | 'group' = 'service'): GroupVersions[] {
  const builtIn = new Map<string, Set<string>>();
  const custom = new Map<string, Set<string>>();
  for (const t of catalog.all()) {
    const groups = t.unstructured && !builtIn.has(t.group) ? custom : builtIn;
    if (!groups.has(t.group)) groups.set(t.group, new Set());
    groups.get(t.group)!.add(t.version);
  }
  const sorted = (groups: Map<string, Set<string>>) => [...groups].map(([group, versions]) => ({ group, versions: [...versions].sort(compareKubeVersions) }));
  const sortKey = (g: GroupVersions) => (tieBreak === 'group' ? g.group : g.versions.map((v) => `${v}.${g.group}`).sort()[0]!);
  const customGroups = sorted(custom).sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
  return [...sorted(builtIn), ...customGroups];
}

export function apiVersions(serverAddress: string) {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function apiGroup(g: GroupVersions) {
  const versions = g.versions.map((version) => ({ groupVersion: `${g.group}/${version}`, version }));
  return { name: g.group, versions, preferredVersion: versions[0]! };
}

export function apiGroupList(catalog: ApiCatalog) {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groupsOf(catalog).filter((g) => g.group !== '').map(apiGroup) };
}

export function apiGroupDocument(catalog: ApiCatalog, group: string) {
  const g = groupsOf(catalog).find((x) => x.group === group);
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g) } : undefined;
}

/**
 * The subresources discovery lists for a resource: a built-in's from the generated catalogue
 * (served or not, as the real server lists them); a custom resource's from what its CRD enables.
 */
function discoverySubresources(t: ResourceType): DiscoverySubresource[] {
  if (t.discoverySubresources) return t.discoverySubresources;
  return t.subresources.map((sub) =>
    sub === 'scale'
      ? { name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] }
      : { name: sub, group: t.group, version: t.version, kind: t.kind, verbs: ['get', 'patch', 'update'] },
  );
}

function apiResources(t: ResourceType) {
  const main: Record<string, unknown> = { name: t.plural, singularName: t.singular, namespaced: t.namespaced, kind: t.kind, verbs: t.verbs };
  if (t.shortNames.length) main.shortNames = t.shortNames;
  if (t.categories.length) main.categories = t.categories;
  // Every served version of a resource reports the hash of the version it is stored at; create-only
  // and read-only APIs that store nothing (reviews, bindings, componentstatuses) report none.
  const hash = t.storageVersionHash ?? (t.discoverySubresources ? undefined : storageVersionHash(t.group, t.storageVersion ?? t.version, t.kind));
  if (hash) main.storageVersionHash = hash;
  // Main resources come before their subresources: KubernetesObjectApi takes the first kind match.
  // A subresource names its group and version only when they differ from the resource's (Scale).
  const subs = discoverySubresources(t).map((sub) => {
    const other = sub.group !== undefined && (sub.group !== t.group || sub.version !== t.version);
    const gv = other ? { group: sub.group, version: sub.version } : {};
    return { name: `${t.plural}/${sub.name}`, singularName: '', namespaced: t.namespaced, ...gv, kind: sub.kind, verbs: sub.verbs };
  });
  return [main, ...subs];
}

export function apiResourceList(catalog: ApiCatalog, group: string, version: string) {
  const resources = catalog
    .all()
    .filter((t) => t.group === group && t.version === version)
    .flatMap(apiResources);
  const groupVersion = apiVersionOf(group, version);
  // The core group's list carries no apiVersion (it is stripped for the legacy /api prefix).
  return group === '' ? { kind: 'APIResourceList', groupVersion, resources } : { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources };
}

function discoveryResource(t: ResourceType) {
  // Built-ins answer their own group version's kind with group and version left empty, as the
  // installer's APIResource does (api/discovery/aggregated_v2.json); the CRD handler fills them in.
  const kindOf = (group: string, version: string, kind: string) => {
    const own = !t.unstructured && group === t.group && version === t.version;
    return own ? { group: '', version: '', kind } : { group, version, kind };
  };
  const out: Record<string, unknown> = {
    resource: t.plural,
    responseKind: kindOf(t.group, t.version, t.kind),
    scope: t.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: t.singular,
    verbs: t.verbs,
  };
  if (t.shortNames.length) out.shortNames = t.shortNames;
  if (t.categories.length) out.categories = t.categories;
  const subs = discoverySubresources(t);
  if (subs.length) {
    out.subresources = subs.map((sub) => ({
      subresource: sub.name,
      responseKind: kindOf(sub.group ?? t.group, sub.version ?? t.version, sub.kind),
      verbs: sub.verbs,
    }));
  }
  return out;
}

/** apidiscovery.k8s.io/v2 for `/api` (core only) or `/apis` (every other group). */
export function aggregatedDiscovery(catalog: ApiCatalog, core: boolean) {
  const items = groupsOf(catalog, 'group')
    .filter((g) => (g.group === '') === core)
    .map((g) => ({
      metadata: core ? {} : { name: g.group },
      versions: g.versions.map((version) => ({
        version,
        resources: catalog
          .all()
          .filter((t) => t.group === g.group && t.version === version)
          .map(discoveryResource)
          .sort((a, b) => ((a.resource as string) < (b.resource as string) ? -1 : 1)),
        freshness: 'Current',
      })),
    }));
  return { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items };
}
