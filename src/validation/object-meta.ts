// ObjectMeta validation on create and update, ported from apimachinery v0.36
// pkg/api/validation/objectmeta.go (ValidateObjectMetaAccessor, ValidateObjectMetaAccessorUpdate).
// Error order is the Go order, since it decides both the aggregate message and the causes list.
import type { ObjectMeta } from '../apis/object.ts';
import { fieldError, fieldPath, type FieldError } from '../errors/field-error.ts';
import { goJson } from '../errors/go-format.ts';
import { goTimeEqual, goTimeJson, metaAccessor, type MetaAccessor } from './meta-accessor.ts';
import {
  FIELD_IMMUTABLE_ERROR_MSG,
  invalidWithJson,
  validateAnnotations,
  validateFinalizers,
  validateLabels,
  validateManagedFields,
  validateNoNewFinalizers,
  validateNonnegativeField,
  validateOwnerReferences,
} from './meta-fields.ts';
import { nameValidatorFor, validateNamespaceName, type NameRule, type ValidateNameFunc } from './names.ts';

export interface ObjectMetaRules {
  namespaced: boolean;
  nameRule: NameRule;
  /** Path of the metadata; `metadata` for top-level objects. */
  path?: string;
}

/**
 * ValidateObjectMetaAccessor, as run on create. Expects generateName to have been turned into a
 * name already (rest.BeforeCreate does that first), so a lone generateName still reports the
 * missing name. The namespace is only checked, never filled in.
 */
export function validateObjectMeta(meta: ObjectMeta | undefined, rules: ObjectMetaRules): FieldError[] {
  return validateObjectMetaAccessor(metaAccessor(meta), rules.namespaced, nameValidatorFor(rules.nameRule), rules.path ?? 'metadata');
}

/**
 * The metadata checks of an update: ValidateObjectMetaAccessor on the new object followed by
 * ValidateObjectMetaAccessorUpdate, which is what rest.BeforeUpdate's validateCommonFields runs
 * (there with the path-segment name rule; a kind's own rule is equivalent here because the name
 * cannot change).
 */
export function validateObjectMetaUpdate(meta: ObjectMeta | undefined, oldMeta: ObjectMeta | undefined, rules: ObjectMetaRules): FieldError[] {
  const path = rules.path ?? 'metadata';
  const m = metaAccessor(meta);
  return [
    ...validateObjectMetaAccessor(m, rules.namespaced, nameValidatorFor(rules.nameRule), path),
    ...validateObjectMetaAccessorUpdateOf(m, metaAccessor(oldMeta), path),
  ];
}

/**
 * ValidateObjectMetaAccessorUpdate alone: immutability, no new finalizers while deleting,
 * generation not decremented, and labels/annotations/ownerReferences/managedFields of the new
 * object. Strategies that call it again in Go (CRs, most built-ins via ValidateObjectMetaUpdate)
 * produce each of these causes twice.
 */
export function validateObjectMetaAccessorUpdate(meta: ObjectMeta | undefined, oldMeta: ObjectMeta | undefined, path = 'metadata'): FieldError[] {
  return validateObjectMetaAccessorUpdateOf(metaAccessor(meta), metaAccessor(oldMeta), path);
}

function validateObjectMetaAccessor(m: MetaAccessor, namespaced: boolean, nameFn: ValidateNameFunc, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (m.generateName.length !== 0) {
    for (const msg of nameFn(m.generateName, true)) errs.push(fieldError.invalid(fieldPath.child(path, 'generateName'), m.generateName, msg));
  }
  if (m.name.length === 0) {
    errs.push(fieldError.required(fieldPath.child(path, 'name'), 'name or generateName is required'));
  } else {
    for (const msg of nameFn(m.name, false)) errs.push(fieldError.invalid(fieldPath.child(path, 'name'), m.name, msg));
  }
  return [...errs, ...validateCommon(m, namespaced, path)];
}

/** validateObjectMetaAccessorWithOptsCommon. */
function validateCommon(m: MetaAccessor, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const nsPath = fieldPath.child(path, 'namespace');
  if (namespaced) {
    if (m.namespace.length === 0) errs.push(fieldError.required(nsPath));
    else for (const msg of validateNamespaceName(m.namespace, false)) errs.push(fieldError.invalid(nsPath, m.namespace, msg));
  } else if (m.namespace.length !== 0) {
    errs.push(fieldError.forbidden(nsPath, 'not allowed on this type'));
  }
  errs.push(...validateNonnegativeField(m.generation, fieldPath.child(path, 'generation')));
  errs.push(...validateLabels(m.labels, fieldPath.child(path, 'labels')));
  errs.push(...validateAnnotations(m.annotations, fieldPath.child(path, 'annotations')));
  errs.push(...validateOwnerReferences(m.ownerReferences, fieldPath.child(path, 'ownerReferences')));
  errs.push(...validateFinalizers(m.finalizers, fieldPath.child(path, 'finalizers')));
  errs.push(...validateManagedFields(m.managedFields, fieldPath.child(path, 'managedFields')));
  return errs;
}

function validateObjectMetaAccessorUpdateOf(m: MetaAccessor, old: MetaAccessor, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const child = (name: string): string => fieldPath.child(path, name);
  if (old.deletionTimestamp !== undefined) errs.push(...validateNoNewFinalizers(m.finalizers, old.finalizers, child('finalizers')));
  if (m.resourceVersion.length === 0) errs.push(fieldError.invalid(child('resourceVersion'), m.resourceVersion, 'must be specified for an update'));
  if (m.generation < old.generation) errs.push(fieldError.invalid(child('generation'), m.generation, 'must not be decremented'));

  const immutable = (name: string, value: unknown) => fieldError.invalid(child(name), value, FIELD_IMMUTABLE_ERROR_MSG);
  if (m.name !== old.name) errs.push(immutable('name', m.name));
  if (m.namespace !== old.namespace) errs.push(immutable('namespace', m.namespace));
  // types.UID is a named string type: Go prints it via json.Marshal, not %q.
  if (m.uid !== old.uid) errs.push(invalidWithJson(child('uid'), m.uid, goJson(m.uid), FIELD_IMMUTABLE_ERROR_MSG));
  // Timestamps compare as instants and print as metav1.Time JSON (UTC seconds, or null).
  if (!goTimeEqual(m.creationTimestamp, old.creationTimestamp)) errs.push(immutable('creationTimestamp', goTimeJson(m.creationTimestamp)));
  if (!goTimeEqual(m.deletionTimestamp, old.deletionTimestamp)) errs.push(immutable('deletionTimestamp', goTimeJson(m.deletionTimestamp)));
  if (m.deletionGracePeriodSeconds !== old.deletionGracePeriodSeconds) {
    errs.push(immutable('deletionGracePeriodSeconds', m.deletionGracePeriodSeconds ?? null));
  }

  errs.push(...validateLabels(m.labels, child('labels')));
  errs.push(...validateAnnotations(m.annotations, child('annotations')));
  errs.push(...validateOwnerReferences(m.ownerReferences, child('ownerReferences')));
  errs.push(...validateManagedFields(m.managedFields, child('managedFields')));
  return errs;
}
