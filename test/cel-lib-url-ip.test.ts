// The Kubernetes url, ip and cidr CEL libraries: the upstream test vectors (apiserver
// pkg/cel/library/ip_test.go, cidr_test.go, the urls.go examples and apiextensions'
// validation_test.go), Go's net/url and net/netip behaviour they rest on, their costs
// (library/cost.go), and rules using them on custom resource writes through client-node.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, compileExpression, type JSONSchemaProps } from '../src/cel/index.ts';
import { runtimeErrorMessage } from '../src/cel/errors.ts';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { clientCrd } from './support/client-schema.ts';
import { at, installWidgets, specSchema, widget, widgetCrd } from './support/schema-crd.ts';
import { expectStatus } from './support/status.ts';

type Outcome = { value: unknown } | { error: string } | { compileError: string };

/** Compiles and evaluates in the Kubernetes environment; net values are shown as their strings. */
function run(expression: string): Outcome {
  const e = compileExpression(expression);
  if (e.error !== undefined) return { compileError: e.error };
  try {
    const v = e.evaluate();
    if (v instanceof Map) return { value: Object.fromEntries(v) };
    return { value: typeof v === 'object' && v !== null && !Array.isArray(v) ? String(v) : v };
  } catch (err) {
    return { error: runtimeErrorMessage(err) };
  }
}

const value = (v: unknown) => ({ value: v });
const error = (e: string) => ({ error: e });

