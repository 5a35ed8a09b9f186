// Pieces of the built-in StatusStrategies (pkg/registry/<group>/<resource>/strategy.go
// `<kind>StatusStrategy`): what a `/status` write takes from the stored object instead of the
// request, and the status validations (pkg/apis/<group>/validation Validate<Kind>StatusUpdate).
// The registry runs the metadata checks and keeps uid, creationTimestamp, generation and
// deletionTimestamp itself, as rest.BeforeUpdate does.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import type { KubeObject } from '../object.ts';
import { isPlainObject } from '../object.ts';
import type { Strategy } from '../resource-type.ts';
import { clone, getIn, meta } from './shared.ts';
import { validateNonnegativeField } from '../../validation/meta-fields.ts';

/** `new.<field> = old.<field>` for top-level fields (Spec) and, with `metadata.` keys, ObjectMeta fields. */
export function keepFromStored(...fields: string[]): Strategy {
  return { prepareForUpdate: (obj, old) => copyFromStored(obj, old, fields) };
}

function copyFromStored(obj: KubeObject, old: KubeObject, fields: readonly string[]): void {
  for (const field of fields) {
    const [target, source, key] = field.startsWith('metadata.')
      ? [meta(obj) as Record<string, unknown>, (old.metadata ?? {}) as Record<string, unknown>, field.slice('metadata.'.length)]
      : [obj as Record<string, unknown>, old as Record<string, unknown>, field];
    if (source[key] === undefined) delete target[key];
    else target[key] = clone(source[key]);
  }
}

const RESET_FOR_STATUS = ['labels', 'annotations', 'finalizers', 'ownerReferences', 'deletionTimestamp', 'generation'].map((k) => `metadata.${k}`);

/**
 * metav1.ResetObjectMetaForStatus: labels, annotations, finalizers, owner references and the
 * deletion timestamp of a subresource write come from the stored object (generation too, which the
 * strategy bumps itself).
 */
export function resetObjectMetaForStatus(obj: KubeObject, old: KubeObject): void {
  copyFromStored(obj, old, RESET_FOR_STATUS);
}

/** A status validation run on every `/status` update (after the registry's ObjectMeta checks). */
export function validateStatus(fn: (obj: KubeObject, old: KubeObject) => FieldError[]): Strategy {
  return { validateUpdate: fn };
}

/** An int32/int64 status field as the typed struct holds it (missing is 0). */
const intAt = (obj: KubeObject, path: readonly string[]): number => {
  const v = getIn(obj, path);
  return typeof v === 'number' ? v : 0;
};

/** ValidateNonnegativeField for each `status.<field>`. */
export function nonNegativeStatus(obj: KubeObject, fields: readonly string[]): FieldError[] {
  return fields.flatMap((f) => validateNonnegativeField(intAt(obj, ['status', f]), `status.${f}`));
}

/**
 * `<field> cannot be greater than status.replicas` for each field, then available ≤ ready (whose
 * text names `readyReplicas` or, for StatefulSets, `status.readyReplicas`).
 */
export function replicaCountsWithinReplicas(obj: KubeObject, fields: readonly string[], readyName = 'readyReplicas'): FieldError[] {
  const errs: FieldError[] = [];
  const replicas = intAt(obj, ['status', 'replicas']);
  for (const f of fields) {
    const v = intAt(obj, ['status', f]);
    if (v > replicas) errs.push(fieldError.invalid(`status.${f}`, v, 'cannot be greater than status.replicas'));
  }
  const available = intAt(obj, ['status', 'availableReplicas']);
  if (available > intAt(obj, ['status', 'readyReplicas'])) {
    errs.push(fieldError.invalid('status.availableReplicas', available, `cannot be greater than ${readyName}`));
  }
  return errs;
}

/** A pointer collisionCount may not go down (or be cleared) once set. */
export function collisionCountNotDecremented(obj: KubeObject, old: KubeObject): FieldError[] {
  const next = getIn(obj, ['status', 'collisionCount']);
  const prev = getIn(old, ['status', 'collisionCount']);
  if (typeof prev !== 'number') return [];
  if (typeof next === 'number' && next >= prev) return [];
  return [fieldError.invalid('status.collisionCount', typeof next === 'number' ? next : 0, 'cannot be decremented')];
}

/** A collisionCount that is set must be non-negative. */
export function collisionCountNonNegative(obj: KubeObject): FieldError[] {
  const v = getIn(obj, ['status', 'collisionCount']);
  return typeof v === 'number' ? validateNonnegativeField(v, 'status.collisionCount') : [];
}

/** ValidateNamespaceStatusUpdate: the phase must agree with deletionTimestamp. */
export function validateNamespaceStatus(obj: KubeObject): FieldError[] {
  const status = isPlainObject(obj.status) ? obj.status : {};
  const phase = typeof status.phase === 'string' ? status.phase : '';
  if (!obj.metadata?.deletionTimestamp) {
    return phase === 'Active' ? [] : [fieldError.invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  }
  return phase === 'Terminating' ? [] : [fieldError.invalid('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
}
