// ValidatePodDisruptionBudget (pkg/apis/policy/validation/validation.go, v1.36), run on create and
// update alike: minAvailable and maxUnavailable exclusive, each a non-negative integer or a
// percentage of at most 100% (apps validation's ValidatePositiveIntOrPercent and
// IsNotMoreThan100Percent), the selector's labels, and the unhealthy-pod eviction policy.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { invalidWithJson } from '../../validation/meta-fields.ts';
import { isPlainObject, type KubeObject } from '../object.ts';
import { labelSelectorJson, validateLabelSelector } from './label-selector-validation.ts';
import { isNotMoreThan100Percent, validatePositiveIntOrPercent } from './int-or-percent.ts';

type Json = Record<string, unknown>;
const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];
/** ValidatePositiveIntOrPercent then IsNotMoreThan100Percent, as ValidatePodDisruptionBudgetSpec runs them. */
const validateIntOrPercent = (value: unknown, path: string): FieldError[] => [...validatePositiveIntOrPercent(value, path), ...isNotMoreThan100Percent(value, path)];

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
