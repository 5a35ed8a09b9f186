// Go's net/url (Go 1.26, the toolchain of kube-apiserver 1.36), ported once for its users: the
// Kubernetes url CEL library (ParseRequestURI to validate, Parse to build the value, the URL
// accessors, the `uri` format) and the CRD checks of webhook URLs and the API-approval annotation. WHATWG
// URL (Node's `URL`) differs in many ways (it normalises paths, lowercases hosts, accepts relative
// references against no base, rejects what Go keeps), so this is a port, not an adapter.
// Go strings are bytes: the parser works on a "byte string" (one char per UTF-8 byte) and converts
// back at the edges, so escaping of non-ASCII text matches Go's byte by byte.
import { goQuote } from '../errors/go-format.ts';
import { parseAddr } from './netip.ts';

const toBytes = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');
const fromBytes = (b: string): string => Buffer.from(b, 'latin1').toString('utf8');

/** A url.Parse / url.ParseRequestURI failure; `message` is Go's `err.Error()`. */
export class UrlError extends Error {}

class ParseFailure extends Error {}

type Mode = 'path' | 'pathSegment' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

const isAlnum = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/** shouldEscape: whether byte c must be %-escaped in the given part of a URL. */
function shouldEscape(c: string, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  if ((mode === 'host' || mode === 'zone') && `!$&'()*+,;=:[]<>"`.includes(c)) return false;
  if ('-_.~'.includes(c)) return false;
  if ('$&+,/:;=?@'.includes(c)) {
    switch (mode) {
      case 'path':
        return c === '?';
      case 'pathSegment':
        return c === '/' || c === ';' || c === ',' || c === '?';
      case 'userPassword':
        return c === '@' || c === '/' || c === '?' || c === ':';
      case 'queryComponent':
        return true;
      case 'fragment':
        return false;
      default:
        break;
    }
  }
  if (mode === 'fragment' && '!()*'.includes(c)) return false;
  return true;
}

const escapeError = (s: string): ParseFailure => new ParseFailure(`invalid URL escape ${goQuote(fromBytes(s))}`);

function unescape(s: string, mode: Mode): string {
  let n = 0;
  let hasPlus = false;
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (c === '%') {
      n++;
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2])) throw escapeError(s.slice(i, i + 3));
      const v = parseInt(s.slice(i + 1, i + 3), 16);
      // In a host, %-escapes are only for non-ASCII bytes (and %25, RFC 6874's zone separator).
      if (mode === 'host' && v < 0x80 && s.slice(i, i + 3) !== '%25') throw escapeError(s.slice(i, i + 3));
      if (mode === 'zone' && s.slice(i, i + 3) !== '%25' && v !== 0x20 && shouldEscape(String.fromCharCode(v), 'host')) throw escapeError(s.slice(i, i + 3));
      i += 3;
    } else {
      if (c === '+') hasPlus = mode === 'queryComponent';
      else if ((mode === 'host' || mode === 'zone') && c.charCodeAt(0) < 0x80 && shouldEscape(c, mode)) {
        throw new ParseFailure(`invalid character ${goQuote(c)} in host name`);
      }
      i++;
    }
  }
  if (n === 0 && !hasPlus) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '%') {
      out += String.fromCharCode(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c === '+') out += mode === 'queryComponent' ? ' ' : '+';
    else out += c;
  }
  return out;
}

function escape(s: string, mode: Mode): string {
  let out = '';
  for (const c of s) {
    if (c === ' ' && mode === 'queryComponent') out += '+';
    else if (shouldEscape(c, mode)) out += '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
    else out += c;
  }
  return out;
}

/** validEncoded: s holds only bytes that need no escaping (sub-delims, `:@[]%` allowed). */
function validEncoded(s: string, mode: Mode): boolean {
  for (const c of s) if (!`!$&'()*+,;=:@[]%`.includes(c) && shouldEscape(c, mode)) return false;
  return true;
}

function validOptionalPort(port: string): boolean {
  if (port === '') return true;
  return port[0] === ':' && /^[0-9]*$/.test(port.slice(1));
}

function validUserinfo(s: string): boolean {
  return /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(s);
}

/** url.URL, with the fields the CEL library reads (all in byte-string form). */
export class GoURL {
  scheme = '';
  opaque = '';
  user: { username: string; password?: string } | undefined;
  host = '';
  path = '';
  rawPath = '';
  omitHost = false;
  forceQuery = false;
  rawQuery = '';
  fragment = '';
  rawFragment = '';

