// The parts of validateJobSpec (pkg/apis/batch/validation/validation.go, v1.36) about how a Job
// retries and ends: backoffLimitPerIndex and maxFailedIndexes, managedBy, the completion mode's limits,
// podFailurePolicy, successPolicy and podReplacementPolicy. Texts, paths and order as in Go.
import { fieldError, OMIT_VALUE, type FieldError } from '../../errors/field-error.ts';
import { goQuote } from '../../errors/go-format.ts';
import { invalidWithJson, validateDomainPrefixedPath, validateNonnegativeField } from '../../validation/meta-fields.ts';
import { isQualifiedName } from '../../validation/names.ts';
import { typedInternalJson } from './go-struct-diff.ts';
import { asObject } from './shared.ts';

type Json = Record<string, unknown>;
const int = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

const MAX_PARALLELISM_FOR_INDEXED_JOB = 100_000;
const MAX_FAILED_INDEXES_FOR_INDEXED_JOB = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
const MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
const MAX_POD_FAILURE_POLICY_RULES = 20;
const MAX_ON_EXIT_CODES_VALUES = 255;
const MAX_ON_POD_CONDITIONS_PATTERNS = 20;
const MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024;
const MAX_SUCCESS_POLICY_RULES = 20;
const MAX_MANAGED_BY_LENGTH = 63;

