// The Go renderings kube-apiserver and cel-go messages embed: strconv.Quote (`%q`) escapes every
// rune that is not printable, and cel-go's strings.quote() only the backslash escapes.
import { describe, expect, it } from 'vitest';
import { compileExpression } from '../src/cel/index.ts';
import { goJson, goQuote } from '../src/errors/go-format.ts';

const value = (expression: string) => {
  const e = compileExpression(expression);
  if (e.error) throw new Error(e.error);
  return e.evaluate({});
};

describe('goQuote (strconv.Quote)', () => {
  it('escapes quotes, backslashes and C0 controls, and prints printable runes as they are', () => {
    expect(goQuote('a"b\\c\n\t\x07\x00\x1b\x7f')).toBe('"a\\"b\\\\c\\n\\t\\a\\x00\\x1b\\x7f"');
    expect(goQuote('é ü 日本 😀 €')).toBe('"é ü 日本 😀 €"');
  });

  it('escapes the non-printable runes above ASCII: C1 controls, spaces other than U+0020, format characters', () => {
    expect(goQuote('\u0085\u009f')).toBe('"\\u0085\\u009f"');
    expect(goQuote('a\u00a0b\u2028c\u200bd\ufeff')).toBe('"a\\u00a0b\\u2028c\\u200bd\\ufeff"');
    expect(goQuote('\u{e0001}')).toBe('"\\U000e0001"');
    expect(goQuote('\ud800')).toBe('"\ufffd"');
  });

  it("is what string.format's %s prints for strings inside a list", () => {
    expect(value(`'%s'.format([['a\\u0085b', 'c\\u00a0d']])`)).toBe('["a\\u0085b", "c\\u00a0d"]');
  });

  it('is not strings.quote(), which escapes only the backslash escapes', () => {
    expect(value(`strings.quote('a\\u0085\\u00a0\\x01"\\n')`)).toBe('"a\u0085\u00a0\u0001\\"\\n"');
  });
});

describe('goJson (encoding/json Marshal)', () => {
  it('sorts keys below U+D800 by code point, nested maps too', () => {
    expect(goJson({ b: 1, B: 2, 'é': 3, a: { z: 1, '': 2, 'a-b': 3 }, '\u00ff': 4 })).toBe('{"B":2,"a":{"":2,"a-b":3,"z":1},"b":1,"é":3,"ÿ":4}');
  });

  it('sorts map keys by their UTF-8 bytes as Go does (encode.go), not by UTF-16 units', () => {
    // U+FF01 is EF BC 81 in UTF-8, before U+1F600's F0 9F 98 80; in UTF-16 the surrogate D83D comes first.
    expect(goJson({ '\u{1F600}': 1, '\uFF01': 2, a: { z: 1, b: 2 } })).toBe('{"a":{"b":2,"z":1},"\uFF01":2,"\u{1F600}":1}');
  });
});