describe('ip (ip_test.go)', () => {
  const cases: Array<[string, Outcome]> = [
    ['ip("192.168.0.1")', value('192.168.0.1')],
    ['ip("192.168.0.1.0")', error('IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long')],
    ['isIP("192.168.0.1")', value(true)],
    ['isIP("192.168.0.1.0")', value(false)],
    ['ip.isCanonical("127.0.0.1")', value(true)],
    ['ip.isCanonical("127.0.0.1.0")', error('IP Address "127.0.0.1.0" parse error during conversion from string: ParseAddr("127.0.0.1.0"): IPv4 address too long')],
    ['ip("192.168.0.1").family()', value(4n)],
    ['ip("0.0.0.0").isUnspecified()', value(true)],
    ['ip("127.0.0.1").isUnspecified()', value(false)],
    ['ip("127.0.0.1").isLoopback()', value(true)],
    ['ip("1.2.3.4").isLoopback()', value(false)],
    ['ip("224.0.0.1").isLinkLocalMulticast()', value(true)],
    ['ip("224.0.1.1").isLinkLocalMulticast()', value(false)],
    ['ip("169.254.169.254").isLinkLocalUnicast()', value(true)],
    ['ip("192.168.0.1").isLinkLocalUnicast()', value(false)],
    ['ip("192.168.0.1").isGlobalUnicast()', value(true)],
    ['ip("255.255.255.255").isGlobalUnicast()', value(false)],
    ['ip("2001:db8::68")', value('2001:db8::68')],
    ['ip("2001:db8:::68")', error('IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")')],
    ['isIP("2001:db8::68")', value(true)],
    ['isIP("2001:db8:::68")', value(false)],
    ['ip.isCanonical("2001:db8::68")', value(true)],
    ['ip.isCanonical("2001:DB8::68")', value(false)],
    ['ip.isCanonical("2001:db8:::68")', error('IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")')],
    ['ip("2001:db8::68").family()', value(6n)],
    ['ip("::").isUnspecified()', value(true)],
    ['ip("::1").isUnspecified()', value(false)],
    ['ip("::1").isLoopback()', value(true)],
    ['ip("2001:db8::abcd").isLoopback()', value(false)],
    ['ip("ff02::1").isLinkLocalMulticast()', value(true)],
    ['ip("fd00::1").isLinkLocalMulticast()', value(false)],
    ['ip("fe80::1").isLinkLocalUnicast()', value(true)],
    ['ip("fd80::1").isLinkLocalUnicast()', value(false)],
    ['ip("2001:db8::abcd").isGlobalUnicast()', value(true)],
    ['ip("ff00::1").isGlobalUnicast()', value(false)],
    ['string(ip("192.168.0.1"))', value('192.168.0.1')],
    ['type(ip("192.168.0.1")) == net.IP', value(true)],
    // ip.go's doc examples.
    ['ip.isCanonical("2001:db8::0:0:0:abcd")', value(false)],
    ['ip("127.0.0.1").family() == 4', value(true)],
    ['ip("127.0.0.256")', error('IP Address "127.0.0.256" parse error during conversion from string: ParseAddr("127.0.0.256"): IPv4 field has value >255')],
    ['ip(":::1")', error('IP Address ":::1" parse error during conversion from string: ParseAddr(":::1"): each colon-separated field must have at least one digit (at ":1")')],
  ];
  it.each(cases)('%s', (expression, expected) => {
    expect(run(expression)).toEqual(expected);
  });

  it('refuses a CIDR where an IP string is wanted (compile error)', () => {
    expect(run('isIP(cidr("192.168.0.0/24"))')).toEqual({
      compileError: "ERROR: <input>:1:5: found no matching overload for 'isIP' applied to '(net.CIDR)'\n | isIP(cidr(\"192.168.0.0/24\"))\n | ....^",
    });
    expect(run('ip.isCanonical(1)')).toMatchObject({ compileError: expect.stringContaining("found no matching overload for 'ip.isCanonical' applied to '(int)'") });
    expect(run('ip("1.2.3.4") == "1.2.3.4"')).toMatchObject({ compileError: expect.stringContaining("found no matching overload for '_==_' applied to '(net.IP, string)'") });
  });

  it('refuses zones, IPv4-mapped IPv6 addresses and leading zeros, in the library words', () => {
    expect(run('ip("fe80::1%eth0")')).toEqual(error('IP address "fe80::1%eth0" with zone value is not allowed'));
    expect(run('ip("::ffff:1.2.3.4")')).toEqual(error('IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed'));
    expect(run('isIP("::ffff:1.2.3.4") || isIP("fe80::1%eth0")')).toEqual(value(false));
    expect(run('ip("01.2.3.4")')).toEqual(error('IP Address "01.2.3.4" parse error during conversion from string: ParseAddr("01.2.3.4"): IPv4 field has octet with leading zero'));
    expect(run('ip("")')).toEqual(error('IP Address "" parse error during conversion from string: ParseAddr(""): unable to parse IP'));
    expect(run('ip("2001:db8::00068")')).toEqual(error('IP Address "2001:db8::00068" parse error during conversion from string: ParseAddr("2001:db8::00068"): each group must have 4 or less digits (at "00068")'));
    expect(run('ip("::1.2.3.04")')).toEqual(error('IP Address "::1.2.3.04" parse error during conversion from string: ParseAddr("::1.2.3.04"): IPv4 field has octet with leading zero'));
  });

  it('prints IPv6 canonically (RFC 5952) and compares addresses by value', () => {
    expect(run('string(ip("2001:0DB8:0000:0000:0001:0000:0000:0001"))')).toEqual(value('2001:db8::1:0:0:1'));
    expect(run('string(ip("1:0:1:0:1:0:1:0"))')).toEqual(value('1:0:1:0:1:0:1:0'));
    expect(run('string(ip("::ffff:0:1.2.3.4"))')).toEqual(value('::ffff:0:102:304'));
    expect(run('ip("2001:DB8::1") == ip("2001:db8:0::1")')).toEqual(value(true));
    expect(run('ip("::1") != ip("::2")')).toEqual(value(true));
    expect(run('ip("10.0.0.1") in [ip("10.0.0.2"), ip("10.0.0.1")]')).toEqual(value(true));
  });
});

