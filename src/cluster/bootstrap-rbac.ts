// The bootstrap RBAC policy every cluster starts with, whatever its authorization mode: kube-apiserver
// installs it on each start (pkg/registry/rbac/rest/storage_rbac.go, PostStartHook
// "rbac/bootstrap-roles"; the objects are src/generated/bootstrap-rbac.ts, from upstream's
// bootstrappolicy). The objects are built once per process as frozen templates, managedFields
// included, and each cluster stores shallow copies carrying its own uid and timestamps straight
// into the store: no registry, admission or field manager runs, so ~30 objects cost little.
import type { KubeObject } from '../apis/object.ts';
import { STRIPPED } from '../apply/field-manager.ts';
import { builtinSchema } from '../apply/builtin-schema.ts';
import { compare, toFieldSet } from '../apply/typed.ts';
import { aggregatedRules } from '../controllers/clusterrole-aggregation.ts';
import { BOOTSTRAP_CLUSTER_ROLE_BINDINGS, BOOTSTRAP_CLUSTER_ROLES, BOOTSTRAP_ROLE_BINDINGS, BOOTSTRAP_ROLES } from '../generated/bootstrap-rbac.ts';
import { formatTimestamp } from '../go/time.ts';
import { deepEqual } from '../util/deep-equal.ts';
import type { VersionedStore } from '../storage/versioned-store.ts';
import type { Clock, RandomSource } from '../util/clock-and-random.ts';

const GROUP = 'rbac.authorization.k8s.io';
const API_VERSION = `${GROUP}/v1`;
/** The field manager of the apiserver's own writes: its loopback client's user agent, `kube-apiserver/v1.36.0 (…)`. */
const APISERVER_MANAGER = 'kube-apiserver';
/** What fills admin, edit and view (src/controllers/clusterrole-aggregation.ts). */
const AGGREGATION_MANAGER = 'clusterrole-aggregation-controller';

interface Template {
  bucket: string;
  key: string;
  /** The object without uid, creationTimestamp and managedFields times; frozen. */
  object: KubeObject;
  /** Its managedFields entries without `time`; frozen. */
  managedFields: readonly ManagedEntry[];
}

/** What the generated policy holds (every object has a name, labels and annotations). */
interface PolicyObject {
  metadata: { name: string; namespace?: string; labels: Record<string, string>; annotations: Record<string, string> };
  rules?: unknown[] | null;
  aggregationRule?: { clusterRoleSelectors?: unknown[] };
  subjects?: unknown[];
  roleRef?: unknown;
}

let templates: readonly Template[] | undefined;

/** The fieldsV1 an Update creating `object` gives its manager (every field it adds, less name, uid and the like), as the field manager records it. */
function createdFieldsV1(kind: string, object: Record<string, unknown>): Record<string, unknown> {
  const { added, modified } = compare(builtinSchema(GROUP, 'v1', kind)!, {}, object);
  return added.union(modified).difference(STRIPPED).toFieldsV1();
}

/** The fieldsV1 an Apply of `config` gives its manager: exactly the configuration's fields. */
function appliedFieldsV1(kind: string, config: Record<string, unknown>): Record<string, unknown> {
  return toFieldSet(builtinSchema(GROUP, 'v1', kind)!, config).difference(STRIPPED).toFieldsV1();
}

type ManagedEntry = { manager: string; operation: 'Update' | 'Apply'; apiVersion: string; fieldsType: 'FieldsV1'; fieldsV1: Record<string, unknown> };

function managedEntry(manager: string, operation: 'Update' | 'Apply', fieldsV1: Record<string, unknown>): ManagedEntry {
  return { manager, operation, apiVersion: API_VERSION, fieldsType: 'FieldsV1', fieldsV1 };
}

/** The templates, built on first use in the process. */
function bootstrapTemplates(): readonly Template[] {
  if (templates) return templates;
  const roles = BOOTSTRAP_CLUSTER_ROLES as unknown as readonly PolicyObject[];
  const aggregated = settledAggregation(roles);
  const built: Template[] = [];
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
      if (finalRules.length > 0) managedFields.unshift(managedEntry(AGGREGATION_MANAGER, 'Apply', appliedFieldsV1('ClusterRole', { rules: finalRules })));
    }
    const object: Record<string, unknown> = { apiVersion: API_VERSION, kind: 'ClusterRole', metadata: { name: metadata.name, labels: metadata.labels, annotations: metadata.annotations } };
    if (finalRules && finalRules.length > 0) object.rules = finalRules;
    if (aggregationRule) object.aggregationRule = aggregationRule;
    built.push({ bucket: `${GROUP}/clusterroles`, key: metadata.name, object: object as KubeObject, managedFields });
  }
  // The bindings, and the Roles and RoleBindings of kube-system and kube-public, as created.
  const plain: [string, string, readonly Record<string, unknown>[]][] = [
    ['ClusterRoleBinding', 'clusterrolebindings', BOOTSTRAP_CLUSTER_ROLE_BINDINGS],
    ['Role', 'roles', BOOTSTRAP_ROLES],
    ['RoleBinding', 'rolebindings', BOOTSTRAP_ROLE_BINDINGS],
  ];
  for (const [kind, resource, objects] of plain) {
    for (const { metadata, subjects, roleRef, rules } of objects as unknown as readonly PolicyObject[]) {
      const { name, namespace, labels, annotations } = metadata;
      const object: Record<string, unknown> = { apiVersion: API_VERSION, kind, metadata: namespace ? { name, namespace, labels, annotations } : { name, labels, annotations } };
      if (rules) object.rules = rules;
      if (subjects) object.subjects = subjects;
      if (roleRef) object.roleRef = roleRef;
      const { apiVersion: _v, kind: _k, metadata: _m, ...fields } = object;
      const managedFields = [managedEntry(APISERVER_MANAGER, 'Update', createdFieldsV1(kind, { metadata: { labels, annotations }, ...fields }))];
      built.push({ bucket: `${GROUP}/${resource}`, key: namespace ? `${namespace}/${name}` : name, object: object as KubeObject, managedFields });
    }
  }
  return (templates = deepFreeze(built));
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

/**
 * Stores the bootstrap ClusterRoles (admin, edit and view already aggregated, as the controller
 * leaves them), ClusterRoleBindings, and the Roles and RoleBindings of kube-system and
 * kube-public (the namespaces must exist), each a shallow copy of a shared frozen template with this
 * cluster's uid and creation time (one timestamp for all, read once).
 */
export function installBootstrapRbac(store: VersionedStore, clock: Clock, random: RandomSource): void {
  const now = formatTimestamp(clock.now());
  for (const { bucket, key, object, managedFields } of bootstrapTemplates()) {
    const { name, namespace, labels, annotations } = object.metadata as PolicyObject['metadata'];
    // Go's ObjectMeta order, as the apiserver writes it.
    const metadata = {
      name,
      ...(namespace ? { namespace } : {}),
      uid: random.uid(),
      resourceVersion: '',
      creationTimestamp: now,
      labels,
      annotations,
      managedFields: managedFields.map(({ manager, operation, apiVersion, fieldsType, fieldsV1 }) => ({ manager, operation, apiVersion, time: now, fieldsType, fieldsV1 })),
    };
    store.create(bucket, key, { ...object, metadata } as KubeObject);
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
