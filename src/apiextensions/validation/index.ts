// CustomResourceDefinition validation as apiextensions-apiserver runs it on create, update and
// status update (pkg/apis/apiextensions/validation/validation.go, v1.36). Generic ObjectMeta checks
// are the registry's; only the CRD-specific name rule is done here.
import { fieldError, fieldPath, type FieldError } from '../../errors/field-error.ts';
import type { KubeObject } from '../../apis/object.ts';
import type { JSONSchemaProps } from '../../schema/types.ts';
import { validateAPIApproval } from './api-approval.ts';
import type { CelCompiler } from './cel-hook.ts';
import { validateSpec, validateSpecUpdate } from './crd-spec.ts';
import { toCrd, type Crd } from './internal-types.ts';
import { validateNames } from './names.ts';
import { createOptions, updateOptions, type ValidationOptions } from './options.ts';
import { validateStoredVersions } from './stored-versions.ts';

export type { CelCompiler, CelNodeContext, CelSchemaSession } from './cel-hook.ts';

export interface CrdValidationOptions {
  /** Checks a `default` value against its (pruned, structural) schema: returns errors for the default; supplied later by the schema engine. When absent, defaults are only checked structurally (what you can do yourself). */
  checkDefault?: (value: unknown, schema: JSONSchemaProps, path: string) => FieldError[];
  /** Compiles x-kubernetes-validations rules (CEL); when absent, rules are only checked statically. */
  celCompiler?: CelCompiler;
}

const hooks = (o: CrdValidationOptions | undefined) => ({ checkDefault: o?.checkDefault, cel: o?.celCompiler });

/** The part of ValidateCustomResourceDefinition's nameValidationFn that is CRD-specific. */
function validateCrdName(obj: KubeObject, crd: Crd): FieldError[] {
  const required = crd.spec.names.plural + '.' + crd.spec.group;
  const detail = 'must be spec.names.plural+"."+spec.group';
  const errs: FieldError[] = [];
  // ValidateObjectMeta runs the name function on generateName as well, where it can never match.
  const generateName = typeof obj.metadata?.generateName === 'string' ? obj.metadata.generateName : '';
  if (generateName.length > 0 && generateName !== required) errs.push(fieldError.invalid('metadata.generateName', generateName, detail));
  if (crd.name.length > 0 && crd.name !== required) errs.push(fieldError.invalid('metadata.name', crd.name, detail));
  return errs;
}

function validateStatus(crd: Crd): FieldError[] {
  return validateNames(crd.status.acceptedNames, fieldPath.child('status', 'acceptedNames'));
}

function validatePreserveUnknownFields(crd: Crd, old: Crd | undefined): FieldError[] {
  // Kept for compatibility with existing data.
  if (old !== undefined && old.spec.preserveUnknownFields) return [];
  if (crd.spec.preserveUnknownFields) {
    return [fieldError.invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
  }
  return [];
}

function validateRest(crd: Crd, old: Crd | undefined): FieldError[] {
  return [
    ...validateStatus(crd),
    ...validateStoredVersions(crd.status.storedVersions, crd.spec.versions, 'status.storedVersions'),
    ...validateAPIApproval(crd, old),
    ...validatePreserveUnknownFields(crd, old),
  ];
}

/** ValidateCustomResourceDefinition (create). */
export function validateCustomResourceDefinition(obj: KubeObject, options?: CrdValidationOptions): FieldError[] {
  const crd = toCrd(obj);
  const opts: ValidationOptions = createOptions(hooks(options));
  return [...validateCrdName(obj, crd), ...validateSpec(crd.spec, opts, 'spec'), ...validateRest(crd, undefined)];
}

/** ValidateCustomResourceDefinitionUpdate: rules the old object already broke are relaxed. */
export function validateCustomResourceDefinitionUpdate(obj: KubeObject, oldObj: KubeObject, options?: CrdValidationOptions): FieldError[] {
  const crd = toCrd(obj);
  const old = toCrd(oldObj);
  const opts = updateOptions(crd, old, hooks(options));
  return [...validateSpecUpdate(crd.spec, old.spec, opts, 'spec'), ...validateRest(crd, old)];
}

/**
 * ValidateUpdateCustomResourceDefinitionStatus: only status.acceptedNames. Go does not check
 * storedVersions on /status writes (that is how storage migration removes versions).
 */
export function validateCustomResourceDefinitionStatusUpdate(obj: KubeObject, _old: KubeObject): FieldError[] {
  return validateStatus(toCrd(obj));
}
