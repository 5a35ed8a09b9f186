// The RBAC authorizer (plugin/pkg/auth/authorizer/rbac/rbac.go and pkg/apis/rbac/v1/evaluation_helpers.go)
// over the Roles, ClusterRoles and bindings in the store, with the privileged group
// (system:masters) allowed everything first, as kube-apiserver's authorizer union does.
import type { KubeObject } from '../apis/object.ts';
import type { UserInfo } from '../apis/options.ts';
import type { VersionedStore } from '../storage/versioned-store.ts';
import { formatLabelSelector } from '../selectors/format-label-selector.ts';
import { parseLabelSelector } from '../selectors/label-selector.ts';
import type { AuthorizationAttributes, Decision } from './attributes.ts';
import { aggregateMessages } from '../errors/field-error.ts';

const RBAC = 'rbac.authorization.k8s.io';
const BUCKETS = {
  roles: `${RBAC}/roles`,
  clusterRoles: `${RBAC}/clusterroles`,
  roleBindings: `${RBAC}/rolebindings`,
  clusterRoleBindings: `${RBAC}/clusterrolebindings`,
};
export const SYSTEM_MASTERS = 'system:masters';

export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

interface Subject {
  kind?: string;
  name?: string;
  namespace?: string;
}

interface RoleRef {
  kind?: string;
  name?: string;
}

type Binding = KubeObject & { subjects?: Subject[]; roleRef?: RoleRef };
type Role = KubeObject & { rules?: PolicyRule[] | null };

export class RbacAuthorizer {
  private readonly store: VersionedStore;

  constructor(store: VersionedStore) {
    this.store = store;
  }

  authorize(attrs: AuthorizationAttributes): Decision {
    if (attrs.user.groups?.includes(SYSTEM_MASTERS)) return { allowed: true, reason: '' };
    const missing: string[] = [];
    for (const visited of this.visitBindings(attrs.user, attrs.namespace)) {
      if ('missing' in visited) missing.push(listerNotFound(visited.missing));
      else if (visited.rules.some((rule) => ruleAllows(attrs, rule))) return { allowed: true, reason: `RBAC: allowed by ${visited.source()}` };
    }
    // rbac.go answers DecisionNoOpinion, with "RBAC: " and the resolution errors as the reason
    // when there were any; the union then denies.
    return { allowed: false, reason: missing.length ? `RBAC: ${aggregateMessages(missing)}` : '' };
  }

  /** Every rule that applies to `user` in `namespace` ('' = cluster-wide only): RulesFor, for SelfSubjectRulesReview. */
  rulesFor(user: UserInfo, namespace: string): PolicyRule[] {
    return this.resolveRules(user, namespace).rules;
  }

