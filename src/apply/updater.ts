// structured-merge-diff's merge.Updater (v6.3.3): who owns what after an update or an apply, the
// conflicts an apply meets, and the removal of fields an applier stopped applying. kubefake serves
// one schema per resource version and converts between versions by apiVersion only, so the
// version converter is the identity.
import { FieldSet, type Path } from './fieldpath.ts';
import type { Atom } from './smd-schema.ts';
import { compare, merge, removeItems, toFieldSet, TypedValueError, validationErrorsText, type Comparison } from './typed.ts';
import { isMap, valuesEqual } from './value.ts';

export interface VersionedSet {
  set: FieldSet;
  apiVersion: string;
  applied: boolean;
}

/** fieldpath.ManagedFields: manager identifier → owned set. */
export type ManagedFields = Map<string, VersionedSet>;

export interface Conflict {
  manager: string;
  path: Path;
}

/** merge.Conflicts: an apply met fields owned by others with other values. */
export class ConflictsError extends Error {
  readonly conflicts: Conflict[];
  constructor(conflicts: Conflict[]) {
    super('conflicts');
    this.conflicts = conflicts;
  }
}

/** A plain Go error of the updater (answered 500 by the handler). */
export class UpdaterError extends Error {}

export interface Updater {
  /** The object type. */
  atom: Atom;
  /** Reset fields (the strategy wipes them): not owned by anyone, per API version. */
  ignored?: (apiVersion: string) => FieldSet | undefined;
}

function filtered(u: Updater, version: string, set: FieldSet): FieldSet {
  const ignored = u.ignored?.(version);
  return ignored ? set.recursiveDifference(ignored) : set;
}

function filterComparison(u: Updater, version: string, c: Comparison): Comparison {
  return { removed: filtered(u, version, c.removed), modified: filtered(u, version, c.modified), added: filtered(u, version, c.added) };
}

/** ConflictsFromManagers, in manager order and path order within a manager. */
function conflictsFrom(sets: ManagedFields): Conflict[] {
  const out: Conflict[] = [];
  for (const manager of [...sets.keys()].sort()) sets.get(manager)!.set.iterate((path) => out.push({ manager, path }));
  return out;
}

/**
 * The object without the top-level fields the reset fields name whole (spec on `/status`, status
 * on the resource): what comparing them finds is filtered out anyway, and walking a pod's spec on
 * every status write is most of the comparison's cost.
 */
function withoutWholeResetFields(reset: FieldSet | undefined, obj: unknown): unknown {
  if (!reset || !isMap(obj)) return obj;
  let out: Record<string, unknown> | undefined;
  for (const pe of reset.members) {
    if (!('field' in pe) || !Object.hasOwn(obj, pe.field)) continue;
    out ??= { ...obj };
    delete out[pe.field];
  }
  return out ?? obj;
}

function updateOwners(u: Updater, oldObj: unknown, newObj: unknown, version: string, managers: ManagedFields, workflow: string, force: boolean) {
  const reset = u.ignored?.(version);
  const cmp = filterComparison(u, version, compare(u.atom, withoutWholeResetFields(reset, oldObj), withoutWholeResetFields(reset, newObj)));
  const conflicts: ManagedFields = new Map();
  const removed: ManagedFields = new Map();
  for (const [manager, managerSet] of managers) {
    if (manager === workflow) continue;
    // Other versions compare the same objects (identity conversion), with their own reset fields.
    const c = managerSet.apiVersion === version ? cmp : filterComparison(u, managerSet.apiVersion, compare(u.atom, oldObj, newObj));
    const conflictSet = managerSet.set.intersection(c.modified.union(c.added));
    if (!conflictSet.empty()) conflicts.set(manager, { set: conflictSet, apiVersion: managerSet.apiVersion, applied: false });
    if (!c.removed.empty()) removed.set(manager, { set: c.removed, apiVersion: managerSet.apiVersion, applied: false });
  }
  if (!force && conflicts.size > 0) throw new ConflictsError(conflictsFrom(conflicts));
  for (const [manager, c] of [...conflicts, ...removed]) {
    const m = managers.get(manager)!;
    managers.set(manager, { ...m, set: m.set.difference(c.set) });
  }
  for (const [manager, m] of managers) if (m.set.empty()) managers.delete(manager);
  return { managers, compare: cmp };
}

/** Updater.Update: the manager takes every field the write changed; nobody keeps removed fields. */
export function updateManaged(u: Updater, live: unknown, next: unknown, version: string, managers: ManagedFields, manager: string): ManagedFields {
  const { compare: cmp } = updateOwners(u, live, next, version, managers, manager, true);
  const previous = managers.get(manager)?.set ?? new FieldSet();
  const set = filtered(u, version, previous.difference(cmp.removed).union(cmp.modified).union(cmp.added));
  if (set.empty()) managers.delete(manager);
  else managers.set(manager, { set, apiVersion: version, applied: false });
  return managers;
}

/**
 * Updater.Apply: merges the configuration into the live object, makes the manager own exactly
 * the configuration's fields, removes what it applied before and no longer applies (unless owned
 * by someone else), and fails with the conflicts unless forced. `object` is undefined for a no-op.
 */
export function applyManaged(
  u: Updater,
  live: unknown,
  config: unknown,
  version: string,
  managers: ManagedFields,
  manager: string,
  force: boolean,
): { object: unknown; managers: ManagedFields } {
  const merged = merge(u.atom, live, config);
  if (merged.errs.length) throw new UpdaterError(`failed to merge config: ${validationErrorsText(merged.errs)}`);
  let object: unknown = merged.out ?? null;
  const lastSet = managers.get(manager);
  const set = filtered(u, version, toFieldSet(u.atom, config));
  managers.set(manager, { set, apiVersion: version, applied: true });
  object = prune(u, object, managers, manager, lastSet);
  updateOwners(u, live, object, version, managers, manager, force);
  return { object: valuesEqual(live, object) ? undefined : object, managers };
}

function prune(u: Updater, merged: unknown, managers: ManagedFields, applying: string, lastSet: VersionedSet | undefined): unknown {
  if (!lastSet || lastSet.set.empty()) return merged;
  const named = (s: FieldSet) => s.ensureNamedFieldsAreMembers(u.atom);
  let pruned: unknown = removeItems(u.atom, merged, named(lastSet.set)) ?? null;
  // addBackOwnedItems: what any manager (the applier included, with its new set) owns stays.
  let managed = new FieldSet();
  for (const m of managers.values()) managed = managed.union(m.set);
  const mergedSet = named(toFieldSet(u.atom, merged));
  pruned = removeItems(u.atom, merged, mergedSet.difference(named(toFieldSet(u.atom, pruned)).union(named(managed)))) ?? null;
  // addBackDanglingItems: only what the applier itself had applied may go.
  const prunedSet = named(toFieldSet(u.atom, pruned));
  return removeItems(u.atom, merged, mergedSet.difference(prunedSet).intersection(named(lastSet.set))) ?? null;
}

export { TypedValueError };
