// kube-openapi's validation result and error values, and their translation into field errors
// (apiextensions validation.go kubeOpenAPIResultToFieldErrors).
import { fieldError, type FieldError } from '../errors/field-error.ts';
import { goJson } from '../errors/go-format.ts';

export type OpenAPICode =
  | 'InvalidType'
  | 'Required'
  | 'TooLong'
  | 'TooShort'
  | 'Pattern'
  | 'Enum'
  | 'MultipleOf'
  | 'Max'
  | 'Min'
  | 'Unique'
  | 'MaxItems'
  | 'MinItems'
  | 'TooFewProperties'
  | 'TooManyProperties'
  | 'UnallowedProperty'
  | 'MultipleOfMustBePositive';

/** errors.Validation (code set) or a plain composite error (code undefined, e.g. anyOf texts). */
export interface OpenAPIError {
  code?: OpenAPICode;
  /** The kube-openapi path (`spec.replicas`, `.alpha` for root required). */
  name: string;
  message: string;
  value?: unknown;
  valid?: number;
  values?: readonly unknown[];
}

// Shared and frozen while empty: most nodes validate cleanly, so no array is allocated for them.
const NO_ERRORS = Object.freeze([]) as unknown as OpenAPIError[];

/** validate.Result: errors de-duplicated by message text, plus the match count anyOf/oneOf rank by. */

export class Result {
  errors: OpenAPIError[] = NO_ERRORS;
  matchCount = 0;
  /** The messages in `errors`. kube-openapi's AddErrors scans the list per error (quadratic: a
   * 3 MiB body with 600k wrong-typed items ran for hours); a set gives the same result. */
  #messages: Set<string> | undefined;

  add(e: OpenAPIError): void {
    if (this.errors === NO_ERRORS) {
      this.errors = [];
      this.#messages = new Set();
    }
    if (this.#messages!.has(e.message)) return;
    this.#messages!.add(e.message);
    this.errors.push(e);
  }

  merge(other: Result | undefined): void {
    if (!other) return;
    for (const e of other.errors) this.add(e);
    this.matchCount += other.matchCount;
  }

  get valid(): boolean {
    return this.errors.length === 0;
  }
}

/**
 * Turns the result into field errors. `base` is the field path the validator was rooted at (''
 * for a whole object, `status` for the status subresource); an error without a name lands on the
 * base, which Go prints as `<nil>` when there is none.
 */
export function toFieldErrors(result: Result, base: string): FieldError[] {
  const out: FieldError[] = [];
  const basePath = base === '' ? '<nil>' : base;
  for (const e of result.errors) {
    if (e.code === undefined) {
      out.push(fieldError.invalid(basePath, '', e.message));
      continue;
    }
    let path = basePath;
    if (e.name.length > 0 && e.name !== '.') {
      const child = e.name.startsWith('.') ? e.name.slice(1) : e.name;
      path = base === '' ? child : `${base}.${child}`;
    }
    const value = e.value === undefined || e.value === null ? '' : e.value;
    switch (e.code) {
      case 'Required':
        out.push(fieldError.required(path));
        break;
      case 'Enum':
        out.push(
          fieldError.notSupported(
            path,
            e.value === undefined ? null : e.value,
            (e.values ?? []).map((v) => (typeof v === 'string' ? v : goJson(v))),
          ),
        );
        break;
      case 'TooLong':
        out.push(fieldError.tooLong(path, e.valid ?? -1));
        break;
      case 'MaxItems':
      case 'TooManyProperties':
        out.push(fieldError.tooMany(path, typeof e.value === 'number' ? e.value : -1, e.valid ?? -1));
        break;
      case 'InvalidType':
        out.push(fieldError.typeInvalid(path, value, e.message));
        break;
      default:
        out.push(fieldError.invalid(path, value, e.message));
    }
  }
  return out;
}
