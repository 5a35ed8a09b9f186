import { describe, expect, it } from 'vitest';
import { rawRequestTarget, rememberRequestTarget, requestTargetOf } from './request-target.ts';

const target = (url: string, raw?: string) => {
  const request = new Request(url);
  if (raw !== undefined) rememberRequestTarget(request, raw);
  const parsed = requestTargetOf(request);
  // url.Values is a map: the values of each key in order, no order across keys.
  const query = parsed && Object.fromEntries([...new Set(parsed.query.keys())].sort().map((k) => [k, parsed.query.getAll(k)]));
  return parsed && { path: parsed.path, query };
};

describe('requestTargetOf: the request-target as net/http reads it', () => {
  it('reads a remembered raw target, keeping dot segments WHATWG parsing resolves', () => {
    expect(target('http://h/api/v1/namespaces/victim', '/api/v1/namespaces/victim/configmaps/%2e%2e')?.path).toBe('/api/v1/namespaces/victim/configmaps/..');
    expect(target('http://h/x', 'http://other/api/v1/namespaces?watch=1')).toEqual({ path: '/api/v1/namespaces', query: { watch: ['1'] } });
    expect(rawRequestTarget(new Request('https://h.kubefake.local/a?b#c'))).toBe('/a?b');
    expect(rawRequestTarget(new Request('https://h.kubefake.local'))).toBe('/');
  });

  it('decodes the path after splitting nothing, and refuses invalid escapes', () => {
    expect(target('http://h/a/b%2Fc/%FF')?.path).toBe('/a/b/c/\ufffd');
    expect(target('http://h/a/%ZZ')).toBeUndefined();
    expect(target('http://h/a/%')).toBeUndefined();
  });

  it('decodes the query as url.ParseQuery: undecodable pairs and pairs with ";" are dropped', () => {
    // The same answers on the fast path (no escapes) and through the net/url port.
    for (const path of ['/p', '/p%41']) {
      expect(target(`http://h${path}?a=1&b=x+y&&c&a=2`)?.query, path).toEqual({ a: ['1', '2'], b: ['x y'], c: [''] });
      expect(target(`http://h${path}?a=%ZZ&b=%3D&c=1;d=2&e=%FF`)?.query, path).toEqual({ b: ['='], e: ['\ufffd'] });
    }
  });
});