  /** RulesFor with the bound roles that do not exist (its resolution errors). */
  resolveRules(user: UserInfo, namespace: string): { rules: PolicyRule[]; missing: MissingRole[] } {
    if (user.groups?.includes(SYSTEM_MASTERS)) return { rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }], missing: [] };
    const rules: PolicyRule[] = [];
    const missing: MissingRole[] = [];
    for (const visited of this.visitBindings(user, namespace)) {
      if ('missing' in visited) missing.push(visited.missing);
      else rules.push(...visited.rules);
    }
    return { rules, missing };
  }

  /**
   * VisitRulesFor (rbac/validation/rule.go): the rules of each binding that applies to `user`,
   * cluster role bindings first, then the role bindings of `namespace`; a binding whose role is
   * missing gives that instead (the resolution error). `source` describes the binding as an allowing
   * reason names it.
   */
  private *visitBindings(user: UserInfo, namespace: string): Generator<{ rules: PolicyRule[]; source: () => string } | { missing: MissingRole }> {
    for (const { object } of this.store.list(BUCKETS.clusterRoleBindings, '')) {
      const b = object as Binding;
      if (!appliesTo(b.subjects, user, '')) continue;
      const rules = this.existingClusterRoleRules(b.roleRef?.name);
      if (!rules) yield { missing: { kind: 'ClusterRole', name: b.roleRef?.name ?? '' } };
      else yield { rules, source: () => `ClusterRoleBinding ${JSON.stringify(b.metadata?.name)} of ClusterRole ${JSON.stringify(b.roleRef?.name)} to ${describeSubjects(b.subjects, user, '')}` };
    }
    if (!namespace) return;
    for (const { object } of this.store.list(BUCKETS.roleBindings, `${namespace}/`)) {
      const b = object as Binding;
      if (!appliesTo(b.subjects, user, namespace)) continue;
      const toClusterRole = b.roleRef?.kind === 'ClusterRole';
      const rules = toClusterRole ? this.existingClusterRoleRules(b.roleRef?.name) : this.existingRoleRules(namespace, b.roleRef?.name);
      if (!rules) yield { missing: { kind: toClusterRole ? 'ClusterRole' : 'Role', name: b.roleRef?.name ?? '' } };
      else yield { rules, source: () => `RoleBinding ${JSON.stringify(`${b.metadata?.name}/${namespace}`)} of ${b.roleRef?.kind} ${JSON.stringify(b.roleRef?.name)} to ${describeSubjects(b.subjects, user, namespace)}` };
    }
  }

  /**
   * A ClusterRole's rules; for one with an aggregationRule, the rules of every ClusterRole its
   * selectors pick (what the clusterrole-aggregation controller writes into it), followed here at
   * read time so a newly labelled role counts at once.
   */
  clusterRoleRules(name: string | undefined, seen = new Set<string>()): PolicyRule[] {
    const role = name ? (this.store.get(BUCKETS.clusterRoles, name) as Role | undefined) : undefined;
    if (!role || !name || seen.has(name)) return [];
    seen.add(name);
    const selectors = (role as { aggregationRule?: { clusterRoleSelectors?: unknown[] } }).aggregationRule?.clusterRoleSelectors;
    if (!selectors) return role.rules ?? [];
    const matchers = selectors.map((s) => parseLabelSelector(formatLabelSelector(s)));
    const rules: PolicyRule[] = [];
    for (const { key, object } of this.store.list(BUCKETS.clusterRoles, '')) {
      if (key === name || !matchers.some((m) => m.matches(object.metadata.labels))) continue;
      rules.push(...this.clusterRoleRules(key, seen));
    }
    return rules;
  }

  /** A ClusterRole's rules (aggregated), or undefined when there is no such ClusterRole. */
  existingClusterRoleRules(name: string | undefined): PolicyRule[] | undefined {
    return name && this.store.get(BUCKETS.clusterRoles, name) ? this.clusterRoleRules(name) : undefined;
  }

  /** A Role's rules, or undefined when there is no such Role. */
  existingRoleRules(namespace: string, name: string | undefined): PolicyRule[] | undefined {
    return name && this.store.get(BUCKETS.roles, `${namespace}/${name}`) ? this.roleRules(namespace, name) : undefined;
  }

  private roleRules(namespace: string, name: string | undefined): PolicyRule[] {
    const role = name ? (this.store.get(BUCKETS.roles, `${namespace}/${name}`) as Role | undefined) : undefined;
    return role?.rules ?? [];
  }
}

/** appliesTo / appliesToUser: a subject names the user, one of its groups, or its service account. */
/** A role a binding names that does not exist. */
export interface MissingRole {
  kind: 'Role' | 'ClusterRole';
  name: string;
}

/**
 * The authorizer's resolution error for a missing role: the NotFound of the informer listers,
 * which name the resource in the singular (`clusterrole.rbac.authorization.k8s.io "view" not found`).
 */
const listerNotFound = (m: MissingRole) => `${m.kind.toLowerCase()}.${RBAC} ${JSON.stringify(m.name)} not found`;

function appliesTo(subjects: Subject[] | undefined, user: UserInfo, bindingNamespace: string): boolean {
  return (subjects ?? []).some((s) => subjectMatches(s, user, bindingNamespace));
}

function subjectMatches(subject: Subject, user: UserInfo, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.username === subject.name;
    case 'Group':
      return !!subject.name && (user.groups ?? []).includes(subject.name);
    case 'ServiceAccount': {
      // A RoleBinding's service account subject without a namespace means the binding's.
      const namespace = subject.namespace || bindingNamespace;
      return !!namespace && user.username === `system:serviceaccount:${namespace}:${subject.name}`;
    }
    default:
      return false;
  }
}

function describeSubjects(subjects: Subject[] | undefined, user: UserInfo, bindingNamespace: string): string {
  const s = (subjects ?? []).find((x) => subjectMatches(x, user, bindingNamespace));
  if (!s) return '';
  return s.kind === 'ServiceAccount' ? `ServiceAccount ${JSON.stringify(`${s.name}/${s.namespace || bindingNamespace}`)}` : `${s.kind} ${JSON.stringify(s.name)}`;
}

/** RuleAllows (evaluation_helpers.go). */
export function ruleAllows(attrs: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (!has(rule.verbs, attrs.verb)) return false;
  if (!attrs.isResourceRequest) return nonResourceUrlMatches(rule, attrs.path);
  const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  return has(rule.apiGroups, attrs.apiGroup) && resourceMatches(rule, combined, attrs.subresource) && resourceNameMatches(rule, attrs.name);
}

const has = (values: string[] | undefined, value: string) => (values ?? []).some((v) => v === '*' || v === value);

function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return (rule.resources ?? []).some((r) => r === '*' || r === combined || (subresource !== '' && r === `*/${subresource}`));
}

function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  return !rule.resourceNames?.length || rule.resourceNames.includes(name);
}

function nonResourceUrlMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some((url) => url === '*' || url === path || (url.endsWith('*') && path.startsWith(url.slice(0, -1))));
}
