// Every error a client sees is a metav1.Status; this module is the one place they are shaped
// (apimachinery/pkg/api/errors/errors.go). Constructors keep the real texts and details quirks.
import { aggregateMessages, fieldErrorBody, fieldErrorMessage, type FieldError } from './field-error.ts';

/** metav1.StatusReason: the machine-readable reason of a failure (`NotFound`, `Conflict`, `Invalid`…). */
export type StatusReason =
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'ServerTimeout'
  | 'StorageReadError'
  | 'Timeout'
  | 'TooManyRequests'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'Expired'
  | 'ServiceUnavailable';

/** One cause of a failure (metav1.StatusCause), e.g. one invalid field of a 422. */
export interface StatusCause {
  /** `FieldValueInvalid`, `FieldValueRequired`, `FieldValueDuplicate`… */
  reason?: string;
  /** The cause in words (`Invalid value: 15: spec.replicas in body should be…`). */
  message?: string;
  /** The field path (`spec.replicas`, `metadata.name`). */
  field?: string;
}

/** metav1.StatusDetails: what the failure was about. */
export interface StatusDetails {
  /** Name of the object (or the resource's name for some errors). */
  name?: string;
  /** API group of the resource or kind. */
  group?: string;
  /** Kind, or the resource (plural) for NotFound/AlreadyExists/Conflict, as the apiserver fills it. */
  kind?: string;
  /** Uid of the object, when known. */
  uid?: string;
  /** Individual causes (invalid fields…). */
  causes?: StatusCause[];
  /** Seconds to wait before retrying (also sent as `Retry-After`). */
  retryAfterSeconds?: number;
}

/** metav1.Status, the body of every API error (and of some successful deletes). */
export interface Status {
  /** Always `Status`. */
  kind: 'Status';
  /** Always `v1`. */
  apiVersion: 'v1';
  /** List metadata; `{}` on errors. */
  metadata: { continue?: string; resourceVersion?: string; remainingItemCount?: number };
  /** `Failure` for errors. */
  status: 'Failure' | 'Success';
  /** The human-readable message, e.g. `configmaps "a" not found`. */
  message?: string;
  /** The machine-readable reason; absent for errors with no reason (e.g. a plain 500). */
  reason?: StatusReason;
  /** What the failure was about. */
  details?: StatusDetails;
  /** The HTTP status code. */
  code?: number;
}

/** A resource qualified by its group: prints as `pods` or `deployments.apps`. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** A kind qualified by its group: prints as `Pod` or `CronTab.stable.example.com`. */
export interface GroupKind {
  group: string;
  kind: string;
}

export const qualifiedResource = (gr: GroupResource): string => (gr.group ? `${gr.resource}.${gr.group}` : gr.resource);
export const qualifiedKind = (gk: GroupKind): string => (gk.group ? `${gk.kind}.${gk.group}` : gk.kind);

/** An error carrying a Kubernetes Status (what `cluster.apply()` rejects with when a write fails). */
export class StatusError extends Error {
  /** The Status the apiserver would answer. */
  readonly status: Status;
  constructor(status: Omit<Status, 'kind' | 'apiVersion' | 'metadata' | 'status'> & Partial<Pick<Status, 'metadata' | 'status'>>) {
    super(status.message ?? status.reason ?? 'unknown error');
    this.name = 'StatusError';
    this.status = canonicalStatus(status);
  }
  /** The Status's HTTP code (500 when it has none). */
  get code(): number {
    return this.status.code ?? 500;
  }
}

/** Builds a Status with the key order kube-apiserver serialises. */
function canonicalStatus(s: Partial<Status>): Status {
  const out: Status = { kind: 'Status', apiVersion: 'v1', metadata: s.metadata ?? {}, status: s.status ?? 'Failure' };
  if (s.message) out.message = s.message;
  if (s.reason) out.reason = s.reason;
  if (s.details) out.details = canonicalDetails(s.details);
  if (s.code) out.code = s.code;
  return out;
}

function canonicalDetails(d: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.uid) out.uid = d.uid;
  if (d.causes) out.causes = d.causes.map(canonicalCause);
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

function canonicalCause(c: StatusCause): StatusCause {
  const out: StatusCause = {};
  if (c.reason) out.reason = c.reason;
  if (c.message) out.message = c.message;
  if (c.field) out.field = c.field;
  return out;
}

const grDetails = (gr: GroupResource, name: string): StatusDetails => ({ name, group: gr.group, kind: gr.resource });

export function notFound(gr: GroupResource, name: string): StatusError {
  return new StatusError({ message: `${qualifiedResource(gr)} ${JSON.stringify(name)} not found`, reason: 'NotFound', details: grDetails(gr, name), code: 404 });
}

export function alreadyExists(gr: GroupResource, name: string, prefix = ''): StatusError {
  return new StatusError({
    message: `${prefix}${qualifiedResource(gr)} ${JSON.stringify(name)} already exists`,
    reason: 'AlreadyExists',
    details: grDetails(gr, name),
    code: 409,
  });
}

export function generateNameConflict(gr: GroupResource, name: string, prefix = ''): StatusError {
  return new StatusError({
    message: `${prefix}${qualifiedResource(gr)} ${JSON.stringify(name)} already exists, the server was not able to generate a unique name for the object`,
    reason: 'AlreadyExists',
    details: { ...grDetails(gr, name), retryAfterSeconds: 1 },
    code: 409,
  });
}

