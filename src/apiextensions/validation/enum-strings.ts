// validateEnumStrings (validation.go): required when empty (if asked), else one of the accepted values.
import { fieldError, type FieldError } from '../../errors/field-error.ts';

export function validateEnumStrings(path: string, value: string, accepted: readonly string[], required: boolean): FieldError[] {
  if (value === '') return required ? [fieldError.required(path, '')] : [];
  return accepted.includes(value) ? [] : [fieldError.notSupported(path, value, accepted)];
}
