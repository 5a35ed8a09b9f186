// A seeded RandomSource for deterministic mode: the same seed hands out the same uids and
// generateName suffixes in the same order, so two runs of a test store byte-identical objects.
import type { RandomSource } from '../util/clock-and-random.ts';

/** A seed: any number or string (strings are hashed). */
export type Seed = number | string;

/** Seed used by `deterministic: true` when no `seed` is given. */
export const DEFAULT_SEED = 0;

/** Each byte's two lowercase hex digits: a pod's uid is one of thousands a settle hands out. */
const HEX_BYTES = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

export function seededRandom(seed: Seed): RandomSource {
  const next = sfc32(seedWords(seed));
  return {
    uid() {
      const bytes = new Uint8Array(16);
      for (let i = 0; i < 16; i += 4) {
        const word = next();
        bytes[i] = word >>> 24;
        bytes[i + 1] = (word >>> 16) & 0xff;
        bytes[i + 2] = (word >>> 8) & 0xff;
        bytes[i + 3] = word & 0xff;
      }
      // RFC 4122 version 4, variant 10xx: the shape crypto.randomUUID() gives.
      bytes[6] = (bytes[6]! & 0x0f) | 0x40;
      bytes[8] = (bytes[8]! & 0x3f) | 0x80;
      let hex = '';
      for (let i = 0; i < 16; i++) hex += HEX_BYTES[bytes[i]!];
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
    pick(alphabet) {
      return alphabet[next() % alphabet.length]!;
    },
  };
}

/** Four 32-bit words from a seed (cyrb128 for strings, splitmix32 for numbers). */
function seedWords(seed: Seed): [number, number, number, number] {
  if (typeof seed === 'string') return cyrb128(seed);
  if (!Number.isFinite(seed)) throw new TypeError(`kubefake: seed must be a finite number or a string, got ${String(seed)}`);
  let state = (Math.trunc(seed) ^ Math.trunc(seed / 2 ** 32)) >>> 0;
  const splitmix = () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  return [splitmix(), splitmix(), splitmix(), splitmix()];
}

function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** sfc32: small, fast, and good enough for test identifiers (not for secrets). */
function sfc32([a, b, c, d]: [number, number, number, number]): () => number {
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t;
  };
  // Discard the first outputs: sfc32 mixes weak seeds poorly at first.
  for (let i = 0; i < 12; i++) next();
  return next;
}
