// Validators for the individual ObjectMeta fields, ported from apimachinery v0.36
// (pkg/api/validation/objectmeta.go and pkg/apis/meta/v1/validation/validation.go).
// Paths are given by the caller (`metadata.labels`); texts and error order follow the Go code.
import { parseGroupVersion, type OwnerReference } from '../apis/object.ts';
import { fieldError, fieldPath, OMIT_VALUE, renderValue, type FieldError } from '../errors/field-error.ts';
import { goJson, goStringSlice } from '../errors/go-format.ts';
import { byteLength, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from './names.ts';

export const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * (1 << 10);
export const FIELD_MANAGER_MAX_LENGTH = 128;
export const MAX_SUBRESOURCE_NAME_LENGTH = 256;
export const FIELD_IMMUTABLE_ERROR_MSG = 'field is immutable';
export const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0';

/** metav1.OwnerReference as Go decodes it: missing strings are "", absent bools are nil. */
export type OwnerReferenceValue = OwnerReference;

/** The parts of a metav1.ManagedFieldsEntry that validation reads. */
export interface ManagedFieldsEntryValue {
  manager: string;
  operation: string;
  fieldsType: string;
  subresource: string;
}

/**
 * field.Invalid whose value Go prints with json.Marshal of a struct or named type. goJson sorts
 * object keys (right for maps, wrong for structs), so when renderValue would not reproduce
 * Go's text the JSON is pre-rendered into the message instead.
 */
export function invalidWithJson(field: string, value: unknown, json: string, detail: string): FieldError {
  if (renderValue(value) === json) return fieldError.invalid(field, value, detail);
  return invalidStruct(field, json, detail);
}

/**
 * field.Invalid whose bad value Go prints with encoding/json in a form renderValue does not give (an
 * internal struct: Go field names, declaration order): the text `rendered` carries it in the
 * detail, the value omitted; the message reads the same.
 */
export function invalidStruct(field: string, rendered: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, value: OMIT_VALUE, detail: detail ? `${rendered}: ${detail}` : rendered };
}

/** v1validation.ValidateLabels: errors sit on the map path itself, valued by key or value. */
export function validateLabels(labels: Record<string, string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels)) {
    errs.push(...validateLabelName(k, path));
    for (const msg of isValidLabelValue(v)) errs.push(fieldError.invalid(path, v, msg));
  }
  return errs;
}

/** apivalidation.ValidateQualifiedName: a qualified name, or Invalid errors at `path`. */
export function validateQualifiedName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((msg) => fieldError.invalid(path, name, msg));
}

/** v1validation.ValidateLabelName: the same check as ValidateQualifiedName. */
export const validateLabelName = validateQualifiedName;

/** ValidateAnnotations: keys are qualified names compared case-insensitively; total size capped. */
export function validateAnnotations(annotations: Record<string, string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations)) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(fieldError.invalid(path, k, msg));
    total += byteLength(k) + byteLength(v);
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT_B) errs.push(fieldError.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT_B));
  return errs;
}

/** json.Marshal of a metav1.OwnerReference: struct field order, omitempty on the two bools. */
export function ownerReferenceJson(ref: OwnerReferenceValue): string {
  let s = `{"apiVersion":${goJson(ref.apiVersion)},"kind":${goJson(ref.kind)},"name":${goJson(ref.name)},"uid":${goJson(ref.uid)}`;
  if (ref.controller !== undefined) s += `,"controller":${ref.controller}`;
  if (ref.blockOwnerDeletion !== undefined) s += `,"blockOwnerDeletion":${ref.blockOwnerDeletion}`;
  return s + '}';
}

/**
 * validateOwnerReference as of v1.36: the path is the list itself, not indexed (1.37 indexes it
 * and switches to Required / "must be <group>/<version> or <version>").
 */
function validateOwnerReference(ref: OwnerReferenceValue, path: string): FieldError[] {
  const errs: FieldError[] = [];
  // schema.FromAPIVersionAndKind: an unparsable apiVersion yields an empty group and version.
  const gv = parseGroupVersion(ref.apiVersion) ?? { group: '', version: '' };
  if (gv.version.length === 0) errs.push(fieldError.invalid(fieldPath.child(path, 'apiVersion'), ref.apiVersion, 'version must not be empty'));
  if (ref.kind.length === 0) errs.push(fieldError.invalid(fieldPath.child(path, 'kind'), ref.kind, 'must not be empty'));
  if (ref.name.length === 0) errs.push(fieldError.invalid(fieldPath.child(path, 'name'), ref.name, 'must not be empty'));
  // types.UID is a named string type, so Go prints it as JSON rather than %q.
  if (ref.uid.length === 0) errs.push(invalidWithJson(fieldPath.child(path, 'uid'), ref.uid, goJson(ref.uid), 'must not be empty'));
  // BannedOwners holds only v1 Event; the text is GroupVersionKind.String().
  if (gv.group === '' && gv.version === 'v1' && ref.kind === 'Event') {
    errs.push(invalidWithJson(path, ref, ownerReferenceJson(ref), `${gv.group}/${gv.version}, Kind=${ref.kind} is disallowed from being an owner`));
  }
  return errs;
}

