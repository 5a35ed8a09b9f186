import { describe, expect, it } from 'vitest';
import { messages } from './test-support.ts';
import { parseRequestURI, parseURL, UrlError } from '../../go/net-url.ts';
import { validateCABundle, validateWebhookURL } from '../../validation/webhook-client-config.ts';

// A self-signed P-256 certificate (CN=kubefake-test).
const CERT = `-----BEGIN CERTIFICATE-----
MIIBhjCCAS2gAwIBAgIUGmiSiBIY6n8/wRlR/DUBDfwEPRkwCgYIKoZIzj0EAwIw
GDEWMBQGA1UEAwwNa3ViZWZha2UtdGVzdDAgFw0yNjExMjExMzQ3MzlaGA8yMTI2
MTAyODEzNDczOVowGDEWMBQGA1UEAwwNa3ViZWZha2UtdGVzdDBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABGu5yU8qzLTx+h1DVcmq+i035lEueQ77l1riyLSwBVk4
hUZ0IB5QaL/Df85mx8/SI7laflbAM8nsz9W6oImVuaujUzBRMB0GA1UdDgQWBBQP
4A7sx2tKPFTiKCm/L4wDG4bWjDAfBgNVHSMEGDAWgBQP4A7sx2tKPFTiKCm/L4wD
G4bWjDAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0cAMEQCIHnMAwYsDDcC
1/JhXfGm6CNPACoFymlN0CdlwboSFGxGAiBWVG+cNWYcM2VVwzPMCzHNeSUGD37E
nWeYLjSWZIonKw==
-----END CERTIFICATE-----
`;
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('validateCABundle', () => {
  it('accepts a PEM certificate', () => {
    expect(validateCABundle('caBundle', b64(CERT))).toEqual([]);
  });

  it('explains why nothing loaded, as client-go does', () => {
    expect(messages(validateCABundle('caBundle', b64('foo')))).toEqual(['caBundle: Invalid value: "Zm9v": unable to load root certificates: unable to parse bytes as PEM block']);
    const key = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n';
    expect(messages(validateCABundle('caBundle', b64(key)))).toEqual([`caBundle: Invalid value: "${b64(key)}": unable to load root certificates: no valid certificate authority data seen`]);
  });
});

describe('validateWebhookURL', () => {
  it('reports userinfo and missing hosts', () => {
    expect(messages(validateWebhookURL('url', 'https://user:pw@a.example.com/x', true))).toEqual(['url: Invalid value: "user:pw": user information is not permitted in the URL']);
    expect(messages(validateWebhookURL('url', 'https:///x', true))).toEqual(['url: Invalid value: "": host must be specified; desired format: https://host[/path]']);
    // u.User.String() re-escapes what the URL held: %65 comes back as "e", %40 stays escaped.
    expect(messages(validateWebhookURL('url', 'https://us%65r:p%40ss@a.example.com/x', true))).toEqual(['url: Invalid value: "user:p%40ss": user information is not permitted in the URL']);
    expect(messages(validateWebhookURL('url', 'http://a.example.com/x?q=é#frag', true))).toEqual([
      `url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
      'url: Invalid value: "frag": fragments are not permitted in the URL',
      'url: Invalid value: "q=é": query parameters are not permitted in the URL',
    ]);
  });
});

describe('Go url parsing', () => {
  it('splits scheme, host, query and fragment', () => {
    expect(parseURL('HTTPS://h.example.com:8443/p?q=1#f')).toMatchObject({ scheme: 'https', host: 'h.example.com:8443', path: '/p', rawQuery: 'q=1', fragment: 'f' });
  });

  it.each([
    [':foo', 'parse ":foo": missing protocol scheme'],
    ['https://h:x/', 'parse "https://h:x/": invalid port ":x" after host'],
    ['a:b/c', ''],
    ['1a:b', 'parse "1a:b": first path segment in URL cannot contain colon'],
    ['https://h/%zz', 'parse "https://h/%zz": invalid URL escape "%zz"'],
  ])('%s', (u, msg) => {
    let got = '';
    try {
      parseURL(u);
    } catch (e) {
      if (!(e instanceof UrlError)) throw e;
      got = e.message;
    }
    expect(got).toBe(msg);
  });

  it('ParseRequestURI wants an absolute URI or path', () => {
    expect(() => parseRequestURI('bogus')).toThrow('parse "bogus": invalid URI for request');
    expect(parseRequestURI('https://github.com/kubernetes/kubernetes/pull/1')).toMatchObject({ scheme: 'https', host: 'github.com' });
  });
});
