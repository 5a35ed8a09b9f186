// apps/v1: discovery data from the generated catalogue (src/generated), strategies from
// pkg/registry/apps/<resource>/strategy.go, defaults from pkg/apis/apps/v1/defaults.go. apps/v1
// registers no field-label conversion function, so every kind uses the default one.
import type { ResourceType, Strategy } from '../resource-type.ts';
import { immutableSelector, validateDaemonSet, validateDeployment, validateReplicaSet, validateStatefulSet } from './workload-validation.ts';
import type { KubeObject } from '../object.ts';
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { isPlainObject } from '../object.ts';
import { defaultPersistentVolumeClaimSpec, defaultPodTemplate } from './pod-spec.ts';
import { builtinScale } from '../scale.ts';
import { collisionCountNonNegative, collisionCountNotDecremented, keepFromStored, nonNegativeStatus, replicaCountsWithinReplicas, validateStatus } from './status-strategies.ts';
import {
  arrAt,
  builtin,
  child,
  composeStrategy,
  defaulting,
  generation,
  meta,
  objAt,
  semanticEqual,
  setDefault,
  statusSubresource,
  unset,
  zeroFields,
} from './shared.ts';

const apps = (def: Parameters<typeof builtin>[2]) => builtin('apps', 'v1', def);

/** A workload's spec validation on create and update, and (apps/v1) its immutable selector. */
const validation = (validate: (obj: KubeObject) => FieldError[]): Strategy => ({
  validate,
  validateUpdate: (obj, old) => [...validate(obj), ...immutableSelector(obj, old)],
});

// pkg/apis/apps/validation ValidateStatefulSetUpdate: the fields an update may change; any other
// change to the spec (the selector included) is one Forbidden on `spec`, not a per-field error.
const STATEFULSET_MUTABLE = ['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

function statefulSetSpecUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const rest = (o: KubeObject) => Object.fromEntries(Object.entries((o.spec as Record<string, unknown> | undefined) ?? {}).filter(([k]) => !STATEFULSET_MUTABLE.includes(k)));
  if (semanticEqual(rest(obj), rest(old))) return [];
  return [
    fieldError.forbidden(
      'spec',
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
  ];
}

/** Every apps/v1 workload: PUT needs no resourceVersion, never creates, DELETE answers a Status. */
const workload = { allowUnconditionalUpdate: true, allowCreateOnUpdate: false, returnDeletedObject: false, namespaced: true } as const;

export function appsV1ResourceTypes(): ResourceType[] {
  return [
    apps({
      ...workload,
      kind: 'Deployment',
      plural: 'deployments',
      subresources: ['scale', 'status'],
      strategy: composeStrategy(
        defaulting(defaultDeployment),
        statusSubresource(),
        // Annotation changes bump too: they are copied to the ReplicaSets.
        generation((obj) => [obj.spec, obj.metadata?.annotations ?? {}]),
        validation(validateDeployment),
      ),
      statusStrategy: composeStrategy(defaulting(defaultDeployment), keepFromStored('spec', 'metadata.labels'), validateStatus(validateDeploymentStatus)),
      scale: builtinScale('apps', 'deployments', ['v1beta1', 'v1beta2', 'v1']),
    }),
    apps({
      ...workload,
      kind: 'StatefulSet',
      plural: 'statefulsets',
      subresources: ['scale', 'status'],
      strategy: composeStrategy(defaulting(defaultStatefulSet), statusSubresource(), generation(), defaulting(statefulSetStatusShape), {
        validate: validateStatefulSet,
        validateUpdate: (obj, old) => [...validateStatefulSet(obj), ...statefulSetSpecUpdate(obj, old)],
      }),
      statusStrategy: composeStrategy(defaulting(defaultStatefulSet), keepFromStored('spec'), defaulting(statefulSetStatusShape), validateStatus(validateStatefulSetStatus)),
      scale: builtinScale('apps', 'statefulsets', ['v1beta1', 'v1beta2', 'v1']),
    }),
    apps({
      ...workload,
      kind: 'DaemonSet',
      plural: 'daemonsets',
      subresources: ['status'],
      strategy: composeStrategy(
        defaulting(defaultDaemonSet),
        statusSubresource(),
        generation(),
        daemonSetTemplateGeneration,
        defaulting(daemonSetStatusShape),
        validation(validateDaemonSet),
      ),
      // The template generation annotation is the internal spec.templateGeneration: kept with the spec.
      statusStrategy: composeStrategy(
        defaulting(defaultDaemonSet),
        keepFromStored('spec'),
        { prepareForUpdate: (obj, old) => setTemplateGeneration(obj, templateGenerationOf(old)) },
        defaulting(daemonSetStatusShape),
        validateStatus(validateDaemonSetStatus),
      ),
    }),
    apps({
      ...workload,
      kind: 'ReplicaSet',
      plural: 'replicasets',
      subresources: ['scale', 'status'],
      strategy: composeStrategy(defaulting(defaultReplicaSet), statusSubresource(), generation(), defaulting(replicaSetStatusShape), validation(validateReplicaSet)),
      statusStrategy: composeStrategy(defaulting(defaultReplicaSet), keepFromStored('spec'), defaulting(replicaSetStatusShape), validateStatus(validateReplicaSetStatus)),
      scale: builtinScale('apps', 'replicasets', ['v1beta2', 'v1']),
    }),
  ];
}

const spec = (obj: KubeObject) => child(obj, 'spec');

/** SetDefaults_Deployment. */
export function defaultDeployment(obj: KubeObject): void {
  const s = spec(obj);
  setDefault(s, 'replicas', 1);
  const strategy = child(s, 'strategy');
  setDefault(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const rollingUpdate = child(strategy, 'rollingUpdate');
    setDefault(rollingUpdate, 'maxUnavailable', '25%');
    setDefault(rollingUpdate, 'maxSurge', '25%');
  }
  setDefault(s, 'revisionHistoryLimit', 10);
  setDefault(s, 'progressDeadlineSeconds', 600);
  defaultPodTemplate(s.template);
}

/**
 * SetDefaults_StatefulSet. maxUnavailable defaults to 1 because MaxUnavailableStatefulSet is beta
 * and on since 1.35; the PVC retention policy because StatefulSetAutoDeletePVC is GA.
 */
export function defaultStatefulSet(obj: KubeObject): void {
  const s = spec(obj);
  setDefault(s, 'podManagementPolicy', 'OrderedReady');
  const updateStrategy = child(s, 'updateStrategy');
  if (unset(updateStrategy.type)) {
    updateStrategy.type = 'RollingUpdate';
    if (!isPlainObject(updateStrategy.rollingUpdate)) updateStrategy.rollingUpdate = {};
  }
  const rollingUpdate = objAt(updateStrategy, 'rollingUpdate');
  if (updateStrategy.type === 'RollingUpdate' && rollingUpdate) {
    setDefault(rollingUpdate, 'partition', 0);
    setDefault(rollingUpdate, 'maxUnavailable', 1);
  }
  const retention = child(s, 'persistentVolumeClaimRetentionPolicy');
  setDefault(retention, 'whenDeleted', 'Retain');
  setDefault(retention, 'whenScaled', 'Retain');
  setDefault(s, 'replicas', 1);
  setDefault(s, 'revisionHistoryLimit', 10);
  defaultPodTemplate(s.template);
  // The generated defaulter also runs SetDefaults_PersistentVolumeClaim on each claim template.
  for (const claim of (arrAt(s, 'volumeClaimTemplates') ?? []).filter(isPlainObject)) {
    defaultPersistentVolumeClaimSpec(child(claim, 'spec'));
    setDefault(child(claim, 'status'), 'phase', 'Pending');
  }
}

/** SetDefaults_DaemonSet. */
export function defaultDaemonSet(obj: KubeObject): void {
  const s = spec(obj);
  const updateStrategy = child(s, 'updateStrategy');
  setDefault(updateStrategy, 'type', 'RollingUpdate');
  if (updateStrategy.type === 'RollingUpdate') {
    const rollingUpdate = child(updateStrategy, 'rollingUpdate');
    setDefault(rollingUpdate, 'maxUnavailable', 1);
    setDefault(rollingUpdate, 'maxSurge', 0);
  }
  setDefault(s, 'revisionHistoryLimit', 10);
  defaultPodTemplate(s.template);
}

/** SetDefaults_ReplicaSet. */
export function defaultReplicaSet(obj: KubeObject): void {
  setDefault(spec(obj), 'replicas', 1);
  defaultPodTemplate(spec(obj).template);
}

/**
 * The internal spec.templateGeneration is served as this annotation (Convert_apps_DaemonSet_To_v1):
 * 1 on create (or the value sent, if higher), +1 whenever the pod template changes, and not
 * settable by updates.
 */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

const templateGenerationOf = (obj: KubeObject): number => {
  const n = Number.parseInt(obj.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION] ?? '', 10);
  return Number.isNaN(n) ? 0 : n;
};

