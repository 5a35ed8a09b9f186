// Turns a PATCH request body into what the registry's patch takes: a function of the current
// object for JSON, merge and strategic merge patches, or an ApplyPatch for server-side apply.
import type { ResourceType } from '../apis/resource-type.ts';
import { unsupportedMediaType } from '../errors/status-error.ts';
import { contentTypeEssence } from './media-types.ts';
import { PATCH_CONTENT_TYPES } from '../patch/content-types.ts';
import { fieldValidationMode, type WriteOptions } from '../apis/options.ts';
import { APPLY_PATCH_CONTENT_TYPE, decodeApplyPatch, type ApplyPatch } from '../apply/apply-patch.ts';

/** The patch types a resource accepts, in the order the 415 lists them (installer.go): no strategic merge for custom resources. */
export function patchContentTypesFor(type: ResourceType): string[] {
  const types = Object.entries(PATCH_CONTENT_TYPES)
    .filter(([, kind]) => kind !== 'strategic' || !type.unstructured)
    .map(([contentType]) => contentType);
  return [...types, APPLY_PATCH_CONTENT_TYPE];
}

/**
 * The request's patch content type, or the 415 listing what the resource takes (patch.go checks
 * it first, before reading the body or the options).
 */
export function patchContentTypeOf(request: Request, type: ResourceType): string {
  const contentType = contentTypeEssence(request.headers.get('content-type'));
  const accepted = patchContentTypesFor(type);
  if (!contentType || !accepted.includes(contentType)) throw unsupportedMediaType(accepted);
  return contentType;
}

export interface PatchRequest {
  /** What the registry's patch takes. */
  patch: ((current: Record<string, unknown>) => unknown) | ApplyPatch;
  /**
   * The patch body's own strict findings (JSON and merge patches), filled in each time `patch`
   * runs; pass them as the registry's strictDecodeErrors so they go ahead of unknown fields.
   */
  strictErrors: string[];
  /** How the registry decodes the patched object of a built-in kind (WriteOptions.patchDecoding). */
  decoding: WriteOptions['patchDecoding'];
}

let engines: Promise<typeof import('../patch/index.ts')> | undefined;

/**
 * The JSON, merge and strategic merge patch engines (about 60 KB of modules), loaded with the
 * first PATCH that needs them instead of with kubefake; one import shared by concurrent first
 * PATCHes (concurrent import()s break Jest's ESM runtime, jestjs/jest#11434).
 */
export const patchEngines = () => (engines ??= import('../patch/index.ts'));

/** `contentType` must be one of patchContentTypesFor(type). */
export async function patcherFor(contentType: string, bytes: Uint8Array, type: ResourceType, options: WriteOptions): Promise<PatchRequest> {
  const fieldValidation = fieldValidationMode(options.fieldValidation);
  const strictErrors: string[] = [];
  if (contentType === APPLY_PATCH_CONTENT_TYPE) return { patch: decodeApplyPatch(bytes, { force: options.force, fieldValidation }), strictErrors, decoding: undefined };
  const patchType = PATCH_CONTENT_TYPES[contentType]!;
  const { patchObject } = await patchEngines();
  if (patchType === 'strategic') {
    // The patch body's strict findings go ahead of the converter's unknown fields, and a 422
    // prints the patch map as Go's %+v (patch.go applyPatchToObject).
    const decoding: NonNullable<WriteOptions['patchDecoding']> = { via: 'unstructured' };
    const patch = (current: Record<string, unknown>) => {
      const result = patchObject(patchType, current, bytes, type, { fieldValidation });
      strictErrors.splice(0, strictErrors.length, ...result.strictErrors);
      decoding.invalidValue = result.invalidValue;
      return result.object;
    };
    return { patch, strictErrors, decoding };
  }
  // JSON and merge patches: the patch body's own strict findings go first, then the patched
  // object's unknown fields (the registry's decode), as one Strict 422 or in-order warnings.
  const patch = (current: Record<string, unknown>) => {
    const result = patchObject(patchType, current, bytes, type, { fieldValidation });
    strictErrors.splice(0, strictErrors.length, ...result.strictErrors);
    return result.object;
  };
  return { patch, strictErrors, decoding: { via: 'json' } };
}