const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const OPERATORS = ['In', 'NotIn'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const REPLACEMENT_POLICIES = ['Failed', 'TerminatingOrFailed'];

/** fmt's %q of a []string: `["a" "b"]`. */
const quotedList = (values: readonly string[]): string => `[${values.map(goQuote).join(' ')}]`;

/** validateJobSpec from backoffLimitPerIndex up to (not including) the pod template. */
export function validateJobRetryAndEnd(spec: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const perIndex = int(spec.backoffLimitPerIndex);
  const maxFailed = int(spec.maxFailedIndexes);
  const completions = int(spec.completions);
  const parallelism = int(spec.parallelism);
  if (perIndex !== undefined) errs.push(...validateNonnegativeField(perIndex, `${path}.backoffLimitPerIndex`));
  if (maxFailed !== undefined) {
    errs.push(...validateNonnegativeField(maxFailed, `${path}.maxFailedIndexes`));
    if (perIndex === undefined) errs.push(fieldError.required(`${path}.backoffLimitPerIndex`, 'when maxFailedIndexes is specified'));
  }
  if (typeof spec.managedBy === 'string') {
    errs.push(...validateDomainPrefixedPath(spec.managedBy, `${path}.managedBy`));
    if (spec.managedBy.length > MAX_MANAGED_BY_LENGTH) errs.push(fieldError.tooLong(`${path}.managedBy`, MAX_MANAGED_BY_LENGTH));
  }
  const mode = spec.completionMode;
  if (mode !== undefined && mode !== null) {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(fieldError.notSupported(`${path}.completionMode`, mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') {
      if (completions === undefined) errs.push(fieldError.required(`${path}.completions`, 'when completion mode is Indexed'));
      if (parallelism !== undefined && parallelism > MAX_PARALLELISM_FOR_INDEXED_JOB) {
        errs.push(fieldError.invalid(`${path}.parallelism`, parallelism, `must be less than or equal to ${MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed`));
      }
      if (completions !== undefined && maxFailed !== undefined && maxFailed > completions) errs.push(fieldError.invalid(`${path}.maxFailedIndexes`, maxFailed, 'must be less than or equal to completions'));
      if (maxFailed !== undefined && maxFailed > MAX_FAILED_INDEXES_FOR_INDEXED_JOB) {
        errs.push(fieldError.invalid(`${path}.maxFailedIndexes`, maxFailed, `must be less than or equal to ${MAX_FAILED_INDEXES_FOR_INDEXED_JOB}`));
      }
      if (completions !== undefined && completions > COMPLETIONS_SOFT_LIMIT && perIndex !== undefined) {
        const high = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;
        if (maxFailed === undefined) errs.push(fieldError.required(`${path}.maxFailedIndexes`, `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`));
        if (parallelism !== undefined && parallelism > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
          errs.push(fieldError.invalid(`${path}.parallelism`, parallelism, `must be less than or equal to ${PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} ${high}`));
        }
        if (maxFailed !== undefined && maxFailed > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS) {
          errs.push(fieldError.invalid(`${path}.maxFailedIndexes`, maxFailed, `must be less than or equal to ${MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS} ${high}`));
        }
      }
    }
  }
  const indexed = mode === 'Indexed';
  if (mode === undefined || mode === null || mode === 'NonIndexed') {
    if (perIndex !== undefined) errs.push(fieldError.invalid(`${path}.backoffLimitPerIndex`, perIndex, 'requires indexed completion mode'));
    if (maxFailed !== undefined) errs.push(fieldError.invalid(`${path}.maxFailedIndexes`, maxFailed, 'requires indexed completion mode'));
  }
  const failurePolicy = asObject(spec.podFailurePolicy);
  if (failurePolicy) errs.push(...validatePodFailurePolicy(spec, failurePolicy, `${path}.podFailurePolicy`));
  const successPolicy = asObject(spec.successPolicy);
  if (successPolicy) {
    if (!indexed) errs.push(invalidWithJson(`${path}.successPolicy`, successPolicy, typedInternalJson('batch.v1.SuccessPolicy', successPolicy), 'requires indexed completion mode'));
    else errs.push(...validateSuccessPolicy(successPolicy, completions ?? 0, `${path}.successPolicy`));
  }
  const replacement = spec.podReplacementPolicy;
  if (typeof replacement === 'string') {
    if (failurePolicy) {
      if (replacement !== 'Failed') errs.push(fieldError.notSupported(`${path}.podReplacementPolicy`, replacement, ['Failed']));
    } else if (!REPLACEMENT_POLICIES.includes(replacement)) errs.push(fieldError.notSupported(`${path}.podReplacementPolicy`, replacement, REPLACEMENT_POLICIES));
  }
  return errs;
}

/** The restart policy check validateJobSpec adds once the policy is OnFailure or Never. */
export function validateRestartPolicyForFailurePolicy(spec: Json, restartPolicy: unknown, path: string): FieldError[] {
  if (!asObject(spec.podFailurePolicy) || restartPolicy === 'Never') return [];
  return [fieldError.invalid(`${path}.template.spec.restartPolicy`, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified')];
}

function validatePodFailurePolicy(spec: Json, policy: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const rules = Array.isArray(policy.rules) ? policy.rules : [];
  if (rules.length > MAX_POD_FAILURE_POLICY_RULES) errs.push(fieldError.tooMany(`${path}.rules`, rules.length, MAX_POD_FAILURE_POLICY_RULES));
  const podSpec = asObject(asObject(spec.template)?.spec) ?? {};
  const containerNames = new Set(
    [...(Array.isArray(podSpec.containers) ? podSpec.containers : []), ...(Array.isArray(podSpec.initContainers) ? podSpec.initContainers : [])].map((c) => asObject(c)?.name),
  );
  rules.forEach((rule, i) => errs.push(...validatePodFailurePolicyRule(spec, asObject(rule) ?? {}, `${path}.rules[${i}]`, containerNames)));
  return errs;
}

function validatePodFailurePolicyRule(spec: Json, rule: Json, path: string, containerNames: Set<unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const action = typeof rule.action === 'string' ? rule.action : '';
  if (action === '') errs.push(fieldError.required(`${path}.action`, `valid values: ${quotedList(ACTIONS)}`));
  else if (action === 'FailIndex') {
    if (int(spec.backoffLimitPerIndex) === undefined) errs.push(fieldError.invalid(`${path}.action`, action, 'requires the backoffLimitPerIndex to be set'));
  } else if (!ACTIONS.includes(action)) errs.push(fieldError.notSupported(`${path}.action`, action, ACTIONS));
  const onExitCodes = asObject(rule.onExitCodes);
  const onPodConditions = Array.isArray(rule.onPodConditions) ? rule.onPodConditions : [];
  if (onExitCodes) errs.push(...validateOnExitCodes(onExitCodes, `${path}.onExitCodes`, containerNames));
  if (onPodConditions.length > 0) errs.push(...validateOnPodConditions(onPodConditions, `${path}.onPodConditions`));
  if (onExitCodes && onPodConditions.length > 0) errs.push(fieldError.invalid(path, OMIT_VALUE, 'specifying both OnExitCodes and OnPodConditions is not supported'));
  if (!onExitCodes && onPodConditions.length === 0) errs.push(fieldError.invalid(path, OMIT_VALUE, 'specifying one of OnExitCodes and OnPodConditions is required'));
  return errs;
}

function validateOnPodConditions(patterns: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (patterns.length > MAX_ON_POD_CONDITIONS_PATTERNS) errs.push(fieldError.tooMany(path, patterns.length, MAX_ON_POD_CONDITIONS_PATTERNS));
  patterns.forEach((p, j) => {
    const pattern = asObject(p) ?? {};
    const type = typeof pattern.type === 'string' ? pattern.type : '';
    // ValidateQualifiedName.
    for (const msg of isQualifiedName(type)) errs.push(fieldError.invalid(`${path}[${j}].type`, type, msg));
    const status = typeof pattern.status === 'string' ? pattern.status : '';
    if (status === '') errs.push(fieldError.required(`${path}[${j}].status`, `valid values: ${quotedList(CONDITION_STATUSES)}`));
    else if (!CONDITION_STATUSES.includes(status)) errs.push(fieldError.notSupported(`${path}[${j}].status`, status, CONDITION_STATUSES));
  });
  return errs;
}

function validateOnExitCodes(requirement: Json, path: string, containerNames: Set<unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const operator = typeof requirement.operator === 'string' ? requirement.operator : '';
  if (operator === '') errs.push(fieldError.required(`${path}.operator`, `valid values: ${quotedList(OPERATORS)}`));
  else if (!OPERATORS.includes(operator)) errs.push(fieldError.notSupported(`${path}.operator`, operator, OPERATORS));
  if (typeof requirement.containerName === 'string' && !containerNames.has(requirement.containerName)) {
    errs.push(fieldError.invalid(`${path}.containerName`, requirement.containerName, 'must be one of the container or initContainer names in the pod template'));
  }
  const values = (Array.isArray(requirement.values) ? requirement.values : []) as number[];
  if (values.length === 0) errs.push(fieldError.invalid(`${path}.values`, requirement.values ?? null, 'at least one value is required'));
  else if (values.length > MAX_ON_EXIT_CODES_VALUES) errs.push(fieldError.tooMany(`${path}.values`, values.length, MAX_ON_EXIT_CODES_VALUES));
  let ordered = true;
  const seen = new Set<number>();
  values.forEach((value, j) => {
    if (operator === 'In' && value === 0) errs.push(fieldError.invalid(`${path}.values[${j}]`, value, 'must not be 0 for the In operator'));
    if (seen.has(value)) errs.push(fieldError.duplicate(`${path}.values[${j}]`, value));
    else seen.add(value);
    if (j > 0 && values[j - 1]! > value) ordered = false;
  });
  if (!ordered) errs.push(fieldError.invalid(`${path}.values`, values, 'must be ordered'));
  return errs;
}

function validateSuccessPolicy(policy: Json, completions: number, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const rules = Array.isArray(policy.rules) ? policy.rules : [];
  if (rules.length === 0) errs.push(fieldError.required(`${path}.rules`, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > MAX_SUCCESS_POLICY_RULES) errs.push(fieldError.tooMany(`${path}.rules`, rules.length, MAX_SUCCESS_POLICY_RULES));
  rules.forEach((r, i) => {
    const rule = asObject(r) ?? {};
    const rulePath = `${path}.rules[${i}]`;
    const indexes = typeof rule.succeededIndexes === 'string' ? rule.succeededIndexes : undefined;
    const count = int(rule.succeededCount);
    if (count === undefined && indexes === undefined) errs.push(fieldError.required(rulePath, 'at least one of succeededCount or succeededIndexes must be specified'));
    let total = 0;
    if (indexes !== undefined) {
      if (indexes.length > MAX_SUCCEEDED_INDEXES_LENGTH) errs.push(fieldError.tooLong(`${rulePath}.succeededIndexes`, MAX_SUCCEEDED_INDEXES_LENGTH));
      const parsed = validateIndexesFormat(indexes, completions);
      if (typeof parsed === 'string') errs.push(fieldError.invalid(`${rulePath}.succeededIndexes`, indexes, `error parsing succeededIndexes: ${parsed}`));
      else total = parsed;
    }
    if (count !== undefined) {
      const countPath = `${rulePath}.succeededCount`;
      errs.push(...validateNonnegativeField(count, countPath));
      if (count > completions) errs.push(fieldError.invalid(countPath, count, `must be less than or equal to ${completions} (the number of specified completions)`));
      if (indexes !== undefined && count > total) errs.push(fieldError.invalid(countPath, count, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`));
    }
  });
  return errs;
}

/** validateIndexesFormat: how many indexes the text names, or what is wrong with it. */
export function validateIndexesFormat(text: string, completions: number): number | string {
  if (text.length === 0) return 0;
  let last: number | undefined;
  let total = 0;
  for (const part of text.split(',')) {
    const interval = parseIndexInterval(part, completions);
    if (typeof interval === 'string') return interval;
    const [x, y] = interval;
    if (last !== undefined && last >= x) return `non-increasing order, previous: ${last}, current: ${x}`;
    total += y - x + 1;
    last = y;
  }
  return total;
}

export function parseIndexInterval(text: string, completions: number): [number, number] | string {
  const limits = text.split('-');
  if (limits.length > 2) return `the fragment ${goQuote(text)} violates the requirement that an index interval can have at most two parts separated by '-'`;
  const atoi = (s: string) => (/^[+-]?\d+$/.test(s) ? Number(s) : undefined);
  const x = atoi(limits[0]!);
  if (x === undefined) return `cannot convert string to integer for index: ${goQuote(limits[0]!)}`;
  if (x >= completions) return `too large index: ${goQuote(limits[0]!)}`;
  if (limits.length === 1) return [x, x];
  const y = atoi(limits[1]!);
  if (y === undefined) return `cannot convert string to integer for index: ${goQuote(limits[1]!)}`;
  if (y >= completions) return `too large index: ${goQuote(limits[1]!)}`;
  if (x >= y) return `non-increasing order, previous: ${x}, current: ${y}`;
  return [x, y];
}
