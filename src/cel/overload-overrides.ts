// Replacing the handler (and, where the engine declares it wrongly, the result type) of overloads
// the engine registers itself. Its registry refuses a second overload with the same signature, so
// `timestamp(string)`, the timestamp/duration operators and a few ext.Strings built-ins could not
// otherwise be fixed from outside (nanosecond timestamps, range errors, `duration + timestamp`
// typed as a duration, Unicode-aware lowerAscii/trim).
//
// How: every registry keeps its overloads in `Candidates` objects reachable through the public
// `functionCandidates()` / `operatorCandidates()` methods, each with a public `declarations` array.
// The replacement is a copy of the engine's declaration with another handler, put in place of the
// original before the expression is type-checked. A registry rebuilds its candidates from the
// originals when it gets new overloads, so `applyOverrides` runs before every check (cheap: two
// sentinel lookups once a registry is done).
//
// Tested against @marcbachmann/cel-js 8.0.0 (pinned). On another version the structural checks below
// throw at the first compile, so a bump cannot silently drop the fixes.
import type { Environment } from '@marcbachmann/cel-js';
import { seamMoved } from './engine-internals.ts';

/** The name of the function (registered in the base environment) that answers its evaluator's registry. */
export const REGISTRY_PROBE = 'kubefakeRegistryProbe';

export interface OverloadOverride {
  /** The engine's signature of the overload to replace, as it prints it (`timestamp(string): google.protobuf.Timestamp`, `google.protobuf.Duration + google.protobuf.Timestamp: google.protobuf.Duration`). */
  signature: string;
  /** The new handler; gets the same arguments as the original. */
  handler: (...args: never[]) => unknown;
  /** A corrected result type. */
  returnType?: string;
}

interface Decl {
  signature: string;
  handler: unknown;
}
interface Candidates {
  declarations: Decl[];
  add(decl: Decl): void;
}
interface Registry {
  functionCandidates(receiver: boolean, name: string, argc: number): Candidates;
  operatorCandidates(op: string): Candidates;
  getType(name: string): unknown;
}

const overrides: OverloadOverride[] = [];
const registries = new WeakMap<Environment, Registry>();
const done = new WeakSet<Candidates>();

/** Set by the first applyOverrides: candidate lists are then marked done, so a later override would be lost. */
let applied = false;

/** Registers overrides; only before the first compile (registerLibraries does). */
export function overrideOverloads(list: readonly OverloadOverride[]): void {
  if (applied) throw new Error('overload overrides must be registered before the first CEL compile (applyOverrides has run)');
  overrides.push(...list);
  groups = undefined;
}

/** The registry probe function, registered once in the base environment. */
export function registerRegistryProbe(env: Environment): void {
  env.registerFunction(`${REGISTRY_PROBE}(): dyn`, function (this: { registry: Registry }) {
    return this.registry;
  });
}

// Operand types may be map types (`map<K, V> == map<K, V>: bool`).
const OPERATOR = /^(?:[\w.<>]|, )+ ([-+*/%<>=!]+|in) (?:[\w.<>]|, )+: /;

type Place = { operator: string } | { receiver: boolean; name: string; argc: number };
const places = new Map<string, Place>();

/** Where an overload lives, read once per signature (every node environment asks again). */
function placeOf(signature: string): Place {
  let place = places.get(signature);
  if (place) return place;
  const op = OPERATOR.exec(signature);
  if (op) place = { operator: op[1]! };
  else {
    const fn = /^(?:(.+)\.)?(\w+)\((.*)\): /.exec(signature);
    if (!fn) throw new Error(`overload override: cannot read signature '${signature}'`);
    place = { receiver: fn[1] !== undefined, name: fn[2]!, argc: fn[3]!.trim() === '' ? 0 : fn[3]!.split(',').length };
  }
  places.set(signature, place);
  return place;
}

/** The candidates list of an overload's function or operator. */
function candidatesOf(registry: Registry, signature: string): Candidates {
  const place = placeOf(signature);
  return 'operator' in place ? registry.operatorCandidates(place.operator) : registry.functionCandidates(place.receiver, place.name, place.argc);
}

/** The registry of an environment with the registry probe (kubefake's base environment and its clones). */
export function registryOf(env: Environment): Registry {
  let registry = registries.get(env);
  if (registry === undefined) {
    registry = env.evaluate(`${REGISTRY_PROBE}()`) as unknown as Registry;
    if (typeof registry?.functionCandidates !== 'function' || typeof registry.operatorCandidates !== 'function' || typeof registry.getType !== 'function') {
      seamMoved('registry functionCandidates / operatorCandidates / getType');
    }
    registries.set(env, registry);
  }
  return registry;
}

const copies = new WeakMap<Decl, OverloadOverride>();
/** The replacement of each original declaration: clones share the originals, so one copy serves them all. */
const copyOf = new WeakMap<Decl, Decl>();

function replace(registry: Registry, o: OverloadOverride): void {
  const candidates = candidatesOf(registry, o.signature);
  const list = candidates.declarations;
  if (!Array.isArray(list) || typeof candidates.add !== 'function') {
    seamMoved('Candidates.declarations / add');
  }
  if (list.some((d) => copies.get(d) === o)) return;
  const at = list.findIndex((d) => d.signature === o.signature);
  if (at < 0) throw new Error(`overload override: the engine has no overload '${o.signature}'`);
  const original = list[at]!;
  let copy = copyOf.get(original);
  if (copy === undefined) {
    const extra: Record<string, unknown> = { handler: o.handler };
    if (o.returnType !== undefined) {
      extra.returnType = registry.getType(o.returnType);
      extra.signature = `${o.signature.slice(0, o.signature.lastIndexOf(':'))}: ${o.returnType}`;
    }
    copy = Object.freeze(Object.assign(Object.create(Object.getPrototypeOf(original) as object) as Decl, original, extra));
    copies.set(copy, o);
    copyOf.set(original, copy);
  }
  // add() clears the candidates' lookup caches (and unifies the result type); then the copy takes
  // the original's place so the order of overloads does not change.
  candidates.add(copy);
  list.pop();
  list[at] = copy;
}

/** The overrides grouped by the candidates list they live in, rebuilt when overrides are added. */
let groups: Array<{ signature: string; members: OverloadOverride[] }> | undefined;

function overrideGroups(): Array<{ signature: string; members: OverloadOverride[] }> {
  if (groups) return groups;
  const byPlace = new Map<string, { signature: string; members: OverloadOverride[] }>();
  for (const o of overrides) {
    const place = placeOf(o.signature);
    const key = 'operator' in place ? `op:${place.operator}` : `fn:${place.receiver}:${place.name}:${place.argc}`;
    const group = byPlace.get(key) ?? byPlace.set(key, { signature: o.signature, members: [] }).get(key)!;
    group.members.push(o);
  }
  return (groups = [...byPlace.values()]);
}

/**
 * Puts every registered override in place in the environment's registry (idempotent). A node
 * environment shares its parent's candidates until it registers overloads of its own (its `==`
 * operators), so usually only the operator lists need the copies again.
 */
export function applyOverrides(env: Environment): void {
  applied = true;
  if (overrides.length === 0) return;
  const registry = registryOf(env);
  for (const { signature, members } of overrideGroups()) {
    const candidates = candidatesOf(registry, signature);
    if (done.has(candidates)) continue;
    for (const o of members) replace(registry, o);
    done.add(candidates);
  }
}
