// ext.Strings at version 2, as Kubernetes 1.36 enables it (cel-go v0.26): charAt, replace, format
// and strings.quote added; the engine's lowerAscii, upperAscii, trim, indexOf, lastIndexOf,
// substring and split given cel-go's semantics (code-point indexes, Go's whitespace, ASCII-only
// casing) and error texts; join is the engine's. No reverse(): it came with version 3.
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';
import { chargeCall, runeCount } from './ip.ts';
import type { OverloadOverride } from '../overload-overrides.ts';
import { formatString } from './string-format.ts';
import { GO_BACKSLASH_ESCAPES } from '../../errors/go-format.ts';

const codePoints = (s: string): string[] => Array.from(s);

// Runtime costs (library/cost.go CallCost): lowerAscii, upperAscii, trim and substring traverse the
// receiver; replace and split traverse it and build a result (twice the factor); indexOf and
// lastIndexOf cost traversalCost, which truncates UTF-8 bytes × 0.1.
const traversal = (s: string): number => runeCount(s) * 0.1;
const building = (s: string): number => runeCount(s) * 0.2;
const scan = (s: string): number => Math.floor(Buffer.byteLength(s) * 0.1);
const charged =
  <A extends unknown[], R>(cost: (s: string) => number, fn: (s: string, ...args: A) => R) =>
  (s: string, ...args: A): R => {
    chargeCall(cost(s));
    return fn(s, ...args);
  };

function replace(s: string, from: string, to: string, n: bigint): string {
  chargeCall(building(s));
  if (n < 0n) return s.split(from).join(to);
  let out = '';
  let rest = s;
  for (let i = 0n; i < n; i++) {
    const at = rest.indexOf(from);
    if (at < 0) break;
    // Go's strings.Replace with an empty old string inserts before each rune.
    const step = from === '' ? (rest.length ? codePoints(rest)[0]!.length : 0) : 0;
    out += rest.slice(0, at) + to + rest.slice(at, at + step);
    rest = rest.slice(at + from.length + step);
    if (from === '' && rest === '' && step === 0) break;
  }
  return out + rest;
}

/** ext.Strings' quote(): only the CEL escape sequences are escaped; lone surrogates become U+FFFD. */
export function goQuoteString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    out += GO_BACKSLASH_ESCAPES[ch] ?? (c >= 0xd800 && c <= 0xdfff ? '\ufffd' : ch);
  }
  return out + '"';
}

// Go's unicode.IsSpace, which strings.TrimSpace trims (JS trim() differs: it trims U+FEFF, not U+0085).
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const TRIM = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g');

const asciiCase = (s: string, upper: boolean): string => s.replace(upper ? /[a-z]+/g : /[A-Z]+/g, (m) => (upper ? m.toUpperCase() : m.toLowerCase()));

/** indexOf with an offset, in code points, as cel-go v0.26 (an offset past the end is -1, not an error). */
function indexOf(s: string, sub: string, offset: bigint): bigint {
  if (sub === '') return offset;
  if (offset < 0n) throw new EvaluationError(`index out of range: ${offset}`);
  const runes = codePoints(s);
  const subRunes = codePoints(sub);
  for (let i = Number(offset); i < runes.length - (subRunes.length - 1); i++) if (subRunes.every((r, j) => runes[i + j] === r)) return BigInt(i);
  return -1n;
}

function lastIndexOf(s: string, sub: string, offset: bigint): bigint {
  if (sub === '') return offset;
  if (offset < 0n) throw new EvaluationError(`index out of range: ${offset}`);
  const runes = codePoints(s);
  const subRunes = codePoints(sub);
  if (offset >= BigInt(runes.length)) return -1n;
  for (let i = Math.min(Number(offset), runes.length - subRunes.length); i >= 0; i--) if (subRunes.every((r, j) => runes[i + j] === r)) return BigInt(i);
  return -1n;
}

function substring(s: string, start: bigint, end?: bigint): string {
  const runes = codePoints(s);
  const len = BigInt(runes.length);
  if (end !== undefined && start > end) throw new EvaluationError(`invalid substring range. start: ${start}, end: ${end}`);
  if (start < 0n || start > len) throw new EvaluationError(`index out of range: ${start}`);
  if (end !== undefined && (end < 0n || end > len)) throw new EvaluationError(`index out of range: ${end}`);
  return runes.slice(Number(start), end === undefined ? undefined : Number(end)).join('');
}

/** Go's strings.SplitN: n == 0 is an empty list, n < 0 all parts, an empty separator splits runes. */
function splitN(s: string, sep: string, n: bigint): string[] {
  if (n === 0n) return [];
  const parts = sep === '' ? codePoints(s) : s.split(sep);
  if (n < 0n || BigInt(parts.length) <= n) return parts;
  const head = parts.slice(0, Number(n) - 1);
  return [...head, parts.slice(Number(n) - 1).join(sep)];
}

/** The engine's own string functions, with cel-go v0.26's semantics and error texts (registered by registerLibraries). */
export const STRING_OVERRIDES: readonly OverloadOverride[] = [
  { signature: 'string.lowerAscii(): string', handler: charged(traversal, (s: string) => asciiCase(s, false)) },
  { signature: 'string.upperAscii(): string', handler: charged(traversal, (s: string) => asciiCase(s, true)) },
  { signature: 'string.trim(): string', handler: charged(traversal, (s: string) => s.replace(TRIM, '')) },
  { signature: 'string.indexOf(string): int', handler: charged(scan, (s: string, sub: string) => indexOf(s, sub, 0n)) },
  { signature: 'string.indexOf(string, int): int', handler: charged(scan, indexOf) },
  {
    signature: 'string.lastIndexOf(string): int',
    handler: charged(scan, (s: string, sub: string) => {
      if (sub === '') return BigInt(codePoints(s).length);
      if (Buffer.byteLength(s) < Buffer.byteLength(sub)) return -1n; // cel-go compares UTF-8 lengths first
      return lastIndexOf(s, sub, BigInt(codePoints(s).length - 1));
    }),
  },
  { signature: 'string.lastIndexOf(string, int): int', handler: charged(scan, lastIndexOf) },
  { signature: 'string.substring(int): string', handler: charged(traversal, (s: string, start: bigint) => substring(s, start)) },
  { signature: 'string.substring(int, int): string', handler: charged(traversal, substring) },
  { signature: 'string.split(string): list<string>', handler: charged(building, (s: string, sep: string) => splitN(s, sep, -1n)) },
  { signature: 'string.split(string, int): list<string>', handler: charged(building, splitN) },
];

class StringsNamespace {}

export function registerStrings(env: Environment): void {
  env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
    const cps = codePoints(s);
    if (i < 0n || i > BigInt(cps.length)) throw new EvaluationError(`index out of range: ${i}`);
    return cps[Number(i)] ?? '';
  });
  env.registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) => replace(s, a, b, -1n));
  env.registerFunction('string.replace(string, string, int): string', replace);
  env.registerFunction('string.format(list<dyn>): string', formatString);
  env.registerType('StringsNamespace', StringsNamespace);
  env.registerConstant('strings', 'StringsNamespace', new StringsNamespace());
  env.registerFunction('StringsNamespace.quote(string): string', (_ns: unknown, s: string) => goQuoteString(s));
}
