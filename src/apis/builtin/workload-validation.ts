// Spec validation of the workload kinds (pkg/apis/apps/validation/validation.go and
// pkg/apis/batch/validation/validation.go, v1.36): the selector is required and must select the
// template's labels, replicas and the other counts are non-negative, the template is a valid pod
// template whose restartPolicy suits the kind, and the apps/v1 selectors are immutable
// (the strategies' ValidateUpdate). Texts and paths as in Go.
import { fieldError, OMIT_VALUE, type FieldError } from '../../errors/field-error.ts';
import { goQuote } from '../../errors/go-format.ts';
import { FIELD_IMMUTABLE_ERROR_MSG, invalidStruct, invalidWithJson, validateAnnotations, validateLabels, validateNonnegativeField } from '../../validation/meta-fields.ts';
import { tryLabelSelectorAsSelector } from '../../selectors/label-selector-as-selector.ts';
import { deepEqual } from '../../util/deep-equal.ts';
import type { KubeObject } from '../object.ts';
import { validatePodTemplateSpec } from './pod-validation.ts';
import { validateJobRetryAndEnd, validateRestartPolicyForFailurePolicy } from './job-policy-validation.ts';
import { isDNS1123Label } from '../../validation/names.ts';
import { labelSelectorJson, validateLabelSelector } from './label-selector-validation.ts';
import { internalJsonText, typedInternalJson } from './go-struct-diff.ts';
import { asObject, semanticEqual } from './shared.ts';
import { intOrPercentValue, isNotMoreThan100Percent, validatePositiveIntOrPercent } from './int-or-percent.ts';

type Json = Record<string, unknown>;
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** metav1.LabelSelectorAsSelector: undefined where it fails; a nil selector is labels.Nothing(). */
const asSelector = (selector: unknown) => tryLabelSelectorAsSelector(selector);

/** Whether the selector selects the labels; undefined when the selector cannot be built. */
const selects = (selector: unknown, labels: unknown): boolean | undefined => asSelector(selector)?.matches(asObject(labels) as Record<string, string> | undefined);

const templateLabels = (template: unknown): unknown => asObject(asObject(template)?.metadata)?.labels ?? {};
const templateSpec = (template: unknown): Json => asObject(asObject(template)?.spec) ?? {};

/** The selector part every workload shares: required, valid, not empty. */
function validateSelector(selector: unknown, kindWord: string, required: boolean): FieldError[] {
  if (selector === undefined || selector === null) return required ? [fieldError.required('spec.selector')] : [];
  const errs = validateLabelSelector(selector, 'spec.selector');
  const s = asObject(selector) ?? {};
  const count = Object.keys(asObject(s.matchLabels) ?? {}).length + (Array.isArray(s.matchExpressions) ? s.matchExpressions.length : 0);
  if (count === 0) errs.push(invalidWithJson('spec.selector', s, labelSelectorJson(s), `empty selector is invalid for ${kindWord}`));
  return errs;
}

/** The template must carry labels the selector selects. */
function selectorMatchesTemplate(selector: unknown, template: unknown): FieldError[] {
  const labels = templateLabels(template);
  return selects(selector, labels) === false
    ? [invalidWithJson('spec.template.metadata.labels', labels, JSON.stringify(sortedMap(labels)), '`selector` does not match template `labels`')]
    : [];
}

const sortedMap = (v: unknown): Json => Object.fromEntries(Object.entries(asObject(v) ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)));

/** A template whose pods must restart always (Deployment, ReplicaSet, StatefulSet, DaemonSet). */
function alwaysRestart(template: unknown, kindWord: string): FieldError[] {
  const spec = templateSpec(template);
  const errs: FieldError[] = [];
  const policy = typeof spec.restartPolicy === 'string' ? spec.restartPolicy : '';
  if (policy !== 'Always') errs.push(fieldError.notSupported('spec.template.spec.restartPolicy', policy, ['Always']));
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    errs.push(fieldError.forbidden('spec.template.spec.activeDeadlineSeconds', `activeDeadlineSeconds in ${kindWord} is not Supported`));
  }
  return errs;
}

/** ValidateDeploymentSpec and ValidateReplicaSetSpec (both say "deployment" for an empty selector). */
function validateReplicatedSpec(spec: Json, extra: FieldError[]): FieldError[] {
  const errs: FieldError[] = [...validateNonnegativeField(num(spec.replicas), 'spec.replicas')];
  errs.push(...extra);
  errs.push(...validateSelector(spec.selector, 'deployment', true));
  if (!asSelector(spec.selector)) errs.push(invalidWithJson('spec.selector', spec.selector, labelSelectorJson(spec.selector), 'invalid label selector'));
  else {
    errs.push(...selectorMatchesTemplate(spec.selector, spec.template));
    errs.push(...validatePodTemplateSpec(spec.template, 'spec.template'));
    errs.push(...alwaysRestart(spec.template, 'ReplicaSet'));
  }
  return errs;
}