  getScheme(): string {
    return fromBytes(this.scheme);
  }

  getHost(): string {
    return fromBytes(this.host);
  }

  /** Hostname: the host without a valid port, IPv6 brackets removed. */
  getHostname(): string {
    return fromBytes(splitHostPort(this.host)[0]);
  }

  getPort(): string {
    return fromBytes(splitHostPort(this.host)[1]);
  }

  /** u.User.String(): the userinfo re-escaped, undefined when the URL has none. */
  getUserinfo(): string | undefined {
    if (this.user === undefined) return undefined;
    const { username, password } = this.user;
    return fromBytes(escape(username, 'userPassword') + (password === undefined ? '' : ':' + escape(password, 'userPassword')));
  }

  /** URL.Path: the path unescaped (invalid UTF-8 bytes read as U+FFFD). */
  getPath(): string {
    return fromBytes(this.path);
  }

  getRawQuery(): string {
    return fromBytes(this.rawQuery);
  }

  getFragment(): string {
    return fromBytes(this.fragment);
  }

  escapedPath(): string {
    if (this.rawPath !== '' && validEncoded(this.rawPath, 'path')) {
      try {
        if (unescape(this.rawPath, 'path') === this.path) return this.rawPath;
      } catch {
        // An invalid RawPath is ignored.
      }
    }
    if (this.path === '*') return '*';
    return escape(this.path, 'path');
  }

  getEscapedPath(): string {
    return fromBytes(this.escapedPath());
  }

  escapedFragment(): string {
    if (this.rawFragment !== '' && validEncoded(this.rawFragment, 'fragment')) {
      try {
        if (unescape(this.rawFragment, 'fragment') === this.fragment) return this.rawFragment;
      } catch {
        // An invalid RawFragment is ignored.
      }
    }
    return escape(this.fragment, 'fragment');
  }

  /** URL.Query(): matrix form, keys and values query-unescaped; malformed pairs are dropped. */
  getQuery(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    let query = this.rawQuery;
    // Go 1.24+ refuses (as an error Query() discards) queries of more than 10,000 parameters.
    if (query.split('&').length > 10000) return out;
    while (query !== '') {
      const amp = query.indexOf('&');
      const pair = amp < 0 ? query : query.slice(0, amp);
      query = amp < 0 ? '' : query.slice(amp + 1);
      if (pair.includes(';') || pair === '') continue;
      const eq = pair.indexOf('=');
      let key: string;
      let value: string;
      try {
        key = fromBytes(unescape(eq < 0 ? pair : pair.slice(0, eq), 'queryComponent'));
        value = fromBytes(unescape(eq < 0 ? '' : pair.slice(eq + 1), 'queryComponent'));
      } catch {
        continue;
      }
      const list = out.get(key);
      if (list) list.push(value);
      else out.set(key, [value]);
    }
    return out;
  }

  /** URL.String(): what two URLs are compared by. */
  toString(): string {
    let buf = '';
    if (this.scheme !== '') buf += this.scheme + ':';
    if (this.opaque !== '') buf += this.opaque;
    else {
      if (this.scheme !== '' || this.host !== '' || this.user !== undefined) {
        if (!(this.omitHost && this.host === '' && this.user === undefined)) {
          if (this.host !== '' || this.path !== '' || this.user !== undefined) buf += '//';
          if (this.user !== undefined) {
            buf += escape(this.user.username, 'userPassword');
            if (this.user.password !== undefined) buf += ':' + escape(this.user.password, 'userPassword');
            buf += '@';
          }
          if (this.host !== '') buf += escape(this.host, 'host');
        }
      }
      const path = this.escapedPath();
      if (path !== '' && path[0] !== '/' && this.host !== '') buf += '/';
      if (buf === '' && (path.split('/', 1)[0] ?? '').includes(':')) buf += './';
      buf += path;
    }
    if (this.forceQuery || this.rawQuery !== '') buf += '?' + this.rawQuery;
    if (this.fragment !== '') buf += '#' + this.escapedFragment();
    return fromBytes(buf);
  }
}

