// Go's net/netip as the Kubernetes ip and cidr CEL libraries use it (Go 1.26): ParseAddr and
// ParsePrefix with their exact error texts (they surface in CEL runtime errors), the canonical
// String forms (RFC 5952 for IPv6), the address-class predicates, Prefix masking and containment.
// Addresses are kept as 16 bytes (IPv4 as its IPv4-mapped form) plus the family, as netip does.
import { goQuote } from '../errors/go-format.ts';

/** A netip parse failure; `message` is Go's `err.Error()`. */
class NetipError extends Error {}

const addrError = (input: string, msg: string, at?: string): NetipError =>
  new NetipError(`ParseAddr(${goQuote(input)}): ${msg}${at ? ` (at ${goQuote(at)})` : ''}`);

export class Addr {
  /** The IPv6 bytes; an IPv4 address holds its IPv4-mapped form (::ffff:a.b.c.d). */
  readonly bytes: Uint8Array;
  readonly is4: boolean;
  readonly zone: string;

  constructor(bytes: Uint8Array, is4: boolean, zone = '') {
    this.bytes = bytes;
    this.is4 = is4;
    this.zone = is4 ? '' : zone;
  }

  static from4(a: number, b: number, c: number, d: number): Addr {
    const bytes = new Uint8Array(16);
    bytes[10] = 0xff;
    bytes[11] = 0xff;
    bytes.set([a, b, c, d], 12);
    return new Addr(bytes, true);
  }

  get is6(): boolean {
    return !this.is4;
  }

  get bitLen(): number {
    return this.is4 ? 32 : 128;
  }

  private v4(i: number): number {
    return this.bytes[12 + i]!;
  }

  private v6u16(i: number): number {
    return (this.bytes[2 * i]! << 8) | this.bytes[2 * i + 1]!;
  }

  is4In6(): boolean {
    if (this.is4) return false;
    for (let i = 0; i < 10; i++) if (this.bytes[i] !== 0) return false;
    return this.bytes[10] === 0xff && this.bytes[11] === 0xff;
  }

  /** The address without an IPv4-mapped prefix (an IPv4 address), else itself. */
  unmap(): Addr {
    return this.is4In6() ? new Addr(this.bytes, true) : this;
  }

  equals(o: Addr): boolean {
    return this.is4 === o.is4 && this.zone === o.zone && this.bytes.every((b, i) => b === o.bytes[i]);
  }

  isUnspecified(): boolean {
    const zero = this.bytes.every((b, i) => (this.is4 && (i === 10 || i === 11) ? b === 0xff : b === 0));
    return zero && this.zone === '';
  }

  isLoopback(): boolean {
    const ip = this.unmap();
    if (ip.is4) return ip.v4(0) === 127;
    return ip.bytes.every((b, i) => b === (i === 15 ? 1 : 0));
  }

  isMulticast(): boolean {
    const ip = this.unmap();
    return ip.is4 ? (ip.v4(0) & 0xf0) === 0xe0 : ip.bytes[0] === 0xff;
  }

  isLinkLocalUnicast(): boolean {
    const ip = this.unmap();
    return ip.is4 ? ip.v4(0) === 169 && ip.v4(1) === 254 : (ip.v6u16(0) & 0xffc0) === 0xfe80;
  }

  isLinkLocalMulticast(): boolean {
    const ip = this.unmap();
    return ip.is4 ? ip.v4(0) === 224 && ip.v4(1) === 0 && ip.v4(2) === 0 : (ip.v6u16(0) & 0xff0f) === 0xff02;
  }

  /** As package net: private IPv4 and ULA IPv6 addresses count as global unicast too. */
  isGlobalUnicast(): boolean {
    const ip = this.unmap();
    if (ip.is4 && (ip.isUnspecified() || [0, 1, 2, 3].every((i) => ip.v4(i) === 255))) return false;
    return !(ip.is6 && ip.isUnspecified()) && !ip.isLoopback() && !ip.isMulticast() && !ip.isLinkLocalUnicast();
  }

  /** Addr.String: dotted quad, `::ffff:a.b.c.d`, or RFC 5952 IPv6 (longest zero run of 2+ fields as `::`). */
  toString(): string {
    if (this.is4) return [0, 1, 2, 3].map((i) => this.v4(i)).join('.');
    const zone = this.zone ? `%${this.zone}` : '';
    if (this.is4In6()) return `::ffff:${this.unmap().toString()}${zone}`;
    let zeroStart = -1;
    let zeroLen = 1;
    for (let i = 0; i < 8; i++) {
      let j = i;
      while (j < 8 && this.v6u16(j) === 0) j++;
      if (j - i > zeroLen) {
        zeroStart = i;
        zeroLen = j - i;
      }
    }
    let out = '';
    for (let i = 0; i < 8; i++) {
      if (i === zeroStart) {
        out += '::';
        i += zeroLen - 1;
        continue;
      }
      if (i > 0 && !out.endsWith(':')) out += ':';
      out += this.v6u16(i).toString(16);
    }
    return out + zone;
  }

  /** Addr.Prefix(bits): the address with all but the top `bits` bits cleared, zone dropped. */
  maskTo(bits: number): Addr {
    const offset = this.is4 ? 96 : 0;
    const bytes = this.bytes.slice();
    for (let bit = offset + bits; bit < 128; bit++) bytes[bit >> 3]! &= ~(0x80 >> (bit & 7));
    return new Addr(bytes, this.is4);
  }

  withoutZone(): Addr {
    return this.zone === '' ? this : new Addr(this.bytes, this.is4);
  }
}

