// Turns a PATCH request body into what the registry's patch takes: a function of the current
// object for JSON, merge and strategic merge patches, or an ApplyPatch for server-side apply.
import type { ResourceType } from '../apis/resource-type.ts';
import { applyPatch, PATCH_CONTENT_TYPES, patchObject } from '../patch/index.ts';
import { fieldValidationMode, type WriteOptions } from '../registry/options.ts';
import { APPLY_PATCH_CONTENT_TYPE, decodeApplyPatch, type ApplyPatch } from './apply-patch.ts';

/** The patch types a resource accepts, in the order the 415 lists them (installer.go): no strategic merge for custom resources. */
export function patchContentTypesFor(type: ResourceType): string[] {
  const types = Object.entries(PATCH_CONTENT_TYPES)
    .filter(([, kind]) => kind !== 'strategic' || !type.unstructured)
    .map(([contentType]) => contentType);
  return [...types, APPLY_PATCH_CONTENT_TYPE];
}

/** `contentType` must be one of patchContentTypesFor(type); `options` (the registry's) gets the body's strict findings. */
export function patcherFor(
  contentType: string,
  bytes: Uint8Array,
  type: ResourceType,
  options: WriteOptions,
): ((current: Record<string, unknown>) => unknown) | ApplyPatch {
  const fieldValidation = fieldValidationMode(options.fieldValidation);
  if (contentType === APPLY_PATCH_CONTENT_TYPE) return decodeApplyPatch(bytes, { force: options.force, fieldValidation });
  const patchType = PATCH_CONTENT_TYPES[contentType]!;
  if (patchType === 'strategic') return (current) => applyPatch(patchType, current, bytes, type, { fieldValidation });
  // JSON and merge patches: the patch body's own strict findings go first, then the patched
  // object's unknown fields (the registry's decode), as one Strict 422 or in-order warnings.
  const bodyFindings: string[] = [];
  options.strictDecodeErrors = bodyFindings;
  return (current) => {
    const result = patchObject(patchType, current, bytes, type, { fieldValidation });
    bodyFindings.splice(0, bodyFindings.length, ...result.strictErrors);
    return result.object;
  };
}
