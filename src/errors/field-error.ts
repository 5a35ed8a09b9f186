// Field errors as values with a path, rendered once — the shape of k8s.io/apimachinery's field.Error.
import { goFloat, goJson, goQuote } from './go-format.ts';

export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooShort'
  | 'FieldValueTooMany'
  | 'FieldValueTooFew'
  | 'FieldValueTypeInvalid'
  | 'InternalError';

/** Marks a field error whose value is not printed (`Invalid value: <detail>`). */
export const OMIT_VALUE: unique symbol = Symbol('omit-value');

export interface FieldError {
  type: FieldErrorType;
  /** Rendered path: `spec.containers[0].image`, `metadata.labels[app]`. */
  field: string;
  value?: unknown;
  detail: string;
}

const LABELS: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooShort: 'Too short',
  FieldValueTooMany: 'Too many',
  FieldValueTooFew: 'Too few',
  FieldValueTypeInvalid: 'Invalid value',
  InternalError: 'Internal error',
};

const SHOWS_VALUE = new Set<FieldErrorType>([
  'FieldValueInvalid',
  'FieldValueTypeInvalid',
  'FieldValueNotSupported',
  'FieldValueNotFound',
  'FieldValueDuplicate',
  'FieldValueTooMany',
  'FieldValueTooFew',
]);

/** How a value is printed inside a message (1.34+ rules). */
export function renderValue(value: unknown): string {
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return goFloat(value);
  return goJson(value ?? null);
}

/** The error text without the field: `Invalid value: "x": detail`. */
export function fieldErrorBody(e: FieldError): string {
  let s = LABELS[e.type];
  if (SHOWS_VALUE.has(e.type) && e.value !== OMIT_VALUE) {
    s += ': ' + renderValue(e.value);
  }
  if (e.detail) s += ': ' + e.detail;
  return s;
}

export function fieldErrorMessage(e: FieldError): string {
  return `${e.field}: ${fieldErrorBody(e)}`;
}

/** utilerrors.NewAggregate(...).Error(): de-duplicated, bare when single, bracketed otherwise. */
export function aggregateMessages(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length === 1) return unique[0]!;
  return `[${unique.join(', ')}]`;
}

// Constructors, named as in field/errors.go.
export const fieldError = {
  required: (field: string, detail = ''): FieldError => ({ type: 'FieldValueRequired', field, detail }),
  forbidden: (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail }),
  invalid: (field: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, value, detail }),
  typeInvalid: (field: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueTypeInvalid', field, value, detail }),
  duplicate: (field: string, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, value, detail: '' }),
  notFound: (field: string, value: unknown): FieldError => ({ type: 'FieldValueNotFound', field, value, detail: '' }),
  internal: (field: string, err: string): FieldError => ({ type: 'InternalError', field, detail: err }),
  notSupported: (field: string, value: unknown, supported: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    value,
    detail: supported.length ? 'supported values: ' + supported.map(goQuote).join(', ') : '',
  }),
  tooLong: (field: string, maxBytes: number): FieldError => ({
    type: 'FieldValueTooLong',
    field,
    detail: maxBytes < 0 ? 'value is too long' : `may not be more than ${maxBytes} ${maxBytes === 1 ? 'byte' : 'bytes'}`,
  }),
  tooMany: (field: string, actual: number | undefined, max: number): FieldError => ({
    type: 'FieldValueTooMany',
    field,
    value: actual === undefined ? OMIT_VALUE : actual,
    detail: max < 0 ? 'has too many items' : `must have at most ${max} ${max === 1 ? 'item' : 'items'}`,
  }),
};

/** Builds child paths the way field.Path.String() prints them. */
export const fieldPath = {
  child: (base: string, ...names: string[]): string => [base, ...names].filter((p) => p !== '').join('.'),
  index: (base: string, i: number): string => `${base}[${i}]`,
  key: (base: string, key: string): string => `${base}[${key}]`,
};
