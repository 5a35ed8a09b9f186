import { describe, expect, it } from 'vitest';
import { compileSchemaPattern } from './compile.ts';
import { re2 } from './re2.ts';

// The class kubefake's RE2 comes from (loaded on first use, from re2js's CommonJS build).
const RE2JS = re2();

// `pattern` runs natively only where JS agrees with RE2; a differential check on inputs chosen to
// expose the known differences (`.` and line terminators, \s, astral characters, [^], flags).
const patterns = [
  '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
  '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$',
  '^[^a]$',
  '^.$',
  'a.c',
  '^\\w+$',
  '\\bword\\b',
  '^[[:alpha:]]+$',
  '(?i)^abc$',
  '^[^]a]$',
  '^(?:ab|cd)+$',
  'x{2,3}',
  '^\\$\\{[A-Z_]+\\}$',
];
const inputs = ['abc', 'ABC', 'a\rc', 'a\nc', '😀', 'é', 'b', ']', 'word', 'a word here', '*/5 1 2 3 4', '1 2 3 4 5', 'xx', 'x', '${HOME}', 'my-name', '-x', 'abcd', 'a\u2028c', 'a c', '\u00a0'];

describe('schema patterns', () => {
  it.each(patterns)('%s matches as RE2 does', (pattern) => {
    const m = compileSchemaPattern(pattern);
    expect(typeof m).not.toBe('string');
    const re2 = RE2JS.compile(pattern);
    for (const s of inputs) expect((m as { test(s: string): boolean }).test(s), JSON.stringify(s)).toBe(re2.test(s));
  });

  it('runs simple patterns natively and the rest on RE2', () => {
    expect(compileSchemaPattern('^[a-z0-9-]+$')).toBeInstanceOf(RegExp);
    expect(compileSchemaPattern('^.{3}$')).toBeInstanceOf(RE2JS);
    expect(compileSchemaPattern('^\\s+$')).toBeInstanceOf(RE2JS);
    expect(compileSchemaPattern('(?i)abc')).toBeInstanceOf(RE2JS);
  });

  it('keeps RE2 for patterns that could backtrack: unanchored, several quantifiers, quantified groups', () => {
    expect(compileSchemaPattern('[a-z]+$')).toBeInstanceOf(RE2JS);
    expect(compileSchemaPattern('^a*a*b$')).toBeInstanceOf(RE2JS);
    expect(compileSchemaPattern('^(a|ab)+$')).toBeInstanceOf(RE2JS);
    expect(compileSchemaPattern('^(\\d+|\\*)$')).toBeInstanceOf(RegExp);
  });

  it('answers RE2\'s compile error for an invalid pattern', () => {
    expect(typeof compileSchemaPattern('(a)\\1')).toBe('string');
    expect(typeof compileSchemaPattern('a(?=b)')).toBe('string');
  });
});
