import { describe, expect, it } from 'vitest';
import { compileSchema } from './compile.ts';
import { applyDefaults, pruneNonNullableNulls } from './defaults.ts';
import { pruneUnknownFields } from './prune.ts';
import type { JSONSchemaProps } from './types.ts';

const prune = (schema: JSONSchemaProps, obj: Record<string, unknown>) => {
  const paths = pruneUnknownFields(obj, compileSchema(schema).root, true);
  return { obj, paths };
};

describe('pruning', () => {
  it('drops unknown fields, keeps root TypeMeta/ObjectMeta, returns sorted paths', () => {
    const r = prune(
      { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' }, l: { type: 'array', items: { type: 'object', properties: { x: { type: 'string' } } } } } } } },
      { apiVersion: 'v', kind: 'K', metadata: { name: 'n', foo: 1 }, top: 1, spec: { z: 1, a: 'x', l: [{ x: 'a', y: 1 }] } },
    );
    expect(r.obj).toEqual({ apiVersion: 'v', kind: 'K', metadata: { name: 'n', foo: 1 }, spec: { a: 'x', l: [{ x: 'a' }] } });
    expect(r.paths).toEqual(['spec.l[0].y', 'spec.z', 'top']);
  });
  it('preserve-unknown-fields keeps unknowns but prunes inside specified properties (task page example)', () => {
    const r = prune(
      { type: 'object', properties: { json: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { spec: { type: 'object', properties: { foo: { type: 'string' }, bar: { type: 'string' } } } } } } },
      { json: { spec: { foo: 'abc', bar: 'def', something: 'x' }, status: { something: 'x' } } },
    );
    expect(r.obj).toEqual({ json: { spec: { foo: 'abc', bar: 'def' }, status: { something: 'x' } } });
    expect(r.paths).toEqual(['json.spec.something']);
  });
  it('embedded resources keep apiVersion/kind/metadata; additionalProperties children are pruned', () => {
    const r = prune(
      { type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } }, m: { type: 'object', additionalProperties: { type: 'object', properties: { a: { type: 'string' } } } } } },
      { e: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {}, other: 1 }, m: { k: { a: 'x', b: 'y' } } },
    );
    expect(r.obj).toEqual({ e: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} }, m: { k: { a: 'x' } } });
    expect(r.paths).toEqual(['e.other', 'm.k.b']);
  });
  it('a nested non-embedded object loses an unspecified metadata field', () => {
    const r = prune({ type: 'object', properties: { spec: { type: 'object', properties: {} } } }, { spec: { metadata: {} } });
    expect(r.paths).toEqual(['spec.metadata']);
  });
});

describe('nulls and defaults', () => {
  const schema = compileSchema({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          foo: { type: 'string', nullable: false, default: 'default' },
          bar: { type: 'string', nullable: true },
          baz: { type: 'string' },
          obj: { type: 'object', default: {}, properties: { n: { type: 'integer', default: 1 } } },
          list: { type: 'array', items: { type: 'object', properties: { d: { type: 'string', default: 'x' } } } },
          m: { type: 'object', additionalProperties: { type: 'string', default: 'dm' } },
        },
      },
    },
  });
  it('removes non-nullable nulls without default, then defaults (nested defaults apply inside defaults)', () => {
    const obj: Record<string, unknown> = { spec: { foo: null, bar: null, baz: null, list: [{}, { d: 'y' }], m: { a: null } } };
    pruneNonNullableNulls(obj, schema.root);
    applyDefaults(obj, schema.root);
    expect(obj).toEqual({ spec: { foo: 'default', bar: null, obj: { n: 1 }, list: [{ d: 'x' }, { d: 'y' }], m: { a: 'dm' } } });
  });
  it('deep-copies defaults', () => {
    const a: Record<string, unknown> = { spec: {} };
    const b: Record<string, unknown> = { spec: {} };
    applyDefaults(a, schema.root);
    applyDefaults(b, schema.root);
    ((a.spec as Record<string, unknown>).obj as Record<string, unknown>).n = 5;
    expect((b.spec as Record<string, unknown>).obj).toEqual({ n: 1 });
  });
});