/** netip.ParseAddr. */
export function parseAddr(s: string): Addr {
  for (const c of s) {
    if (c === '.') return parseIPv4(s);
    if (c === ':') return parseIPv6(s);
    if (c === '%') throw addrError(s, 'missing IPv6 address');
  }
  throw addrError(s, 'unable to parse IP');
}

function parseIPv4Fields(input: string, off: number, end: number): number[] {
  const s = input.slice(off, end);
  const fields: number[] = [];
  let val = 0;
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c >= '0' && c <= '9') {
      if (digits === 1 && val === 0) throw addrError(input, 'IPv4 field has octet with leading zero');
      val = val * 10 + (c.charCodeAt(0) - 48);
      digits++;
      if (val > 255) throw addrError(input, 'IPv4 field has value >255');
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') throw addrError(input, 'IPv4 field must have at least one digit', s.slice(i));
      if (fields.length === 3) throw addrError(input, 'IPv4 address too long');
      fields.push(val);
      val = 0;
      digits = 0;
    } else {
      throw addrError(input, 'unexpected character', s.slice(i));
    }
  }
  if (fields.length < 3) throw addrError(input, 'IPv4 address too short');
  fields.push(val);
  return fields;
}

function parseIPv4(s: string): Addr {
  const [a, b, c, d] = parseIPv4Fields(s, 0, s.length) as [number, number, number, number];
  return Addr.from4(a, b, c, d);
}

const hexValue = (c: string): number => {
  if (c >= '0' && c <= '9') return c.charCodeAt(0) - 48;
  if (c >= 'a' && c <= 'f') return c.charCodeAt(0) - 87;
  if (c >= 'A' && c <= 'F') return c.charCodeAt(0) - 55;
  return -1;
};

function parseIPv6(input: string): Addr {
  let s = input;
  let zone = '';
  const pct = s.indexOf('%');
  if (pct !== -1) {
    zone = s.slice(pct + 1);
    s = s.slice(0, pct);
    if (zone === '') throw addrError(input, 'zone must be a non-empty string');
  }
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return new Addr(ip, false, zone);
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const h = hexValue(s[off]!);
      if (h < 0) break;
      if (off > 3) throw addrError(input, 'each group must have 4 or less digits', s);
      acc = acc * 16 + h;
      if (acc > 0xffff) throw addrError(input, 'IPv6 field has value >=2^16', s);
    }
    if (off === 0) throw addrError(input, 'each colon-separated field must have at least one digit', s);
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) throw addrError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s);
      if (i + 4 > 16) throw addrError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s);
      const end = zone.length > 0 ? input.length - zone.length - 1 : input.length;
      ip.set(parseIPv4Fields(input, end - s.length, end), i);
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s.length === 0) break;
    if (s[0] !== ':') throw addrError(input, 'unexpected character, want colon', s);
    if (s.length === 1) throw addrError(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) throw addrError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) throw addrError(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) throw addrError(input, 'address string too short');
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    ip.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) {
    throw addrError(input, 'the :: must expand to at least one field of zeros');
  }
  return new Addr(ip, false, zone);
}

/** netip.Prefix: an address (unmasked, zone dropped) and a prefix length. */
export class Prefix {
  readonly addr: Addr;
  readonly bits: number;

  constructor(addr: Addr, bits: number) {
    this.addr = addr.withoutZone();
    this.bits = bits;
  }

  masked(): Prefix {
    return new Prefix(this.addr.maskTo(this.bits), this.bits);
  }

  equals(o: Prefix): boolean {
    return this.bits === o.bits && this.addr.equals(o.addr);
  }

  /** An IPv4 address never matches an IPv6 prefix (IPv4-mapped included), nor a zoned one any. */
  contains(ip: Addr): boolean {
    if (ip.zone !== '' || ip.bitLen !== this.addr.bitLen) return false;
    return ip.maskTo(this.bits).equals(this.addr.maskTo(this.bits));
  }

  overlaps(o: Prefix): boolean {
    if (this.equals(o)) return true;
    if (this.addr.is4 !== o.addr.is4) return false;
    const minBits = Math.min(this.bits, o.bits);
    if (minBits === 0) return true;
    return this.addr.maskTo(minBits).equals(o.addr.maskTo(minBits));
  }

  toString(): string {
    return `${this.addr.toString()}/${this.bits}`;
  }
}

const prefixError = (input: string, msg: string): NetipError => new NetipError(`netip.ParsePrefix(${goQuote(input)}): ${msg}`);

/** netip.ParsePrefix: `addr/bits`, no zone, no sign or leading zero in bits; host bits are kept. */
export function parsePrefix(s: string): Prefix {
  const slash = s.lastIndexOf('/');
  if (slash < 0) throw prefixError(s, "no '/'");
  let ip: Addr;
  try {
    ip = parseAddr(s.slice(0, slash));
  } catch (e) {
    throw prefixError(s, (e as Error).message);
  }
  if (ip.is6 && ip.zone !== '') throw prefixError(s, 'IPv6 zones cannot be present in a prefix');
  const bitsStr = s.slice(slash + 1);
  const badBits = () => prefixError(s, `bad bits after slash: ${goQuote(bitsStr)}`);
  if (bitsStr.length > 1 && (bitsStr[0]! < '1' || bitsStr[0]! > '9')) throw badBits();
  // strconv.Atoi: an optional sign then decimal digits, within int64.
  if (!/^[+-]?[0-9]+$/.test(bitsStr)) throw badBits();
  const bits = BigInt(bitsStr);
  if (bits > 9223372036854775807n || bits < -9223372036854775808n) throw badBits();
  if (bits < 0n || bits > BigInt(ip.bitLen)) throw prefixError(s, 'prefix length out of range');
  return new Prefix(ip, Number(bits));
}
