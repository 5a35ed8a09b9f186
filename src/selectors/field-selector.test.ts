import { describe, expect, it } from 'vitest';
import {
  escapeFieldValue,
  fieldSelectorForName,
  parseFieldSelector,
  requiresExactName,
  selectorMetadataName,
  unescapeFieldValue,
} from './field-selector.ts';
import { SelectorParseError } from './selector-error.ts';

function parseError(text: string): string {
  try {
    parseFieldSelector(text);
  } catch (err) {
    expect(err).toBeInstanceOf(SelectorParseError);
    return (err as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(text)} to fail`);
}

const fields = (f: Record<string, string>) => (name: string) => f[name];

describe('parseFieldSelector: syntax', () => {
  it('parses =, == (normalised to =) and !=', () => {
    expect(parseFieldSelector('a=avalue,b==bvalue,c!=cvalue').requirements).toEqual([
      { field: 'a', operator: '=', value: 'avalue' },
      { field: 'b', operator: '=', value: 'bvalue' },
      { field: 'c', operator: '!=', value: 'cvalue' },
    ]);
    expect(parseFieldSelector('b==x').toString()).toBe('b=x');
  });

  it('sorts the raw terms, as Go does before parsing', () => {
    expect(parseFieldSelector('x=a,a=x').toString()).toBe('a=x,x=a');
    expect(parseFieldSelector('b!=1,b=0').toString()).toBe('b!=1,b=0');
  });

  it('allows an empty value and skips empty terms', () => {
    expect(parseFieldSelector('spec.nodeName=').requirements).toEqual([{ field: 'spec.nodeName', operator: '=', value: '' }]);
    expect(parseFieldSelector('a=a,').toString()).toBe('a=a');
    expect(parseFieldSelector(',a=a').toString()).toBe('a=a');
  });

  it('is empty for "", bare commas and terms with both sides empty', () => {
    for (const s of ['', ',', ',,', '=', '!=', '==', '=,!=']) {
      const sel = parseFieldSelector(s);
      expect(sel.empty).toBe(true);
      expect(sel.toString()).toBe('');
    }
    expect(parseFieldSelector('=x').requirements).toEqual([{ field: '', operator: '=', value: 'x' }]);
  });

  it('splits at the first operator; the field side has no escapes', () => {
    expect(parseFieldSelector('a=!b').requirements).toEqual([{ field: 'a', operator: '=', value: '!b' }]);
    expect(parseFieldSelector('a\\=b').requirements).toEqual([{ field: 'a\\', operator: '=', value: 'b' }]);
    expect(parseFieldSelector('함=수,목=록').toString()).toBe('목=록,함=수');
  });
});

describe('parseFieldSelector: escaping', () => {
  it.each([
    ['k=\\,,k2=v2', 'k', ','],
    ['k=\\\\,k2=v2', 'k', '\\'],
    ['k=\\\\\\,,k2=v2', 'k', '\\,'],
    ['x=a||y\\=b', 'x', 'a||y=b'],
    ['x=a\\=\\=b', 'x', 'a==b'],
  ])('%j', (input, field, value) => {
    const sel = parseFieldSelector(input);
    expect(sel.requirements.find((r) => r.field === field)?.value).toBe(value);
  });

  it('round-trips through toString', () => {
    for (const s of ['x=a||y\\=b', 'x=a\\=\\=b', 'k=\\,', 'k=\\\\']) expect(parseFieldSelector(s).toString()).toBe(s);
  });

  it('escapes and unescapes values like fields.EscapeValue/UnescapeValue', () => {
    const cases: Array<[string, string]> = [
      ['', ''],
      ['a', 'a'],
      ['=', '\\='],
      [',', '\\,'],
      ['\\', '\\\\'],
      ['\\=\\,\\', '\\\\\\=\\\\\\,\\\\'],
    ];
    for (const [raw, escaped] of cases) {
      expect(escapeFieldValue(raw)).toBe(escaped);
      expect(unescapeFieldValue(escaped)).toBe(raw);
    }
  });
});

describe('parseFieldSelector: errors', () => {
  it.each([
    ['a', "invalid selector: 'a'; can't understand 'a'"],
    ['abc', "invalid selector: 'abc'; can't understand 'abc'"],
    ['a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'"],
    // Terms are sorted first, so the earliest bad term in sort order is reported.
    ['z,a', "invalid selector: 'z,a'; can't understand 'a'"],
    ['x==a==b', 'invalid field selector: unescaped character in value: 61'],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a=\\a', 'invalid field selector: invalid escape sequence: \\a'],
    ['k=\\a\\b\\', 'invalid field selector: invalid escape sequence: \\a'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
    ['a=\\\\\\', 'invalid field selector: invalid escape sequence: \\'],
    ['a=\\수', 'invalid field selector: invalid escape sequence: \\수'],
  ])('%j', (input, message) => {
    expect(parseError(input)).toBe(message);
  });

  it('reports an unescaped comma by its code point', () => {
    expect(() => unescapeFieldValue('a,b')).toThrow('invalid field selector: unescaped character in value: 44');
  });
});

describe('FieldSelector.matches', () => {
  it('compares values; unknown fields read as ""', () => {
    const sel = parseFieldSelector('metadata.name=a,status.phase!=Failed');
    expect(sel.matches(fields({ 'metadata.name': 'a', 'status.phase': 'Running' }))).toBe(true);
    expect(sel.matches(fields({ 'metadata.name': 'a', 'status.phase': 'Failed' }))).toBe(false);
    expect(sel.matches(fields({ 'metadata.name': 'b' }))).toBe(false);
    expect(parseFieldSelector('spec.nodeName=').matches(fields({}))).toBe(true);
    expect(parseFieldSelector('spec.nodeName!=').matches(fields({}))).toBe(false);
    expect(parseFieldSelector('').matches(fields({}))).toBe(true);
  });
});

describe('FieldSelector.transform', () => {
  it('rewrites terms and drops those left with empty field and value', () => {
    const sel = parseFieldSelector('spec.host=n1,metadata.name!=x').transform((field, value) =>
      field === 'spec.host' ? { field: 'spec.nodeName', value } : field === 'metadata.name' ? { field: '', value: '' } : { field, value },
    );
    expect(sel.toString()).toBe('spec.nodeName=n1');
  });

  it('lets the conversion error through unchanged', () => {
    const sel = parseFieldSelector('foo.bar=baz');
    expect(() =>
      sel.transform((field) => {
        throw new Error(`field label not supported: ${field}`);
      }),
    ).toThrow('field label not supported: foo.bar');
  });
});

describe('metadata.name helpers', () => {
  it('finds the first metadata.name= term and skips != terms', () => {
    expect(selectorMetadataName(parseFieldSelector('metadata.name=a'))).toBe('a');
    expect(selectorMetadataName(parseFieldSelector('metadata.name==a'))).toBe('a');
    expect(selectorMetadataName(parseFieldSelector('metadata.name!=a'))).toBeUndefined();
    expect(selectorMetadataName(parseFieldSelector('metadata.name!=a,metadata.name=b'))).toBe('b');
    expect(selectorMetadataName(parseFieldSelector('metadata.name=b,metadata.name=a'))).toBe('a');
    expect(selectorMetadataName(parseFieldSelector(''))).toBeUndefined();
  });

  it('requiresExactName allows extra terms next to the pinned name', () => {
    expect(requiresExactName(parseFieldSelector('metadata.name=a'), 'a')).toBe(true);
    expect(requiresExactName(parseFieldSelector('metadata.name=a,status.phase=Running'), 'a')).toBe(true);
    expect(requiresExactName(parseFieldSelector('metadata.name=b'), 'a')).toBe(false);
    expect(requiresExactName(parseFieldSelector('status.phase=Running'), 'a')).toBe(false);
  });

  it('fieldSelectorForName follows the apiserver rule for named watches', () => {
    expect(fieldSelectorForName(undefined, 'a').toString()).toBe('metadata.name=a');
    expect(fieldSelectorForName(parseFieldSelector(''), 'a=b').toString()).toBe('metadata.name=a\\=b');
    const own = parseFieldSelector('metadata.name=a,status.phase=Running');
    expect(fieldSelectorForName(own, 'a')).toBe(own);
    for (const s of ['metadata.name=b', 'metadata.name!=a', 'status.phase=Running']) {
      expect(() => fieldSelectorForName(parseFieldSelector(s), 'a')).toThrow(new SelectorParseError("fieldSelector metadata.name doesn't match requested name"));
    }
  });
});
