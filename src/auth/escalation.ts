// RBAC's escalation prevention (pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/policybased
// and pkg/registry/rbac/validation/rule.go): a user may write a Role or ClusterRole only with rules
// it already holds, unless it may `escalate` on it, and bind a role only if it holds the role's
// rules, unless it may `bind` it. Run as a validating admission plugin of an `auth: true` cluster.
import type { KubeObject } from '../apis/object.ts';
import type { UserInfo } from '../apis/options.ts';
import { deepEqual } from '../util/deep-equal.ts';
import { forbidden } from '../errors/status-error.ts';
import type { AdmissionPlugin } from '../registry/admission.ts';
import { SYSTEM_MASTERS, type MissingRole, type PolicyRule, type RbacAuthorizer } from './rbac-authorizer.ts';
import { aggregateMessages } from '../errors/field-error.ts';

const RBAC = 'rbac.authorization.k8s.io';

export function escalationPlugin(authorizer: RbacAuthorizer): AdmissionPlugin {
  return {
    name: 'RBACEscalation',
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    validate(attrs) {
      const { type } = attrs;
      const user = attrs.userInfo;
      // Writes of the cluster itself (apply(), bootstrap) carry no user; the privileged group may escalate.
      if (type.group !== RBAC || attrs.subresource || !user || user.groups?.includes(SYSTEM_MASTERS)) return;
      const obj = attrs.object!;
      const old = attrs.oldObject;
      const name = obj.metadata?.name ?? '';
      const namespace = type.namespaced ? (obj.metadata?.namespace ?? '') : '';
      const gr = { group: RBAC, resource: type.plural };
      if (type.kind === 'Role' || type.kind === 'ClusterRole') {
        // An update that leaves the rules as they are grants nothing new.
        if (old && deepEqual(rulesOf(old), rulesOf(obj))) return;
        if (allowed(authorizer, user, 'escalate', type.plural, namespace, name)) return;
        confirmNoEscalation(authorizer, user, namespace, rulesOf(obj), gr, name);
        return;
      }
      if (type.kind === 'RoleBinding' || type.kind === 'ClusterRoleBinding') {
        const ref = (obj as { roleRef?: { kind?: string; name?: string } }).roleRef ?? {};
        if (old && deepEqual((old as { roleRef?: unknown }).roleRef, ref) && deepEqual((old as { subjects?: unknown }).subjects, (obj as { subjects?: unknown }).subjects)) return;
        const roleResource = ref.kind === 'Role' ? 'roles' : 'clusterroles';
        if (allowed(authorizer, user, 'bind', roleResource, namespace, ref.name ?? '')) return;
        const role = ref.kind === 'Role' ? authorizer.existingRoleRules(namespace, ref.name) : authorizer.existingClusterRoleRules(ref.name);
        if (!role) throw forbidden(gr, name, registryNotFound({ kind: ref.kind === 'Role' ? 'Role' : 'ClusterRole', name: ref.name ?? '' }));
        confirmNoEscalation(authorizer, user, namespace, role, gr, name);
      }
    },
  };
}

/** The registry's NotFound of a role (`clusterroles.rbac.authorization.k8s.io "view" not found`). */
const registryNotFound = (m: MissingRole) => `${m.kind === 'Role' ? 'roles' : 'clusterroles'}.${RBAC} ${JSON.stringify(m.name)} not found`;

function rulesOf(obj: KubeObject): PolicyRule[] {
  return ((obj as { rules?: PolicyRule[] | null }).rules ?? []) as PolicyRule[];
}

function allowed(authorizer: RbacAuthorizer, user: UserInfo, verb: string, resource: string, namespace: string, name: string): boolean {
  return authorizer.authorize({ user, verb, isResourceRequest: true, path: '', apiGroup: RBAC, apiVersion: '', resource, subresource: '', namespace, name }).allowed;
}

/** ConfirmNoEscalation: the rules the user holds (cluster-wide, and in `namespace`) cover every rule granted. */
function confirmNoEscalation(authorizer: RbacAuthorizer, user: UserInfo, namespace: string, rules: PolicyRule[], gr: { group: string; resource: string }, name: string): void {
  const { rules: owner, missing: unresolved } = authorizer.resolveRules(user, namespace);
  const missing = rules.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
  if (!missing.length) return;
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort();
  let message = `user ${JSON.stringify(user.username)} (groups=${goQuoteList(user.groups ?? [])}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  // %v of a []error holding RulesFor's aggregate; the rule resolver here reads the registry, whose
  // NotFound names the resource in the plural.
  if (unresolved.length) message += `; resolution errors: [${aggregateMessages(unresolved.map(registryNotFound))}]`;
  throw forbidden(gr, name, message);
}

/** BreakdownRule: one rule per group, resource, verb (and resource name); per URL and verb. */
function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if (rule.resourceNames?.length) for (const resourceName of rule.resourceNames) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [resourceName] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

const has = (values: string[] | undefined, value: string) => (values ?? []).includes(value);
const hasAll = (values: string[] | undefined, wanted: string[] | undefined) => (wanted ?? []).every((w) => has(values, w));

/** ruleCovers (rbac/validation/policy_comparator.go). */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, '*') || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, '*') || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources ?? [], sub.resources ?? []);
  const urls = nonResourceUrlsCoverAll(owner.nonResourceURLs ?? [], sub.nonResourceURLs ?? []);
  const names = !sub.resourceNames?.length ? !owner.resourceNames?.length : !owner.resourceNames?.length || hasAll(owner.resourceNames, sub.resourceNames);
  return verbs && groups && resources && names && urls;
}

function resourceCoversAll(owner: string[], sub: string[]): boolean {
  if (owner.includes('*')) return true;
  return sub.every((r) => {
    if (owner.includes(r)) return true;
    const slash = r.indexOf('/');
    if (slash < 0) return false;
    return owner.includes(`${r.slice(0, slash)}/*`) || owner.includes(`*/${r.slice(slash + 1)}`);
  });
}

function nonResourceUrlsCoverAll(owner: string[], sub: string[]): boolean {
  return sub.every((url) => owner.some((o) => o === '*' || o === url || (o.endsWith('*') && url.startsWith(o.slice(0, -1)))));
}

/** CompactRules: simple rules (one group, one resource, at most one name) that differ only in verbs, merged. */
function compactRules(rules: PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const isSimple = !rule.nonResourceURLs?.length && rule.apiGroups?.length === 1 && rule.resources?.length === 1 && (rule.resourceNames?.length ?? 0) <= 1;
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups, rule.resources, rule.resourceNames ?? []]);
    const existing = simple.get(key);
    if (existing) existing.verbs = [...(existing.verbs ?? []), ...(rule.verbs ?? [])];
    else simple.set(key, { ...rule, verbs: [...(rule.verbs ?? [])] });
  }
  return [...compacted, ...simple.values()];
}

/** rbacv1helpers.CompactString: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}`. */
function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${goQuoteList(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${goQuoteList(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuoteList(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${goQuoteList(rule.resourceNames)}`);
  if (rule.verbs?.length) parts.push(`Verbs:${goQuoteList(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** Go's %q of a []string: `["a" "b"]`. */
function goQuoteList(values: string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}