export const OPTIMISTIC_LOCK_MESSAGE = 'the object has been modified; please apply your changes to the latest version and try again';

export function conflict(gr: GroupResource, name: string, cause: string): StatusError {
  return new StatusError({
    message: `Operation cannot be fulfilled on ${qualifiedResource(gr)} ${JSON.stringify(name)}: ${cause}`,
    reason: 'Conflict',
    details: grDetails(gr, name),
    code: 409,
  });
}

export function invalid(gk: GroupKind, name: string, errors: readonly FieldError[]): StatusError {
  const causes = errors.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field }));
  const head = `${qualifiedKind(gk)} ${JSON.stringify(name)} is invalid`;
  const message = errors.length ? `${head}: ${aggregateMessages(errors.map(fieldErrorMessage))}` : head;
  return new StatusError({ message, reason: 'Invalid', details: { name, group: gk.group, kind: gk.kind, causes }, code: 422 });
}

/** Validation of request options (`CreateOptions.meta.k8s.io "" is invalid: ...`). */
export function invalidOptions(optionsKind: string, errors: readonly FieldError[]): StatusError {
  return invalid({ group: 'meta.k8s.io', kind: optionsKind }, '', errors);
}

export function forbidden(gr: GroupResource | null, name: string, why: string, causes?: StatusCause[]): StatusError {
  let message: string;
  if (!gr || (!gr.resource && !gr.group)) message = `forbidden: ${why}`;
  else if (name) message = `${qualifiedResource(gr)} ${JSON.stringify(name)} is forbidden: ${why}`;
  else message = `${qualifiedResource(gr)} is forbidden: ${why}`;
  const details: StatusDetails = { name, group: gr?.group, kind: gr?.resource };
  if (causes) details.causes = causes;
  return new StatusError({ message, reason: 'Forbidden', details, code: 403 });
}

export function badRequest(message: string): StatusError {
  return new StatusError({ message, reason: 'BadRequest', code: 400 });
}

/**
 * kubefake's own refusal of an object nested deeper than it can process and serialise
 * (util/nesting-depth.ts); kube-apiserver accepts up to 10,000 levels.
 */
export function nestedTooDeep(limit: number): StatusError {
  return badRequest(`kubefake: objects nested deeper than ${limit} levels are not supported (kube-apiserver accepts up to 10000)`);
}

export function methodNotSupported(gr: GroupResource, action: string): StatusError {
  return new StatusError({
    message: `${action} is not supported on resources of kind ${JSON.stringify(qualifiedResource(gr))}`,
    reason: 'MethodNotAllowed',
    details: { group: gr.group, kind: gr.resource },
    code: 405,
  });
}

export function notAcceptable(accepted: readonly string[]): StatusError {
  return new StatusError({ message: `only the following media types are accepted: ${accepted.join(', ')}`, reason: 'NotAcceptable', code: 406 });
}

export function unsupportedMediaType(accepted: readonly string[]): StatusError {
  return new StatusError({
    message: `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    reason: 'UnsupportedMediaType',
    code: 415,
  });
}

export function requestEntityTooLarge(message: string): StatusError {
  return new StatusError({ message: `Request entity too large: ${message}`, reason: 'RequestEntityTooLarge', code: 413 });
}

export function expired(message: string, metadata: Status['metadata'] = {}): StatusError {
  return new StatusError({ message, reason: 'Expired', code: 410, metadata });
}

export function timeout(message: string, retryAfterSeconds: number, causes?: StatusCause[]): StatusError {
  return new StatusError({ message: `Timeout: ${message}`, reason: 'Timeout', details: { causes, retryAfterSeconds }, code: 504 });
}

export function tooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  return new StatusError({ message: `Too many requests: ${message}`, reason: 'TooManyRequests', details: { retryAfterSeconds }, code: 429 });
}

export function internalError(err: string): StatusError {
  return new StatusError({ message: `Internal error occurred: ${err}`, reason: 'InternalError', details: { causes: [{ message: err }] }, code: 500 });
}

/** A plain (non-Status) error as the apiserver sends it: 500 with no reason. */
export function plainServerError(message: string): StatusError {
  return new StatusError({ message, code: 500 });
}

export function serviceUnavailable(message: string): StatusError {
  return new StatusError({ message, reason: 'ServiceUnavailable', code: 503 });
}

/** go-restful's answer for a method no route serves. */
export function methodNotAllowed(): StatusError {
  return new StatusError({ message: '405: Method Not Allowed', reason: 'MethodNotAllowed', details: {}, code: 405 });
}

/** The authentication filter's answer for a request without valid credentials (responsewriters.Unauthorized). */
export function unauthorized(): StatusError {
  return new StatusError({ message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
}

/** go-restful's generic 404 for an unknown sub-path under a served group version. */
export function unknownPath(): StatusError {
  return new StatusError({ message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 });
}

/** The success Status a DELETE of a custom resource returns. */
export function deleteSuccess(gr: GroupResource, name: string, uid: string | undefined): Status {
  return canonicalStatus({ status: 'Success', details: { name, group: gr.group, kind: gr.resource, uid } });
}

/** Converts anything thrown into a Status error; unexpected exceptions become 500 InternalError. */
export function toStatusError(err: unknown): StatusError {
  if (err instanceof StatusError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return internalError(message);
}
