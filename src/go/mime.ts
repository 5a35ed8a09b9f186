// Go's mime.ParseMediaType (Go 1.26), the check negotiation.NegotiateInputSerializer puts every
// request Content-Type through: a header Go cannot parse (`;;;`, `application/json;;`, a bad
// parameter) matches no serializer and is answered 415, whatever its first word says.

const TSPECIALS = '()<>@,;:\\"/[]?=';

const isTokenChar = (c: string): boolean => c > ' ' && c < '\x7f' && !TSPECIALS.includes(c);

const trimLeftSpace = (s: string): string => s.replace(/^\s+/u, '');

function consumeToken(v: string): [token: string, rest: string] {
  let i = 0;
  while (i < v.length && isTokenChar(v[i]!)) i++;
  return [v.slice(0, i), v.slice(i)];
}

/** A token or a quoted-string (backslash escapes); ['', v] when neither. */
function consumeValue(v: string): [value: string, rest: string] {
  if (v === '') return ['', v];
  if (v[0] !== '"') return consumeToken(v);
  let buffer = '';
  for (let i = 1; i < v.length; i++) {
    const r = v[i]!;
    if (r === '"') return [buffer, v.slice(i + 1)];
    // A backslash escapes a tspecial; before anything else it is a literal backslash (MSIE paths).
    if (r === '\\' && i + 1 < v.length && TSPECIALS.includes(v[i + 1]!)) {
      buffer += v[i + 1];
      i++;
      continue;
    }
    if (r === '\r' || r === '\n') return ['', v];
    buffer += r;
  }
  return ['', v]; // no closing quote
}

function consumeMediaParam(v: string): [param: string, value: string, rest: string] {
  let rest = trimLeftSpace(v);
  if (!rest.startsWith(';')) return ['', '', v];
  rest = trimLeftSpace(rest.slice(1));
  let param: string;
  [param, rest] = consumeToken(rest);
  param = param.toLowerCase();
  if (param === '') return ['', '', v];
  rest = trimLeftSpace(rest);
  if (!rest.startsWith('=')) return ['', '', v];
  rest = trimLeftSpace(rest.slice(1));
  const [value, rest2] = consumeValue(rest);
  if (value === '' && rest2 === rest) return ['', '', v];
  return [param, value, rest2];
}

/** checkMediaTypeDisposition: `type`, or `type/subtype`, both tokens, nothing after. */
function validMediaType(s: string): boolean {
  const [type, rest] = consumeToken(s);
  if (type === '') return false;
  if (rest === '') return true;
  if (!rest.startsWith('/')) return false;
  const [subtype, after] = consumeToken(rest.slice(1));
  return subtype !== '' && after === '';
}

export interface MediaType {
  /** Lower-cased `type/subtype` (or a lone `type`, which Go accepts as a disposition). */
  mediaType: string;
  params: Map<string, string>;
}

/** mime.ParseMediaType; undefined where Go returns an error. */
export function parseMediaType(v: string): MediaType | undefined {
  const semi = v.indexOf(';');
  const base = semi < 0 ? v : v.slice(0, semi);
  const mediaType = base.toLowerCase().trim();
  if (!validMediaType(mediaType)) return undefined;
  const params = new Map<string, string>();
  let rest = v.slice(base.length);
  while (rest.length > 0) {
    rest = trimLeftSpace(rest);
    if (rest === '') break;
    const [key, value, after] = consumeMediaParam(rest);
    if (key === '') {
      // A trailing semicolon is no error; anything else that is no parameter is.
      if (after.trim() === ';') break;
      return undefined;
    }
    const existing = params.get(key);
    // Duplicate parameter names are an error unless their values are equal.
    if (existing !== undefined && existing !== value) return undefined;
    params.set(key, value);
    rest = after;
  }
  return { mediaType, params };
}
