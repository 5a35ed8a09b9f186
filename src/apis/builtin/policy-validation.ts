// ValidatePodDisruptionBudget (pkg/apis/policy/validation/validation.go, v1.36), run on create and
// update alike: minAvailable and maxUnavailable exclusive, each a non-negative integer or a
// percentage of at most 100% (apps validation's ValidatePositiveIntOrPercent and
// IsNotMoreThan100Percent), the selector's labels, and the unhealthy-pod eviction policy.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { invalidWithJson, validateNonnegativeField } from '../../validation/meta-fields.ts';
import { regexError } from '../../validation/names.ts';
import { isPlainObject, type KubeObject } from '../object.ts';
import { labelSelectorJson, validateLabelSelector } from './workload-validation.ts';

type Json = Record<string, unknown>;
const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];
const PERCENT_FMT = '[0-9]+%';
const percentRe = new RegExp(`^${PERCENT_FMT}$`);

/** validation.IsValidPercent. */
function isValidPercent(value: string): string[] {
  return percentRe.test(value) ? [] : [regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT_FMT, '1%', '93%')];
}

/** ValidatePositiveIntOrPercent then IsNotMoreThan100Percent, on an int-or-string field. */
export function validateIntOrPercent(value: unknown, path: string): FieldError[] {
  if (typeof value === 'number') return validateNonnegativeField(value, path);
  if (typeof value !== 'string') return [];
  const errs = isValidPercent(value).map((m) => fieldError.invalid(path, value, m));
  if (errs.length === 0 && Number(value.slice(0, -1)) > 100) errs.push(fieldError.invalid(path, value, 'must not be greater than 100%'));
  return errs;
}

const set = (v: unknown): boolean => v !== undefined && v !== null;

/** The internal PodDisruptionBudgetSpec as encoding/json writes it (struct field order, omitempty). */
function specJson(spec: Json): string {
  const parts: string[] = [];
  if (set(spec.minAvailable)) parts.push(`"minAvailable":${JSON.stringify(spec.minAvailable)}`);
  if (set(spec.selector)) parts.push(`"selector":${labelSelectorJson(spec.selector)}`);
  if (set(spec.maxUnavailable)) parts.push(`"maxUnavailable":${JSON.stringify(spec.maxUnavailable)}`);
  if (set(spec.unhealthyPodEvictionPolicy)) parts.push(`"unhealthyPodEvictionPolicy":${JSON.stringify(spec.unhealthyPodEvictionPolicy)}`);
  return `{${parts.join(',')}}`;
}

export function validatePodDisruptionBudget(pdb: KubeObject): FieldError[] {
  const spec = (isPlainObject(pdb.spec) ? pdb.spec : {}) as Json;
  const errs: FieldError[] = [];
  if (set(spec.minAvailable) && set(spec.maxUnavailable)) errs.push(invalidWithJson('spec', spec, specJson(spec), 'minAvailable and maxUnavailable cannot be both set'));
  if (set(spec.minAvailable)) errs.push(...validateIntOrPercent(spec.minAvailable, 'spec.minAvailable'));
  if (set(spec.maxUnavailable)) errs.push(...validateIntOrPercent(spec.maxUnavailable, 'spec.maxUnavailable'));
  errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (typeof policy === 'string' && !EVICTION_POLICIES.includes(policy)) errs.push(fieldError.notSupported('spec.unhealthyPodEvictionPolicy', policy, EVICTION_POLICIES));
  return errs;
}
