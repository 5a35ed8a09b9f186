// The Status errors patch.go produces, with the apiserver's exact shapes.
import { fieldError } from '../errors/field-error.ts';
import { badRequest, invalid, plainServerError, StatusError } from '../errors/status-error.ts';
import { goStrictDecodingError } from '../go/json.ts';
import { GoPanic } from './go-value.ts';

export { badRequest };

/**
 * errors.NewGenericServerResponse(422, "", GroupResource{}, "", msg, 0, false): the library's
 * own text (`msg`) is dropped — clients only see the generic sentence and empty details.
 * The text is kept as `cause` for debugging.
 */
export function unprocessable(libraryMessage: string): StatusError {
  const err = new StatusError({
    message: 'the server rejected our request due to an error in our request',
    reason: 'Invalid',
    details: {},
    code: 422,
  });
  err.cause = new Error(libraryMessage);
  return err;
}

/** A plain Go error reaching scope.err: 500, no reason, the error text as message. */
export function plainError(message: string): StatusError {
  return plainServerError(message);
}

/**
 * A Go panic inside the patch: WithPanicRecovery answers `http.Error(w, "This request caused
 * apiserver to panic. Look in the logs for details.", 500)` (text/plain, not a Status).
 */
export function panicked(panic: GoPanic): StatusError {
  const err = plainServerError('This request caused apiserver to panic. Look in the logs for details.');
  err.cause = panic;
  return err;
}

/**
 * errors.NewInvalid(schema.GroupKind{}, "", field.Invalid("patch", value, detail)): the message
 * reads ` "" is invalid: patch: Invalid value: "...": detail`.
 */
export function invalidPatch(value: string, detail: string): StatusError {
  return invalid({ group: '', kind: '' }, '', [fieldError.invalid('patch', value, detail)]);
}

/** The 422 a fieldValidation=Strict patch gets for strict decoding errors. */
export function strictDecodingFailure(value: string, errors: readonly string[]): StatusError {
  return invalidPatch(value, goStrictDecodingError(errors));
}
