// ValidateCustomResourceDefinitionStoredVersions (validation.go): status.storedVersions must hold
// the storage version, and every stored version must still be in spec.versions.
import { fieldError, fieldPath, type FieldError } from '../../errors/field-error.ts';
import type { Version } from './internal-types.ts';

export function validateStoredVersions(storedVersions: string[] | undefined, versions: Version[], path: string): FieldError[] {
  if (storedVersions === undefined || storedVersions.length === 0) {
    return [fieldError.invalid(path, storedVersions ?? null, 'must have at least one stored version')];
  }
  const errs: FieldError[] = [];
  // Go keeps a map of version -> last index; the leftovers are reported after the storage check.
  const remaining = new Map<string, number>();
  storedVersions.forEach((v, i) => remaining.set(v, i));
  for (const v of versions) {
    const found = remaining.has(v.name);
    if (v.storage && !found) errs.push(fieldError.invalid(path, storedVersions, 'must have the storage version ' + v.name));
    if (found) remaining.delete(v.name);
  }
  // Go iterates a map here (random order); index order is used.
  const leftovers = [...remaining].sort((a, b) => a[1] - b[1]);
  for (const [v, i] of leftovers) {
    errs.push(
      fieldError.invalid(
        fieldPath.index(path, i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errs;
}
