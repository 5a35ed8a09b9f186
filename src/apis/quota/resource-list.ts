// corev1.ResourceList arithmetic as quota and LimitRanger do it (apiserver pkg/quota/v1/resources.go
// and resource.Quantity's Value/MilliValue): names to Quantities, kept in the order they were
// first seen so messages that Go sorts are sorted explicitly where Go sorts them.
import { Quantity } from '../builtin/quantity.ts';

export type ResourceList = Map<string, Quantity>;

/** The largest value MilliValue can answer without overflow (resource.MaxMilliValue). */
export const MAX_MILLI_VALUE = ((1n << 63n) - 1n) / 1000n;

/** A JSON ResourceList (`{cpu: "100m"}`) as Quantities; entries that are not quantities are skipped. */
export function resourceList(json: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (!json || typeof json !== 'object' || Array.isArray(json)) return out;
  for (const [name, raw] of Object.entries(json as Record<string, unknown>)) {
    const q = typeof raw === 'string' || typeof raw === 'number' ? Quantity.parse(String(raw)) : undefined;
    if (q instanceof Quantity) out.set(name, q);
  }
  return out;
}

/** The JSON form of a ResourceList, keys sorted as Go's encoder writes a map. */
export function resourceListJson(list: ResourceList): Record<string, string> {
  return Object.fromEntries([...list.keys()].sort().map((k) => [k, list.get(k)!.toString()]));
}

/** Quantity.DeepCopy. */
export function deepCopyQuantity(q: Quantity): Quantity {
  const c = new Quantity({ ...q.i }, q.d ? { ...q.d } : undefined, q.format);
  c.s = q.s;
  return c;
}

/** resource.NewQuantity(n, DecimalSI). */
export function decimalQuantity(n: number | bigint): Quantity {
  return new Quantity({ value: BigInt(n), scale: 0 }, undefined, 'DecimalSI');
}

/** resource.Quantity{Format: DecimalSI}: the zero a usage starts from. */
export function zeroQuantity(): Quantity {
  return new Quantity(undefined, undefined, 'DecimalSI');
}

/** q.ScaledValue(scale): the value at 10^scale, rounded up (Value is scale 0, MilliValue -3). */
export function scaledValue(q: Quantity, scale: number): bigint {
  const { num, den } = q.toRational();
  const n = scale <= 0 ? num * 10n ** BigInt(-scale) : num;
  const d = scale <= 0 ? den : den * 10n ** BigInt(scale);
  const quotient = n / d;
  return n % d !== 0n && n > 0n ? quotient + 1n : quotient;
}

export const value = (q: Quantity): bigint => scaledValue(q, 0);
export const milliValue = (q: Quantity): bigint => scaledValue(q, -3);

/** quota.Add: a copy of a plus b. */
export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of a) {
    const q = deepCopyQuantity(v);
    const other = b.get(k);
    if (other) q.add(other);
    out.set(k, q);
  }
  for (const [k, v] of b) if (!out.has(k)) out.set(k, deepCopyQuantity(v));
  return out;
}

/** addResourceList (LimitRanger, component-helpers): adds newList into list in place. */
export function addInto(list: ResourceList, newList: ResourceList): void {
  for (const [k, v] of newList) {
    const existing = list.get(k);
    if (!existing) list.set(k, deepCopyQuantity(v));
    else existing.add(v);
  }
}

/** maxResourceList: list takes the greater of list/newList for every resource of newList. */
export function maxInto(list: ResourceList, newList: ResourceList): void {
  for (const [k, v] of newList) {
    const existing = list.get(k);
    if (!existing || v.cmp(existing) > 0) list.set(k, deepCopyQuantity(v));
  }
}

/** quota.SubtractWithNonNegativeResult. */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of a) {
    const q = deepCopyQuantity(v);
    const other = b.get(k);
    if (other) q.sub(other);
    out.set(k, q.sign() < 0 ? zeroQuantity() : q);
  }
  for (const [k, v] of b) {
    if (out.has(k)) continue;
    const q = zeroQuantity();
    q.sub(v);
    out.set(k, q.sign() < 0 ? zeroQuantity() : q);
  }
  return out;
}

/** quota.Mask: only the named resources. */
export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const keep = new Set(names);
  return new Map([...list].filter(([k]) => keep.has(k)));
}

/** quota.LessThanOrEqual: whether a ≤ b on every resource both name, and the names where not. */
export function lessThanOrEqual(a: ResourceList, b: ResourceList): { allowed: boolean; exceeded: string[] } {
  const exceeded: string[] = [];
  for (const [k, v] of a) {
    const other = b.get(k);
    if (other && v.cmp(other) > 0) exceeded.push(k);
  }
  return { allowed: exceeded.length === 0, exceeded };
}

/** quota.IsNegative: the names whose quantity is below zero. */
export function negativeNames(list: ResourceList): string[] {
  return [...list].filter(([, v]) => v.sign() < 0).map(([k]) => k);
}

/** quota.RemoveZeros. */
export function removeZeros(list: ResourceList): ResourceList {
  return new Map([...list].filter(([, v]) => !v.isZero()));
}

/** quota.Equals: the same names with equal quantities. */
export function listsEqual(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const other = b.get(k);
    if (!other || !v.equal(other)) return false;
  }
  return true;
}

/** prettyPrint (resourcequota/controller.go): `name=value` sorted by name, comma-joined. */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()].sort().map((k) => `${k}=${list.get(k)!.toString()}`).join(',');
}
