// The parts of Go's net/url (url.Parse, url.ParseRequestURI) that webhook URL and API-approval
// checks depend on: scheme, host, userinfo, query, fragment, and the parse error texts.

export interface GoUrl {
  scheme: string;
  opaque: string;
  /** Userinfo as u.User.String() prints it, undefined when there is none. */
  user: string | undefined;
  host: string;
  path: string;
  rawQuery: string;
  fragment: string;
}

export class GoUrlError extends Error {}

/** url.Parse. Throws GoUrlError with Go's `parse "<url>": <reason>` text. */
export function parseUrl(raw: string): GoUrl {
  const hash = raw.indexOf('#');
  const u = hash < 0 ? raw : raw.slice(0, hash);
  const frag = hash < 0 ? '' : raw.slice(hash + 1);
  const url = wrap(u, () => parse(u, false));
  if (frag === '') return url;
  url.fragment = wrap(raw, () => unescape(frag, 'fragment'));
  return url;
}

/** url.ParseRequestURI. */
export function parseRequestUri(raw: string): GoUrl {
  return wrap(raw, () => parse(raw, true));
}

function wrap<T>(u: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ParseFailure) throw new GoUrlError(`parse ${goQuoteAscii(u)}: ${e.message}`);
    throw e;
  }
}

class ParseFailure extends Error {}

// %q of the URL; enough for the ASCII text URLs are made of.
function goQuoteAscii(s: string): string {
  return JSON.stringify(s).replace(/\\u00([0-9a-f]{2})/g, '\\x$1').replace(/\\u007f/g, '\\x7f');
}

function parse(raw: string, viaRequest: boolean): GoUrl {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new ParseFailure('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) throw new ParseFailure('empty url');
  const url: GoUrl = { scheme: '', opaque: '', user: undefined, host: '', path: '', rawQuery: '', fragment: '' };
  if (raw === '*') {
    url.path = '*';
    return url;
  }
  let [scheme, rest] = getScheme(raw);
  url.scheme = scheme.toLowerCase();
  if (rest.endsWith('?') && rest.split('?').length - 1 === 1) {
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') {
      url.opaque = rest;
      return url;
    }
    if (viaRequest) throw new ParseFailure('invalid URI for request');
    const slash = rest.indexOf('/');
    const segment = slash < 0 ? rest : rest.slice(0, slash);
    if (segment.includes(':')) throw new ParseFailure('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const i = authority.indexOf('/');
    if (i >= 0) {
      rest = authority.slice(i);
      authority = authority.slice(0, i);
    }
    const at = authority.lastIndexOf('@');
    url.host = parseHost(at < 0 ? authority : authority.slice(at + 1));
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      if (!/^[A-Za-z0-9\-._~!$&'()*+,;=%:@]*$/.test(userinfo)) throw new ParseFailure('net/url: invalid userinfo');
      const colon = userinfo.indexOf(':');
      if (colon < 0) url.user = unescape(userinfo, 'user');
      else url.user = `${unescape(userinfo.slice(0, colon), 'user')}:${unescape(userinfo.slice(colon + 1), 'user')}`;
    }
  }
  url.path = unescape(rest, 'path');
  return url;
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new ParseFailure('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new ParseFailure("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new ParseFailure(`invalid port ${goQuoteAscii(colonPort)} after host`);
  } else {
    const i = host.lastIndexOf(':');
    if (i !== -1) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) throw new ParseFailure(`invalid port ${goQuoteAscii(colonPort)} after host`);
    }
  }
  return unescape(host, 'host');
}

// Characters a host may hold unescaped (shouldEscape in encodeHost mode).
const HOST_OK = /[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"]/;

function unescape(s: string, mode: 'host' | 'path' | 'user' | 'fragment'): string {
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new ParseFailure(`invalid URL escape ${goQuoteAscii(s.slice(i, i + 3))}`);
      i += 2;
    } else if (mode === 'host' && c.charCodeAt(0) < 0x80 && !HOST_OK.test(c)) {
      throw new ParseFailure(`invalid character ${goQuoteAscii(c)} in host name`);
    }
  }
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