describe('cidr (cidr_test.go)', () => {
  const PARSE = 'network address parse error during conversion from string: network address parse error during conversion from string:';
  const cases: Array<[string, Outcome]> = [
    ['cidr("192.168.0.0/24")', value('192.168.0.0/24')],
    ['cidr("192.168.0.0/")', error(`${PARSE} netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""`)],
    ['cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))', value(true)],
    ['cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))', value(false)],
    ['cidr("192.168.0.0/24").containsIP("192.168.0.1")', value(true)],
    ['cidr("192.168.0.0/24").containsIP("192.168.1.1")', value(false)],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))', value(true)],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.1/32"))', value(true)],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))', value(false)],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.169.0.1/32"))', value(false)],
    ['cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")', value(true)],
    ['cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")', value(false)],
    ['cidr("192.168.0.0/24").ip()', value('192.168.0.0')],
    ['cidr("192.168.0.0/24").masked()', value('192.168.0.0/24')],
    ['cidr("192.168.0.1/24").masked()', value('192.168.0.0/24')],
    ['cidr("192.168.0.0/24").prefixLength()', value(24n)],
    ['cidr("2001:db8::/32")', value('2001:db8::/32')],
    ['cidr("2001:db8::/")', error(`${PARSE} netip.ParsePrefix("2001:db8::/"): bad bits after slash: ""`)],
    ['cidr("2001:db8::/32").containsIP(ip("2001:db8::1"))', value(true)],
    ['cidr("2001:db8::/32").containsIP(ip("2001:dc8::1"))', value(false)],
    ['cidr("2001:db8::/32").containsIP("2001:db8::1")', value(true)],
    ['cidr("2001:db8::/32").containsIP("2001:dc8::1")', value(false)],
    ['cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))', value(true)],
    ['cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/31"))', value(false)],
    ['cidr("2001:db8::/32").containsCIDR("2001:db8::/33")', value(true)],
    ['cidr("2001:db8::/32").containsCIDR("2001:db8::/31")', value(false)],
    ['cidr("2001:db8::/32").ip()', value('2001:db8::')],
    ['cidr("2001:db8::/32").masked()', value('2001:db8::/32')],
    ['cidr("2001:db8:1::/32").masked()', value('2001:db8::/32')],
    ['cidr("2001:db8::/32").prefixLength()', value(32n)],
    ['string(cidr("192.168.0.0/24"))', value('192.168.0.0/24')],
    ['type(cidr("192.168.0.0/24")) == net.CIDR', value(true)],
    // cidr.go's doc examples.
    ['cidr("192.168.0.0/33")', error(`${PARSE} netip.ParsePrefix("192.168.0.0/33"): prefix length out of range`)],
    ['isCIDR("::1/129")', value(false)],
    ['cidr("192.168.0.1/24").ip().family()', value(4n)],
    ['cidr("192.168.0.0/24") == cidr("192.168.0.0/24").masked()', value(true)],
    ['cidr("192.168.0.1/24") == cidr("192.168.0.1/24").masked()', value(false)],
    ['cidr("::1/128").prefixLength()', value(128n)],
    ['type(cidr("2001:db8::/32").ip()) == net.IP', value(true)],
  ];
  it.each(cases)('%s', (expression, expected) => {
    expect(run(expression)).toEqual(expected);
  });

  it('parses the prefix length as netip.ParsePrefix does', () => {
    expect(run('cidr("10.0.0.0/08")')).toEqual(error(`${PARSE} netip.ParsePrefix("10.0.0.0/08"): bad bits after slash: "08"`));
    expect(run('cidr("10.0.0.0/+8")')).toEqual(error(`${PARSE} netip.ParsePrefix("10.0.0.0/+8"): bad bits after slash: "+8"`));
    expect(run('cidr("10.0.0.0")')).toEqual(error(`${PARSE} netip.ParsePrefix("10.0.0.0"): no '/'`));
    expect(run('cidr("10.0.0.0/0").prefixLength()')).toEqual(value(0n));
    expect(run('cidr("fe80::1%eth0/64")')).toEqual(error(`${PARSE} netip.ParsePrefix("fe80::1%eth0/64"): IPv6 zones cannot be present in a prefix`));
    expect(run('cidr("10.0.0.256/8")')).toEqual(error(`${PARSE} netip.ParsePrefix("10.0.0.256/8"): ParseAddr("10.0.0.256"): IPv4 field has value >255`));
    expect(run('cidr("::ffff:1.2.3.4/24")')).toEqual(error('network address parse error during conversion from string: IPv4-mapped IPv6 address "::ffff:1.2.3.4/24" is not allowed'));
  });

  it('keeps families apart and answers a bad IP string with "no such overload", as upstream does', () => {
    expect(run('cidr("0.0.0.0/0").containsIP("::1")')).toEqual(value(false));
    expect(run('cidr("::/0").containsCIDR("10.0.0.0/8")')).toEqual(value(false));
    expect(run('cidr("0.0.0.0/0").containsCIDR("10.0.0.0/8")')).toEqual(value(true));
    // cidrContainsIPString hands the failed conversion to the IP overload, which does not match it.
    expect(run('cidr("10.0.0.0/8").containsIP("nope")')).toEqual(error('no such overload'));
    expect(run('cidr("10.0.0.0/8").containsCIDR("nope")')).toEqual(error(`${PARSE} netip.ParsePrefix("nope"): no '/'`));
  });
});