function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let port = '';
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return [host, port];
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) continue;
    if ((c >= '0' && c <= '9') || c === '+' || c === '-' || c === '.') {
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

function parseHost(scheme: string, host: string): string {
  const open = host.lastIndexOf('[');
  if (open > 0) throw new ParseFailure('invalid IP-literal');
  if (open === 0) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new ParseFailure("missing ']' in host");
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) throw new ParseFailure(`invalid port ${goQuote(fromBytes(colonPort))} after host`);
    const unescapedColonPort = unescape(colonPort, 'host');
    const hostname = host.slice(1, close);
    const zoneAt = hostname.indexOf('%25');
    const unescaped = zoneAt >= 0 ? unescape(hostname.slice(0, zoneAt), 'host') + unescape(hostname.slice(zoneAt), 'zone') : unescape(hostname, 'host');
    // Only a valid IPv6 address may be in brackets (IPv4-mapped ones included).
    let is4: boolean;
    try {
      is4 = parseAddr(fromBytes(unescaped)).is4;
    } catch (e) {
      throw new ParseFailure(`invalid host: ${(e as Error).message}`);
    }
    if (is4) throw new ParseFailure('invalid IP-literal');
    return `[${unescaped}]${unescapedColonPort}`;
  }
  let i = host.indexOf(':');
  if (i !== -1) {
    // RFC 3986 has no colons in a host: http(s) hosts allow one, for the port (Go 1.26,
    // urlstrictcolons); other schemes keep the old rule (the last colon starts the port).
    const last = host.lastIndexOf(':');
    if (last !== i && scheme !== 'http' && scheme !== 'https') i = last;
    const colonPort = host.slice(i);
    if (!validOptionalPort(colonPort)) throw new ParseFailure(`invalid port ${goQuote(fromBytes(colonPort))} after host`);
  }
  return unescape(host, 'host');
}

function parseAuthority(u: GoURL, authority: string): void {
  const at = authority.lastIndexOf('@');
  u.host = parseHost(u.scheme, at < 0 ? authority : authority.slice(at + 1));
  if (at < 0) return;
  const userinfo = authority.slice(0, at);
  if (!validUserinfo(userinfo)) throw new ParseFailure('net/url: invalid userinfo');
  const colon = userinfo.indexOf(':');
  if (colon < 0) u.user = { username: unescape(userinfo, 'userPassword') };
  else u.user = { username: unescape(userinfo.slice(0, colon), 'userPassword'), password: unescape(userinfo.slice(colon + 1), 'userPassword') };
}

function setPath(u: GoURL, p: string): void {
  u.path = unescape(p, 'path');
  u.rawPath = escape(u.path, 'path') === p ? '' : p;
}

function parse(raw: string, viaRequest: boolean): GoURL {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new ParseFailure('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) throw new ParseFailure('empty url');
  const u = new GoURL();
  if (raw === '*') {
    u.path = '*';
    return u;
  }
  let rest: string;
  [u.scheme, rest] = getScheme(raw);
  u.scheme = u.scheme.toLowerCase();
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) {
    u.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      u.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (u.scheme !== '') {
      // A rootless path after a scheme is opaque (mailto:x, urn:a:b).
      u.opaque = rest;
      return u;
    }
    if (viaRequest) throw new ParseFailure('invalid URI for request');
    const slash = rest.indexOf('/');
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':')) throw new ParseFailure('first path segment in URL cannot contain colon');
  }
  if ((u.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    parseAuthority(u, authority);
  } else if (u.scheme !== '' && rest.startsWith('/')) {
    u.omitHost = true;
  }
  setPath(u, rest);
  return u;
}

const fail = (raw: string, e: unknown): never => {
  if (e instanceof ParseFailure) throw new UrlError(`parse ${goQuote(raw)}: ${e.message}`);
  throw e;
};

/** url.ParseRequestURI: an absolute URI or an absolute path; a `#` is not special. */
export function parseRequestURI(raw: string): GoURL {
  try {
    return parse(toBytes(raw), true);
  } catch (e) {
    return fail(raw, e);
  }
}

/** url.Parse: any URI reference, with a fragment. */
export function parseURL(raw: string): GoURL {
  const bytes = toBytes(raw);
  const hash = bytes.indexOf('#');
  const head = hash < 0 ? bytes : bytes.slice(0, hash);
  let u: GoURL;
  try {
    u = parse(head, false);
  } catch (e) {
    return fail(fromBytes(head), e);
  }
  if (hash < 0) return u;
  const frag = bytes.slice(hash + 1);
  if (frag === '') return u;
  try {
    u.fragment = unescape(frag, 'fragment');
    u.rawFragment = escape(u.fragment, 'fragment') === frag ? '' : frag;
  } catch (e) {
    return fail(raw, e);
  }
  return u;
}
