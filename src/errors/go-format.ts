// Renders values the way Go's fmt and encoding/json do, because kube-apiserver messages embed them
// (`Invalid value: "x"`, `Invalid value: 15`, `Invalid value: ["a","b"]`) and clients compare texts.
import { goFormatG } from '../go/format-float.ts';
import { goHtmlEscape } from '../go/json-encode.ts';
import { setOwn } from '../util/own-property.ts';

/** The backslash escapes of Go's strconv.Quote that cel-go's strings.quote() also writes. */
export const GO_BACKSLASH_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\v': '\\v',
};

// strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const hex = (cp: number, width: number) => cp.toString(16).padStart(width, '0');

/**
 * Go's strconv.Quote (what `%q` prints for a string): every rune that is not printable is escaped,
 * `\xNN` below U+0020 and for DEL, else `\uNNNN` / `\UNNNNNNNN` (U+0085, U+00A0, U+200B, U+FEFF...).
 * A lone surrogate, which Go's JSON decoding would have made U+FFFD, prints as U+FFFD.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const escape = GO_BACKSLASH_ESCAPES[ch];
    if (escape !== undefined) out += escape;
    else if ((cp >= 0x20 && cp < 0x7f) || GO_PRINTABLE.test(ch)) out += ch;
    else if (cp < 0x20 || cp === 0x7f) out += '\\x' + hex(cp, 2);
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\ufffd';
    else if (cp < 0x10000) out += '\\u' + hex(cp, 4);
    else out += '\\U' + hex(cp, 8);
  }
  return out + '"';
}

/**
 * Go's `%v` of a number a message holds: an integer (most fields behind these messages are Go ints)
 * as its digits, anything else as a float64 (strconv 'g', shortest).
 */
export function goFloat(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 1e21 ? String(n) : goFormatG(n);
}

/** encoding/json's Marshal: map keys sorted, HTML characters escaped. */
export function goJson(value: unknown): string {
  return goHtmlEscape(JSON.stringify(sortKeysDeep(value)) ?? 'null');
}

/** Go sorts map keys by their UTF-8 bytes (encode.go: strings.Compare); UTF-16 order differs above U+D7FF. */
function byUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Code units from U+D800 up: below them UTF-16 order is UTF-8 byte order, and a plain sort() is Go's. */
const ORDERED_APART_IN_UTF8 = /[\ud800-\uffff]/;

function sortedKeys(value: object): string[] {
  const keys = Object.keys(value);
  return keys.some((k) => ORDERED_APART_IN_UTF8.test(k)) ? keys.sort(byUtf8) : keys.sort();
}

function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // setOwn: a key `__proto__` is data (a ConfigMap key), not the prototype.
    for (const k of sortedKeys(value)) setOwn(out, k, sortKeysDeep((value as Record<string, unknown>)[k]));
    return out;
  }
  return value;
}

/** Go's `%#v` of a []string, used in a few legacy messages (`[]string{"a", "b"}`). */
export function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map(goQuote).join(', ')}}`;
}
