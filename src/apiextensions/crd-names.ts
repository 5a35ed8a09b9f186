// The naming controller's decision (apiextensions-apiserver pkg/controller/status/naming_controller.go):
// which requested names a CRD may have, given the names other CRDs of its group already hold,
// and the NamesAccepted / Established conditions that follow.
import type { KubeObject } from '../apis/object.ts';
import { findCrdCondition, type CrdCondition } from './crd-conditions.ts';

export interface CrdNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

type Condition = Omit<CrdCondition, 'lastTransitionTime'>;

const specNames = (crd: KubeObject): CrdNames => ((crd.spec as { names?: CrdNames } | undefined)?.names ?? { plural: '', kind: '' }) as CrdNames;
export const acceptedNames = (crd: KubeObject): CrdNames =>
  ((crd.status as { acceptedNames?: CrdNames } | undefined)?.acceptedNames ?? { plural: '', kind: '' }) as CrdNames;
const groupOf = (crd: KubeObject) => (crd.spec as { group?: string } | undefined)?.group ?? '';

/**
 * calculateNamesAndConditions. `all` is every CRD (any group; filtered here), the CRD itself
 * included: its own accepted names count as taken, as in getAcceptedNamesForGroup.
 */
export function calculateNamesAndConditions(crd: KubeObject, all: readonly KubeObject[]): { names: CrdNames; namesAccepted: Condition; established: Condition } {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const other of all) {
    if (groupOf(other) !== groupOf(crd)) continue;
    const n = acceptedNames(other);
    resources.add(n.plural ?? '');
    resources.add(n.singular ?? '');
    for (const s of n.shortNames ?? []) resources.add(s);
    kinds.add(n.kind ?? '');
    kinds.add(n.listKind ?? '');
  }
  const requested = specNames(crd);
  const accepted = acceptedNames(crd);
  const names: CrdNames = structuredClone(accepted);
  let namesAccepted: Condition = { type: 'NamesAccepted', status: 'Unknown' };
  const conflict = (reason: string, message: string) => (namesAccepted = { type: 'NamesAccepted', status: 'False', reason, message });

  const plural = check(requested.plural, accepted.plural, resources);
  if (plural) conflict('PluralConflict', plural);
  else names.plural = requested.plural;
  const singular = check(requested.singular ?? '', accepted.singular ?? '', resources);
  if (singular) conflict('SingularConflict', singular);
  else if (requested.singular !== undefined) names.singular = requested.singular;
  if (JSON.stringify(requested.shortNames ?? null) !== JSON.stringify(accepted.shortNames ?? null)) {
    const mine = new Set(accepted.shortNames ?? []);
    const errs = (requested.shortNames ?? []).filter((s) => !mine.has(s)).map((s) => check(s, '', resources)).filter((e): e is string => !!e);
    if (errs.length) conflict('ShortNamesConflict', errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);
    else if (requested.shortNames !== undefined) names.shortNames = requested.shortNames;
    else delete names.shortNames;
  }
  const kind = check(requested.kind, accepted.kind, kinds);
  if (kind) conflict('KindConflict', kind);
  else names.kind = requested.kind;
  const listKind = check(requested.listKind ?? '', accepted.listKind ?? '', kinds);
  if (listKind) conflict('ListKindConflict', listKind);
  else if (requested.listKind !== undefined) names.listKind = requested.listKind;
  if (requested.categories !== undefined) names.categories = requested.categories;
  else delete names.categories;

  if (namesAccepted.status === 'Unknown') namesAccepted = { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };

  const old = findCrdCondition(crd, 'Established');
  let established: Condition = old
    ? { type: 'Established', status: old.status, reason: old.reason, message: old.message }
    : { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  if (established.status !== 'True' && namesAccepted.status === 'True') {
    established = { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
  }
  return { names, namesAccepted, established };
}

/** equalToAcceptedOrFresh. */
function check(requested: string, accepted: string, used: Set<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `${JSON.stringify(requested)} is already in use`;
}
