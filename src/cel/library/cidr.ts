// The Kubernetes CIDR library (k8s.io/apiserver pkg/cel/library/cidr.go, on since 1.30):
// `cidr()`, `isCIDR()`, `string(cidr)` and the members of the opaque type `net.CIDR`
// (containsIP, containsCIDR, ip, masked, prefixLength). Host bits after the prefix are kept (the
// library's doc says otherwise, its code does not check), IPv4-mapped addresses are refused.
// Costs follow library/cost.go: a CIDR's size is its prefix length in whole bytes.
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';
import { goQuote } from '../../errors/go-format.ts';
import { registerQualifiedConstant } from '../qualified-names.ts';
import { CelIP, chargeCall, IP_TYPE, parseIP, runeCount } from './ip.ts';
import { parsePrefix, type Prefix } from '../../go/netip.ts';

export const CIDR_TYPE = 'net.CIDR';

/** A `net.CIDR` value. */
export class CelCIDR {
  readonly prefix: Prefix;
  constructor(prefix: Prefix) {
    this.prefix = prefix;
  }
  /** Size() for cost tracking: the prefix length in bytes, rounded up. */
  get size(): number {
    return Math.ceil(this.prefix.bits / 8);
  }
  toString(): string {
    return this.prefix.toString();
  }
}

/** stringToCIDR: parseCIDR's error wrapped once more (so the prefix text appears twice, as upstream). */
function parseCIDR(raw: string): Prefix {
  let prefix: Prefix;
  try {
    prefix = parsePrefix(raw);
  } catch (e) {
    throw new EvaluationError(`network address parse error during conversion from string: network address parse error during conversion from string: ${(e as Error).message}`);
  }
  if (prefix.addr.is4In6()) throw new EvaluationError(`network address parse error during conversion from string: IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`);
  return prefix;
}

function toCIDR(s: string): CelCIDR {
  chargeCall(runeCount(s) * 0.1);
  return new CelCIDR(parseCIDR(s));
}

function isCIDR(s: string): boolean {
  chargeCall(runeCount(s) * 0.1);
  try {
    parseCIDR(s);
    return true;
  } catch {
    return false;
  }
}

/** Comparing up to the prefix's bytes, twice (cost.go). */
const compareCost = (c: CelCIDR): number => Math.ceil(c.size * 2 * 0.1);

function containsIP(c: CelCIDR, ip: CelIP): boolean {
  chargeCall(compareCost(c));
  return c.prefix.contains(ip.addr);
}

function containsIPString(c: CelCIDR, s: string): boolean {
  chargeCall(compareCost(c) + Math.ceil(runeCount(s) * 0.1));
  // Converted as ip() converts it (cost charged above). Upstream passes a failed conversion on to
  // the IP overload, which answers "no such overload" rather than the parse error.
  let ip;
  try {
    ip = parseIP(s);
  } catch {
    throw new EvaluationError('no such overload');
  }
  return c.prefix.contains(ip);
}

function containsCIDR(c: CelCIDR, other: CelCIDR): boolean {
  chargeCall(compareCost(c) + Math.ceil(c.size * 0.1) + 1);
  return c.prefix.overlaps(other.prefix) && c.prefix.bits <= other.prefix.bits;
}

function containsCIDRString(c: CelCIDR, s: string): boolean {
  chargeCall(compareCost(c) + Math.ceil(c.size * 0.1) + 1 + Math.ceil(runeCount(s) * 0.1));
  const other = parseCIDR(s);
  return c.prefix.overlaps(other) && c.prefix.bits <= other.bits;
}

export function registerCIDR(env: Environment): void {
  env.registerType(CIDR_TYPE, { ctor: CelCIDR, fields: {} });
  env.registerFunction(`cidr(string): ${CIDR_TYPE}`, toCIDR);
  env.registerFunction('isCIDR(string): bool', isCIDR);
  env.registerFunction(`string(${CIDR_TYPE}): string`, (c: CelCIDR) => c.prefix.toString());
  env.registerFunction(`${CIDR_TYPE}.containsIP(${IP_TYPE}): bool`, containsIP);
  env.registerFunction(`${CIDR_TYPE}.containsIP(string): bool`, containsIPString);
  env.registerFunction(`${CIDR_TYPE}.containsCIDR(${CIDR_TYPE}): bool`, containsCIDR);
  env.registerFunction(`${CIDR_TYPE}.containsCIDR(string): bool`, containsCIDRString);
  env.registerFunction(`${CIDR_TYPE}.ip(): ${IP_TYPE}`, (c: CelCIDR) => new CelIP(c.prefix.addr));
  env.registerFunction(`${CIDR_TYPE}.masked(): ${CIDR_TYPE}`, (c: CelCIDR) => new CelCIDR(c.prefix.masked()));
  env.registerFunction(`${CIDR_TYPE}.prefixLength(): int`, (c: CelCIDR) => BigInt(c.prefix.bits));
  env.registerOperator(`${CIDR_TYPE} == ${CIDR_TYPE}`, (a: CelCIDR, b: CelCIDR) => a.prefix.equals(b.prefix));
  registerQualifiedConstant(env, CIDR_TYPE, 'type', env.evaluate('type(cidr("0.0.0.0/0"))'));
}
