// coordination.k8s.io/v1: discovery data from the generated catalogue (src/generated),
// behaviour from pkg/registry/coordination/lease/strategy.go and
// pkg/apis/coordination/validation/validation.go (ValidateLease: NameIsDNSSubdomain).
import type { ResourceType } from '../resource-type.ts';
import { type FieldError, fieldError } from '../../errors/field-error.ts';
import type { KubeObject } from '../object.ts';
import { builtin, objAt } from './shared.ts';
import { validateNonnegativeField } from '../../validation/meta-fields.ts';

export function coordinationV1ResourceTypes(): ResourceType[] {
  return [
    builtin('coordination.k8s.io', 'v1', {
      kind: 'Lease',
      plural: 'leases',
      namespaced: true,
      // Leader election relies on optimistic concurrency: a PUT must carry a resourceVersion,
      // while PUT on a missing Lease creates it.
      allowUnconditionalUpdate: false,
      allowCreateOnUpdate: true,
      returnDeletedObject: false,
      strategy: { validate: validateLeaseSpec, validateUpdate: validateLeaseSpec },
    }),
  ];
}

/** ValidateLeaseSpec, the checks that need no feature knowledge. */
function validateLeaseSpec(obj: KubeObject): FieldError[] {
  const spec = objAt(obj, 'spec') ?? {};
  const errs: FieldError[] = [];
  if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0) {
    errs.push(fieldError.invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (typeof spec.leaseTransitions === 'number') errs.push(...validateNonnegativeField(spec.leaseTransitions, 'spec.leaseTransitions'));
  const strategy = typeof spec.strategy === 'string' ? spec.strategy : '';
  if (typeof spec.preferredHolder === 'string' && spec.preferredHolder !== '' && strategy === '') {
    errs.push(fieldError.forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  }
  return errs;
}
