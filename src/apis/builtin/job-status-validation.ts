// The Job status strategy's ValidateUpdate (pkg/registry/batch/job/strategy.go
// getStatusValidationOptions, pkg/apis/batch/validation/validation.go validateJobStatus and
// ValidateJobStatusUpdate): with JobManagedBy on (GA, locked in v1.36) every status write — the
// Job controller's or an external controller's for a Job with spec.managedBy — is held to the
// transitions clients of the Job API rely on (a finished Job stays finished, counters do not go
// down, Complete needs completionTime and SuccessCriteriaMet, Failed needs FailureTarget…). Most
// rules apply only when the status fields they read changed in this write, so a status that was
// already off does not block unrelated updates. The option switches follow the v1.35+ strategy
// (the resuming-Job and suspended-with-zero-completions exceptions included).
import { fieldError, OMIT_VALUE, type FieldError } from '../../errors/field-error.ts';
import { invalidWithJson, validateNonnegativeField } from '../../validation/meta-fields.ts';
import { isPlainObject, type KubeObject } from '../object.ts';
import { typedInternalJson } from './go-struct-diff.ts';
import { parseIndexInterval, validateIndexesFormat } from './job-policy-validation.ts';

interface JobStatus {
  conditions?: Array<{ type?: string; status?: string }> | null;
  startTime?: string | null;
  completionTime?: string | null;
  active?: number;
  succeeded?: number;
  failed?: number;
  ready?: number | null;
  terminating?: number | null;
  completedIndexes?: string;
  failedIndexes?: string | null;
  uncountedTerminatedPods?: { succeeded?: string[] | null; failed?: string[] | null } | null;
}

interface JobSpec {
  completions?: number | null;
  parallelism?: number | null;
  completionMode?: string;
  backoffLimitPerIndex?: number | null;
  suspend?: boolean | null;
  successPolicy?: unknown;
}

const statusOf = (job: KubeObject): JobStatus => (isPlainObject(job.status) ? job.status : {}) as JobStatus;
const specOf = (job: KubeObject): JobSpec => (isPlainObject(job.spec) ? job.spec : {}) as JobSpec;
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const present = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

/** IsConditionTrue / IsConditionFalse. */
const conditionIs = (job: KubeObject, type: string, status: 'True' | 'False'): boolean =>
  (statusOf(job).conditions ?? []).some((c) => c?.type === type && c?.status === status);
const isTrue = (job: KubeObject, type: string) => conditionIs(job, type, 'True');
const isComplete = (job: KubeObject) => isTrue(job, 'Complete');
const isFailed = (job: KubeObject) => isTrue(job, 'Failed');
const isFinished = (job: KubeObject) => isComplete(job) || isFailed(job);
const isFailureTarget = (job: KubeObject) => isTrue(job, 'FailureTarget');
const isSuccessCriteriaMet = (job: KubeObject) => isTrue(job, 'SuccessCriteriaMet');

/** A *metav1.Time as Go compares and prints it: second precision, UTC RFC 3339 (undefined when unset). */
function timeOf(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}
const renderTime = (seconds: number): string => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** apiequality.Semantic.DeepEqual of the two UncountedTerminatedPods (nil and empty slices alike). */
function uncountedKey(s: JobStatus): string {
  const u = s.uncountedTerminatedPods;
  if (!present(u)) return 'nil';
  return JSON.stringify([u.succeeded ?? [], u.failed ?? []]);
}

interface Options {
  rejectDecreasingSucceededCounter: boolean;
  rejectInvalidCompletedIndexes: boolean;
  rejectInvalidFailedIndexes: boolean;
  rejectCompletedIndexesForNonIndexedJob: boolean;
  rejectFailedIndexesForNoBackoffLimitPerIndex: boolean;
  rejectFailedIndexesOverlappingCompleted: boolean;
  rejectFailedJobWithoutFailureTarget: boolean;
  rejectCompleteJobWithoutSuccessCriteriaMet: boolean;
  rejectFinishedJobWithActivePods: boolean;
  rejectFinishedJobWithoutStartTime: boolean;
  rejectFinishedJobWithUncountedTerminatedPods: boolean;
  rejectStartTimeUpdateForUnsuspendedJob: boolean;
  rejectCompletionTimeBeforeStartTime: boolean;
  rejectNotCompleteJobWithCompletionTime: boolean;
  rejectCompleteJobWithoutCompletionTime: boolean;
  rejectCompleteJobWithFailedCondition: boolean;
  rejectCompleteJobWithFailureTargetCondition: boolean;
  rejectMoreReadyThanActivePods: boolean;
  rejectFinishedJobWithTerminatingPods: boolean;
}

