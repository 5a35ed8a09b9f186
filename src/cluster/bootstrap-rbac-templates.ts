// The bootstrap RBAC objects as kube-apiserver and the clusterrole-aggregation controller leave
// them, derived from upstream's policy (scripts/upstream/v1.36/rbac/): admin, edit and view hold
// their aggregated rules, and every object the managedFields its creation records (kube-apiserver's
// Update; the aggregation controller's Apply of `rules`). Run by scripts/gen-bootstrap-rbac.mjs,
// not at cluster start: src/generated/bootstrap-rbac.ts holds the result.
import { STRIPPED } from '../apply/field-manager.ts';
import { builtinSchema } from '../apply/builtin-schema.ts';
import { compare, toFieldSet } from '../apply/typed.ts';
import { AGGREGATION_CONTROLLER, aggregatedRules } from '../controllers/clusterrole-aggregation.ts';
import { deepEqual } from '../util/deep-equal.ts';
import type { BootstrapManagedFields, BootstrapTemplate } from '../generated/bootstrap-rbac.ts';

const GROUP = 'rbac.authorization.k8s.io';
const API_VERSION = `${GROUP}/v1`;
/** The field manager of the apiserver's own writes: its loopback client's user agent, `kube-apiserver/v1.36.0 (…)`. */
const APISERVER_MANAGER = 'kube-apiserver';

/** The upstream policy, as scripts/upstream/v1.36/rbac/ holds it. */
export interface BootstrapPolicy {
  clusterRoles: readonly unknown[];
  clusterRoleBindings: readonly unknown[];
  roles: readonly unknown[];
  roleBindings: readonly unknown[];
}

/** What the generated policy holds (every object has a name, labels and annotations). */
interface PolicyObject {
  metadata: { name: string; namespace?: string; labels: Record<string, string>; annotations: Record<string, string> };
  rules?: unknown[] | null;
  aggregationRule?: { clusterRoleSelectors?: unknown[] };
  subjects?: unknown[];
  roleRef?: unknown;
}

/** The fieldsV1 an Update creating `object` gives its manager (every field it adds, less name, uid and the like), as the field manager records it. */
function createdFieldsV1(kind: string, object: Record<string, unknown>): Record<string, unknown> {
  const { added, modified } = compare(builtinSchema(GROUP, 'v1', kind)!, {}, object);
  return added.union(modified).difference(STRIPPED).toFieldsV1();
}

/** The fieldsV1 an Apply of `config` gives its manager: exactly the configuration's fields. */
function appliedFieldsV1(kind: string, config: Record<string, unknown>): Record<string, unknown> {
  return toFieldSet(builtinSchema(GROUP, 'v1', kind)!, config).difference(STRIPPED).toFieldsV1();
}

function managedEntry(manager: string, operation: 'Update' | 'Apply', fieldsV1: Record<string, unknown>): BootstrapManagedFields {
  return { manager, operation, apiVersion: API_VERSION, fieldsType: 'FieldsV1', fieldsV1 };
}

/** The objects the bootstrap leaves, in the order kube-apiserver creates them (what scripts/gen-bootstrap-rbac.mjs writes). */
export function bootstrapTemplates(policy: BootstrapPolicy): BootstrapTemplate[] {
  const roles = policy.clusterRoles as readonly PolicyObject[];
  const aggregated = settledAggregation(roles);
  const built: BootstrapTemplate[] = [];
  for (const role of roles) {
    const { rules, aggregationRule, metadata } = role;
    // As the apiserver creates it (an aggregated role with no rules of its own: rules null).
    const created: Record<string, unknown> = { metadata: { labels: metadata.labels, annotations: metadata.annotations } };
    if (rules) created.rules = rules;
    if (aggregationRule) created.aggregationRule = aggregationRule;
    const managedFields = [managedEntry(APISERVER_MANAGER, 'Update', createdFieldsV1('ClusterRole', created))];
    let finalRules = rules ?? undefined;
    const selectors = aggregationRule?.clusterRoleSelectors;
    if (selectors) {
      // Then the aggregation controller's forced apply of `rules` alone (Apply entries sort first).
      finalRules = aggregated.get(metadata.name)!;
      if (finalRules.length > 0) managedFields.unshift(managedEntry(AGGREGATION_CONTROLLER, 'Apply', appliedFieldsV1('ClusterRole', { rules: finalRules })));
    }
    const object: Record<string, unknown> = { apiVersion: API_VERSION, kind: 'ClusterRole', metadata: { name: metadata.name, labels: metadata.labels, annotations: metadata.annotations } };
    if (finalRules && finalRules.length > 0) object.rules = finalRules;
    if (aggregationRule) object.aggregationRule = aggregationRule;
    built.push({ bucket: `${GROUP}/clusterroles`, key: metadata.name, object: object as BootstrapTemplate['object'], managedFields });
  }
  // The bindings, and the Roles and RoleBindings of kube-system and kube-public, as created.
  const plain: [string, string, readonly unknown[]][] = [
    ['ClusterRoleBinding', 'clusterrolebindings', policy.clusterRoleBindings],
    ['Role', 'roles', policy.roles],
    ['RoleBinding', 'rolebindings', policy.roleBindings],
  ];
  for (const [kind, resource, objects] of plain) {
    for (const { metadata, subjects, roleRef, rules } of objects as readonly PolicyObject[]) {
      const { name, namespace, labels, annotations } = metadata;
      const object: Record<string, unknown> = { apiVersion: API_VERSION, kind, metadata: namespace ? { name, namespace, labels, annotations } : { name, labels, annotations } };
      if (rules) object.rules = rules;
      if (subjects) object.subjects = subjects;
      if (roleRef) object.roleRef = roleRef;
      const { apiVersion: _v, kind: _k, metadata: _m, ...fields } = object;
      const managedFields = [managedEntry(APISERVER_MANAGER, 'Update', createdFieldsV1(kind, { metadata: { labels, annotations }, ...fields }))];
      built.push({ bucket: `${GROUP}/${resource}`, key: namespace ? `${namespace}/${name}` : name, object: object as BootstrapTemplate['object'], managedFields });
    }
  }
  return built;
}

/**
 * The rules each aggregated role holds once the aggregation controller has nothing left to do:
 * aggregated roles feed each other (view into edit, edit into admin), so it runs to a fixed point,
 * each round as the controller would, over the roles as the previous round left them.
 */
function settledAggregation(roles: readonly PolicyObject[]): Map<string, unknown[]> {
  let current = roles.map((role) => ({ ...role, rules: role.rules ?? [] }));
  for (let round = 0; round <= roles.length; round++) {
    let changed = false;
    current = current.map((role, i) => {
      const selectors = role.aggregationRule?.clusterRoleSelectors;
      if (!selectors) return role;
      const rules = aggregatedRules(selectors, current.filter((_, j) => j !== i));
      if (deepEqual(rules, role.rules)) return role;
      changed = true;
      return { ...role, rules };
    });
    if (!changed) return new Map(current.filter((r) => r.aggregationRule?.clusterRoleSelectors).map((r) => [r.metadata.name, r.rules]));
  }
  throw new Error('kubefake: the bootstrap roles\' aggregation does not settle');
}
