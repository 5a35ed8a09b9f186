// validation.IsValidIP (k8s.io/apimachinery/pkg/util/validation/ip.go): parsed as
// netutils.ParseIPSloppy parses (IPv4 octets may have leading zeros), then refused where
// netip.ParseAddr would refuse it (leading zeros), as an IPv4-mapped IPv6 address, or when not
// written as Go's net.IP String() writes it (lower case, the longest run of zero groups as `::`).
import { isIPv6 } from 'node:net';
import { fieldError, type FieldError } from '../errors/field-error.ts';

/** An IPv4 address as the sloppy parser reads it: four decimal octets, leading zeros allowed. */
function parseIPv4Sloppy(value: string): number[] | undefined {
  const parts = value.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^[0-9]{1,}$/.test(p))) return undefined;
  const octets = parts.map((p) => Number(p));
  return octets.every((o) => o <= 255) ? octets : undefined;
}

/** The 8 groups of an IPv6 address Node accepts (no zone: Go's parser has none). */
function parseIPv6Groups(value: string): number[] | undefined {
  if (value.includes('%') || !isIPv6(value)) return undefined;
  // An embedded IPv4 tail becomes its two groups, so only hex groups are left to read.
  const text = value.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a: string, b: string, c: string, d: string) =>
    `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
  );
  const parse = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const cut = text.indexOf('::');
  if (cut < 0) return parse(text);
  const head = parse(text.slice(0, cut));
  const tail = parse(text.slice(cut + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/** net.IP.String() of an IPv6 address (RFC 5952: the first longest run of 2+ zero groups as ::). */
function formatIPv6(groups: number[]): string {
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(':');
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLen))}`;
}

/** validation.IsValidIP: errors for `path` when `value` is not a valid, canonical IP address. */
export function isValidIP(path: string, value: string): FieldError[] {
  const v4 = parseIPv4Sloppy(value);
  if (v4) {
    const canonical = v4.join('.');
    if (canonical === value) return [];
    return [fieldError.invalid(path, value, 'must not have leading 0s'), fieldError.invalid(path, value, `must be in canonical form (${JSON.stringify(canonical)})`)];
  }
  const groups = parseIPv6Groups(value);
  if (!groups) return [fieldError.invalid(path, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
  const errs: FieldError[] = [];
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) {
    errs.push(fieldError.invalid(path, value, 'must not be an IPv4-mapped IPv6 address'));
    // net.IP.String() prints an IPv4-mapped address as its IPv4 form.
    const canonical = [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
    errs.push(fieldError.invalid(path, value, `must be in canonical form (${JSON.stringify(canonical)})`));
    return errs;
  }
  const canonical = formatIPv6(groups);
  if (canonical !== value) errs.push(fieldError.invalid(path, value, `must be in canonical form (${JSON.stringify(canonical)})`));
  return errs;
}
