// k8s.io/utils/net's ParseIPSloppy and ParseCIDRSloppy: Go's pre-1.17 net.ParseIP/ParseCIDR,
// which took IPv4 octets with leading zeros as decimal ("010.0.0.1" is 10.0.0.1). Kubernetes
// validates its older IP and CIDR fields with them while StrictIPCIDRValidation is off (its
// default); built on the strict netip port by dropping those zeros first.
import { type Addr, parseAddr, parsePrefix, type Prefix } from './netip.ts';

/** "010.001.0.1" -> "10.1.0.1"; anything that is not four decimal octets is left as it is. */
function unpadIPv4(s: string): string {
  const m = /^(.*?)((?:[0-9]+\.){3}[0-9]+)$/.exec(s);
  if (!m) return s;
  const octets = m[2]!.split('.').map((o) => (o.length > 3 ? o : String(Number(o))));
  return m[1]! + octets.join('.');
}

/** The address, or undefined where net.ParseIP (sloppy) returns nil; zones are not IPs here. */
export function parseIPSloppy(s: string): Addr | undefined {
  if (s.includes('%')) return undefined;
  try {
    return parseAddr(unpadIPv4(s));
  } catch {
    return undefined;
  }
}

/** The network (host bits cleared), or undefined where net.ParseCIDR (sloppy) fails. */
export function parseCIDRSloppy(s: string): Prefix | undefined {
  const slash = s.indexOf('/');
  if (slash < 0 || s.includes('%')) return undefined;
  const bits = s.slice(slash + 1);
  // Go's dtoi: decimal digits only, leading zeros allowed.
  if (!/^[0-9]{1,8}$/.test(bits)) return undefined;
  try {
    return parsePrefix(`${unpadIPv4(s.slice(0, slash))}/${Number(bits)}`).masked();
  } catch {
    return undefined;
  }
}
