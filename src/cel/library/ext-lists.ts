// cel-go's ext.Lists at version 3, as Kubernetes 1.34+ enables it (apiserver base.go:
// `ext.Lists(ext.ListsVersion(3))`; cel-go v0.26 ext/lists.go): slice, flatten, distinct, reverse,
// sort, the sortBy macro and lists.range, with their runtime costs (the overload cost trackers).
// first() and last() of version 3 are the engine's own. The static estimates are in cost.ts.
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';
import type { IterationScope, NodeShape } from '../engine-internals.ts';
import { celTypeName } from '../errors.ts';
import { registerQualifiedFunction } from '../qualified-names.ts';
import { celCompare, celEqual } from '../value-ops.ts';
import { chargeCall } from './ip.ts';
import { COMPARABLE } from './lists.ts';

const LIST_CREATE = 10;
const CALL = 1;

const asArray = (l: unknown[] | Set<unknown>): unknown[] => (Array.isArray(l) ? l : [...l]);

/** trackAllocatingListCall: the result's size times a factor, plus the call and the list allocation. */
const chargeAllocation = (factor: number, size: number): void => chargeCall(Math.floor(size * factor) + CALL + LIST_CREATE);

/** trackListSelfCompare: a worst-case O(n²) pass; strings and bytes compare by traversal too. */
function chargeSelfCompare(list: unknown[]): void {
  const textual = typeof list[0] === 'string' || list[0] instanceof Uint8Array;
  chargeAllocation(list.length === 0 ? 2 : textual ? 2.1 : 2, list.length * list.length);
}

function slice(list: unknown[] | Set<unknown>, start: bigint, end: bigint): unknown[] {
  const items = asArray(list);
  if (start < 0n || end < 0n) throw new EvaluationError(`cannot slice(${start}, ${end}), negative indexes not supported`);
  if (start > end) throw new EvaluationError(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`);
  if (BigInt(items.length) < end) throw new EvaluationError(`cannot slice(${start}, ${end}), list is length ${items.length}`);
  const out = items.slice(Number(start), Number(end));
  chargeAllocation(1, out.length);
  return out;
}

function flatten(list: unknown[] | Set<unknown>, depth: bigint): unknown[] {
  if (depth < 0n) throw new EvaluationError('level must be non-negative');
  const out: unknown[] = [];
  for (const v of asArray(list)) {
    if ((Array.isArray(v) || v instanceof Set) && depth > 0n) out.push(...flatten(v, depth - 1n));
    else out.push(v);
  }
  return out;
}

/**
 * sortListByAssociatedKeys: orders `list` by `keys` (one key per element). Keys of another type than
 * the first fail. Go's sort.Slice is not stable; for equal keys this keeps the input order (Go's
 * pdqsort does too for lists of up to 12 elements, which use insertion sort).
 */
function sortByKeys(list: unknown[], keys: unknown[]): unknown[] {
  if (list.length !== keys.length) {
    throw new EvaluationError(`@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got ${list.length} and ${keys.length} elements respectively`);
  }
  if (list.length === 0) return list;
  const kind = typeOf(keys[0]);
  if (kind === undefined) throw new EvaluationError('list elements must be comparable');
  if (keys.some((k) => typeOf(k) !== kind)) throw new EvaluationError('list elements must have the same type');
  const order = keys.map((_, i) => i).sort((a, b) => celCompare(keys[a], keys[b]) || a - b);
  return order.map((i) => list[i]);
}

/** The CEL type of a comparable value, for sort's same-type check; undefined for the others. */
function typeOf(v: unknown): string | undefined {
  if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return typeof v;
  if (v instanceof Uint8Array) return 'bytes';
  const name = (v as { constructor?: { name?: string } } | null)?.constructor?.name;
  return name === 'UnsignedInt' || name === 'Duration' || name === 'Date' ? name : undefined;
}

function distinct(list: unknown[] | Set<unknown>): unknown[] {
  const items = asArray(list);
  chargeSelfCompare(items);
  const out: unknown[] = [];
  for (const v of items) if (!out.some((o) => celEqual(v, o))) out.push(v);
  return out;
}

// ---- sortBy: a receiver macro, `list.sortBy(e, key)` ------------------------------------------

type Node = NodeShape;
interface Checker {
  check(n: Node, ctx: IterationScope): { kind: string; name: string; valueType?: { name: string } };
  createError(code: string, msg: string, node: Node): Error;
}
interface Evaluator {
  run(n: Node, ctx: IterationScope): unknown;
}
interface SortByMacro {
  receiver: Node;
  variable: string;
  key: Node;
  keyCtx?: IterationScope;
}

function sortByMacro({ args, receiver }: { args: Node[]; receiver: Node }) {
  if (args[0]!.op !== 'id') throw new EvaluationError('sortBy(var, key) invalid iteration variable');
  return {
    receiver,
    variable: args[0]!.args as string,
    key: args[1]!,
    async: false,
    typeCheck(chk: Checker, m: SortByMacro, ctx: IterationScope) {
      const listType = chk.check(m.receiver, ctx);
      m.keyCtx = ctx.forkWithVariable(m.variable, listType.kind === 'list' ? listType.valueType : listType);
      const keyType = chk.check(m.key, m.keyCtx);
      // cel-go: @sortByAssociatedKeys has overloads for the comparable key types only.
      if (keyType.kind !== 'dyn' && !COMPARABLE.includes(keyType.name)) {
        throw chk.createError('kubefake_sort_key', `found no matching overload for '@sortByAssociatedKeys' applied to '${celTypeName(listType.name)}.(list(${celTypeName(keyType.name)}))'`, m.key);
      }
      return listType;
    },
    evaluate(ev: Evaluator, m: SortByMacro, ctx: IterationScope) {
      const list = asArray(ev.run(m.receiver, ctx) as unknown[]);
      const keyCtx = m.keyCtx!.reuse(ctx);
      const keys = list.map((v) => ev.run(m.key, keyCtx.setIterValue(v, ev)));
      chargeSelfCompare(keys);
      return sortByKeys(list, keys);
    },
  };
}

export function registerExtLists(env: Environment): void {
  env.registerFunction('list<A>.slice(int, int): list<A>', slice);
  env.registerFunction('list<list<A>>.flatten(): list<A>', (l: unknown[]) => {
    chargeAllocation(1, asArray(l).length);
    return flatten(l, 1n);
  });
  env.registerFunction('list<dyn>.flatten(int): list<dyn>', (l: unknown[], depth: bigint) => {
    chargeAllocation(Number(depth), asArray(l).length);
    return flatten(l, depth);
  });
  env.registerFunction('list<A>.distinct(): list<A>', distinct);
  env.registerFunction('list<A>.reverse(): list<A>', (l: unknown[]) => {
    const out = asArray(l).toReversed();
    chargeAllocation(1, out.length);
    return out;
  });
  for (const t of COMPARABLE) {
    env.registerFunction(`list<${t}>.sort(): list<${t}>`, (l: unknown[]) => {
      const items = asArray(l);
      chargeSelfCompare(items);
      return sortByKeys(items, items);
    });
  }
  env.registerFunction('list.sortBy(ast, ast): list<dyn>', sortByMacro as unknown as (...a: unknown[]) => unknown);
  registerQualifiedFunction(env, 'lists.range', ['int'], 'list<int>', (n: bigint) => {
    const out: bigint[] = [];
    for (let i = 0n; i < n; i++) out.push(i);
    chargeAllocation(1, out.length);
    return out;
  });
}