/** getStatusValidationOptions: which rules this write is held to (always: decreasing failed, terminal conditions, mutating completionTime). */
function optionsFor(job: KubeObject, old: KubeObject): Options {
  const spec = specOf(job);
  const s = statusOf(job);
  const o = statusOf(old);
  const isIndexed = spec.completionMode === 'Indexed';
  const changed = (f: (j: KubeObject) => boolean) => f(old) !== f(job);
  const finishedChanged = changed(isFinished);
  const completeChanged = changed(isComplete);
  const failedChanged = changed(isFailed);
  const failureTargetChanged = changed(isFailureTarget);
  const successCriteriaMetChanged = changed(isSuccessCriteriaMet);
  const completedIndexesChanged = (o.completedIndexes ?? '') !== (s.completedIndexes ?? '');
  const failedIndexesChanged = (o.failedIndexes ?? null) !== (s.failedIndexes ?? null);
  const activeChanged = num(o.active) !== num(s.active);
  const startTimeChanged = timeOf(o.startTime) !== timeOf(s.startTime);
  const completionTimeChanged = timeOf(o.completionTime) !== timeOf(s.completionTime);
  const uncountedChanged = uncountedKey(o) !== uncountedKey(s);
  const readyChanged = (o.ready ?? null) !== (s.ready ?? null);
  const terminatingChanged = (o.terminating ?? null) !== (s.terminating ?? null);
  const suspendedWithZeroCompletions = spec.suspend === true && spec.completions === 0;
  // A resuming Job (Suspended True → False) may have its startTime reset (kubernetes#134521).
  const resuming = conditionIs(old, 'Suspended', 'True') && conditionIs(job, 'Suspended', 'False');
  return {
    // Indexed Jobs with completions == parallelism can be scaled down: their succeeded may drop.
    rejectDecreasingSucceededCounter: !isIndexed || (spec.completions ?? null) !== (spec.parallelism ?? null),
    rejectInvalidCompletedIndexes: completedIndexesChanged,
    rejectInvalidFailedIndexes: failedIndexesChanged,
    rejectCompletedIndexesForNonIndexedJob: completedIndexesChanged,
    rejectFailedIndexesForNoBackoffLimitPerIndex: failedIndexesChanged,
    rejectFailedIndexesOverlappingCompleted: failedIndexesChanged || completedIndexesChanged,
    rejectFailedJobWithoutFailureTarget: failedChanged || failedIndexesChanged,
    rejectCompleteJobWithoutSuccessCriteriaMet: completeChanged || successCriteriaMetChanged,
    rejectFinishedJobWithActivePods: finishedChanged || activeChanged,
    rejectFinishedJobWithoutStartTime: (finishedChanged || startTimeChanged) && !suspendedWithZeroCompletions,
    rejectFinishedJobWithUncountedTerminatedPods: finishedChanged || uncountedChanged,
    rejectStartTimeUpdateForUnsuspendedJob: startTimeChanged && !resuming,
    rejectCompletionTimeBeforeStartTime: startTimeChanged || completionTimeChanged,
    rejectNotCompleteJobWithCompletionTime: completeChanged || completionTimeChanged,
    rejectCompleteJobWithoutCompletionTime: completeChanged || completionTimeChanged,
    rejectCompleteJobWithFailedCondition: completeChanged || failedChanged,
    rejectCompleteJobWithFailureTargetCondition: completeChanged || failureTargetChanged,
    rejectMoreReadyThanActivePods: readyChanged || activeChanged,
    rejectFinishedJobWithTerminatingPods: finishedChanged || terminatingChanged,
  };
}

const conditionsError = (detail: string): FieldError => fieldError.invalid('status.conditions', OMIT_VALUE, detail);

/** validateFailedIndexesNotOverlapCompleted: intervals that do not parse are skipped (the format check reports them). */
function failedOverlapsCompleted(completedText: string, failedText: string, completions: number): string | undefined {
  if (completedText.length === 0 || failedText.length === 0) return undefined;
  const completed = completedText.split(',');
  const failed = failedText.split(',');
  let ci = 0;
  let fi = 0;
  let c = parseIndexInterval(completed[0]!, completions);
  let f = parseIndexInterval(failed[0]!, completions);
  while (ci < completed.length && fi < failed.length) {
    if (typeof c === 'string') {
      if (++ci < completed.length) c = parseIndexInterval(completed[ci]!, completions);
    } else if (typeof f === 'string') {
      if (++fi < failed.length) f = parseIndexInterval(failed[fi]!, completions);
    } else {
      const [cx, cy] = c;
      const [fx, fy] = f;
      if (cx <= fy && fx <= cy) return `failedIndexes and completedIndexes overlap at index: ${Math.max(cx, fx)}`;
      if (cx <= fx) {
        if (++ci < completed.length) c = parseIndexInterval(completed[ci]!, completions);
      } else if (++fi < failed.length) f = parseIndexInterval(failed[fi]!, completions);
    }
  }
  return undefined;
}

