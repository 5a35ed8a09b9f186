import { describe, expect, it } from 'vitest';
import { decodeGoUtf8 } from './utf8.ts';
import {
  FIND_KIND_GO_TYPE,
  goDecodeErrorMessage,
  goDuplicateFieldError,
  goJsonTypeError,
  goStrictDecodingError,
  goSyntaxError,
  interpretGoTypeMeta,
  parseGoJson,
  quoteChar,
  summarizeGoData,
} from './json.ts';

function errorOf(input: string | Uint8Array): string {
  const r = parseGoJson(input);
  if (r.ok) throw new Error(`expected a syntax error for ${JSON.stringify(input)}`);
  // Both paths (JSON.parse + scanner, and the scanner alone) must agree.
  expect(goSyntaxError(typeof input === 'string' ? new TextEncoder().encode(input) : input)).toBe(r.error);
  return r.error;
}

function duplicatesOf(text: string): string[] {
  const r = parseGoJson(text, { trackDuplicates: true });
  if (!r.ok) throw new Error(r.error);
  return r.duplicates;
}

// Expected texts come from Go's encoding/json/scanner.go (stateXxx contexts, quoteChar, eof) and
// the cases pinned in sigs.k8s.io/json internal/golang/encoding/json/{decode,scanner,stream}_test.go.
describe('parseGoJson syntax errors (encoding/json scanner.go)', () => {
  it('literal errors, including the one kube-apiserver shows for a plain-text body', () => {
    expect(errorOf('not json')).toBe("invalid character 'o' in literal null (expecting 'u')");
    expect(errorOf('{"a":trx}')).toBe("invalid character 'x' in literal true (expecting 'u')");
    expect(errorOf('{"a":tx}')).toBe("invalid character 'x' in literal true (expecting 'r')");
    expect(errorOf('{"a":tru}')).toBe("invalid character '}' in literal true (expecting 'e')");
    expect(errorOf('[fals]')).toBe("invalid character ']' in literal false (expecting 'e')");
    expect(errorOf('[fz]')).toBe("invalid character 'z' in literal false (expecting 'a')");
    // decode_test.go TestUnmarshalErrorAfterMultipleJSON
    expect(errorOf('nul#')).toBe("invalid character '#' in literal null (expecting 'l')");
  });

  it('a literal cut short at the end is completed with a space by scanner.eof', () => {
    expect(errorOf('tr')).toBe("invalid character ' ' in literal true (expecting 'u')");
    expect(errorOf('{"a":nul')).toBe("invalid character ' ' in literal null (expecting 'l')");
    expect(errorOf('1.')).toBe("invalid character ' ' after decimal point in numeric literal");
    expect(errorOf('-')).toBe("invalid character ' ' in numeric literal");
    expect(errorOf('"\\')).toBe("invalid character ' ' in string escape code");
  });

  it('unexpected end of JSON input', () => {
    expect(errorOf('')).toBe('unexpected end of JSON input');
    expect(errorOf('   ')).toBe('unexpected end of JSON input');
    expect(errorOf('{')).toBe('unexpected end of JSON input');
    expect(errorOf('{"a":1')).toBe('unexpected end of JSON input');
    expect(errorOf('[2, 3')).toBe('unexpected end of JSON input'); // decode_test.go
    expect(errorOf('{"a":"b')).toBe('unexpected end of JSON input');
  });

  it('object and array punctuation', () => {
    // decode_test.go / scanner_test.go
    expect(errorOf('{"X": "foo", "Y"}')).toBe("invalid character '}' after object key");
    expect(errorOf('{"X": "foo" "Y": "bar"}')).toBe('invalid character \'"\' after object key:value pair');
    expect(errorOf('[1, 2, 3+]')).toBe("invalid character '+' after array element");
    expect(errorOf('{"X":12x}')).toBe("invalid character 'x' after object key:value pair");
    expect(errorOf('{"a" 1}')).toBe("invalid character '1' after object key");
    expect(errorOf('{"a":1,}')).toBe("invalid character '}' looking for beginning of object key string");
    expect(errorOf("{'a':1}")).toBe("invalid character '\\'' looking for beginning of object key string");
    expect(errorOf('{,}')).toBe("invalid character ',' looking for beginning of object key string");
    expect(errorOf('[1,]')).toBe("invalid character ']' looking for beginning of value");
    expect(errorOf('[true:]')).toBe("invalid character ':' after array element");
    expect(errorOf('{"x"=}')).toBe("invalid character '=' after object key");
  });

  it('after top-level value', () => {
    expect(errorOf('{} x')).toBe("invalid character 'x' after top-level value");
    expect(errorOf('{}}')).toBe("invalid character '}' after top-level value");
    expect(errorOf('01')).toBe("invalid character '1' after top-level value");
    expect(errorOf(' 42 \x01')).toBe("invalid character '\\x01' after top-level value"); // decode_test.go
  });

  it('strings, escapes and numbers', () => {
    expect(errorOf('{"a":"b\x01"}')).toBe("invalid character '\\x01' in string literal");
    expect(errorOf('{"a":"line\nbreak"}')).toBe("invalid character '\\n' in string literal");
    expect(errorOf('{"a":"tab\there"}')).toBe("invalid character '\\t' in string literal");
    expect(errorOf('"\\a"')).toBe("invalid character 'a' in string escape code"); // stream_test.go
    expect(errorOf('"\\u12G4"')).toBe("invalid character 'G' in \\u hexadecimal character escape");
    expect(errorOf('{"F3": -}')).toBe("invalid character '}' in numeric literal"); // decode_test.go
    expect(errorOf('1.x')).toBe("invalid character 'x' after decimal point in numeric literal");
    expect(errorOf('1ex')).toBe("invalid character 'x' in exponent of numeric literal");
    expect(errorOf('1e+}')).toBe("invalid character '}' in exponent of numeric literal");
  });

  it('looking for beginning of value, with quoteChar rendering', () => {
    expect(errorOf('\x01 42')).toBe("invalid character '\\x01' looking for beginning of value"); // decode_test.go
    expect(errorOf('\\')).toBe("invalid character '\\\\' looking for beginning of value"); // stream_test.go
    expect(errorOf('{"a":}')).toBe("invalid character '}' looking for beginning of value");
    expect(errorOf('{"a":\x7f}')).toBe("invalid character '\\x7f' looking for beginning of value");
    expect(errorOf('{"a":\'b\'}')).toBe("invalid character '\\'' looking for beginning of value");
    expect(errorOf('[+1]')).toBe("invalid character '+' looking for beginning of value");
    expect(errorOf('apiVersion: v1')).toBe("invalid character 'a' looking for beginning of value");
  });

  it('non-ASCII bytes show as the lead byte taken as a rune (string(byte) in quoteChar)', () => {
    expect(errorOf('{"a":é}')).toBe("invalid character 'Ã' looking for beginning of value");
    expect(errorOf('\uFEFF{}')).toBe("invalid character 'ï' looking for beginning of value");
    expect(errorOf(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toBe("invalid character 'ï' looking for beginning of value");
    expect(errorOf(new Uint8Array([0x80]))).toBe("invalid character '\\u0080' looking for beginning of value");
    expect(errorOf(new Uint8Array([0x5b, 0xa0, 0x5d]))).toBe("invalid character '\\u00a0' looking for beginning of value");
  });

  it('quoteChar covers every class', () => {
    expect(quoteChar(0x78)).toBe("'x'");
    expect(quoteChar(0x27)).toBe("'\\''");
    expect(quoteChar(0x22)).toBe("'\"'");
    expect(quoteChar(0x5c)).toBe("'\\\\'");
    expect(quoteChar(0x20)).toBe("' '");
    expect(quoteChar(0x07)).toBe("'\\a'");
    expect(quoteChar(0x0b)).toBe("'\\v'");
    expect(quoteChar(0x0d)).toBe("'\\r'");
    expect(quoteChar(0x1f)).toBe("'\\x1f'");
    expect(quoteChar(0x7f)).toBe("'\\x7f'");
    expect(quoteChar(0x9f)).toBe("'\\u009f'");
    expect(quoteChar(0xad)).toBe("'\\u00ad'");
    expect(quoteChar(0xe2)).toBe("'â'");
    expect(quoteChar(0xff)).toBe("'ÿ'");
  });

  it('nesting deeper than 10000 levels', () => {
    expect(errorOf('['.repeat(10001))).toBe("invalid character '[' exceeded max depth");
    const tooDeep = '['.repeat(10001) + ']'.repeat(10001);
    expect(parseGoJson(tooDeep)).toEqual({ ok: false, error: "invalid character '[' exceeded max depth" });
    expect(parseGoJson(tooDeep, { trackDuplicates: true })).toEqual({ ok: false, error: "invalid character '[' exceeded max depth" });
    const deepest = '{"a":'.repeat(9999) + '[]' + '}'.repeat(9999);
    expect(parseGoJson(deepest).ok).toBe(true);
    expect(parseGoJson(deepest, { trackDuplicates: true }).ok).toBe(true);
    expect(parseGoJson('{"a":'.repeat(10000) + '[]' + '}'.repeat(10000))).toEqual({ ok: false, error: "invalid character '[' exceeded max depth" });
    // many brackets, but shallow or inside strings
    expect(parseGoJson('[' + '{},'.repeat(10001) + '{}]').ok).toBe(true);
    expect(parseGoJson('["' + '['.repeat(20001) + '"]').ok).toBe(true);
    expect(parseGoJson('["' + '['.repeat(20001) + '"]', { trackDuplicates: true }).ok).toBe(true);
  });
});

describe('parseGoJson values', () => {
  it('round-trips valid input', () => {
    const doc = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x', labels: { 'a.b/c': 'd' } },
      data: { k: 'v\n"q"', u: 'é€😀' },
      nums: [0, -1, 1.5, 1e21, 12345678901],
      flags: [true, false, null],
      empty: {},
      none: [],
    };
    const text = JSON.stringify(doc, null, 2);
    expect(parseGoJson(text)).toEqual({ ok: true, value: doc, duplicates: [] });
    expect(parseGoJson(new TextEncoder().encode(text))).toEqual({ ok: true, value: doc, duplicates: [] });
    expect(parseGoJson(text, { trackDuplicates: true })).toEqual({ ok: true, value: doc, duplicates: [] });
    expect(parseGoJson(' 42 ')).toEqual({ ok: true, value: 42, duplicates: [] });
    expect(parseGoJson('null')).toEqual({ ok: true, value: null, duplicates: [] });
  });

  it('decodes as Go does: last duplicate wins, lone surrogate escapes become U+FFFD', () => {
    expect(parseGoJson('{"a":1,"a":2}')).toEqual({ ok: true, value: { a: 2 }, duplicates: [] });
    expect(parseGoJson('["\\ud800x", "\\ud83d\\ude00", "\\udc00"]')).toEqual({ ok: true, value: ['\uFFFDx', '😀', '\uFFFD'], duplicates: [] });
    const r = parseGoJson('{"__proto__":{"\\ud800":1}}');
    expect(r.ok && Object.keys(r.value as object)).toEqual(['__proto__']);
  });

  it('replaces invalid UTF-8 per byte, as Go does', () => {
    expect(decodeGoUtf8(new Uint8Array([0x22, 0xe3, 0x81, 0x41, 0x22]))).toBe('"\uFFFD\uFFFDA"');
    expect(decodeGoUtf8(new Uint8Array([0xed, 0xa0, 0x80]))).toBe('\uFFFD\uFFFD\uFFFD'); // encoded surrogate
    expect(decodeGoUtf8(new Uint8Array([0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80]))).toBe('é😀');
    expect(parseGoJson(new Uint8Array([0x5b, 0x22, 0xff, 0x22, 0x5d]))).toEqual({ ok: true, value: ['\uFFFD'], duplicates: [] });
  });
});

// Paths as sigs.k8s.io/json reports them: internal/golang/encoding/json/kubernetes_patch.go
// (newFieldError, appendStrictFieldStackKey/Index) and its kubernetes_patch_test.go / json_test.go cases.
describe('parseGoJson duplicate fields (sigs.k8s.io/json UnmarshalStrict)', () => {
  it('reports paths in document order, each once', () => {
    expect(duplicatesOf('{"a":1,"a":2,"b":1,"b":2}')).toEqual(['a', 'b']);
    expect(duplicatesOf('{"a":"","b":"","a":"","b":"","c":{"c":"","c":""},"d":{"e":{"f":1,"f":1}},"e":[{"g":1,"g":1}]}')).toEqual([
      'a',
      'b',
      'c.c',
      'd.e.f',
      'e[0].g',
    ]);
    expect(duplicatesOf('{"a":1,"a":2,"a":3}')).toEqual(['a']);
    expect(duplicatesOf('{"c":{"a":"1","a":"2","b":"1","b":"2"}}')).toEqual(['c.a', 'c.b']);
  });

  it('kube-shaped paths', () => {
    const body = `{
      "apiVersion": "v1", "kind": "Pod",
      "metadata": {"name": "a", "name": "b", "labels": {"x": "1", "x": "2"}},
      "spec": {"containers": [{"name": "c", "ports": [{"hostPort": 1}, {"hostPort": 1, "hostPort": 2}]}],
               "containers": []}
    }`;
    expect(duplicatesOf(body)).toEqual(['metadata.name', 'metadata.labels.x', 'spec.containers[0].ports[1].hostPort', 'spec.containers']);
    expect(duplicatesOf('[{"a":1,"a":1},[{"b":1,"b":2}]]')).toEqual(['[0].a', '[1][0].b']);
  });

  it('compares keys after unescaping, and keeps odd keys verbatim', () => {
    expect(duplicatesOf('{"a":1,"\\u0061":2}')).toEqual(['a']);
    expect(duplicatesOf('{"a.b":1,"a.b":2,"x":{"":1,"":2}}')).toEqual(['a.b', 'x.']);
    expect(duplicatesOf('{"":{"a":1,"a":2}}')).toEqual(['.a']);
    expect(duplicatesOf('{"s":"}\\"{,","s":"]"}')).toEqual(['s']);
    expect(duplicatesOf('{"A":1,"a":2}')).toEqual([]);
  });

  it('handles objects with many keys', () => {
    const members = Array.from({ length: 40 }, (_, i) => `"k${i}":{"x":[1,{"y":2}]}`).join(',');
    expect(duplicatesOf(`{${members},"k3":0,"k39":{"z":1,"z":2}}`)).toEqual(['k3', 'k39', 'k39.z']);
  });

  it('stops at 100 strict errors', () => {
    const members = Array.from({ length: 150 }, (_, i) => `"k${i}":1,"k${i}":2`).join(',');
    const dups = duplicatesOf(`{${members}}`);
    expect(dups).toHaveLength(100);
    expect(dups[99]).toBe('k99');
  });

  it('is off unless asked for', () => {
    expect(parseGoJson('{"a":1,"a":2}')).toMatchObject({ ok: true, duplicates: [] });
  });

  it('formats strict errors as apimachinery does', () => {
    expect(goDuplicateFieldError('metadata.name')).toBe('duplicate field "metadata.name"');
    expect(goStrictDecodingError([goDuplicateFieldError('a'), 'unknown field "spec.x"'])).toBe(
      'strict decoding error: duplicate field "a", unknown field "spec.x"',
    );
  });
});

// k8s.io/apimachinery/pkg/runtime/serializer/json/meta.go Interpret: encoding/json Unmarshal into
// an anonymous struct; the type string is reflect's, confirmed against real apiserver/client logs.
describe('goJsonTypeError / interpretGoTypeMeta', () => {
  it('non-object top-level values', () => {
    const t = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
    expect(FIND_KIND_GO_TYPE).toBe(t);
    expect(goJsonTypeError([])).toBe(`json: cannot unmarshal array into Go value of type ${t}`);
    expect(goJsonTypeError('x')).toBe(`json: cannot unmarshal string into Go value of type ${t}`);
    expect(goJsonTypeError(1)).toBe(`json: cannot unmarshal number into Go value of type ${t}`);
    expect(goJsonTypeError(true)).toBe(`json: cannot unmarshal bool into Go value of type ${t}`);
    expect(goJsonTypeError(null)).toBeUndefined();
    expect(goJsonTypeError({})).toBeUndefined();
  });

  it('apiVersion/kind of the wrong type, matched case-insensitively', () => {
    expect(goJsonTypeError({ kind: 1, apiVersion: 'v1' })).toBe('json: cannot unmarshal number into Go struct field .kind of type string');
    expect(goJsonTypeError({ kind: { a: 1 } })).toBe('json: cannot unmarshal object into Go struct field .kind of type string');
    expect(goJsonTypeError({ APIVERSION: ['v1'] })).toBe('json: cannot unmarshal array into Go struct field .apiVersion of type string');
    expect(goJsonTypeError({ ['\u212aind']: false })).toBe('json: cannot unmarshal bool into Go struct field .kind of type string');
    expect(goJsonTypeError({ kind: null, apiVersion: null, kinds: 1 })).toBeUndefined();
  });

  it('interprets group, version and kind', () => {
    expect(interpretGoTypeMeta({ apiVersion: 'apps/v1', kind: 'Deployment' })).toEqual({ ok: true, meta: { group: 'apps', version: 'v1', kind: 'Deployment' } });
    expect(interpretGoTypeMeta({ ApiVersion: 'v1', Kind: 'Pod' })).toEqual({ ok: true, meta: { group: '', version: 'v1', kind: 'Pod' } });
    expect(interpretGoTypeMeta(null)).toEqual({ ok: true, meta: { group: '', version: '', kind: '' } });
    expect(interpretGoTypeMeta({ apiVersion: '/' })).toEqual({ ok: true, meta: { group: '', version: '', kind: '' } });
    expect(interpretGoTypeMeta({ apiVersion: 'a/b/c' })).toEqual({ ok: false, error: 'unexpected GroupVersion string: a/b/c' });
    expect(interpretGoTypeMeta([1])).toEqual({
      ok: false,
      error: `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${FIND_KIND_GO_TYPE}`,
    });
  });
});

// apiserver/pkg/endpoints/handlers/rest.go transformDecodeError and summarizeData.
describe('decode error messages', () => {
  it('summarizes bodies', () => {
    expect(summarizeGoData('')).toBe('<empty>');
    expect(summarizeGoData('not json')).toBe('6e6f74206a736f6e');
    expect(summarizeGoData('{"a":')).toBe('{"a":');
    expect(summarizeGoData('{"apiVersion":"v1","kind":"ConfigMap"}')).toBe('{"apiVersion":"v1","kind":"Con ...');
    expect(summarizeGoData('x'.repeat(31))).toBe('78'.repeat(30) + ' ...');
    // a character cut at byte 30 shows as U+FFFD per byte
    expect(summarizeGoData('{"a":"' + 'x'.repeat(22) + '€')).toBe('{"a":"' + 'x'.repeat(22) + '\uFFFD\uFFFD ...');
  });

  it('wraps the decode error', () => {
    const parsed = parseGoJson('not json');
    expect(parsed.ok).toBe(false);
    const error = 'couldn\'t get version/kind; json parse error: ' + (parsed.ok ? '' : parsed.error);
    expect(goDecodeErrorMessage({ objectKind: 'ConfigMap', error, body: 'not json' })).toBe(
      "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character 'o' in literal null (expecting 'u') (6e6f74206a736f6e)",
    );
    expect(
      goDecodeErrorMessage({
        objectKind: 'ConfigMap',
        error: 'strict decoding error: duplicate field "metadata.name"',
        body: '{}',
        decodedKind: 'ConfigMap',
        decodedVersion: 'v1',
      }),
    ).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.name"');
  });
});
