// ValidateCustomResourceDefinitionNames (validation.go), for spec.names and status.acceptedNames.
import { fieldError, fieldPath, type FieldError } from '../../errors/field-error.ts';
import { isDNS1035Label } from '../../validation/names.ts';
import type { Names } from './internal-types.ts';

const MIXED_CASE = 'may have mixed case, but should otherwise match: ';

export function validateNames(names: Names, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const c = (n: string) => fieldPath.child(path, n);
  let e = isDNS1035Label(names.plural);
  if (names.plural.length > 0 && e.length > 0) errs.push(fieldError.invalid(c('plural'), names.plural, e.join(',')));
  e = isDNS1035Label(names.singular);
  if (names.singular.length > 0 && e.length > 0) errs.push(fieldError.invalid(c('singular'), names.singular, e.join(',')));
  e = isDNS1035Label(names.kind.toLowerCase());
  if (names.kind.length > 0 && e.length > 0) errs.push(fieldError.invalid(c('kind'), names.kind, MIXED_CASE + e.join(',')));
  e = isDNS1035Label(names.listKind.toLowerCase());
  if (names.listKind.length > 0 && e.length > 0) errs.push(fieldError.invalid(c('listKind'), names.listKind, MIXED_CASE + e.join(',')));

  (names.shortNames ?? []).forEach((shortName, i) => {
    const se = isDNS1035Label(shortName);
    if (se.length > 0) errs.push(fieldError.invalid(fieldPath.index(c('shortNames'), i), shortName, se.join(',')));
  });

  // Equal kind and listKind would make parsing ambiguous.
  if (names.kind.length > 0 && names.kind === names.listKind) {
    errs.push(fieldError.invalid(c('listKind'), names.listKind, 'kind and listKind may not be the same'));
  }

  (names.categories ?? []).forEach((category, i) => {
    const ce = isDNS1035Label(category);
    if (ce.length > 0) errs.push(fieldError.invalid(fieldPath.index(c('categories'), i), category, ce.join(',')));
  });
  return errs;
}
