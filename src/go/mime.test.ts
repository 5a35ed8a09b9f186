import { describe, expect, it } from 'vitest';
import { parseMediaType } from './mime.ts';

// Cases from Go's mime/mediatype_test.go (TestParseMediaType, badMediaTypeTests), Go 1.26.
describe('parseMediaType (Go mime.ParseMediaType)', () => {
  it('accepts what Go accepts', () => {
    expect(parseMediaType('application/json')).toEqual({ mediaType: 'application/json', params: new Map() });
    expect(parseMediaType(' Application/JSON ; Charset="UTF-8" ;')).toEqual({ mediaType: 'application/json', params: new Map([['charset', 'UTF-8']]) });
    expect(parseMediaType('form-data; name="a\\"b"')?.params.get('name')).toBe('a"b');
    // An unnecessary backslash is kept (MSIE paths).
    expect(parseMediaType('attachment; filename="C:\\dev\\go\\foo.txt"')?.params.get('filename')).toBe('C:\\dev\\go\\foo.txt');
    expect(parseMediaType('text/plain; a=1; a=1')?.params.get('a')).toBe('1');
    expect(parseMediaType('json')?.mediaType).toBe('json');
  });

  it('refuses what Go refuses', () => {
    for (const bad of [';;;', '', 'application/json;;', 'application/json; charset', 'application/json; =x', '/json', 'application/', 'application/json extra', 'text/plain; a=1; a=2', 'text/plain; a="unterminated', 'a/b/c']) {
      expect(parseMediaType(bad), bad).toBeUndefined();
    }
  });
});
