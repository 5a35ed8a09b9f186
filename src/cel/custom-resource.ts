// The CEL step of the custom resource strategy (customresource/strategy.go Validate and
// ValidateUpdate): skipped with one extra error when earlier errors are "blocking" (the object is
// too broken for rules to make sense), otherwise every rule runs; failures ratcheted on update
// become Warning headers, handed to the strategy's warnings hook for the same object.
import { fieldError, type FieldError, type FieldErrorType } from '../errors/field-error.ts';
import type { CompiledSchema } from '../schema/schema-node.ts';
import { CelValidator } from './validator.ts';

/** hasBlockingErr: schema errors after which CEL rules are not evaluated. */
const BLOCKING: ReadonlySet<FieldErrorType> = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

export interface CustomResourceCel {
  /** The CEL errors to append to `prior` (the schema's errors for the same write). */
  validate(prior: readonly FieldError[], obj: unknown, old?: unknown): FieldError[];
  /** Ratcheted rule failures of the last validation of `obj`. */
  warnings(obj: object): string[];
}

/** The CEL step for one CRD version's schema; rules compile on the first write. Undefined without rules. */
export function customResourceCel(compiled: CompiledSchema): CustomResourceCel | undefined {
  if (!JSON.stringify(compiled.root.raw).includes('"x-kubernetes-validations"')) return undefined;
  let validator: CelValidator | undefined;
  const warningsOf = new WeakMap<object, string[]>();
  return {
    validate(prior, obj, old) {
      if (prior.some((e) => BLOCKING.has(e.type))) {
        return [fieldError.invalid('<nil>', null, 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation')];
      }
      validator ??= new CelValidator(compiled);
      const result = validator.validate(obj, old);
      if (result.warnings.length > 0 && typeof obj === 'object' && obj !== null) warningsOf.set(obj, result.warnings);
      return result.errors;
    },
    warnings: (obj) => warningsOf.get(obj) ?? [],
  };
}