/** validateJobStatus with the write's options. */
function validateJobStatus(job: KubeObject, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const s = statusOf(job);
  const spec = specOf(job);
  for (const f of ['active', 'succeeded', 'failed'] as const) errs.push(...validateNonnegativeField(num(s[f]), `status.${f}`));
  for (const f of ['ready', 'terminating'] as const) if (present(s[f])) errs.push(...validateNonnegativeField(s[f], `status.${f}`));
  if (present(s.uncountedTerminatedPods)) {
    const seen = new Set<string>();
    for (const which of ['succeeded', 'failed'] as const) {
      (s.uncountedTerminatedPods[which] ?? []).forEach((uid, i) => {
        const path = `status.uncountedTerminatedPods.${which}[${i}]`;
        if (uid === '') errs.push(fieldError.invalid(path, uid, 'must not be empty'));
        else if (seen.has(uid)) errs.push(fieldError.duplicate(path, uid));
        else seen.add(uid);
      });
    }
  }
  const complete = isComplete(job);
  const failed = isFailed(job);
  const start = timeOf(s.startTime);
  const completion = timeOf(s.completionTime);
  if (opts.rejectCompleteJobWithFailedCondition && complete && failed) errs.push(conditionsError('cannot set Complete=True and Failed=true conditions'));
  if (opts.rejectCompleteJobWithFailureTargetCondition && complete && isFailureTarget(job)) errs.push(conditionsError('cannot set Complete=True and FailureTarget=true conditions'));
  if (opts.rejectNotCompleteJobWithCompletionTime && completion !== undefined && !complete) {
    errs.push(fieldError.invalid('status.completionTime', renderTime(completion), 'cannot set completionTime when there is no Complete=True condition'));
  }
  if (opts.rejectCompleteJobWithoutCompletionTime && completion === undefined && complete) errs.push(fieldError.required('status.completionTime', 'completionTime is required for Complete jobs'));
  if (opts.rejectCompletionTimeBeforeStartTime && start !== undefined && completion !== undefined && completion < start) {
    errs.push(fieldError.invalid('status.completionTime', renderTime(completion), 'completionTime cannot be set before startTime'));
  }
  if (opts.rejectFailedJobWithoutFailureTarget && failed && !isFailureTarget(job)) errs.push(conditionsError('cannot set Failed=True condition without the FailureTarget=true condition'));
  if (opts.rejectCompleteJobWithoutSuccessCriteriaMet && complete && !isSuccessCriteriaMet(job)) {
    errs.push(conditionsError('cannot set Complete=True condition without the SuccessCriteriaMet=true condition'));
  }
  const finished = complete || failed;
  if (opts.rejectFinishedJobWithActivePods && num(s.active) > 0 && finished) errs.push(fieldError.invalid('status.active', num(s.active), 'active>0 is invalid for finished job'));
  if (opts.rejectFinishedJobWithoutStartTime && start === undefined && finished) errs.push(fieldError.required('status.startTime', 'startTime is required for finished job'));
  const uncounted = s.uncountedTerminatedPods;
  if (opts.rejectFinishedJobWithUncountedTerminatedPods && finished && present(uncounted) && (uncounted.failed ?? []).length + (uncounted.succeeded ?? []).length > 0) {
    // json.Marshal of the internal batch.UncountedTerminatedPods: Go field names, nil slices as null.
    const json = typedInternalJson('batch.v1.UncountedTerminatedPods', uncounted);
    errs.push(invalidWithJson('status.uncountedTerminatedPods', uncounted, json, 'uncountedTerminatedPods needs to be empty for finished job'));
  }
  const completedIndexes = s.completedIndexes ?? '';
  if (opts.rejectInvalidCompletedIndexes && present(spec.completions)) {
    const parsed = validateIndexesFormat(completedIndexes, spec.completions);
    if (typeof parsed === 'string') errs.push(fieldError.invalid('status.completedIndexes', completedIndexes, `error parsing completedIndexes: ${parsed}`));
  }
  if (opts.rejectInvalidFailedIndexes && present(spec.completions) && present(spec.backoffLimitPerIndex) && present(s.failedIndexes)) {
    const parsed = validateIndexesFormat(s.failedIndexes, spec.completions);
    if (typeof parsed === 'string') errs.push(fieldError.invalid('status.failedIndexes', s.failedIndexes, `error parsing failedIndexes: ${parsed}`));
  }
  const isIndexed = spec.completionMode === 'Indexed';
  if (opts.rejectCompletedIndexesForNonIndexedJob && completedIndexes.length !== 0 && !isIndexed) {
    errs.push(fieldError.invalid('status.completedIndexes', completedIndexes, 'cannot set non-empty completedIndexes when non-indexed completion mode'));
  }
  // Also keeps failedIndexes off non-indexed Jobs, whose backoffLimitPerIndex is always null.
  if (opts.rejectFailedIndexesForNoBackoffLimitPerIndex && !present(spec.backoffLimitPerIndex) && present(s.failedIndexes)) {
    errs.push(fieldError.invalid('status.failedIndexes', s.failedIndexes, 'cannot set non-null failedIndexes when backoffLimitPerIndex is null'));
  }
  if (opts.rejectFailedIndexesOverlappingCompleted && present(spec.completions) && present(s.failedIndexes)) {
    const overlap = failedOverlapsCompleted(completedIndexes, s.failedIndexes, spec.completions);
    if (overlap) errs.push(fieldError.invalid('status.failedIndexes', s.failedIndexes, overlap));
  }
  if (opts.rejectFinishedJobWithTerminatingPods && present(s.terminating) && s.terminating > 0 && finished) {
    errs.push(fieldError.invalid('status.terminating', s.terminating, 'terminating>0 is invalid for finished job'));
  }
  if (opts.rejectMoreReadyThanActivePods && present(s.ready) && s.ready > num(s.active)) errs.push(fieldError.invalid('status.ready', s.ready, 'cannot set more ready pods than active'));
  // AllowForSuccessCriteriaMetInExtendedScope is true: only these SuccessCriteriaMet rules remain.
  const successCriteriaMet = isSuccessCriteriaMet(job);
  if (successCriteriaMet && failed) errs.push(conditionsError('cannot set SuccessCriteriaMet=True and Failed=true conditions'));
  if (successCriteriaMet && isFailureTarget(job)) errs.push(conditionsError('cannot set SuccessCriteriaMet=True and FailureTarget=true conditions'));
  if (present(spec.successPolicy) && !successCriteriaMet && complete) {
    errs.push(conditionsError('cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True'));
  }
  return errs;
}

