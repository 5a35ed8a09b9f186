// Request options as the registry sees them (already decoded from the query or body), and their
// validation with the real texts (apimachinery/pkg/apis/meta/v1/validation, internalversion/validation).
import { fieldError, type FieldError } from '../errors/field-error.ts';
import { invalidOptions } from '../errors/status-error.ts';

export interface GetOptions {
  resourceVersion?: string;
}

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  sendInitialEvents?: boolean;
}

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface WriteOptions {
  /** The raw dryRun values; only `All` is valid. */
  dryRun?: string[];
  fieldManager?: string;
  fieldValidation?: string;
  /**
   * What strict decoding of the request body found (duplicate fields; go-yaml's duplicate-key
   * error), in the decoder's order. Reported ahead of unknown fields per fieldValidation.
   */
  strictDecodeErrors?: string[];
  /**
   * The create or update body as the JSON document sent (UTF-8 decoded as Go does), when it was
   * JSON: typed decoding of built-ins reads it for document order and duplicate keys, and then
   * reports duplicates itself (strictDecodeErrors are the YAML decoder's findings otherwise).
   */
  bodyJson?: string;
  /**
   * How a patch's result reaches the typed object (patch.go): JSON and merge patches are encoded
   * to JSON and decoded (`json`), a strategic merge patch's map is converted by the unstructured
   * converter (`unstructured`). `invalidValue` is what a 422 prints as the patch (the patched
   * JSON by default; a strategic merge patch prints its patch map as Go's %+v).
   */
  patchDecoding?: { via: 'json' | 'unstructured'; invalidValue?: () => string };
  /** PatchOptions.force (server-side apply only). */
  force?: boolean;
  /** The request's User-Agent: names the Update manager when fieldManager is empty. */
  userAgent?: string;
  /** Who sent the request (admission's userInfo); undefined until authentication sets it. */
  user?: UserInfo;
  /** Told of each admission run of the write (see AdmissionObserver); set by the HTTP layer. */
  observeAdmission?: AdmissionObserver;
  /**
   * System fields a create keeps instead of generating them: set only by `cluster.apply()`
   * restoring a dumped object (`serverFields: 'keep'`), never from a request.
   */
  restore?: { uid?: string; creationTimestamp?: string };
}

/** user.Info of a request, as authentication fills it and admission and authorization read it. */
export interface UserInfo {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export interface DeleteOptions {
  dryRun?: string[];
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  orphanDependents?: boolean;
  preconditions?: Preconditions;
  /** Who sent the request (admission's userInfo); undefined until authentication sets it. */
  user?: UserInfo;
  /** Told of each admission run of the delete (see AdmissionObserver); set by the HTTP layer. */
  observeAdmission?: AdmissionObserver;
}

/**
 * What admission leaves on a request beyond its answer: the warnings and audit annotations its
 * plugins add (admission.Attributes' AddAnnotation, warning.AddWarning into the request's
 * context). The registry hands every admission run's attributes (a conflict retries them) to the
 * observer as they start, and the plugins fill them in place, so what they added survives a write
 * that then fails: the real server records both into the request context, not the result.
 */
export type AdmissionObserver = (outcome: { readonly warnings: readonly string[]; readonly auditAnnotations: Readonly<Record<string, string>> }) => void;

const FIELD_VALIDATION_VALUES = ['', 'Ignore', 'Strict', 'Warn'];
const PROPAGATION_POLICIES = ['Foreground', 'Background', 'Orphan', 'nil'];

function validateDryRun(dryRun: string[] | undefined): FieldError[] {
  if (!dryRun || dryRun.every((v) => v === 'All')) return [];
  return [fieldError.notSupported('dryRun', dryRun, ['All'])];
}

function validateFieldManager(manager: string | undefined): FieldError[] {
  if (manager === undefined) return [];
  if (manager.length > 128) return [fieldError.tooLong('fieldManager', 128)];
  for (let i = 0; i < manager.length; i++) {
    const cp = manager.codePointAt(i)!;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
      const hex = cp.toString(16).toUpperCase().padStart(4, '0');
      return [fieldError.invalid('fieldManager', manager, `invalid character U+${hex} (at position ${i})`)];
    }
  }
  return [];
}

function validateFieldValidation(value: string | undefined): FieldError[] {
  if (value === undefined || FIELD_VALIDATION_VALUES.includes(value)) return [];
  return [fieldError.notSupported('fieldValidation', value, FIELD_VALIDATION_VALUES)];
}

/** ValidatePatchOptions' own checks: an apply needs a fieldManager; only an apply takes force. */
function validatePatchOnly(options: WriteOptions, apply: boolean): FieldError[] {
  if (apply) return options.fieldManager ? [] : [fieldError.required('fieldManager', 'is required for apply patch')];
  return options.force !== undefined ? [fieldError.forbidden('force', 'may not be specified for non-apply patch')] : [];
}

/** CreateOptions / UpdateOptions / PatchOptions checks; throws the 422 the apiserver sends. */
export function validateWriteOptions(kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions', options: WriteOptions, apply = false): void {
  const errors = [
    ...(kind === 'PatchOptions' ? validatePatchOnly(options, apply) : []),
    ...validateFieldManager(options.fieldManager),
    ...validateDryRun(options.dryRun),
    ...validateFieldValidation(options.fieldValidation),
  ];
  if (errors.length) throw invalidOptions(kind, errors);
}

export function validateDeleteOptions(options: DeleteOptions): void {
  const errors: FieldError[] = [];
  if (options.orphanDependents !== undefined && options.propagationPolicy !== undefined) {
    errors.push(fieldError.invalid('propagationPolicy', options.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (options.propagationPolicy !== undefined && !PROPAGATION_POLICIES.slice(0, 3).includes(options.propagationPolicy)) {
    errors.push(fieldError.notSupported('propagationPolicy', options.propagationPolicy, PROPAGATION_POLICIES));
  }
  errors.push(...validateDryRun(options.dryRun));
  if (errors.length) throw invalidOptions('DeleteOptions', errors);
}

export function validateListOptions(options: ListOptions): void {
  const errors: FieldError[] = [];
  const match = options.resourceVersionMatch;
  if (match) {
    if (!options.resourceVersion) {
      errors.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    }
    if (options.continue) errors.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      errors.push(fieldError.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    }
    if (match === 'Exact' && options.resourceVersion === '0') {
      errors.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
  }
  if (options.sendInitialEvents !== undefined) errors.push(fieldError.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  if (errors.length) throw invalidOptions('ListOptions', errors);
}

export const isDryRun = (dryRun: string[] | undefined): boolean => !!dryRun && dryRun.includes('All');

/** fieldValidation as the decoder uses it; empty means the default, Warn. */
export function fieldValidationMode(value: string | undefined): FieldValidation {
  return value === 'Strict' || value === 'Ignore' ? value : 'Warn';
}
