// TypedValue.Validate's findings do not depend on the order an object's keys arrive in: validate()
// walks in insertion order while it finds nothing and in key order once it has.
import { describe, expect, it } from 'vitest';
import { builtinSchema } from './builtin-schema.ts';
import { validate } from './typed.ts';

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