/** ValidateJobStatusUpdate (the registry checks the ObjectMeta update first). */
export function validateJobStatusUpdate(job: KubeObject, old: KubeObject): FieldError[] {
  const opts = optionsFor(job, old);
  const errs = validateJobStatus(job, opts);
  const s = statusOf(job);
  const o = statusOf(old);
  // RejectDisablingTerminalCondition.
  for (const type of ['Failed', 'Complete', 'FailureTarget']) {
    if (isTrue(old, type) && !isTrue(job, type)) errs.push(conditionsError(`cannot disable the terminal ${type}=True condition`));
  }
  // RejectDecreasingFailedCounter.
  if (num(s.failed) < num(o.failed)) errs.push(fieldError.invalid('status.failed', num(s.failed), 'cannot decrease the failed counter'));
  if (opts.rejectDecreasingSucceededCounter && num(s.succeeded) < num(o.succeeded)) {
    errs.push(fieldError.invalid('status.succeeded', num(s.succeeded), 'cannot decrease the succeeded counter'));
  }
  // RejectMutatingCompletionTime: unsetting it is left to RejectCompleteJobWithoutCompletionTime.
  const completion = timeOf(s.completionTime);
  const oldCompletion = timeOf(o.completionTime);
  if (completion !== undefined && oldCompletion !== undefined && completion !== oldCompletion) {
    errs.push(fieldError.invalid('status.completionTime', renderTime(completion), 'completionTime cannot be mutated'));
  }
  // The old startTime must stay for an unsuspended Job (nil → set is the expected transition).
  if (opts.rejectStartTimeUpdateForUnsuspendedJob && timeOf(o.startTime) !== undefined && timeOf(o.startTime) !== timeOf(s.startTime) && specOf(job).suspend !== true) {
    errs.push(fieldError.required('status.startTime', 'startTime cannot be removed for unsuspended job'));
  }
  if (isSuccessCriteriaMet(old) && !isSuccessCriteriaMet(job)) errs.push(conditionsError('cannot disable the SuccessCriteriaMet=True condition'));
  if (isComplete(old) && !isSuccessCriteriaMet(old) && isSuccessCriteriaMet(job)) {
    errs.push(conditionsError('cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions'));
  }
  return errs;
}
