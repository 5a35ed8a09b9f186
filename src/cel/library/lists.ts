// The Kubernetes lists library (k8s.io/apiserver pkg/cel/library/lists.go): isSorted, sum, min,
// max, indexOf, lastIndexOf over lists of comparable (or summable) element types.
import type { Environment } from '@marcbachmann/cel-js';
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { EvaluationError } from '@marcbachmann/cel-js';
import { chargeCall } from './ip.ts';
import { celCompare, celEqual } from '../value-ops.ts';

/** cel-go's comparableTypes: what isSorted, min, max and ext.Lists' sort()/sortBy() keys accept. */
export const COMPARABLE = ['int', 'uint', 'double', 'bool', 'string', 'bytes', 'google.protobuf.Duration', 'google.protobuf.Timestamp'];

/**
 * library/cost.go traversalCost: what isSorted, sum, min, max, indexOf and lastIndexOf charge for
 * walking a value: strings and bytes their length × 0.1 (truncated), lists and maps the sum over
 * their elements (keys too), anything else 1.
 */
function traversalCost(v: unknown): number {
  if (typeof v === 'string') return Math.floor(Buffer.byteLength(v) * 0.1);
  if (v instanceof Uint8Array) return Math.floor(v.length * 0.1);
  if (Array.isArray(v) || v instanceof Set) {
    let cost = 0;
    for (const x of v) cost += traversalCost(x);
    return cost;
  }
  if (v instanceof Map) {
    let cost = 0;
    for (const [k, x] of v) cost += traversalCost(k) + traversalCost(x);
    return cost;
  }
  // traits.Mapper covers "maps and objects": CEL maps here are also plain objects, and schema
  // objects are instances of the environment's null-prototype classes (environment.ts).
  if (isMapOrObject(v)) {
    let cost = 0;
    for (const [k, x] of Object.entries(v)) cost += traversalCost(k) + traversalCost(x);
    return cost;
  }
  return 1;
}

function isMapOrObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as object | null;
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
}

const items = (l: unknown[] | Set<unknown>): unknown[] => {
  const arr = Array.isArray(l) ? l : [...l];
  chargeCall(traversalCost(arr));
  return arr;
};

function extreme(name: string, sign: number) {
  return (l: unknown[] | Set<unknown>): unknown => {
    const arr = items(l);
    if (arr.length === 0) throw new EvaluationError(`${name} called on empty list`);
    return arr.reduce((best, x) => (celCompare(x, best) * sign > 0 ? x : best));
  };
}

export function registerLists(env: Environment): void {
  for (const t of COMPARABLE) {
    env.registerFunction(`list<${t}>.isSorted(): bool`, (l: unknown[]) => items(l).every((x, i, a) => i === 0 || celCompare(a[i - 1], x) <= 0));
    env.registerFunction(`list<${t}>.min(): ${t}`, extreme('min', -1));
    env.registerFunction(`list<${t}>.max(): ${t}`, extreme('max', 1));
  }
  env.registerFunction('list<int>.sum(): int', (l: bigint[]) => items(l).reduce((a: bigint, b) => a + (b as bigint), 0n));
  env.registerFunction('list<double>.sum(): double', (l: number[]) => items(l).reduce((a: number, b) => a + (b as number), 0));
  env.registerFunction('list<google.protobuf.Duration>.sum(): google.protobuf.Duration', (l: Duration[]) =>
    items(l).reduce((a: Duration, b) => a.addDuration(b as Duration), new Duration(0n, 0)),
  );
  env.registerFunction('list<A>.indexOf(A): int', (l: unknown[], v: unknown) => BigInt(items(l).findIndex((x) => celEqual(x, v))));
  env.registerFunction('list<A>.lastIndexOf(A): int', (l: unknown[], v: unknown) => BigInt(items(l).findLastIndex((x) => celEqual(x, v))));
}
