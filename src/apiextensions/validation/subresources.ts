// ValidateCustomResourceDefinitionSubresources (validation.go): the scale subresource's paths.
// Whether the paths exist in the schema is not checked at CRD validation time (the scale handler
// reports missing values per object), as in Go.
import { fieldError, fieldPath, type FieldError } from '../../errors/field-error.ts';
import { invalidJsonString } from './go-struct-json.ts';
import type { Subresources } from './internal-types.ts';
import { validateSimpleJSONPath } from './printer-columns.ts';

export function validateSubresources(sub: Subresources | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const scale = sub?.scale;
  if (scale === undefined) return errs;

  const specPath = fieldPath.child(path, 'scale.specReplicasPath');
  if (scale.specReplicasPath.length === 0) errs.push(fieldError.required(specPath, ''));
  else {
    const e = validateSimpleJSONPath(scale.specReplicasPath, specPath);
    if (e.length > 0) errs.push(...e);
    else if (!scale.specReplicasPath.startsWith('.spec.')) errs.push(fieldError.invalid(specPath, scale.specReplicasPath, 'should be a json path under .spec'));
  }

  const statusPath = fieldPath.child(path, 'scale.statusReplicasPath');
  if (scale.statusReplicasPath.length === 0) errs.push(fieldError.required(statusPath, ''));
  else {
    const e = validateSimpleJSONPath(scale.statusReplicasPath, statusPath);
    if (e.length > 0) errs.push(...e);
    else if (!scale.statusReplicasPath.startsWith('.status.')) errs.push(fieldError.invalid(statusPath, scale.statusReplicasPath, 'should be a json path under .status'));
  }

  const selector = scale.labelSelectorPath;
  if (selector !== undefined && selector.length > 0) {
    const selectorPath = fieldPath.child(path, 'scale.labelSelectorPath');
    const e = validateSimpleJSONPath(selector, selectorPath);
    if (e.length > 0) errs.push(...e);
    else if (!selector.startsWith('.spec.') && !selector.startsWith('.status.')) {
      // *string: rendered as JSON.
      errs.push(invalidJsonString(selectorPath, selector, 'should be a json path under either .spec or .status'));
    }
  }
  return errs;
}
