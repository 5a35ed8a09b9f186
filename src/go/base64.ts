// Go's base64.StdEncoding.Decode, ported for its error positions: a Secret's `data` values are
// []byte, which encoding/json decodes with it, and a bad value fails the request with the Go text
// `illegal base64 data at input byte N` (N counts UTF-8 bytes of the JSON string).

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(256).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;
const PAD = 0x3d; // '='
const NL = 0x0a;
const CR = 0x0d;

export type Base64Result = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

export function decodeGoBase64(text: string): Base64Result {
  const src = new TextEncoder().encode(text);
  const out: number[] = [];
  let si = 0;
  while (si < src.length) {
    const q = decodeQuantum(src, si, out);
    if (q.error !== undefined) return { ok: false, error: `illegal base64 data at input byte ${q.error}` };
    if (q.si === si) break;
    si = q.si;
  }
  return { ok: true, bytes: Uint8Array.from(out) };
}

/** The decoded length of a value that may not be valid base64 (0 for what Go would reject). */
export function decodedLength(text: string): number {
  const r = decodeGoBase64(text);
  return r.ok ? r.bytes.length : 0;
}

/** One 4-character quantum, as encoding/base64 decodeQuantum (padding required, not strict). */
function decodeQuantum(src: Uint8Array, start: number, out: number[]): { si: number; error?: number } {
  const dbuf = [0, 0, 0, 0];
  let dlen = 4;
  let si = start;
  let trailingError: number | undefined;
  for (let j = 0; j < 4; j++) {
    if (si === src.length) {
      if (j === 0) return { si };
      // StdEncoding pads, so any short final quantum is corrupt.
      return { si, error: si - j };
    }
    const input = src[si]!;
    si++;
    const value = DECODE[input]!;
    if (value >= 0) {
      dbuf[j] = value;
      continue;
    }
    if (input === NL || input === CR) {
      j--;
      continue;
    }
    if (input !== PAD) return { si, error: si - 1 };
    // Padding: only after two or three symbols.
    if (j === 0 || j === 1) return { si, error: si - 1 };
    if (j === 2) {
      while (si < src.length && (src[si] === NL || src[si] === CR)) si++;
      if (si === src.length) return { si, error: src.length };
      if (src[si] !== PAD) return { si, error: si - 1 };
      si++;
    }
    while (si < src.length && (src[si] === NL || src[si] === CR)) si++;
    if (si < src.length) trailingError = si;
    dlen = j;
    break;
  }
  const val = (dbuf[0]! << 18) | (dbuf[1]! << 12) | (dbuf[2]! << 6) | dbuf[3]!;
  const bytes = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
  out.push(...bytes.slice(0, dlen - 1));
  return trailingError === undefined ? { si } : { si, error: trailingError };
}