describe('url (urls.go examples, apiextensions validation_test.go)', () => {
  const valid = [
    "url('/path').getScheme() == ''",
    "url('https://example.com/').getScheme() == 'https'",
    "url('https://example.com:80/').getHost() == 'example.com:80'",
    "url('https://example.com/').getHost() == 'example.com'",
    "url('https://[::1]:80/').getHost() == '[::1]:80'",
    "url('https://[::1]/').getHost() == '[::1]'",
    "url('/path').getHost() == ''",
    "url('https://example.com:80/').getHostname() == 'example.com'",
    "url('https://127.0.0.1/').getHostname() == '127.0.0.1'",
    "url('https://127.0.0.1:80/').getHostname() == '127.0.0.1'",
    "url('https://[::1]/').getHostname() == '::1'",
    "url('https://[::1]:80/').getHostname() == '::1'",
    "url('/path').getHostname() == ''",
    "url('https://example.com:80/').getPort() == '80'",
    "url('https://example.com/').getPort() == ''",
    "url('/path').getPort() == ''",
    "url('https://example.com/path').getEscapedPath() == '/path'",
    "url('https://example.com/with space/').getEscapedPath() == '/with%20space/'",
    "url('https://example.com/path with spaces/').getEscapedPath() == '/path%20with%20spaces/'",
    "url('https://example.com').getEscapedPath() == ''",
    "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == { 'k1': ['a'], 'k2': ['b', 'c']}",
    "url('https://example.com/path?key with spaces=value with spaces').getQuery() == { 'key with spaces': ['value with spaces']}",
    "url('https://example.com/path?').getQuery() == {}",
    "url('https://example.com/path').getQuery() == {}",
    "isURL('https://user:pass@example.com:80/path?query=val#fragment')",
    "isURL('/path') == true",
    "isURL('https://a:b:c/') == false",
    "isURL('../relative-path') == false",
    "url('https:://kubernetes.io/').getHostname() != 'test'",
  ];
  it.each(valid)('%s', (expression) => {
    expect(run(expression)).toEqual(value(true));
  });

  it('reads a full URL as url.Parse splits it', () => {
    const u = "url('https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor')";
    expect(run(`${u}.getScheme()`)).toEqual(value('https'));
    expect(run(`${u}.getHost()`)).toEqual(value('kubernetes.io:80'));
    expect(run(`${u}.getHostname()`)).toEqual(value('kubernetes.io'));
    expect(run(`${u}.getPort()`)).toEqual(value('80'));
    expect(run(`${u}.getEscapedPath()`)).toEqual(value('/docs/home'));
    expect(run(`${u}.getQuery()`)).toEqual(value({ k1: ['a'], k2: ['b', 'c'] }));
  });

  it('fails conversions with url.ParseRequestURI errors', () => {
    const failed = (raw: string, why: string) => error(`URL parse error during conversion from string: parse ${JSON.stringify(raw)}: ${why}`);
    expect(run("url('https://a:b:c/')")).toEqual(failed('https://a:b:c/', 'invalid port ":b:c" after host'));
    expect(run("url('../relative-path')")).toEqual(failed('../relative-path', 'invalid URI for request'));
    expect(run("url('')")).toEqual(failed('', 'empty url'));
    expect(run("url(':8080/x')")).toEqual(failed(':8080/x', 'missing protocol scheme'));
    expect(run("url('https://exa mple.com/')")).toEqual(failed('https://exa mple.com/', 'invalid character " " in host name'));
    expect(run("url('https://example.com/%zz')")).toEqual(failed('https://example.com/%zz', 'invalid URL escape "%zz"'));
    expect(run("url('https://[1.2.3.4]/')")).toEqual(failed('https://[1.2.3.4]/', 'invalid IP-literal'));
    expect(run("url('https://[::1/')")).toEqual(failed('https://[::1/', "missing ']' in host"));
    expect(run("url('https://[fe80::1%25eth0]:8080/').getHostname()")).toEqual(value('fe80::1%eth0'));
    expect(run("url('https://[zz::1]/')")).toEqual(failed('https://[zz::1]/', 'invalid host: ParseAddr("zz::1"): each colon-separated field must have at least one digit (at "zz::1")'));
    expect(run("url('https://x\\ty/')")).toEqual(failed('https://x\ty/', 'net/url: invalid control character in URL'));
  });

  it('keeps the Go semantics WHATWG URL parsing does not have', () => {
    // Colons in a host: http(s) allows only a port (Go 1.26); other schemes cut at the last colon.
    expect(run("isURL('http://::1/')")).toEqual(value(false));
    expect(run("url('mongodb://h1:1,h2:2/db').getHost()")).toEqual(value('h1:1,h2:2'));
    // A rootless path after a scheme is opaque: no host, no path.
    expect(run("url('mailto:someone@example.com').getScheme()")).toEqual(value('mailto'));
    expect(run("url('mailto:someone@example.com').getEscapedPath()")).toEqual(value(''));
    // Schemes are lowercased, hosts are not; dot segments are kept.
    expect(run("url('HTTPS://Example.COM/a/../b').getScheme() + ' ' + url('HTTPS://Example.COM/a/../b').getHost()")).toEqual(value('https Example.COM'));
    expect(run("url('https://example.com/a/../b').getEscapedPath()")).toEqual(value('/a/../b'));
    // The escaped path keeps valid escapes and sub-delims as written; non-ASCII is escaped by bytes.
    expect(run("url('https://example.com/a%2Fb!c').getEscapedPath()")).toEqual(value('/a%2Fb!c'));
    expect(run("url('https://example.com/café').getEscapedPath()")).toEqual(value('/caf%C3%A9'));
    // ParseRequestURI keeps '#' in the path; url() then drops the fragment as url.Parse does.
    expect(run("url('/docs#intro').getEscapedPath()")).toEqual(value('/docs'));
    expect(run("url('https://example.com/p?q=1#frag').getQuery()")).toEqual(value({ q: ['1'] }));
    // Queries: '+' is a space, malformed and ';' pairs are dropped, a bare key has an empty value.
    expect(run("url('/p?a=1+2&b&c=%zz&d;e=1&a=%41').getQuery()")).toEqual(value({ a: ['1 2', 'A'], b: [''] }));
    // Percent-escapes in a host are only for non-ASCII bytes.
    expect(run("isURL('https://ex%41mple.com/')")).toEqual(value(false));
    expect(run("isURL('*')")).toEqual(value(true));
    // ParseRequestURI does not split a fragment off: right after a host, '#' is a bad host character.
    expect(run("isURL('https://example.com#top')")).toEqual(value(false));
    expect(run("isURL('https://example.com/#top')")).toEqual(value(true));
    // Hosts may hold non-ASCII text; ParseRequestURI leaves '//x' without a scheme as a path, Parse reads a host.
    expect(run("url('https://例子.测试:8080/').getHostname()")).toEqual(value('例子.测试'));
    expect(run("url('//example.com/p').getHost()")).toEqual(value('example.com'));
  });

  it('compares URLs by their text', () => {
    expect(run("url('https://example.com/a b') == url('https://example.com/a%20b')")).toEqual(value(true));
    expect(run("url('https://example.com/a') == url('https://example.com/b')")).toEqual(value(false));
    expect(run("type(url('/a')) == type(url('/b'))")).toEqual(value(true));
  });
});