const setTemplateGeneration = (obj: KubeObject, n: number) => {
  meta(obj).annotations = { ...(obj.metadata?.annotations ?? {}), [TEMPLATE_GENERATION_ANNOTATION]: String(n) };
};

const daemonSetTemplateGeneration = {
  prepareForCreate(obj: KubeObject) {
    setTemplateGeneration(obj, Math.max(templateGenerationOf(obj), 1));
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject) {
    const previous = templateGenerationOf(old);
    const changed = !semanticEqual(objAt(obj.spec, 'template'), objAt(old.spec, 'template'));
    setTemplateGeneration(obj, changed ? previous + 1 : previous);
  },
};

// Status fields Go writes even when zero (ints without omitempty).
const statefulSetStatusShape = (obj: KubeObject) => zeroFields(child(obj, 'status'), { replicas: 0, availableReplicas: 0 });
const daemonSetStatusShape = (obj: KubeObject) =>
  zeroFields(child(obj, 'status'), { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
const replicaSetStatusShape = (obj: KubeObject) => zeroFields(child(obj, 'status'), { replicas: 0 });

// ---- status validation (pkg/apis/apps/validation Validate<Kind>StatusUpdate) ----

function validateDeploymentStatus(obj: KubeObject, old: KubeObject): FieldError[] {
  return [
    ...nonNegativeStatus(obj, ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas']),
    ...collisionCountNonNegative(obj),
    ...replicaCountsWithinReplicas(obj, ['updatedReplicas', 'readyReplicas', 'availableReplicas']),
    ...collisionCountNotDecremented(obj, old),
  ];
}

function validateReplicaSetStatus(obj: KubeObject): FieldError[] {
  return [
    ...nonNegativeStatus(obj, ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']),
    ...replicaCountsWithinReplicas(obj, ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas']),
  ];
}

function validateStatefulSetStatus(obj: KubeObject, old: KubeObject): FieldError[] {
  return [
    ...nonNegativeStatus(obj, ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration']),
    ...collisionCountNonNegative(obj),
    ...replicaCountsWithinReplicas(obj, ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'], 'status.readyReplicas'),
    ...collisionCountNotDecremented(obj, old),
  ];
}

function validateDaemonSetStatus(obj: KubeObject, old: KubeObject): FieldError[] {
  return [
    ...nonNegativeStatus(obj, ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable']),
    ...collisionCountNonNegative(obj),
    ...collisionCountNotDecremented(obj, old),
  ];
}
