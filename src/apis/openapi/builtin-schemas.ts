// Schemas of the built-in kinds. Full schemas are out of scope; a few small kinds are described
// field by field ("complete"), the rest list their top-level fields and keep everything below open
// (x-kubernetes-preserve-unknown-fields) so schema-driven clients do not reject real objects.
// Completeness matters for client-side apply: kubectl computes a strategic merge patch from the
// schema when the PATCH operation lists SMP, and warns about every field the schema lacks.
import type { ResourceType } from '../resource-type.ts';
import { definitionName, type Json } from './names.ts';
import { bool, gvkList, int32, object, ref, refList, str, stringList, stringMap, typeAndObjectMeta } from './schema-helpers.ts';

export interface KindSchemas {
  /** The kind's definition and the definitions only it uses, by name. */
  definitions: Record<string, Json>;
  /** Every field is described, so a strategic merge patch computed from the schema is exact. */
  complete: boolean;
}

const open = (description: string): Json => ({ description, type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
const SPEC = 'Spec defines the desired behavior of the object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status';
const STATUS = 'Status is the most recently observed status of the object. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status';

interface KindEntry {
  description: string;
  /** Top-level fields besides apiVersion/kind/metadata; undefined means the whole object stays open. */
  fields?: Record<string, Json>;
  required?: string[];
  /** Definitions the fields refer to. */
  helpers?: Record<string, Json>;
  complete?: boolean;
}

const CORE = 'io.k8s.api.core.v1';
const RBAC = 'io.k8s.api.rbac.v1';

const policyRule = object(
  'PolicyRule holds information that describes a policy rule, but does not contain information about who the rule applies to or which namespace the rule applies to.',
  {
    apiGroups: stringList('APIGroups is the name of the APIGroup that contains the resources.'),
    nonResourceURLs: stringList('NonResourceURLs is a set of partial urls that a user should have access to.'),
    resourceNames: stringList('ResourceNames is an optional white list of names that the rule applies to.'),
    resources: stringList("Resources is a list of resources this rule applies to. '*' represents all resources."),
    verbs: stringList("Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs."),
  },
  { required: ['verbs'] },
);
const rules = refList(`${RBAC}.PolicyRule`, 'Rules holds all the PolicyRules for this Role', { 'x-kubernetes-list-type': 'atomic' });
const binding = (description: string): KindEntry => ({
  description,
  complete: true,
  required: ['roleRef'],
  fields: {
    roleRef: ref(`${RBAC}.RoleRef`, { default: {}, description: 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace.' }),
    subjects: refList(`${RBAC}.Subject`, 'Subjects holds references to the objects the role applies to.', { 'x-kubernetes-list-type': 'atomic' }),
  },
  helpers: {
    [`${RBAC}.RoleRef`]: object(
      'RoleRef contains information that points to the role being used',
      {
        apiGroup: str('APIGroup is the group for the resource being referenced', { default: '' }),
        kind: str('Kind is the type of resource being referenced', { default: '' }),
        name: str('Name is the name of resource being referenced', { default: '' }),
      },
      { required: ['apiGroup', 'kind', 'name'], 'x-kubernetes-map-type': 'atomic' },
    ),
    [`${RBAC}.Subject`]: object(
      'Subject contains a reference to the object or user identities a role binding applies to.',
      {
        apiGroup: str('APIGroup holds the API group of the referenced subject.'),
        kind: str('Kind of object being referenced. Values defined by this API group are "User", "Group", and "ServiceAccount".', { default: '' }),
        name: str('Name of the object being referenced.', { default: '' }),
        namespace: str('Namespace of the referenced object.'),
      },
      { required: ['kind', 'name'], 'x-kubernetes-map-type': 'atomic' },
    ),
  },
});

const specStatus = (description: string): KindEntry => ({ description, fields: { spec: open(SPEC), status: open(STATUS) } });

/** Keyed by `<group>/<version>/<Kind>`. */
const KINDS: Record<string, KindEntry> = {
  '/v1/ConfigMap': {
    description: 'ConfigMap holds configuration data for pods to consume.',
    complete: true,
    fields: {
      binaryData: stringMap('BinaryData contains the binary data. Each key must consist of alphanumeric characters, \'-\', \'_\' or \'.\'.', 'byte'),
      data: stringMap("Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'."),
      immutable: bool('Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object metadata can be modified).'),
    },
  },
  '/v1/Secret': {
    description: 'Secret holds secret data of a certain type. The total bytes of the values in the Data field must be less than MaxSecretSize bytes.',
    complete: true,
    fields: {
      data: stringMap('Data contains the secret data. The serialized form of the secret data is a base64 encoded string.', 'byte'),
      immutable: bool('Immutable, if set to true, ensures that data stored in the Secret cannot be updated (only object metadata can be modified).'),
      stringData: stringMap('stringData allows specifying non-binary secret data in string form. It is provided as a write-only input field for convenience.'),
      type: str('Used to facilitate programmatic handling of secret data.'),
    },
  },
  '/v1/Namespace': {
    description: 'Namespace provides a scope for Names. Use of multiple namespaces is optional.',
    complete: true,
    fields: {
      spec: ref(`${CORE}.NamespaceSpec`, { default: {}, description: SPEC }),
      status: ref(`${CORE}.NamespaceStatus`, { default: {}, description: STATUS }),
    },
    helpers: {
      [`${CORE}.NamespaceSpec`]: object('NamespaceSpec describes the attributes on a Namespace.', {
        finalizers: stringList('Finalizers is an opaque list of values that must be empty to permanently remove object from storage.'),
      }),
      [`${CORE}.NamespaceStatus`]: object('NamespaceStatus is information about the current status of a Namespace.', {
        conditions: refList(`${CORE}.NamespaceCondition`, "Represents the latest available observations of a namespace's current state.", {
          'x-kubernetes-list-map-keys': ['type'],
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-patch-merge-key': 'type',
          'x-kubernetes-patch-strategy': 'merge',
        }),
        phase: str('Phase is the current lifecycle phase of the namespace.'),
      }),
      [`${CORE}.NamespaceCondition`]: object(
        'NamespaceCondition contains details about state of namespace.',
        {
          lastTransitionTime: ref('io.k8s.apimachinery.pkg.apis.meta.v1.Time', { description: 'Last time the condition transitioned from one status to another.' }),
          message: str('Human-readable message indicating details about last transition.'),
          reason: str("Unique, one-word, CamelCase reason for the condition's last transition."),
          status: str('Status of the condition, one of True, False, Unknown.', { default: '' }),
          type: str('Type of namespace controller condition.', { default: '' }),
        },
        { required: ['type', 'status'] },
      ),
    },
  },
  '/v1/ServiceAccount': {
    description: 'ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral systems, for an identity * a principal that can be authenticated and authorized * a set of secrets',
    complete: true,
    fields: {
      automountServiceAccountToken: bool('AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted.'),
      imagePullSecrets: refList(`${CORE}.LocalObjectReference`, 'ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling any images in pods that reference this ServiceAccount.', { 'x-kubernetes-list-type': 'atomic' }),
      secrets: refList(`${CORE}.ObjectReference`, 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.', {
        'x-kubernetes-list-map-keys': ['name'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'name',
        'x-kubernetes-patch-strategy': 'merge',
      }),
    },
    helpers: {
      [`${CORE}.LocalObjectReference`]: object(
        'LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.',
        { name: str('Name of the referent.', { default: '' }) },
        { 'x-kubernetes-map-type': 'atomic' },
      ),
      [`${CORE}.ObjectReference`]: object(
        'ObjectReference contains enough information to let you inspect or modify the referred object.',
        Object.fromEntries(['apiVersion', 'fieldPath', 'kind', 'name', 'namespace', 'resourceVersion', 'uid'].map((k) => [k, str(`${k} of the referent.`)])),
        { 'x-kubernetes-map-type': 'atomic' },
      ),
    },
  },
  '/v1/Pod': specStatus('Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.'),
  '/v1/Service': specStatus('Service is a named abstraction of software service (for example, mysql) consisting of local port (for example 3306) that the proxy listens on, and the selector that determines which pods will answer requests sent through the proxy.'),
  '/v1/Node': specStatus('Node is a worker node in Kubernetes. Each node will have a unique identifier in the cache (i.e. in etcd).'),
  '/v1/PersistentVolumeClaim': specStatus("PersistentVolumeClaim is a user's request for and claim to a persistent volume"),
  '/v1/Endpoints': { description: 'Endpoints is a collection of endpoints that implement the actual service.' },
  '/v1/Event': { description: 'Event is a report of an event somewhere in the cluster.' },
  'events.k8s.io/v1/Event': { description: 'Event is a report of an event somewhere in the cluster. It generally denotes some state change in the system.' },
  'apps/v1/Deployment': specStatus('Deployment enables declarative updates for Pods and ReplicaSets.'),
  'apps/v1/StatefulSet': specStatus('StatefulSet represents a set of pods with consistent identities.'),
  'apps/v1/DaemonSet': specStatus('DaemonSet represents the configuration of a daemon set.'),
  'apps/v1/ReplicaSet': specStatus('ReplicaSet ensures that a specified number of pod replicas are running at any given time.'),
  'batch/v1/Job': specStatus('Job represents the configuration of a single job.'),
  'batch/v1/CronJob': specStatus('CronJob represents the configuration of a single cron job.'),
  'apiextensions.k8s.io/v1/CustomResourceDefinition': {
    description: 'CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.',
    required: ['spec'],
    fields: { spec: open('spec describes how the user wants the resources to appear'), status: open('status indicates the actual state of the CustomResourceDefinition') },
  },
  'coordination.k8s.io/v1/Lease': {
    description: 'Lease defines a lease concept.',
    complete: true,
    fields: { spec: ref('io.k8s.api.coordination.v1.LeaseSpec', { default: {}, description: SPEC }) },
    helpers: {
      'io.k8s.api.coordination.v1.LeaseSpec': object('LeaseSpec is a specification of a Lease.', {
        acquireTime: ref('io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime', { description: 'acquireTime is a time when the current lease was acquired.' }),
        holderIdentity: str('holderIdentity contains the identity of the holder of a current lease.'),
        leaseDurationSeconds: int32('leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it.'),
        leaseTransitions: int32('leaseTransitions is the number of transitions of a lease between holders.'),
        preferredHolder: str('PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up.'),
        renewTime: ref('io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime', { description: 'renewTime is a time when the current holder of a lease has last updated the lease.' }),
        strategy: str('Strategy indicates the strategy for picking the leader for coordinated leader election.'),
      }),
    },
  },
  'rbac.authorization.k8s.io/v1/Role': {
    description: 'Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.',
    complete: true,
    fields: { rules },
    helpers: { [`${RBAC}.PolicyRule`]: policyRule },
  },
  'rbac.authorization.k8s.io/v1/ClusterRole': {
    description: 'ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.',
    complete: true,
    fields: {
      aggregationRule: ref(`${RBAC}.AggregationRule`, { description: 'AggregationRule is an optional field that describes how to build the Rules for this ClusterRole.' }),
      rules: { ...rules, description: 'Rules holds all the PolicyRules for this ClusterRole' },
    },
    helpers: {
      [`${RBAC}.PolicyRule`]: policyRule,
      [`${RBAC}.AggregationRule`]: object('AggregationRule describes how to locate ClusterRoles to aggregate into the ClusterRole', {
        clusterRoleSelectors: refList('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', 'ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules.', { 'x-kubernetes-list-type': 'atomic' }),
      }),
    },
  },
  'rbac.authorization.k8s.io/v1/RoleBinding': binding('RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace.'),
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': binding('ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace, and adds who information via Subject.'),
};

export function builtinKindSchemas(type: ResourceType): KindSchemas {
  const entry: KindEntry = KINDS[`${type.group}/${type.version}/${type.kind}`] ?? { description: `${type.kind} is served by kubefake; its schema is not described.` };
  const extra: Json = entry.required ? { required: entry.required } : {};
  if (!entry.fields) extra['x-kubernetes-preserve-unknown-fields'] = true;
  extra['x-kubernetes-group-version-kind'] = gvkList(type.group, type.version, type.kind);
  const kind = object(entry.description, { ...typeAndObjectMeta(), ...entry.fields }, extra);
  return { definitions: { [definitionName(type, type.kind)]: kind, ...entry.helpers }, complete: entry.complete === true };
}
