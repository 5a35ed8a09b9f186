// goYamlToJson against go-yaml v2.4.3's own expectations: its limit_test.go vectors for alias
// expansion (the 1000kb ones are what decode.go's ratio is tuned on), and decode.go's texts.
import { describe, expect, it } from 'vitest';
import { allowedAliasRatio, goYamlDocumentsToJson, goYamlToJson } from './yaml.ts';

describe('alias expansion limits (go-yaml limit_test.go)', () => {
  it.each([
    ['1kb of maps', `a: &a [{a}${',{a}'.repeat(1024 / 4 - 1)}]`],
    ['100kb of maps', `a: &a [{a}${',{a}'.repeat((100 * 1024) / 4 - 1)}]`],
  ])('accepts %s', (_name, text) => {
    expect(goYamlToJson(text).ok).toBe(true);
  });

  it('refuses 1000kb of maps with 100 aliases: document contains excessive aliasing', () => {
    const text = `{a: &a [{a}${',{a}'.repeat((1000 * 1024) / 4 - 100)}], b: &b [*a${',*a'.repeat(99)}]}`;
    expect(goYamlToJson(text)).toEqual({ ok: false, error: 'yaml: document contains excessive aliasing' });
  });

  it('refuses a ~500-byte billion-laughs bomb, and its merge-key form', () => {
    const lists = ['a: &a [x,x,x,x,x,x,x,x,x]', ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill('*' + 'abcdefgh'[i]).join(',')}]`)].join('\n');
    expect(goYamlToJson(lists)).toEqual({ ok: false, error: 'yaml: document contains excessive aliasing' });
    const merges = ['m0: &m0 {a: 1, b: 2, c: 3, d: 4}', ...[1, 2, 3, 4, 5, 6, 7, 8].map((i) => `m${i}: &m${i} {<<: [${Array(8).fill(`*m${i - 1}`).join(',')}]}`)].join('\n');
    expect(goYamlToJson(merges)).toEqual({ ok: false, error: 'yaml: document contains excessive aliasing' });
  });

  it('allows 99% aliased decodes up to 400,000, 10% from 4,000,000, linearly between', () => {
    expect(allowedAliasRatio(1000)).toBe(0.99);
    expect(allowedAliasRatio(400_000)).toBe(0.99);
    expect(allowedAliasRatio(2_200_000)).toBeCloseTo(0.545, 10);
    expect(allowedAliasRatio(4_000_000)).toBe(0.1);
    expect(allowedAliasRatio(9_000_000)).toBe(0.1);
  });

  it('reports an alias inside its own anchor and an unknown anchor as go-yaml does', () => {
    expect(goYamlToJson('a: &a [*a]')).toEqual({ ok: false, error: "yaml: anchor 'a' value contains itself" });
    expect(goYamlToJson('a: *nope')).toEqual({ ok: false, error: "yaml: unknown anchor 'nope' referenced" });
    expect(goYamlToJson('a: &a x\nb: {<<: *a}')).toEqual({ ok: false, error: 'yaml: map merge requires map or sequence of maps as the value' });
  });
});

describe('values', () => {
  it('expands aliases and merge keys into copies, not shared objects', () => {
    const result = goYamlToJson('a: &x {p: [1, 2]}\nb: *x\nc: {<<: *x, q: 3}\n');
    expect(result).toEqual({ ok: true, value: { a: { p: [1, 2] }, b: { p: [1, 2] }, c: { p: [1, 2], q: 3 } } });
    const value = (result as { value: Record<string, { p: number[] }> }).value;
    expect(value.a).not.toBe(value.b);
    expect(value.a!.p).not.toBe(value.b!.p);
  });

  it('decodes !!binary into its bytes as a string, invalid UTF-8 replaced per byte; bad base64 fails', () => {
    expect(goYamlToJson('a: !!binary aGVsbG8=\nb: !!binary |\n  aGVs\n  bG8=\nc: !!binary /w==\n')).toEqual({ ok: true, value: { a: 'hello', b: 'hello', c: '\uFFFD' } });
    expect(goYamlToJson('a: !!binary "aGVsbG8"')).toEqual({ ok: false, error: 'yaml: !!binary value contains invalid base64 data' });
  });

  it('keeps timestamps as the text they were (decode.go, interface{} target)', () => {
    expect(goYamlToJson('a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\n')).toEqual({ ok: true, value: { a: '2001-12-14', b: '2001-12-14t21:59:43.10-05:00' } });
  });

  it('keeps a `__proto__` key as data', () => {
    const result = goYamlToJson('__proto__: {polluted: true}\n') as { ok: true; value: Record<string, unknown> };
    expect(Object.keys(result.value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads the first document of a body, every document of a manifest', () => {
    expect(goYamlToJson('a: 1\n---\nb: 2\n')).toEqual({ ok: true, value: { a: 1 } });
    expect(goYamlToJson('')).toEqual({ ok: true, value: undefined });
    expect(goYamlDocumentsToJson('a: 1\n---\nb: 2\n')).toEqual({ ok: true, values: [{ a: 1 }, { b: 2 }] });
    expect(goYamlDocumentsToJson('a: 1\n---\nb: &b [*b]\n')).toEqual({ ok: false, error: "yaml: anchor 'b' value contains itself" });
  });

  it('flags nesting past the limit instead of recursing into it', () => {
    expect(goYamlToJson(`a: ${'['.repeat(50)}${']'.repeat(50)}`, { maxDepth: 40 })).toMatchObject({ ok: false, tooDeep: true });
    expect(goYamlToJson(`a: ${'['.repeat(30)}${']'.repeat(30)}`, { maxDepth: 40 }).ok).toBe(true);
  });
});
