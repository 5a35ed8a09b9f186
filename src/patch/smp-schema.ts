// Patch strategies and merge keys of the built-in kinds kubefake serves, from the Go struct tags
// (`patchStrategy:"merge" patchMergeKey:"name"`) of k8s.io/api and k8s.io/apimachinery v0.36.
// strategicpatch reads them through PatchMetaFromStruct; a field absent here has no tag: lists
// are atomic (replaced) and maps merge. Only fields with tags, and the structs leading to them,
// are listed. Note what has no tag (and is atomic): tolerations, container statuses, taints,
// subjects, rules, endpoint subsets, CRD versions.

/** One struct: its JSON fields that carry a tag or lead to one. */
export interface StructSchema {
  readonly [field: string]: FieldSchema;
}

export interface FieldSchema {
  /** The patchStrategy tag, e.g. `merge` or `merge,retainKeys`. */
  readonly strategy?: string;
  readonly mergeKey?: string;
  /** The struct of the field, or of its list elements. */
  readonly type?: StructSchema;
}

export interface PatchMeta {
  strategies: string[];
  mergeKey: string;
}

const merge = (mergeKey?: string, type?: StructSchema): FieldSchema => ({ strategy: 'merge', mergeKey, type });
const mergeRetainKeys = (mergeKey: string): FieldSchema => ({ strategy: 'merge,retainKeys', mergeKey });
const struct = (type: StructSchema): FieldSchema => ({ type });

// metav1.ObjectMeta
const OBJECT_META: StructSchema = { ownerReferences: merge('uid'), finalizers: merge() };
const withMeta = (fields: StructSchema): StructSchema => ({ metadata: struct(OBJECT_META), ...fields });

// core/v1 Container and EphemeralContainer(Common) share these.
const CONTAINER: StructSchema = {
  ports: merge('containerPort'),
  env: merge('name'),
  volumeMounts: merge('mountPath'),
  volumeDevices: merge('devicePath'),
};
const CONTAINER_STATUS: StructSchema = { volumeMounts: merge('mountPath'), allocatedResourcesStatus: merge('name') };

const POD_SPEC: StructSchema = {
  volumes: mergeRetainKeys('name'),
  initContainers: merge('name', CONTAINER),
  containers: merge('name', CONTAINER),
  ephemeralContainers: merge('name', CONTAINER),
  imagePullSecrets: merge('name'),
  hostAliases: merge('ip'),
  topologySpreadConstraints: merge('topologyKey'),
  schedulingGates: merge('name'),
  resourceClaims: mergeRetainKeys('name'),
};
const POD_STATUS: StructSchema = {
  conditions: merge('type'),
  hostIPs: merge('ip'),
  podIPs: merge('ip'),
  initContainerStatuses: struct(CONTAINER_STATUS),
  containerStatuses: struct(CONTAINER_STATUS),
  ephemeralContainerStatuses: struct(CONTAINER_STATUS),
  resourceClaimStatuses: mergeRetainKeys('name'),
};
const POD_TEMPLATE_SPEC: StructSchema = withMeta({ spec: struct(POD_SPEC) });

/** A status whose only tagged field is `conditions` (merge by type). */
const CONDITIONS_STATUS = struct({ conditions: merge('type') });
const withTemplate = (extra: StructSchema = {}): StructSchema =>
  withMeta({ spec: struct({ template: struct(POD_TEMPLATE_SPEC), ...extra }), status: CONDITIONS_STATUS });

const PVC: StructSchema = withMeta({ status: CONDITIONS_STATUS });
const JOB: StructSchema = withTemplate();
const PLAIN: StructSchema = withMeta({});

/** Root structs by `group/version/Kind` (core: `v1/Kind`). */
const KINDS: Readonly<Record<string, StructSchema>> = {
  'v1/Pod': withMeta({ spec: struct(POD_SPEC), status: struct(POD_STATUS) }),
  'v1/Service': withMeta({ spec: struct({ ports: merge('port') }), status: CONDITIONS_STATUS }),
  'v1/Namespace': withMeta({ status: CONDITIONS_STATUS }),
  'v1/Node': withMeta({ spec: struct({ podCIDRs: merge() }), status: struct({ conditions: merge('type'), addresses: merge('type') }) }),
  'v1/PersistentVolumeClaim': PVC,
  'v1/ServiceAccount': withMeta({ secrets: merge('name') }),
  'v1/ConfigMap': PLAIN,
  'v1/Secret': PLAIN,
  'v1/Endpoints': PLAIN,
  'v1/Event': PLAIN,
  'apps/v1/Deployment': withTemplate({ strategy: { strategy: 'retainKeys' } }),
  'apps/v1/StatefulSet': withTemplate({ volumeClaimTemplates: struct(PVC) }),
  'apps/v1/DaemonSet': withTemplate(),
  'apps/v1/ReplicaSet': withTemplate(),
  'batch/v1/Job': JOB,
  'batch/v1/CronJob': withMeta({ spec: struct({ jobTemplate: struct(withMeta({ spec: JOB.spec! })) }) }),
  'events.k8s.io/v1/Event': PLAIN,
  'coordination.k8s.io/v1/Lease': PLAIN,
  'rbac.authorization.k8s.io/v1/Role': PLAIN,
  'rbac.authorization.k8s.io/v1/ClusterRole': PLAIN,
  'rbac.authorization.k8s.io/v1/RoleBinding': PLAIN,
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': PLAIN,
  // spec.versions is atomic, so the tagged x-kubernetes-validations below it are never merged.
  'apiextensions.k8s.io/v1/CustomResourceDefinition': PLAIN,
  'autoscaling/v1/Scale': PLAIN,
};

/** The root struct of a kind; unknown built-ins get ObjectMeta's tags only. */
export function schemaFor(group: string, version: string, kind: string): StructSchema {
  return KINDS[`${group ? `${group}/` : ''}${version}/${kind}`] ?? PLAIN;
}

/**
 * LookupPatchMetadataForStruct / ForSlice: the field's struct (or element struct) and its tags.
 * Go splits the tag on ",", so an untagged field has the single strategy "".
 */
export function lookupField(schema: StructSchema | undefined, key: string): { schema: StructSchema | undefined; meta: PatchMeta } {
  const field = schema && Object.hasOwn(schema, key) ? schema[key] : undefined;
  return {
    schema: field?.type,
    meta: { strategies: (field?.strategy ?? '').split(','), mergeKey: field?.mergeKey ?? '' },
  };
}
