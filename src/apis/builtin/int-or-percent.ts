// The int-or-percent checks of pkg/apis/apps/validation (v1.36) that Deployments, DaemonSets,
// StatefulSets and (through policy validation) PodDisruptionBudgets share: ValidatePositiveIntOrPercent,
// IsNotMoreThan100Percent and getIntOrPercentValue, on an intstr.IntOrString as JSON holds it.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { validateNonnegativeField } from '../../validation/meta-fields.ts';
import { regexError } from '../../validation/names.ts';

const PERCENT_FMT = '[0-9]+%';
const percentRe = new RegExp(`^${PERCENT_FMT}$`);

/** validation.IsValidPercent. */
export function isValidPercent(value: string): string[] {
  return percentRe.test(value) ? [] : [regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT_FMT, '1%', '93%')];
}

/** ValidatePositiveIntOrPercent: a valid percent string, or a non-negative integer (an unset one is 0). */
export function validatePositiveIntOrPercent(value: unknown, path: string): FieldError[] {
  if (typeof value === 'string') return isValidPercent(value).map((m) => fieldError.invalid(path, value, m));
  return validateNonnegativeField(typeof value === 'number' ? value : 0, path);
}

/** getPercentValue: the number of a valid percent string. */
function percentValue(value: unknown): number | undefined {
  if (typeof value !== 'string' || isValidPercent(value).length) return undefined;
  return Number(value.slice(0, -1));
}

/** getIntOrPercentValue: a percent's number, else intstr's IntValue (Atoi of a string, 0 when it fails). */
export function intOrPercentValue(value: unknown): number {
  const percent = percentValue(value);
  if (percent !== undefined) return percent;
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^[+-]?\d+$/.test(value)) return Number(value);
  return 0;
}

/** IsNotMoreThan100Percent: only a valid percent string is checked. */
export function isNotMoreThan100Percent(value: unknown, path: string): FieldError[] {
  const percent = percentValue(value);
  return percent !== undefined && percent > 100 ? [fieldError.invalid(path, value, 'must not be greater than 100%')] : [];
}
