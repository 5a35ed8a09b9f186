// kubefake's fixes of @marcbachmann/cel-js (src/cel/engine-patches.ts, optional-syntax.ts) patch
// shared engine objects; they must act only on kubefake's own environments. A program that also
// uses the engine directly keeps the engine's behaviour after kubefake has compiled expressions.
import { Environment } from '@marcbachmann/cel-js';
import { describe, expect, it } from 'vitest';

/** Expressions each fix changes, evaluated by a plain engine environment. */
const PROBES = [
  "{1: 'a'}", // typed map keys
  "has({'a': 1}.a)", // has() over any select
  '.5', // leading-dot double
  "b'\u00ff'.size()", // UTF-8 bytes literal
  '[?optional.none(), 1]', // optional list elements
  '{?1: optional.none()}', // optional map entries
  '[].all(x, x > 0)', // type variables in macros
  'optional.none().?x', // selection on a free type parameter
  'type(null)', // null_type
];

function outcome(expression: string): string {
  const env = new Environment({ enableOptionalTypes: true });
  try {
    const v = env.evaluate(expression);
    if (v instanceof Map) return `Map ${JSON.stringify([...v].map(([k, x]) => [typeof k, String(k), String(x)]))}`;
    if (typeof v === 'object' && v !== null) return `${v.constructor.name} ${JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x))}`;
    return `${typeof v} ${String(v)}`;
  } catch (e) {
    return `error ${(e as Error).message}`;
  }
}

describe('engine patches and other users of the engine', () => {
  it('a plain Environment behaves the same before and after a kubefake compile', async () => {
    const before = PROBES.map(outcome);
    const { compileExpression } = await import('../src/cel/index.ts');
    // The kubefake environment does get cel-go's answers for the same expressions.
    const kubefake = (e: string): unknown => {
      const c = compileExpression(e);
      if (c.error !== undefined) throw new Error(c.error);
      return c.evaluate();
    };
    expect(kubefake("{1: 'a'}")).toEqual(new Map([[1n, 'a']]));
    expect(kubefake("has({'a': 1}.a)")).toBe(true);
    expect(kubefake('.5')).toBe(0.5);
    expect(kubefake("b'\u00ff'.size()")).toBe(2n);
    expect(kubefake('[?optional.none(), 1]')).toEqual([1n]);
    expect(kubefake('{?1: optional.none()}.size()')).toBe(0n);
    expect(kubefake('[].all(x, x > 0)')).toBe(true);
    expect(kubefake('optional.none().?x.hasValue()')).toBe(false);

    const after = PROBES.map(outcome);
    expect(after).toEqual(before);
    // The engine's own answers, as a check that the probes exercise the unpatched paths.
    expect(after[2]).toMatch(/^error /);
    expect(after[4]).toMatch(/^error /);
  });
});
