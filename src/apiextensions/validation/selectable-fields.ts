// ValidateCustomResourceSelectableFields (validation.go): at most 8 distinct fields, each a path
// (dot notation only) to a string, boolean or integer field outside metadata.
import { fieldError, fieldPath, type FieldError } from '../../errors/field-error.ts';
import { FieldPathError, pathString, validFieldPath } from './field-path.ts';
import type { SelectableField } from './internal-types.ts';
import type { Structural } from './structural.ts';

export const MAX_SELECTABLE_FIELDS = 8;

/** `tooManyAllowed`: the ratchet for an unchanged, already too long list (per version, "" for top level). */
export function validateSelectableFields(fields: SelectableField[], schema: Structural | undefined, path: string, tooManyAllowed: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const jsonPathField = fieldPath.child(fieldPath.index(path, i), 'jsonPath');
    if (f.jsonPath.length === 0) {
      errs.push(fieldError.required(jsonPathField, ''));
      return;
    }
    let resolved;
    try {
      resolved = validFieldPath(f.jsonPath, schema, false);
    } catch (e) {
      if (!(e instanceof FieldPathError)) throw e;
      errs.push(fieldError.invalid(jsonPathField, f.jsonPath, `is an invalid path: ${e.message}`));
      return;
    }
    const root = resolved.elems[0];
    if (root !== undefined && !root.key && root.name === 'metadata') {
      errs.push(fieldError.invalid(jsonPathField, f.jsonPath, 'must not point to fields in metadata'));
    }
    const t = resolved.schema?.type;
    if (t !== 'string' && t !== 'boolean' && t !== 'integer') {
      errs.push(fieldError.invalid(jsonPathField, f.jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    const key = pathString(resolved.elems);
    if (unique.has(key)) errs.push(fieldError.duplicate(jsonPathField, f.jsonPath));
    else unique.add(key);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS && !tooManyAllowed) errs.push(fieldError.tooMany(path, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}
