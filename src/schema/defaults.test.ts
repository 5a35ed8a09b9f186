import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../util/deep-freeze.ts';
import { compileSchema } from './compile.ts';
import { applyDefaults, withDefaults } from './defaults.ts';
import type { JSONSchemaProps } from './types.ts';

const schema = compileSchema({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        color: { type: 'string', default: 'blue' },
        plain: { type: 'object', properties: { x: { type: 'string' } } },
        list: { type: 'array', items: { type: 'object', properties: { w: { type: 'integer', default: 1 } } } },
        nullable: { type: 'string', nullable: true, default: 'n' },
      },
    },
    status: { type: 'object', properties: { phase: { type: 'string' } } },
  },
});

describe('withDefaults (read path)', () => {
  it('answers the same object when nothing is defaulted', () => {
    const obj = deepFreeze({ spec: { color: 'red', plain: { x: 'y' }, list: [{ w: 2 }], nullable: null }, status: { phase: 'ok' } });
    expect(withDefaults(obj, schema.root)).toBe(obj);
  });

  it('copies only the changed path, sharing the rest, and leaves the frozen input alone', () => {
    const obj = deepFreeze({ spec: { plain: { x: 'y' }, list: [{ w: 2 }, {}], nullable: 'set' }, status: { phase: 'ok' } });
    const out = withDefaults(obj, schema.root) as typeof obj & { spec: { color?: string } };
    expect(out).toEqual({ spec: { color: 'blue', plain: { x: 'y' }, list: [{ w: 2 }, { w: 1 }], nullable: 'set' }, status: { phase: 'ok' } });
    expect(out).not.toBe(obj);
    expect(out.status).toBe(obj.status);
    expect(out.spec.plain).toBe(obj.spec.plain);
    expect(out.spec.list[0]).toBe(obj.spec.list[0]);
    expect(obj.spec).not.toHaveProperty('color');
  });

  it('gives the same result as applyDefaults, nulls included', () => {
    const input = { spec: { list: [{ w: null }, {}], nullable: null } };
    const inPlace = structuredClone(input);
    applyDefaults(inPlace, schema.root);
    expect(withDefaults(deepFreeze(structuredClone(input)), schema.root)).toEqual(inPlace);
  });

  it('skips schemas without any default', () => {
    const none = compileSchema({ type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } });
    expect(none.root.defaultsBelow).toBe(false);
    expect(schema.root.defaultsBelow).toBe(true);
  });
});

describe('served defaults (PruneDefaults)', () => {
  const embedded = (def: unknown): JSONSchemaProps => ({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: def } },
      },
    },
  });
  const served = (s: JSONSchemaProps) => compileSchema(s).root.properties!.get('spec')!.properties!.get('template')!.default;

  it('drops unknown and malformed metadata fields of embedded resources in a default', () => {
    expect(served(embedded({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', bogus: 1, labels: 5, annotations: { a: 'b' } }, spec: { any: 1 } }))).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', annotations: { a: 'b' } },
      spec: { any: 1 },
    });
  });

  it('drops a non-string kind rather than failing', () => {
    expect(served(embedded({ apiVersion: 'v1', kind: 5 }))).toEqual({ apiVersion: 'v1' });
  });

  it('leaves the CRD\'s own schema value untouched', () => {
    const def = { apiVersion: 'v1', kind: 'Pod', metadata: { bogus: 1 } };
    served(embedded(def));
    expect(def.metadata).toEqual({ bogus: 1 });
  });
});
