// validation.IsValidIP (k8s.io/apimachinery/pkg/util/validation/ip.go, v0.36): parsed as
// netutils.ParseIPSloppy parses (IPv4 octets may have leading zeros); then refused where
// netip.ParseAddr refuses it (leading zeros) or as an IPv4-mapped IPv6 address, and only when
// neither applies, when not written as net.IP's String() writes it (parseIP returns early).
import { parseIPSloppy } from '../go/net-sloppy.ts';
import { parseAddr } from '../go/netip.ts';
import { fieldError, type FieldError } from '../errors/field-error.ts';

/** validation.IsValidIP: errors for `path` when `value` is not a valid, canonical IP address. */
export function isValidIP(path: string, value: string): FieldError[] {
  const ip = parseIPSloppy(value);
  if (!ip) return [fieldError.invalid(path, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
  const errs: FieldError[] = [];
  let strict;
  try {
    strict = parseAddr(value);
  } catch {
    // ParseIPSloppy took it and ParseAddr does not: it has leading 0s.
    errs.push(fieldError.invalid(path, value, 'must not have leading 0s'));
  }
  if (strict?.is4In6()) errs.push(fieldError.invalid(path, value, 'must not be an IPv4-mapped IPv6 address'));
  if (errs.length) return errs;
  // What is left is IPv4 or plain IPv6, where Addr.String() is net.IP.String() (RFC 5952).
  const canonical = ip.toString();
  return canonical === value ? [] : [fieldError.invalid(path, value, `must be in canonical form (${JSON.stringify(canonical)})`)];
}
