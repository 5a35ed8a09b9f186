// ValidateCustomResourceColumnDefinition and validateSimpleJSONPath (validation.go).
import { fieldError, fieldPath, type FieldError } from '../../errors/field-error.ts';
import type { Column } from './internal-types.ts';

// sets.NewString(...).List() order.
const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

export function validateColumn(col: Column, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (col.name.length === 0) errs.push(fieldError.required(fieldPath.child(path, 'name'), ''));

  const typeDetail = `must be one of ${COLUMN_TYPES.join(',')}`;
  if (col.type.length === 0) errs.push(fieldError.required(fieldPath.child(path, 'type'), typeDetail));
  else if (!COLUMN_TYPES.includes(col.type)) errs.push(fieldError.invalid(fieldPath.child(path, 'type'), col.type, typeDetail));

  if (col.format.length > 0 && !COLUMN_FORMATS.includes(col.format)) {
    errs.push(fieldError.invalid(fieldPath.child(path, 'format'), col.format, `must be one of ${COLUMN_FORMATS.join(',')}`));
  }

  // The internal field is JSONPath, and so is the error path (not the v1 jsonPath).
  if (col.jsonPath.length === 0) errs.push(fieldError.required(fieldPath.child(path, 'JSONPath'), ''));
  else errs.push(...validateSimpleJSONPath(col.jsonPath, fieldPath.child(path, 'JSONPath')));
  return errs;
}

export function validateSimpleJSONPath(s: string, path: string): FieldError[] {
  if (s.length === 0) return [fieldError.invalid(path, s, 'must not be empty')];
  if (s[0] !== '.') return [fieldError.invalid(path, s, 'must be a simple json path starting with .')];
  // Go's other branch (a split yielding no parts) cannot happen.
  return [];
}
