// Renders values the way Go's fmt and encoding/json do, because kube-apiserver messages embed them
// (`Invalid value: "x"`, `Invalid value: 15`, `Invalid value: ["a","b"]`) and clients compare texts.

/** Go's strconv.Quote (what `%q` prints for a string). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    switch (ch) {
      case '"': out += '\\"'; continue;
      case '\\': out += '\\\\'; continue;
      case '\n': out += '\\n'; continue;
      case '\r': out += '\\r'; continue;
      case '\t': out += '\\t'; continue;
      case '\x07': out += '\\a'; continue;
      case '\b': out += '\\b'; continue;
      case '\f': out += '\\f'; continue;
      case '\v': out += '\\v'; continue;
    }
    if (cp < 0x20 || cp === 0x7f) out += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp >= 0x80 && cp < 0xa0) out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

/** Go's `%v` for a float64 (strconv 'g' with the shortest representation). */
export function goFloat(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  const abs = Math.abs(n);
  // Shortest %g switches to the exponent form at 1e+06 (strconv's eprec 6), unlike JSON's 1e21.
  if (abs >= 1e-4 && abs < 1e6) return String(n);
  // JS prints 1e-7 as "1e-7"; Go prints "1e-07" (at least two exponent digits).
  const [mant, exp] = n.toExponential().split('e') as [string, string];
  const sign = exp.startsWith('-') ? '-' : '+';
  const digits = exp.replace(/^[+-]/, '').padStart(2, '0');
  return `${mant}e${sign}${digits}`;
}

/** encoding/json's Marshal: map keys sorted, HTML characters escaped. */
export function goJson(value: unknown): string {
  return escapeHtml(JSON.stringify(sortKeysDeep(value)) ?? 'null');
}

function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeysDeep((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

function escapeHtml(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** Go's `%#v` of a []string, used in a few legacy messages (`[]string{"a", "b"}`). */
export function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map(goQuote).join(', ')}}`;
}
