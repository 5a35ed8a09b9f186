// Bytes to text as Go's strings hold them once JSON-encoded: invalid UTF-8 becomes U+FFFD per
// byte (unicode/utf8). Shared by the JSON, YAML and protobuf decoders.

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Bytes to text keeping a BOM, with Go's replacement of invalid UTF-8: one U+FFFD per bad byte
 * (utf8.DecodeRune), where TextDecoder would use one per maximal subpart.
 */
export function decodeGoUtf8(bytes: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    // fall through to the byte-by-byte decoder
  }
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b0 = bytes[i]!;
    if (b0 < 0x80) {
      out += String.fromCharCode(b0);
      i++;
      continue;
    }
    const size = validRuneLength(bytes, i);
    if (size === 0) {
      out += '\uFFFD';
      i++;
      continue;
    }
    let cp: number;
    if (size === 2) cp = ((b0 & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
    else if (size === 3) cp = ((b0 & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
    else cp = ((b0 & 0x07) << 18) | ((bytes[i + 1]! & 0x3f) << 12) | ((bytes[i + 2]! & 0x3f) << 6) | (bytes[i + 3]! & 0x3f);
    out += String.fromCodePoint(cp);
    i += size;
  }
  return out;
}

/** unicode/utf8 acceptance ranges: the length of the valid sequence at i, or 0. */
function validRuneLength(b: Uint8Array, i: number): number {
  const b0 = b[i]!;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => {
    const x = b[i + k];
    return x !== undefined && x >= lo && x <= hi;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const lo = b0 === 0xe0 ? 0xa0 : 0x80;
    const hi = b0 === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const lo = b0 === 0xf0 ? 0x90 : 0x80;
    const hi = b0 === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}
