// ext.Sets: sets.contains, sets.equivalent and sets.intersects over lists (by CEL equality).
import type { Environment } from '@marcbachmann/cel-js';
import { chargeCost } from '../runtime-cost.ts';
import { celEqual } from '../value-ops.ts';

class SetsNamespace {}

/** The type of the `sets` constant the functions hang off (cel-go: a namespace, no value). */
export const SETS_NAMESPACE = 'SetsNamespace';

const items = (l: unknown[] | Set<unknown>): unknown[] => (Array.isArray(l) ? l : [...l]);
const has = (l: unknown[], v: unknown): boolean => l.some((x) => celEqual(x, v));
function contains(a: unknown[], b: unknown[]): boolean {
  const [x, y] = [items(a), items(b)];
  chargeCost(x.length * y.length);
  return y.every((v) => has(x, v));
}

export function registerSets(env: Environment): void {
  env.registerType(SETS_NAMESPACE, SetsNamespace);
  env.registerConstant('sets', SETS_NAMESPACE, new SetsNamespace());
  env.registerFunction('SetsNamespace.contains(list<A>, list<A>): bool', (_ns: unknown, a: unknown[], b: unknown[]) => contains(a, b));
  env.registerFunction('SetsNamespace.equivalent(list<A>, list<A>): bool', (_ns: unknown, a: unknown[], b: unknown[]) => contains(a, b) && contains(b, a));
  env.registerFunction('SetsNamespace.intersects(list<A>, list<A>): bool', (_ns: unknown, a: unknown[], b: unknown[]) => {
    const [x, y] = [items(a), items(b)];
    chargeCost(x.length * y.length);
    return y.some((v) => has(x, v));
  });
}
