// time's own quote (go/src/time/format.go `quote`), which time.Parse and time.ParseDuration errors
// use instead of strconv.Quote: every byte of a rune outside printable ASCII (any non-ASCII rune, a
// control character) becomes `\xNN`, and only `"` and `\` get a backslash, so `"é\n"` prints as
// `"\xc3\xa9\x0a"` where strconv.Quote would print `"é\n"`. DEL (0x7f) stays as it is.

const UTF8 = new TextEncoder();
const hexByte = (b: number) => '\\x' + b.toString(16).padStart(2, '0');

/** time.quote(s): a lone surrogate is the U+FFFD Go's decoders would have made of it. */
export function goTimeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x80 || cp < 0x20) for (const b of UTF8.encode(ch)) out += hexByte(b);
    else out += ch === '"' || ch === '\\' ? '\\' + ch : ch;
  }
  return out + '"';
}
