// TypedValue.Validate's findings do not depend on the order an object's keys arrive in: validate()
// walks in insertion order while it finds nothing and in key order once it has.
import { describe, expect, it } from 'vitest';
import { builtinSchema } from './builtin-schema.ts';
import { validate } from './typed.ts';
import { customResourceSchema } from './crd-schema.ts';
import { deepFreeze } from '../util/deep-freeze.ts';

const pod = builtinSchema('', 'v1', 'Pod')!;

describe('validate', () => {
  it('finds nothing in a valid pod whatever its key order', () => {
    const spec = { restartPolicy: 'Always', containers: [{ name: 'a', image: 'x' }] };
    expect(validate(pod, { status: { phase: 'Running' }, spec, metadata: { name: 'p' }, kind: 'Pod', apiVersion: 'v1' })).toEqual([]);
  });

  it('reports as the key-ordered walk does: the first undeclared field by key, and errors in key order', () => {
    const obj = { zeta: 1, spec: { restartPolicy: 7, containers: [{ name: 'a', image: true }] }, beta: 2, metadata: { name: 3 } };
    expect(validate(pod, obj).map((e) => [e.path, e.message])).toEqual([[".beta", 'field not declared in schema']]);
    const wrongTypes = { spec: { restartPolicy: 7, containers: [{ name: 'a', image: true }] }, metadata: { name: 3 } };
    expect(validate(pod, wrongTypes).map((e) => e.path)).toEqual(['.metadata.name', '.spec.containers[name="a"].image', '.spec.restartPolicy']);
  });

  it('reports duplicate list keys only when they are not allowed', () => {
    const obj = { spec: { containers: [{ name: 'a' }, { name: 'a' }] } };
    expect(validate(pod, obj).map((e) => e.message)).toEqual(['duplicate entries for key [name="a"]']);
    expect(validate(pod, obj, true)).toEqual([]);
  });
});

describe('validate of stored (frozen) parts', () => {
  // A CRD update compiles a new schema: a stored part found valid under the old one is judged
  // again under the new one, not remembered as valid.
  const schemaWith = (aType: 'string' | 'integer') =>
    customResourceSchema({ type: 'object', properties: { spec: { type: 'object', properties: { a: { type: aType }, b: { type: 'object', properties: { c: { type: 'string' } } } } } } });

  it('answers per schema for the same frozen part', () => {
    const spec = deepFreeze({ a: 'x', b: { c: 'y' } });
    expect(validate(schemaWith('string'), { spec })).toEqual([]);
    expect(validate(schemaWith('integer'), { spec }).map((e) => [e.path, e.message])).toEqual([['.spec.a', 'expected numeric (int or float), got string']]);
    // And still valid under the first schema's atom once judged invalid under another.
    expect(validate(schemaWith('string'), { spec })).toEqual([]);
  });

  it('answers per duplicate rule for the same frozen list', () => {
    const spec = deepFreeze({ containers: [{ name: 'a' }, { name: 'a' }] });
    expect(validate(pod, { spec }, true)).toEqual([]);
    expect(validate(pod, { spec }).map((e) => e.message)).toEqual(['duplicate entries for key [name="a"]']);
  });
});
