// The ext.Strings (version 2) functions the engine lacks: charAt, replace, reverse, format and
// strings.quote (lowerAscii, upperAscii, indexOf, lastIndexOf, split, substring, trim and join are
// built in).
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';
import { chargeCost } from '../runtime-cost.ts';
import { formatString } from './string-format.ts';

const codePoints = (s: string): string[] => Array.from(s);

function replace(s: string, from: string, to: string, n: bigint): string {
  chargeCost(s.length * 0.1);
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

/** strconv.Quote as ext.Strings uses it. */
export function goQuoteString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\x07') out += '\\a';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\v') out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + '"';
}

class StringsNamespace {}

export function registerStrings(env: Environment): void {
  env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
    const cps = codePoints(s);
    if (i < 0n || i > BigInt(cps.length)) throw new EvaluationError(`index out of range: ${i}`);
    return cps[Number(i)] ?? '';
  });
  env.registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) => replace(s, a, b, -1n));
  env.registerFunction('string.replace(string, string, int): string', replace);
  env.registerFunction('string.reverse(): string', (s: string) => codePoints(s).reverse().join(''));
  env.registerFunction('string.format(list<dyn>): string', formatString);
  env.registerType('StringsNamespace', StringsNamespace);
  env.registerConstant('strings', 'StringsNamespace', new StringsNamespace());
  env.registerFunction('StringsNamespace.quote(string): string', (_ns: unknown, s: string) => goQuoteString(s));
}