/** ValidateOwnerReferences: per-reference checks, then at most one controller. */
export function validateOwnerReferences(refs: readonly OwnerReferenceValue[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs) {
    errs.push(...validateOwnerReference(ref, path));
    if (ref.controller === true) {
      const current = `${ref.kind}/${ref.name}`;
      if (firstController !== '') {
        errs.push(
          invalidWithJson(
            path,
            refs,
            `[${refs.map(ownerReferenceJson).join(',')}]`,
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
          ),
        );
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

/** ValidateFinalizers: each name is a qualified name; orphan and foregroundDeletion exclude each other. */
export function validateFinalizers(finalizers: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of finalizers) {
    for (const msg of isQualifiedName(f)) errs.push(fieldError.invalid(path, f, msg));
  }
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(fieldError.invalid(path, [...finalizers], 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

/** ValidateNoNewFinalizers: the added names, de-duplicated and sorted (sets.String.List), in %#v. */
export function validateNoNewFinalizers(finalizers: readonly string[], oldFinalizers: readonly string[], path: string): FieldError[] {
  const old = new Set(oldFinalizers);
  // sort.Strings compares bytes, which UTF-16 code-unit order does not always agree with.
  const extra = [...new Set(finalizers.filter((f) => !old.has(f)))].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  if (extra.length === 0) return [];
  return [fieldError.forbidden(path, `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(extra)}`)];
}

/** ValidateNonnegativeField. */
export function validateNonnegativeField(value: number, path: string): FieldError[] {
  return value < 0 ? [fieldError.invalid(path, value, IS_NEGATIVE_ERROR_MSG)] : [];
}

/** U+0020 to U+007E: all printable by unicode.IsPrint, one UTF-8 byte each. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

// unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const printableRe = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** v1validation.ValidateFieldManager: at most 128 bytes, printable characters only. */
export function validateFieldManager(manager: string, path: string): FieldError[] {
  // Printable ASCII (every writer's manager name): one byte a character, nothing to report but the length.
  if (PRINTABLE_ASCII.test(manager)) return manager.length > FIELD_MANAGER_MAX_LENGTH ? [fieldError.tooLong(path, FIELD_MANAGER_MAX_LENGTH)] : [];
  const errs: FieldError[] = [];
  if (byteLength(manager) > FIELD_MANAGER_MAX_LENGTH) errs.push(fieldError.tooLong(path, FIELD_MANAGER_MAX_LENGTH));
  let pos = 0; // Go ranges over a string by byte offset
  for (const ch of manager) {
    const cp = ch.codePointAt(0)!;
    // A lone surrogate reached Go as U+FFFD, which is printable.
    const isLoneSurrogate = cp >= 0xd800 && cp <= 0xdfff;
    if (!isLoneSurrogate && !printableRe.test(ch)) {
      // %#U of a non-printable rune is just U+XXXX.
      const u = 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
      errs.push(fieldError.invalid(path, manager, `invalid character ${u} (at position ${pos})`));
    }
    pos += isLoneSurrogate ? 3 : byteLength(ch);
  }
  return errs;
}

/** v1validation.ValidateManagedFields, each entry at `<path>[i]`. */
export function validateManagedFields(entries: readonly ManagedFieldsEntryValue[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  entries.forEach((e, i) => {
    const p = fieldPath.index(path, i);
    if (e.operation !== 'Apply' && e.operation !== 'Update') {
      errs.push(fieldError.invalid(fieldPath.child(p, 'operation'), e.operation, 'must be `Apply` or `Update`'));
    }
    if (e.fieldsType.length > 0 && e.fieldsType !== 'FieldsV1') {
      errs.push(fieldError.invalid(fieldPath.child(p, 'fieldsType'), e.fieldsType, 'must be `FieldsV1`'));
    }
    errs.push(...validateFieldManager(e.manager, fieldPath.child(p, 'manager')));
    if (byteLength(e.subresource) > MAX_SUBRESOURCE_NAME_LENGTH) {
      errs.push(fieldError.tooLong(fieldPath.child(p, 'subresource'), MAX_SUBRESOURCE_NAME_LENGTH));
    }
  });
  return errs;
}

const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRe = new RegExp(`^${HTTP_PATH_FMT}$`);

/**
 * IsDomainPrefixedPath (apimachinery pkg/util/validation): `acme.io/foo`, a DNS subdomain, a
 * slash and an HTTP path.
 */
export function validateDomainPrefixedPath(value: string, path: string): FieldError[] {
  if (value.length === 0) return [fieldError.required(path)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? '' : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host.length === 0 || rest.length === 0) return [fieldError.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errs = isDNS1123Subdomain(host).map((msg) => fieldError.invalid(path, host, msg));
  if (!httpPathRe.test(rest)) errs.push(fieldError.invalid(path, rest, `Invalid path (regex used for validation is '${HTTP_PATH_FMT}')`));
  return errs;
}
