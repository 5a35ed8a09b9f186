import { describe, expect, it } from 'vitest';
import { yamlDuplicateKeyError } from './yaml-strict.ts';

// Texts as go-yaml v2 UnmarshalStrict words them (decode.go setMapIndex, TypeError.Error).
describe('yamlDuplicateKeyError', () => {
  it('is undefined without duplicates (and for broken YAML, left to the lenient decode)', () => {
    expect(yamlDuplicateKeyError('a: 1\nb:\n  c: 2\n')).toBeUndefined();
    expect(yamlDuplicateKeyError('a: [1\n')).toBeUndefined();
  });

  it('names the line of the repeated value, nested mappings before the mapping holding them', () => {
    const text = 'apiVersion: v1\nmetadata:\n  name: a\n  name: b\nspec:\n  x: 1\nspec:\n  y:\n    z: 1\n    z: 2\n';
    expect(yamlDuplicateKeyError(text)).toBe(
      'yaml: unmarshal errors:\n  line 4: key "name" already set in map\n  line 10: key "z" already set in map\n  line 8: key "spec" already set in map',
    );
  });

  it('finds duplicates inside sequences and flow mappings; keys print as Go %#v', () => {
    expect(yamlDuplicateKeyError('l:\n- a: 1\n  a: 2\n- {b: 1, b: 2}\n')).toBe(
      'yaml: unmarshal errors:\n  line 3: key "a" already set in map\n  line 4: key "b" already set in map',
    );
    expect(yamlDuplicateKeyError('1: x\n"1": y\n1: z\n')).toBe('yaml: unmarshal errors:\n  line 3: key 1 already set in map');
  });
});
