// ValidatePodCreate and ValidatePodUpdate (pkg/apis/core/validation/validation.go, v1.36): a Pod
// is its spec (ValidatePodSpec) plus the pod-only checks; on create ephemeral containers are
// refused (only the subresource adds them) and so is a node name while scheduling gates remain.
// After the pod is validated as on create, an update may change only container and init container images, lower (or set)
// activeDeadlineSeconds, add tolerations (or change an existing one's tolerationSeconds), remove
// scheduling gates, and set a terminationGracePeriodSeconds that was negative to 1. Anything else
// is one Forbidden on `spec` whose text ends with the go-cmp diff of the two specs.
// A pod that still has scheduling gates may also gain nodeSelector keys and node affinity
// requirements (pod-gated-update.ts). Not ported: the AppArmor/mirror-pod annotation rules.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { isPlainObject, type KubeObject } from '../object.ts';
import { goStructDiff } from './go-struct-diff.ts';
import { semanticEqual } from './shared.ts';
import { validateGatedPodUpdate } from './pod-gated-update.ts';
import { validateContainersOnlyForPod, validatePodSpec, validateTolerations } from './pod-validation.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (isPlainObject(v) ? v : {});
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);

const MAX_INT32 = 2147483647;

// updatablePodSpecFields, as the Forbidden text lists them.
const UPDATABLE_POD_SPEC_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

/** ValidateContainerUpdates: the same number of containers, each with an image; `stop` ends the checks. */
function containerUpdates(containers: Json[], oldContainers: Json[], path: string): { errs: FieldError[]; stop: boolean } {
  if (containers.length !== oldContainers.length) return { errs: [fieldError.forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  containers.forEach((c, i) => {
    const image = typeof c.image === 'string' ? c.image : '';
    if (image === '') errs.push(fieldError.required(`${path}[${i}].image`));
    if (image.trim() !== image) errs.push(fieldError.invalid(`${path}[${i}].image`, image, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

/** validateOnlyAddedTolerations: every old toleration is still there (tolerationSeconds may change). */
function onlyAddedTolerations(tolerations: Json[], oldTolerations: Json[], path: string): FieldError[] {
  for (const old of oldTolerations) {
    const found = tolerations.some((t) => semanticEqual({ ...old, tolerationSeconds: t.tolerationSeconds }, t));
    if (!found) return [fieldError.forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(tolerations, path);
}

/** validateOnlyDeletedSchedulingGates: a gate whose name was not there before is refused. */
function onlyDeletedSchedulingGates(gates: Json[], oldGates: Json[], path: string): FieldError[] {
  const oldNames = new Set(oldGates.map((g) => g.name));
  // Go keeps the last index of each new name and walks a map; index order here.
  const added = new Map<string, number>();
  gates.forEach((g, i) => {
    const name = typeof g.name === 'string' ? g.name : '';
    if (!oldNames.has(name)) added.set(name, i);
  });
  return [...added].map(([name, i]) => fieldError.forbidden(`${path}[${i}].name`, `only deletion is allowed, but found new scheduling gate '${name}'`));
}

/** validatePodMetadataAndSpec's spec part, which create and update share. */
const validatePodMetadataAndSpec = (pod: KubeObject): FieldError[] => [...validatePodSpec(pod.spec, 'spec'), ...validateContainersOnlyForPod(pod.spec)];

export function validatePodCreate(pod: KubeObject): FieldError[] {
  const spec = obj(pod.spec);
  const errs = validatePodMetadataAndSpec(pod);
  if (list(spec.ephemeralContainers).length > 0) errs.push(fieldError.forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  if (typeof spec.nodeName === 'string' && spec.nodeName !== '' && list(spec.schedulingGates).length > 0) {
    errs.push(fieldError.forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}

export function validatePodUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  return [...validatePodMetadataAndSpec(pod), ...validatePodSpecUpdate(pod, old)];
}

/** The spec rules of ValidatePodUpdate, after the pod has been validated as on create. */
function validatePodSpecUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  const spec = obj(pod.spec);
  const oldSpec = obj(old.spec);
  const errs: FieldError[] = [];
  for (const key of ['containers', 'initContainers'] as const) {
    const { errs: containerErrs, stop } = containerUpdates(list(spec[key]), list(oldSpec[key]), `spec.${key}`);
    errs.push(...containerErrs);
    if (stop) return errs;
  }

  // activeDeadlineSeconds: from nil to a positive value, or down to a lesser non-negative one.
  const deadline = spec.activeDeadlineSeconds;
  const oldDeadline = oldSpec.activeDeadlineSeconds;
  if (typeof deadline === 'number') {
    if (deadline < 0 || deadline > MAX_INT32) {
      errs.push(fieldError.invalid('spec.activeDeadlineSeconds', deadline, `must be between 0 and ${MAX_INT32}, inclusive`));
      return errs;
    }
    if (typeof oldDeadline === 'number' && oldDeadline < deadline) {
      errs.push(fieldError.invalid('spec.activeDeadlineSeconds', deadline, 'must be less than or equal to previous value'));
      return errs;
    }
  } else if (typeof oldDeadline === 'number') {
    errs.push(fieldError.invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  }

  errs.push(...onlyAddedTolerations(list(spec.tolerations), list(oldSpec.tolerations), 'spec.tolerations'));
  errs.push(...onlyDeletedSchedulingGates(list(spec.schedulingGates), list(oldSpec.schedulingGates), 'spec.schedulingGates'));
  if (semanticEqual(spec, oldSpec)) return errs;

  // The updatable fields take their old values; whatever still differs is forbidden.
  const munged: Json = structuredClone(spec);
  for (const key of ['containers', 'initContainers'] as const) {
    const oldContainers = list(oldSpec[key]);
    if (Array.isArray(munged[key])) munged[key] = (munged[key] as unknown[]).map((c, i) => (isPlainObject(c) ? { ...c, image: oldContainers[i]?.image } : c));
  }
  for (const key of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations'] as const) {
    if (oldSpec[key] === undefined) delete munged[key];
    else munged[key] = oldSpec[key];
  }
  const grace = oldSpec.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = grace;
  errs.push(...validateGatedPodUpdate(munged, oldSpec));
  if (!semanticEqual(munged, oldSpec)) {
    const diff = goStructDiff('core.PodSpec', 'core.v1.PodSpec', oldSpec, munged);
    errs.push(fieldError.forbidden('spec', `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS.join(',')}\n${diff}`));
  }
  return errs;
}
