// The Kubernetes IP address library (k8s.io/apiserver pkg/cel/library/ip.go, on since 1.30):
// `ip()`, `isIP()`, `ip.isCanonical()`, `string(ip)` and the accessors of the opaque type `net.IP`.
// Zones, IPv4-mapped IPv6 addresses and IPv4 octets with leading zeros are refused, with the
// library's own error texts around Go's netip ones. Costs follow library/cost.go.
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';
import { goQuote } from '../../errors/go-format.ts';
import { registerQualifiedConstant, registerQualifiedFunction } from '../qualified-names.ts';
import { chargeCost } from '../runtime-cost.ts';
import { Addr, parseAddr } from '../../go/netip.ts';

export const IP_TYPE = 'net.IP';

/** A `net.IP` value. */
export class CelIP {
  readonly addr: Addr;
  constructor(addr: Addr) {
    this.addr = addr;
  }
  toString(): string {
    return this.addr.toString();
  }
}

/**
 * Charges a library call at its cost.go CallCost. The metered evaluation already counted the call
 * node as 1 unit, and cel-go's CallCost replaces (not adds to) that unit, so one less is charged.
 */
export const chargeCall = (cost: number): void => chargeCost(Math.max(0, Math.ceil(cost) - 1));

/** String length as cel-go's Size() counts it (code points). */
export const runeCount = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** parseIPAddr of ip.go: netip.ParseAddr without zones or IPv4-mapped IPv6 addresses. */
export function parseIP(raw: string): Addr {
  let addr: Addr;
  try {
    addr = parseAddr(raw);
  } catch (e) {
    throw new EvaluationError(`IP Address ${goQuote(raw)} parse error during conversion from string: ${(e as Error).message}`);
  }
  if (addr.zone !== '') throw new EvaluationError(`IP address ${goQuote(raw)} with zone value is not allowed`);
  if (addr.is4In6()) throw new EvaluationError(`IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`);
  return addr;
}

function isIP(s: string): boolean {
  chargeCall(runeCount(s) * 0.1);
  try {
    parseIP(s);
    return true;
  } catch {
    return false;
  }
}

export function registerIP(env: Environment): void {
  env.registerType(IP_TYPE, { ctor: CelIP, fields: {} });
  env.registerFunction(`ip(string): ${IP_TYPE}`, (s: string) => {
    chargeCall(runeCount(s) * 0.1);
    return new CelIP(parseIP(s));
  });
  env.registerFunction('isIP(string): bool', isIP);
  registerQualifiedFunction(env, 'ip.isCanonical', ['string'], 'bool', ((s: string) => {
    // Parsing plus comparing with the canonical text: twice the traversal.
    chargeCall(runeCount(s) * 2 * 0.1);
    return parseIP(s).toString() === s;
  }) as never);
  env.registerFunction(`string(${IP_TYPE}): string`, (ip: CelIP) => ip.addr.toString());
  env.registerFunction(`${IP_TYPE}.family(): int`, (ip: CelIP) => (ip.addr.is4 ? 4n : 6n));
  env.registerFunction(`${IP_TYPE}.isUnspecified(): bool`, (ip: CelIP) => ip.addr.isUnspecified());
  env.registerFunction(`${IP_TYPE}.isLoopback(): bool`, (ip: CelIP) => ip.addr.isLoopback());
  env.registerFunction(`${IP_TYPE}.isLinkLocalMulticast(): bool`, (ip: CelIP) => ip.addr.isLinkLocalMulticast());
  env.registerFunction(`${IP_TYPE}.isLinkLocalUnicast(): bool`, (ip: CelIP) => ip.addr.isLinkLocalUnicast());
  env.registerFunction(`${IP_TYPE}.isGlobalUnicast(): bool`, (ip: CelIP) => ip.addr.isGlobalUnicast());
  env.registerOperator(`${IP_TYPE} == ${IP_TYPE}`, (a: CelIP, b: CelIP) => a.addr.equals(b.addr));
  // `net.IP` names the type (type(ip('::1')) == net.IP): the engine's own type value of it.
  registerQualifiedConstant(env, IP_TYPE, 'type', env.evaluate('type(ip("0.0.0.0"))'));
}