describe('costs (library/cost.go)', () => {
  // A string's size is its maxLength × 4 (bytes of as many code points), as apiextensions sizes it.
  const str = (maxLength: number) => ({ type: 'string', maxLength });

  it('estimates parsing as a traversal of the string and accessors at 1', () => {
    // isCIDR(self): 1 + ceil(172*0.1) = 19; cidr(self).prefixLength(): 19 + 1; `<=` 1; `&&` sums.
    expect(compile('isCIDR(self) && cidr(self).prefixLength() <= 24', str(43)).cost).toBe(19 + 21);
    // url(self): 1 + ceil(800*0.1) = 81; getScheme 1; `==` against a 5-rune literal costs ceil(0.5) = 1.
    expect(compile("url(self).getScheme() == 'https'", str(200)).cost).toBe(81 + 1 + 1);
    // ip(self): 1 + ceil(156*0.1) = 17; family 1; `== 4` 1.
    expect(compile('ip(self).family() == 4', str(39)).cost).toBe(17 + 1 + 1);
    // ip.isCanonical parses and compares: twice the traversal, ceil(156*0.2) = 32.
    expect(compile('ip.isCanonical(self)', str(39)).cost).toBe(1 + 32);
    // isURL has no entry in cost.go: a call of 1.
    expect(compile('isURL(self)', str(1000)).cost).toBe(2);
    // A type identifier is sized as cel-go's size estimator sizes any identifier path: like `self`
    // (156), so `type(ip(self)) == net.IP` compares in ceil(15.6) = 16 after type(ip(self)) 18 and net.IP 1.
    expect(compile('type(ip(self)) == net.IP', str(39)).cost).toBe(18 + 1 + 16);
  });

  it('estimates containment from 4- to 16-byte compares plus parsing a string argument', () => {
    const schema = { type: 'object', properties: { net: str(43), addr: str(39) } };
    const cidrOfNet = 2 + 18; // self.net, then ceil(172*0.1)
    // containsIP(string): ceil(32*0.1) = 4, plus parsing ceil(156*0.1) = 16; self.addr 2.
    expect(compile('cidr(self.net).containsIP(self.addr)', schema).cost).toBe(cidrOfNet + 2 + 4 + 16);
    // containsIP(ip): 4, plus ip(self.addr) = 2 + 16.
    expect(compile('cidr(self.net).containsIP(ip(self.addr))', schema).cost).toBe(cidrOfNet + 18 + 4);
    // containsCIDR(string): 4 + ceil(1.6) = 2 + 1, plus parsing 18; self.net 2.
    expect(compile('cidr(self.net).containsCIDR(self.net)', schema).cost).toBe(cidrOfNet + 2 + 7 + 18);
    // Equality of CIDRs (and IPs) costs 1; masked 1.
    expect(compile('cidr(self.net) == cidr(self.net).masked()', schema).cost).toBe(cidrOfNet + cidrOfNet + 1 + 1);
    // cel-go prices `!=` by operand sizes, which opaque values do not have: beyond any limit.
    expect(compile('ip(self.addr) != ip(self.addr)', schema).cost).toBeGreaterThan(1e15);
  });

  it('sizes URL equality by the right operand', () => {
    // url(self): 1 + 80 each; `==`: ceil(800*0.1) = 80.
    expect(compile('url(self) == url(self)', str(200)).cost).toBe(81 + 81 + 80);
  });

  it('charges calls at runtime as CallCost does', () => {
    const cost = (rule: string, schema: JSONSchemaProps, self: unknown) => compile(rule, schema).evaluate(self).cost;
    // isIP's CallCost is ceil(runes*0.1): 9 for 90 runes, 1 for 8.
    expect(cost('isIP(self)', str(100), '1'.repeat(90)) - cost('isIP(self)', str(100), '10.0.0.1')).toBe(9 - 1);
    // containsIP(string) adds the parse of its argument: ceil(39*0.1) = 4 against ceil(8*0.1) = 1.
    const schema = { type: 'object', properties: { net: str(43), addr: str(39) } };
    const contains = 'cidr(self.net).containsIP(self.addr)';
    expect(cost(contains, schema, { net: '10.0.0.0/8', addr: '1111:2222:3333:4444:5555:6666:7777:8888' }) - cost(contains, schema, { net: '10.0.0.0/8', addr: '10.1.2.3' })).toBe(4 - 1);
    // url() traverses its string; the accessors cost 1 whatever the URL.
    const host = "url(self).getHost() == 'a'";
    expect(cost(host, str(100), `https://example.com/${'p'.repeat(60)}`) - cost(host, str(100), 'https://example.com/')).toBe(8 - 2);
  });
});

