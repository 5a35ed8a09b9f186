// What each identity was allowed to do during a test (cluster.permissions): every authorized
// (verb, group, resource, subresource, namespace, name), and the least Role/ClusterRole that
// would have allowed exactly that, for a controller's RBAC manifest to be generated or checked.
import { dump } from 'js-yaml';
import type { AuthorizationAttributes } from './attributes.ts';
import { ruleAllows, type PolicyRule } from './rbac-authorizer.ts';

/** One permission exercised: a resource request (group/resource) or a non-resource path. */
export interface UsedPermission {
  verb: string;
  /** API group ('' for core); undefined for a non-resource path. */
  group?: string;
  resource?: string;
  subresource?: string;
  /** '' for a request at the cluster scope. */
  namespace?: string;
  /** '' when the request named no object (list, watch, create). */
  name?: string;
  /** A non-resource request's path (`/healthz`). */
  path?: string;
}

const key = (p: UsedPermission) => JSON.stringify([p.verb, p.group, p.resource, p.subresource, p.namespace, p.name, p.path]);

/** Requests every user may make without a Role of its own (the bootstrap discovery and basic-user roles). */
function isBootstrapGranted(p: UsedPermission): boolean {
  if (p.path !== undefined) return /^\/(api|apis|openapi|version|healthz|livez|readyz)(\/|$)/.test(p.path);
  return p.verb === 'create' && ['selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'selfsubjectreviews'].includes(p.resource ?? '');
}

export class PermissionLog {
  private readonly byUser = new Map<string, Map<string, UsedPermission>>();

  record(attrs: AuthorizationAttributes): void {
    let used = this.byUser.get(attrs.user.username);
    if (!used) this.byUser.set(attrs.user.username, (used = new Map()));
    const p: UsedPermission = attrs.isResourceRequest
      ? { verb: attrs.verb, group: attrs.apiGroup, resource: attrs.resource, subresource: attrs.subresource, namespace: attrs.namespace, name: attrs.name }
      : { verb: attrs.verb, path: attrs.path };
    used.set(key(p), p);
  }

  /** Every permission `username` exercised, in a stable order; discovery and self-reviews left out unless asked. */
  used(username: string, options: { includeDiscovery?: boolean } = {}): UsedPermission[] {
    const all = [...(this.byUser.get(username)?.values() ?? [])];
    return all.filter((p) => options.includeDiscovery || !isBootstrapGranted(p)).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }

  clear(): void {
    this.byUser.clear();
  }
}

/** The rules that allow exactly `used` (resource names kept where every request named one). */
function minimalRules(used: UsedPermission[]): PolicyRule[] {
  // verb per (group, resource): the names asked for, or undefined when some request named none.
  const byResource = new Map<string, { group: string; resource: string; verbs: Map<string, Set<string> | undefined> }>();
  const nonResource = new Map<string, Set<string>>();
  for (const p of used) {
    if (p.path !== undefined) {
      if (!nonResource.has(p.path)) nonResource.set(p.path, new Set());
      nonResource.get(p.path)!.add(p.verb);
      continue;
    }
    const resource = p.subresource ? `${p.resource}/${p.subresource}` : p.resource!;
    const k = `${p.group}\u0000${resource}`;
    let entry = byResource.get(k);
    if (!entry) byResource.set(k, (entry = { group: p.group!, resource, verbs: new Map() }));
    const names = entry.verbs.has(p.verb) ? entry.verbs.get(p.verb) : new Set<string>();
    entry.verbs.set(p.verb, names && p.name ? names.add(p.name) : undefined);
  }
  // Merge what shares a group, a verb set and resource names into one rule.
  const rules = new Map<string, PolicyRule>();
  for (const { group, resource, verbs } of byResource.values()) {
    const byNames = new Map<string, string[]>();
    for (const [verb, names] of verbs) {
      const namesKey = names ? [...names].sort().join('\u0000') : '*';
      byNames.set(namesKey, [...(byNames.get(namesKey) ?? []), verb]);
    }
    for (const [namesKey, verbList] of byNames) {
      const sortedVerbs = verbList.sort();
      const k = `${group}\u0000${sortedVerbs.join(',')}\u0000${namesKey}`;
      const rule = rules.get(k) ?? { apiGroups: [group], resources: [], ...(namesKey === '*' ? {} : { resourceNames: namesKey.split('\u0000') }), verbs: sortedVerbs };
      rule.resources!.push(resource);
      rules.set(k, rule);
    }
  }
  const out: PolicyRule[] = [...rules.values()].map((r) => ({ ...r, resources: r.resources!.sort() }));
  out.sort((a, b) => JSON.stringify([a.apiGroups, a.resources]).localeCompare(JSON.stringify([b.apiGroups, b.resources])));
  for (const [path, verbs] of [...nonResource].sort(([a], [b]) => a.localeCompare(b))) out.push({ nonResourceURLs: [path], verbs: [...verbs].sort() });
  return out;
}

/**
 * The least RBAC manifest for `used`: a ClusterRole for what was done at the cluster scope (and
 * non-resource paths), a Role per namespace for the rest; multi-document YAML.
 */
export function minimalRoleYaml(used: UsedPermission[], name: string): string {
  const cluster = used.filter((p) => p.path !== undefined || !p.namespace);
  const namespaces = [...new Set(used.filter((p) => p.path === undefined && p.namespace).map((p) => p.namespace!))].sort();
  const docs: Record<string, unknown>[] = [];
  if (cluster.length) docs.push({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules: minimalRules(cluster) });
  for (const namespace of namespaces) {
    docs.push({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name, namespace }, rules: minimalRules(used.filter((p) => p.namespace === namespace && p.path === undefined)) });
  }
  return docs.map((d) => dump(d, { noRefs: true, lineWidth: -1 })).join('---\n');
}

/**
 * The permissions of `used` that the Roles and ClusterRoles in `manifests` do not allow (a
 * ClusterRole's rules anywhere, a Role's in its namespace), as if each were bound to the identity.
 */
export function notAllowedBy(used: UsedPermission[], roles: Record<string, unknown>[]): UsedPermission[] {
  const clusterRules = roles.filter((r) => r.kind === 'ClusterRole').flatMap((r) => (r.rules as PolicyRule[] | undefined) ?? []);
  const roleRules = (namespace: string) =>
    roles.filter((r) => r.kind === 'Role' && (r.metadata as { namespace?: string } | undefined)?.namespace === namespace).flatMap((r) => (r.rules as PolicyRule[] | undefined) ?? []);
  return used.filter((p) => {
    const attrs: AuthorizationAttributes = {
      user: { username: '' },
      verb: p.verb,
      isResourceRequest: p.path === undefined,
      path: p.path ?? '',
      apiGroup: p.group ?? '',
      apiVersion: '',
      resource: p.resource ?? '',
      subresource: p.subresource ?? '',
      namespace: p.namespace ?? '',
      name: p.name ?? '',
    };
    const rules = p.namespace ? [...clusterRules, ...roleRules(p.namespace)] : clusterRules;
    return !rules.some((rule) => ruleAllows(attrs, rule));
  });
}