export function validateDeployment(d: KubeObject): FieldError[] {
  const spec = asObject(d.spec) ?? {};
  const errs = validateReplicatedSpec(spec, []);
  errs.push(...validateDeploymentStrategy(spec.strategy));
  errs.push(...validateNonnegativeField(num(spec.minReadySeconds), 'spec.minReadySeconds'));
  if (typeof spec.revisionHistoryLimit === 'number') errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  if (typeof spec.progressDeadlineSeconds === 'number') {
    errs.push(...validateNonnegativeField(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
    if (spec.progressDeadlineSeconds <= num(spec.minReadySeconds)) errs.push(fieldError.invalid('spec.progressDeadlineSeconds', spec.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
  }
  return errs;
}

// ---- update strategies (ValidateDeploymentStrategy, ValidateDaemonSetUpdateStrategy, the StatefulSet's) ----

/** An IntOrString as encoding/json writes it; the zero value (unset) is 0. */
const intOrStringJson = (v: unknown): string => (v === undefined || v === null ? '0' : JSON.stringify(v));

/** A strategy struct of the internal apps types (no json tags): Type, then RollingUpdate's fields or null. */
function strategyJson(strategy: Json, rollingFields: readonly [string, (v: unknown) => string][]): string {
  const rolling = asObject(strategy.rollingUpdate);
  const rollingJson = rolling ? `{${rollingFields.map(([k, render]) => `"${k.charAt(0).toUpperCase()}${k.slice(1)}":${render(rolling[k])}`).join(',')}}` : 'null';
  return `{"Type":${JSON.stringify(typeof strategy.type === 'string' ? strategy.type : '')},"RollingUpdate":${rollingJson}}`;
}

/** field.NotSupported on a value Go prints as `json` (an internal struct). */
const notSupportedWithJson = (path: string, json: string, supported: readonly string[]): FieldError => ({
  type: 'FieldValueNotSupported',
  field: path,
  value: OMIT_VALUE,
  detail: `${json}: supported values: ${supported.map(goQuote).join(', ')}`,
});

/** ValidateDeploymentStrategy and ValidateRollingUpdateDeployment. */
function validateDeploymentStrategy(value: unknown): FieldError[] {
  const strategy = asObject(value) ?? {};
  const path = 'spec.strategy';
  const rolling = asObject(strategy.rollingUpdate);
  switch (strategy.type) {
    case 'Recreate':
      return rolling ? [fieldError.forbidden(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate': {
      if (!rolling) return [fieldError.required(`${path}.rollingUpdate`, 'this should be defaulted and never be nil')];
      const errs = [
        ...validatePositiveIntOrPercent(rolling.maxUnavailable, `${path}.rollingUpdate.maxUnavailable`),
        ...validatePositiveIntOrPercent(rolling.maxSurge, `${path}.rollingUpdate.maxSurge`),
      ];
      if (intOrPercentValue(rolling.maxUnavailable) === 0 && intOrPercentValue(rolling.maxSurge) === 0) {
        errs.push(fieldError.invalid(`${path}.rollingUpdate.maxUnavailable`, rolling.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
      }
      errs.push(...isNotMoreThan100Percent(rolling.maxUnavailable, `${path}.rollingUpdate.maxUnavailable`));
      return errs;
    }
    default:
      return [notSupportedWithJson(path, strategyJson(strategy, [['maxUnavailable', intOrStringJson], ['maxSurge', intOrStringJson]]), ['Recreate', 'RollingUpdate'])];
  }
}

/** ValidateDaemonSetUpdateStrategy and ValidateRollingUpdateDaemonSet. */
function validateDaemonSetUpdateStrategy(value: unknown): FieldError[] {
  const strategy = asObject(value) ?? {};
  const path = 'spec.updateStrategy';
  switch (strategy.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      const rolling = asObject(strategy.rollingUpdate);
      if (!rolling) return [fieldError.required(`${path}.rollingUpdate`)];
      const p = `${path}.rollingUpdate`;
      const errs = [
        ...validatePositiveIntOrPercent(rolling.maxUnavailable, `${p}.maxUnavailable`),
        ...validatePositiveIntOrPercent(rolling.maxSurge, `${p}.maxSurge`),
        ...isNotMoreThan100Percent(rolling.maxUnavailable, `${p}.maxUnavailable`),
        ...isNotMoreThan100Percent(rolling.maxSurge, `${p}.maxSurge`),
      ];
      const hasUnavailable = intOrPercentValue(rolling.maxUnavailable) !== 0;
      const hasSurge = intOrPercentValue(rolling.maxSurge) !== 0;
      if (hasUnavailable && hasSurge) errs.push(fieldError.invalid(`${p}.maxSurge`, rolling.maxSurge ?? 0, 'may not be set when maxUnavailable is non-zero'));
      else if (!hasUnavailable && !hasSurge) errs.push(fieldError.required(`${p}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
      return errs;
    }
    default:
      return [notSupportedWithJson(path, strategyJson(strategy, [['maxUnavailable', intOrStringJson], ['maxSurge', intOrStringJson]]), ['RollingUpdate', 'OnDelete'])];
  }
}

/** ValidateStatefulSetSpec's updateStrategy switch and validateRollingUpdateStatefulSet. */
function validateStatefulSetUpdateStrategy(value: unknown): FieldError[] {
  const strategy = asObject(value) ?? {};
  const path = 'spec.updateStrategy';
  const rolling = asObject(strategy.rollingUpdate);
  // RollingUpdateStatefulSetStrategy: Partition int32, MaxUnavailable *IntOrString.
  const rollingJson = (r: Json) => `{"Partition":${num(r.partition)},"MaxUnavailable":${r.maxUnavailable === undefined || r.maxUnavailable === null ? 'null' : JSON.stringify(r.maxUnavailable)}}`;
  switch (strategy.type) {
    case undefined:
    case '':
      return [fieldError.required(path)];
    case 'OnDelete':
      return rolling ? [invalidStruct(`${path}.rollingUpdate`, rollingJson(rolling), "only allowed for updateStrategy 'RollingUpdate'")] : [];
    case 'RollingUpdate': {
      if (!rolling) return [];
      const p = `${path}.rollingUpdate`;
      const errs = validateNonnegativeField(num(rolling.partition), `${p}.partition`);
      if (rolling.maxUnavailable !== undefined && rolling.maxUnavailable !== null) {
        errs.push(...validatePositiveIntOrPercent(rolling.maxUnavailable, `${p}.maxUnavailable`));
        if (intOrPercentValue(rolling.maxUnavailable) === 0) errs.push(fieldError.invalid(`${p}.maxUnavailable`, rolling.maxUnavailable, 'cannot be 0'));
        errs.push(...isNotMoreThan100Percent(rolling.maxUnavailable, `${p}.maxUnavailable`));
      }
      return errs;
    }
    default:
      return [invalidStruct(path, `{"Type":${JSON.stringify(String(strategy.type))},"RollingUpdate":${rolling ? rollingJson(rolling) : 'null'}}`, "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

export function validateReplicaSet(rs: KubeObject): FieldError[] {
  const spec = asObject(rs.spec) ?? {};
  return validateReplicatedSpec(spec, validateNonnegativeField(num(spec.minReadySeconds), 'spec.minReadySeconds'));
}

export function validateStatefulSet(sts: KubeObject): FieldError[] {
  const spec = asObject(sts.spec) ?? {};
  const errs: FieldError[] = [];
  const policy = typeof spec.podManagementPolicy === 'string' ? spec.podManagementPolicy : '';
  if (policy === '') errs.push(fieldError.required('spec.podManagementPolicy'));
  // An Invalid, not a NotSupported, in ValidateStatefulSetSpec.
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') errs.push(fieldError.invalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'"));
  errs.push(...validateStatefulSetUpdateStrategy(spec.updateStrategy));
  errs.push(...validateNonnegativeField(num(spec.replicas), 'spec.replicas'));
  errs.push(...validateNonnegativeField(num(spec.minReadySeconds), 'spec.minReadySeconds'));
  errs.push(...validateSelector(spec.selector, 'statefulset', true));
  if (!asSelector(spec.selector)) errs.push(invalidWithJson('spec.selector', spec.selector, labelSelectorJson(spec.selector), ''));
  else {
    // ValidatePodTemplateSpecForStatefulSet: labels and annotations of the template, not its pod
    // spec (its volumes may come from volumeClaimTemplates).
    errs.push(...selectorMatchesTemplate(spec.selector, spec.template));
    const meta = asObject(asObject(spec.template)?.metadata) ?? {};
    if (asObject(meta.labels)) errs.push(...validateLabels(meta.labels as Record<string, string>, 'spec.template.labels'));
    if (asObject(meta.annotations)) errs.push(...validateAnnotations(meta.annotations as Record<string, string>, 'spec.template.annotations'));
  }
  errs.push(...alwaysRestart(spec.template, 'StatefulSet'));
  return errs;
}

export function validateDaemonSet(ds: KubeObject): FieldError[] {
  const spec = asObject(ds.spec) ?? {};
  // ValidateDaemonSetSpec has no Required for the selector: a missing one is labels.Nothing(), which
  // the template's labels then fail to match. (An empty selector matches everything, so the two
  // errors of validateSelector and selectorMatchesTemplate never come together.)
  const errs = validateSelector(spec.selector, 'daemonset', false);
  errs.push(...selectorMatchesTemplate(spec.selector, spec.template));
  errs.push(...validatePodTemplateSpec(spec.template, 'spec.template'));
  errs.push(...alwaysRestart(spec.template, 'DaemonSet'));
  errs.push(...validateNonnegativeField(num(spec.minReadySeconds), 'spec.minReadySeconds'));
  errs.push(...validateDaemonSetUpdateStrategy(spec.updateStrategy));
  if (typeof spec.revisionHistoryLimit === 'number') errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  return errs;
}

/** The apps/v1 strategies' ValidateUpdate: spec.selector may not change. */
export function immutableSelector(obj: KubeObject, old: KubeObject): FieldError[] {
  const selector = (obj.spec as Json | undefined)?.selector;
  const oldSelector = (old.spec as Json | undefined)?.selector;
  return deepEqual(selector ?? null, oldSelector ?? null) ? [] : [invalidWithJson('spec.selector', selector, labelSelectorJson(selector), FIELD_IMMUTABLE_ERROR_MSG)];
}

/** ValidateJobSpec (the counts, the selector it generates, and the template's restart policy). */
export function validateJob(job: KubeObject): FieldError[] {
  const spec = asObject(job.spec) ?? {};
  const errs: FieldError[] = [...validateJobSpecCounts(spec, 'spec'), ...validateJobSpecTemplate(spec, 'spec')];
  if (spec.selector === undefined || spec.selector === null) errs.push(fieldError.required('spec.selector'));
  else {
    errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
    errs.push(...selectorMatchesTemplate(spec.selector, spec.template));
  }
  // An Indexed job's pods are named <job>-<index> as their hostname, which must be a DNS label.
  if (spec.completionMode === 'Indexed' && typeof spec.completions === 'number' && spec.completions > 0) {
    const hostname = `${job.metadata?.name ?? ''}-${spec.completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) errs.push(fieldError.invalid('metadata.name', job.metadata?.name ?? '', `will not able to create pod with invalid DNS label: ${hostname}`));
  }
  return errs;
}

/** ValidateImmutableField on a value Go prints with `render` (an internal struct, a selector). */
function immutable(path: string, value: unknown, oldValue: unknown, render?: (v: unknown) => string): FieldError[] {
  if (semanticEqual(value, oldValue)) return [];
  const shown = value === undefined ? null : value;
  return [render ? invalidWithJson(path, shown, render(shown), FIELD_IMMUTABLE_ERROR_MSG) : fieldError.invalid(path, shown, FIELD_IMMUTABLE_ERROR_MSG)];
}

/**
 * The job strategy's ValidateUpdate: ValidateJob again, then ValidateJobSpecUpdate's immutable
 * fields (pkg/apis/batch/validation, v1.36, ElasticIndexedJob on). A Job that is suspended and
 * has never started may change its template's scheduling directives (node affinity, node
 * selector, tolerations, scheduling gates) and its template labels and annotations
 * (validationOptionsForJob's AllowMutableSchedulingDirectives).
 */
export function validateJobUpdate(job: KubeObject, old: KubeObject): FieldError[] {
  const spec = asObject(job.spec) ?? {};
  const oldSpec = asObject(old.spec) ?? {};
  const errs = validateJob(job);
  // validateCompletions: immutable, but for an Indexed Job changed together with parallelism.
  if (spec.completionMode === 'Indexed') {
    if (!semanticEqual(spec.completions, oldSpec.completions) && typeof spec.completions === 'number' && spec.completions !== spec.parallelism) {
      errs.push(fieldError.invalid('spec.completions', spec.completions, 'can only be modified in tandem with spec.parallelism'));
    }
  } else errs.push(...immutable('spec.completions', spec.completions, oldSpec.completions));
  errs.push(...immutable('spec.selector', spec.selector, oldSpec.selector, labelSelectorJson));
  const suspendedNeverStarted = oldSpec.suspend === true && asObject(old.status)?.startTime === undefined;
  errs.push(...immutable('spec.template', spec.template, suspendedNeverStarted ? withSchedulingDirectivesOf(oldSpec.template, spec.template) : oldSpec.template, internalJsonText));
  // The internal batch types carry no json tags: Go prints every field under its Go name.
  const internalJson: Partial<Record<string, (v: unknown) => string>> = {
    podFailurePolicy: (v) => typedInternalJson('batch.v1.PodFailurePolicy', v),
    successPolicy: (v) => typedInternalJson('batch.v1.SuccessPolicy', v),
  };
  for (const key of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy'] as const) {
    errs.push(...immutable(`spec.${key}`, spec[key], oldSpec[key], internalJson[key]));
  }
  return errs;
}

/** validatePodTemplateUpdate's munging: the old template with the new one's mutable scheduling directives. */
function withSchedulingDirectivesOf(oldTemplate: unknown, template: unknown): Json {
  const result = structuredClone(asObject(oldTemplate) ?? {});
  const next = asObject(template) ?? {};
  const spec = (result.spec = asObject(result.spec) ?? {}) as Json;
  const nextSpec = asObject(next.spec) ?? {};
  const affinity = asObject(nextSpec.affinity);
  const oldAffinity = asObject(spec.affinity);
  if (!affinity && oldAffinity) {
    // Clearing affinity is allowed when the old one held nothing but node affinity.
    delete oldAffinity.nodeAffinity;
    if (Object.keys(oldAffinity).length === 0) delete spec.affinity;
  } else if (affinity && !oldAffinity) spec.affinity = affinity.nodeAffinity === undefined ? {} : { nodeAffinity: affinity.nodeAffinity };
  else if (affinity && oldAffinity) {
    if (affinity.nodeAffinity === undefined) delete oldAffinity.nodeAffinity;
    else oldAffinity.nodeAffinity = affinity.nodeAffinity;
  }
  for (const key of ['nodeSelector', 'tolerations', 'schedulingGates'] as const) {
    if (nextSpec[key] === undefined) delete spec[key];
    else spec[key] = nextSpec[key];
  }
  const meta = (result.metadata = { ...(asObject(result.metadata) ?? {}) }) as Json;
  const nextMeta = asObject(next.metadata) ?? {};
  for (const key of ['labels', 'annotations'] as const) {
    if (nextMeta[key] === undefined) delete meta[key];
    else meta[key] = nextMeta[key];
  }
  return result;
}

/**
 * validateJobSpec up to the template, for a Job's spec or a CronJob's jobTemplate.spec at `path`:
 * the counts, then how the job retries and ends (job-policy-validation.ts).
 */
function validateJobSpecCounts(spec: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished'] as const) {
    if (typeof spec[key] === 'number') errs.push(...validateNonnegativeField(spec[key], `${path}.${key}`));
  }
  errs.push(...validateJobRetryAndEnd(spec, path));
  return errs;
}

/** validateJobSpec's template part: a valid pod template that restarts OnFailure or Never (only Never with a podFailurePolicy). */
function validateJobSpecTemplate(spec: Json, path: string): FieldError[] {
  const errs = validatePodTemplateSpec(spec.template, `${path}.template`);
  const policy = templateSpec(spec.template).restartPolicy;
  // Always is also what PodSpec defaulting gives an unset policy: Required names the choices.
  if (policy === 'Always' || policy === '' || policy === undefined || policy === null) errs.push(fieldError.required(`${path}.template.spec.restartPolicy`, 'valid values: "OnFailure", "Never"'));
  else if (policy !== 'OnFailure' && policy !== 'Never') errs.push(fieldError.notSupported(`${path}.template.spec.restartPolicy`, policy, ['OnFailure', 'Never']));
  else errs.push(...validateRestartPolicyForFailurePolicy(spec, policy, path));
  return errs;
}

/**
 * ValidateJobTemplateSpec (a CronJob's spec.jobTemplate): the job spec without a selector, which
 * the CronJob controller's Jobs generate.
 */
export function validateJobTemplateSpec(template: unknown, path: string): FieldError[] {
  const spec = asObject(asObject(template)?.spec) ?? {};
  const errs = [...validateJobSpecCounts(spec, `${path}.spec`), ...validateJobSpecTemplate(spec, `${path}.spec`)];
  if (spec.selector !== undefined && spec.selector !== null) {
    errs.push(invalidWithJson(`${path}.spec.selector`, spec.selector, labelSelectorJson(spec.selector), '`selector` will be auto-generated'));
  }
  if (spec.manualSelector === true) errs.push(fieldError.notSupported(`${path}.spec.manualSelector`, true, ['nil', 'false']));
  return errs;
}
