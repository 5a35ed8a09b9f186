// The Kubernetes quantity library (apiserver pkg/cel/library/quantity.go, on since 1.28):
// quantity(), isQuantity(), sign(), and the kubernetes.Quantity methods isGreaterThan, isLessThan,
// compareTo, add, sub, asInteger, isInteger, asApproximateFloat — over a port of
// resource.Quantity, so representation-dependent answers match (`quantity("1000m").isInteger()`
// is false).
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';
import { Quantity } from '../../apis/builtin/quantity.ts';
import { chargeCost } from '../runtime-cost.ts';

export const QUANTITY_TYPE = 'kubernetes.Quantity';

/**
 * A CEL kubernetes.Quantity: a reference to a (mutable, as in Go) resource.Quantity. `pointer`
 * marks results of add/sub, which Go returns as *Quantity: Quantity.Equal only accepts a value on
 * its right, so `quantity("3") == quantity("1").add(2)` is a "no such overload" error in the
 * apiserver (the other way round works).
 */
export class CelQuantity {
  readonly q: Quantity;
  readonly pointer: boolean;
  constructor(q: Quantity, pointer = false) {
    this.q = q;
    this.pointer = pointer;
  }
}

/** A cel-go error value that renders as `no such overload`. */
export function noSuchOverload(): EvaluationError {
  return new EvaluationError({ code: 'no_such_overload', message: 'no such overload' } as unknown as string);
}

/** What cel-go charges for parsing a string argument: its length in runes times 0.1, rounded up. */
export function chargeStringTraversal(s: string): void {
  // The engine already counted 1 for the call; cel-go charges the call this much instead.
  chargeCost(Math.ceil(runeCount(s) * 0.1) - 1);
}

function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function parse(s: string): CelQuantity {
  chargeStringTraversal(s);
  const q = Quantity.parse(s);
  if (typeof q === 'string') throw new EvaluationError(q);
  return new CelQuantity(q);
}

/** `copy := *q; copy.Add(y)` returned as &Quantity{&copy}. */
function arithmetic(a: CelQuantity, b: Quantity, op: 'add' | 'sub'): CelQuantity {
  const copy = a.q.copy();
  copy[op](b);
  return new CelQuantity(copy, true);
}

export function registerQuantity(env: Environment): void {
  const Q = QUANTITY_TYPE;
  // Opaque: no fields to select (`undefined field` at compile time, as in cel-go).
  env.registerType(Q, { ctor: CelQuantity, fields: {} });
  env.registerFunction(`quantity(string): ${Q}`, parse);
  env.registerFunction('isQuantity(string): bool', (s: string) => {
    chargeStringTraversal(s);
    return typeof Quantity.parse(s) !== 'string';
  });
  // A global overload only: `quantity("1").sign()` does not compile in cel-go either.
  env.registerFunction(`sign(${Q}): int`, (a: CelQuantity) => BigInt(a.q.sign()));
  env.registerFunction(`${Q}.isGreaterThan(${Q}): bool`, (a: CelQuantity, b: CelQuantity) => a.q.cmp(b.q) === 1);
  env.registerFunction(`${Q}.isLessThan(${Q}): bool`, (a: CelQuantity, b: CelQuantity) => a.q.cmp(b.q) === -1);
  env.registerFunction(`${Q}.compareTo(${Q}): int`, (a: CelQuantity, b: CelQuantity) => BigInt(a.q.cmp(b.q)));
  env.registerFunction(`${Q}.asApproximateFloat(): double`, (a: CelQuantity) => a.q.asApproximateFloat64());
  env.registerFunction(`${Q}.asInteger(): int`, (a: CelQuantity) => {
    const v = a.q.asInt64();
    if (v === undefined) throw new EvaluationError('cannot convert value to integer');
    return v;
  });
  env.registerFunction(`${Q}.isInteger(): bool`, (a: CelQuantity) => a.q.asInt64() !== undefined);
  env.registerFunction(`${Q}.add(${Q}): ${Q}`, (a: CelQuantity, b: CelQuantity) => arithmetic(a, b.q, 'add'));
  env.registerFunction(`${Q}.add(int): ${Q}`, (a: CelQuantity, b: bigint) => arithmetic(a, Quantity.fromInt64(b), 'add'));
  env.registerFunction(`${Q}.sub(${Q}): ${Q}`, (a: CelQuantity, b: CelQuantity) => arithmetic(a, b.q, 'sub'));
  env.registerFunction(`${Q}.sub(int): ${Q}`, (a: CelQuantity, b: bigint) => arithmetic(a, Quantity.fromInt64(b), 'sub'));
  env.registerOperator(`${Q} == ${Q}`, (a: CelQuantity, b: CelQuantity) => {
    if (b.pointer) throw noSuchOverload();
    return a.q.equal(b.q);
  });
}