describe('rules on custom resource writes (client-node)', () => {
  let cluster: FakeCluster;
  let api: k8s.CustomObjectsApi;
  const rules = [
    { rule: "isURL(self.endpoint) && url(self.endpoint).getScheme() == 'https'", message: 'endpoint must be an https URL' },
    { rule: 'isCIDR(self.podCIDR) && cidr(self.podCIDR).prefixLength() <= 24' },
    { rule: '!has(self.gateway) || cidr(self.podCIDR).containsIP(self.gateway)', fieldPath: '.gateway', messageExpression: "'gateway ' + self.gateway + ' is outside ' + self.podCIDR" },
  ];
  const schema = specSchema(
    { endpoint: { type: 'string', maxLength: 256 }, podCIDR: { type: 'string', maxLength: 43 }, gateway: { type: 'string', maxLength: 39 } },
    { 'x-kubernetes-validations': rules },
  );
  beforeAll(async () => {
    cluster = await createFakeCluster();
    api = await installWidgets(cluster, schema);
  });
  afterAll(() => cluster.close());

  it('accepts a resource the rules hold for', async () => {
    const created = (await api.createNamespacedCustomObject({ ...at, body: widget('ok', { endpoint: 'https://api.example.com:8443/v1', podCIDR: '10.244.0.0/16', gateway: '10.244.0.1' }) })) as { spec: unknown };
    expect(created.spec).toEqual({ endpoint: 'https://api.example.com:8443/v1', podCIDR: '10.244.0.0/16', gateway: '10.244.0.1' });
  });

  it('rejects a resource that breaks them, with the exact causes', async () => {
    const status = await expectStatus(
      api.createNamespacedCustomObject({ ...at, body: widget('bad', { endpoint: 'http://api.example.com/', podCIDR: '10.244.0.0/25', gateway: '10.245.0.1' }) }),
      { code: 422, reason: 'Invalid' },
    );
    expect(status.message).toBe(
      'Widget.schema.example.com "bad" is invalid: [spec: Invalid value: endpoint must be an https URL, spec: Invalid value: failed rule: isCIDR(self.podCIDR) && cidr(self.podCIDR).prefixLength() <= 24, spec.gateway: Invalid value: gateway 10.245.0.1 is outside 10.244.0.0/25]',
    );
    expect((status.details as { causes: unknown[] }).causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: endpoint must be an https URL', field: 'spec' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: failed rule: isCIDR(self.podCIDR) && cidr(self.podCIDR).prefixLength() <= 24', field: 'spec' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: gateway 10.245.0.1 is outside 10.244.0.0/25', field: 'spec.gateway' },
    ]);
  });

  it('reports a conversion failure as the rule runtime error', async () => {
    const status = await expectStatus(
      api.createNamespacedCustomObject({ ...at, body: widget('broken', { endpoint: 'https://api.example.com/', podCIDR: '10.244.0.0/16', gateway: '10.244.0.256' }) }),
      { code: 422, reason: 'Invalid' },
    );
    expect((status.details as { causes: unknown[] }).causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: "object": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: ${rules[2]!.rule}`,
        field: 'spec',
      },
    ]);
  });
});

describe('rules using the libraries on CRD writes (client-node)', () => {
  let cluster: FakeCluster;
  beforeAll(async () => {
    cluster = await createFakeCluster();
  });
  afterAll(() => cluster.close());

  it('refuses a rule that passes a number where the libraries take a string', async () => {
    const ext = cluster.kubeConfig.makeApiClient(k8s.ApiextensionsV1Api);
    const crd = widgetCrd(specSchema({ port: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'isIP(self)' }] } }));
    const status = await expectStatus(ext.createCustomResourceDefinition({ body: clientCrd(crd) }), { code: 422, reason: 'Invalid' });
    expect((status.details as { causes: Array<{ field: string; message: string }> }).causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.validation.openAPIV3Schema.properties[spec].properties[port].x-kubernetes-validations[0].rule',
        message:
          'Invalid value: {"Rule":"isIP(self)","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:5: found no matching overload for \'isIP\' applied to \'(int)\'\n | isIP(self)\n | ....^',
      },
    ]);
  });

  it('resolves the qualified names ip.isCanonical and net.IP in rules', async () => {
    const api = await installWidgets(
      cluster,
      specSchema({ addr: { type: 'string', maxLength: 39, 'x-kubernetes-validations': [{ rule: 'type(ip(self)) == net.IP && ip.isCanonical(self)', message: 'must be a canonical IP' }] } }),
    );
    await api.createNamespacedCustomObject({ ...at, body: widget('canonical', { addr: '2001:db8::1' }) });
    const status = await expectStatus(api.createNamespacedCustomObject({ ...at, body: widget('upper', { addr: '2001:DB8::1' }) }), { code: 422, reason: 'Invalid' });
    expect((status.details as { causes: unknown[] }).causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: "2001:DB8::1": must be a canonical IP', field: 'spec.addr' }]);
  });
});

