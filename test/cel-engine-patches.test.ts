// cel-go semantics where the pinned engine differs (src/cel/engine-patches.ts and
// src/cel/library/numeric-semantics.ts): literals, int64 overflow, heterogeneous numbers, typed
// map keys, null_type, expressions evaluated without a check — and, on CRD writes through
// client-node, rules with an empty list literal in a macro, which the engine's checker rejected
// with its own error text.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeErrorMessage } from '../src/cel/errors.ts';
import { compileExpression, type ExpressionOptions } from '../src/cel/index.ts';
import { overrideOverloads } from '../src/cel/overload-overrides.ts';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { clientCrd } from './support/client-schema.ts';
import { at, installWidgets, specSchema, widget, widgetCrd } from './support/schema-crd.ts';
import { expectStatus } from './support/status.ts';

function run(expression: string, options: ExpressionOptions = {}, bindings: Record<string, unknown> = {}): unknown {
  const e = compileExpression(expression, Object.fromEntries(Object.keys(bindings).map((k) => [k, 'dyn'])), options);
  if (e.error !== undefined) throw new Error(`compile error: ${e.error}`);
  return e.evaluate(bindings);
}

/** The cel-go text of the runtime error an expression raises. */
function runtimeError(expression: string, options: ExpressionOptions = {}): string {
  const e = compileExpression(expression, {}, options);
  if (e.error !== undefined) throw new Error(`compile error: ${e.error}`);
  try {
    e.evaluate();
  } catch (err) {
    return runtimeErrorMessage(err);
  }
  throw new Error(`${expression} evaluated without an error`);
}

describe('empty list and map literals in macros', () => {
  it.each([
    ['[].all(x, x > 0)', true],
    ['[].exists(x, x < 0)', false],
    ['[].map(x, -x)', []],
    ['[].filter(x, x % 2 == 0)', []],
    ['[].transformList(i, v, i > v, i / v)', []],
    ['{}.transformMap(k, v, k + v)', new Map()],
  ])('%s type-checks and evaluates to %j', (expression, value) => {
    expect(compileExpression(expression).error).toBeUndefined();
    expect(run(expression)).toEqual(value);
  });

  it('still rejects a typed operand that fits no overload', () => {
    expect(compileExpression("[1].all(x, x > 'a')").error).toContain("found no matching overload for '_>_' applied to '(int, string)'");
  });
});

describe('literals', () => {
  it('reads a double without its leading zero', () => {
    expect(run('.99')).toBe(0.99);
    expect(run('.99 > 9.9e-1')).toBe(false);
    expect(run('.5e1 == 5.0')).toBe(true);
  });

  it('encodes the characters of a bytes literal as UTF-8 and its escapes as bytes', () => {
    expect(run("b'ÿ'")).toEqual(new Uint8Array([0xc3, 0xbf]));
    expect(run("b'\\303\\277' == b'ÿ'")).toBe(true);
    expect(run("b'é\\xff'")).toEqual(new Uint8Array([0xc3, 0xa9, 0xff]));
    expect(run("size(b'ÿ')")).toBe(2n);
  });
});

describe('int64 and uint64 ranges', () => {
  it.each([
    ['-(-9223372036854775808)', 'integer overflow'],
    ['(-9223372036854775808) / -1', 'integer overflow'],
    ['(-9223372036854775808) % -1', 'integer overflow'],
    ['1 / 0', 'division by zero'],
    ['1 % 0', 'modulus by zero'],
    ['int(9223372036854775807.0)', 'integer overflow'],
    ['int(-9223372036854775808.0)', 'integer overflow'],
    ['int(1e99)', 'integer overflow'],
    ['uint(-1)', 'unsigned integer overflow'],
    ['uint(-0.5)', 'unsigned integer overflow'],
    ['uint(18446744073709551616.0)', 'unsigned integer overflow'],
  ])('%s fails with %s', (expression, message) => {
    expect(runtimeError(expression)).toBe(message);
  });

  it('keeps the values at the edges', () => {
    expect(run('-9223372036854775808')).toBe(-(2n ** 63n));
    expect(run('-(-9223372036854775807)')).toBe(2n ** 63n - 1n);
    expect(run('int(-9223372036854774784.0)')).toBe(-9223372036854774784n);
    expect(run('7 / -2')).toBe(-3n);
  });

  it('refuses invalid UTF-8 in string(bytes)', () => {
    expect(runtimeError("string(b'\\000\\xff')")).toBe('invalid UTF-8 in bytes, cannot convert to string');
    expect(run("string(b'\\303\\277')")).toBe('ÿ');
  });
});

describe('numbers across int, uint and double', () => {
  const mixed: ExpressionOptions = { homogeneousAggregateLiterals: false };

  it('compares list elements and map values by numeric value', () => {
    expect(run('[1.0, 2.0, 3] == [1u, 2, 3u]', mixed)).toBe(true);
    expect(run('[1.0, 2.1] == [1u, 2]', mixed)).toBe(false);
    expect(run('{1: 1.0, 2u: 3u} == {1u: 1, 2: 3.0}', mixed)).toBe(true);
    expect(run("[1, 'a'] != [1.0, 'a']", mixed)).toBe(false);
  });

  it('finds list members by numeric value', () => {
    expect(run('dyn(3u) in [5, 4, 3]')).toBe(true);
    expect(run('dyn(3.0) in [5u, 4u, 3u]')).toBe(true);
    expect(run('dyn(3.5) in [3, 4]')).toBe(false);
  });

  it('orders int against double as cel-go does at the int64 edge', () => {
    expect(run('dyn(9223372036854775807) < 9223372036854775808.0')).toBe(false);
    expect(run('dyn(9223372036854775807) >= 9223372036854775808.0')).toBe(true);
    expect(run('dyn(9223372036854775807) < 9223372036854777857.0')).toBe(true);
    expect(run('dyn(9223372036854775808.0) <= 9223372036854775807')).toBe(true);
    expect(run('1 < 1.5 && 2u > 1.5 && 0.5 < 1u')).toBe(true);
  });

  it('compares a Set binding as a list without order', () => {
    expect(run('x == [1.0, 2.0]', {}, { x: new Set([2n, 1n]) })).toBe(true);
    expect(run('x == [1, 3]', {}, { x: new Set([2n, 1n]) })).toBe(false);
  });

  it('indexes a list with a uint', () => {
    expect(run('[7, 8, 9][dyn(1u)]')).toBe(8n);
  });
});

describe('map literals with non-string keys', () => {
  it('keeps int keys typed for macros', () => {
    expect(run("{6: 'six', 7: 'seven', 8: 'eight'}.exists_one(k, k % 5 == 2)")).toBe(true);
    expect(run("{1: 'a', 2: 'b'}.map(k, k * 10)")).toEqual([10n, 20n]);
  });

  it('finds entries and members by numeric value', () => {
    expect(run("{1u: 'a', 2: 'b'}[1]", { homogeneousAggregateLiterals: false })).toBe('a');
    expect(run("{1u: 1.0, 2: 2.0}[?2u].value()", { homogeneousAggregateLiterals: false })).toBe(2);
    expect(run("dyn(1.0) in {1: 'a'}")).toBe(true);
    expect(run("2 in {1: 'a'}")).toBe(false);
  });

  it('leaves string-keyed literals as they were', () => {
    expect(run("{'a': 1}.exists(k, k == 'a')")).toBe(true);
    expect(run("{'a': 1}['a']")).toBe(1n);
  });

  it('drops optional entries without a value and unwraps the others (`{?k: v}`)', () => {
    expect(run('{?1: optional.none()}.size()')).toBe(0n);
    expect(run('{?1: optional.of(2)}[1]')).toBe(2n);
    expect(run('{?1: optional.of(2), 3: 4}')).toEqual(new Map([[1n, 2n], [3n, 4n]]));
    expect(run("{1: 'a', ?2: optional.none()}.size()")).toBe(1n);
    expect(run('{?1: optional.of(2), ?2: optional.none()}.map(k, k * 10)')).toEqual([10n]);
    expect(run('2 in {?1: optional.of(5), ?2: optional.of(6)}')).toBe(true);
    expect(run("{?'a': optional.of(1), ?'b': optional.none()}")).toEqual({ a: 1n });
  });
});

describe('null_type', () => {
  it('names the type of null null_type', () => {
    expect(run('type(null) == null_type')).toBe(true);
    expect(run('type(dyn(null)) == null_type')).toBe(true);
    expect((run('type(null)') as { name: string }).name).toBe('null_type');
    expect(run('type(1) != null_type')).toBe(true);
  });
});

describe('expressions evaluated without a type check', () => {
  const unchecked: ExpressionOptions = { disableCheck: true, homogeneousAggregateLiterals: false };

  it('short-circuits around unbound names and non-bool operands, as cel-go does', () => {
    expect(run('x || true', unchecked)).toBe(true);
    expect(run('f_unknown(17) || true', unchecked)).toBe(true);
    expect(run("'horses' && false", unchecked)).toBe(false);
    expect(run('true || 32', unchecked)).toBe(true);
    expect(run("true ? 'cows' : 17", unchecked)).toBe('cows');
  });

  it('dispatches operators on the runtime types', () => {
    expect(run('1.0 == 1', unchecked)).toBe(true);
    expect(run('2u != 2', unchecked)).toBe(false);
    expect(run("['one'] == [2, 3]", unchecked)).toBe(false);
    expect(run('x + 1', unchecked, { x: 2n })).toBe(3n);
  });

  it('raises the errors of the parts it evaluates', () => {
    expect(runtimeError('x', unchecked)).toBe('no such attribute(s): x');
    expect(runtimeError('f_unknown(17)', unchecked)).toBe('no such overload');
    expect(runtimeError("'less filling' && 'tastes great'", unchecked)).toBe('no such overload');
    expect(runtimeError("'cows' ? false : 17", unchecked)).toBe('no such overload');
    expect(runtimeError("'foo' < 1024", unchecked)).toBe('no such overload');
  });

  it('leaves checked expressions strict', () => {
    expect(compileExpression('1.0 == 1').error).toContain("found no matching overload for '_==_' applied to '(double, int)'");
    expect(compileExpression("'horses' && false").error).toContain('found no matching overload');
  });
});

describe('logical operators with failing operands', () => {
  it('keep the first error when neither side decides, as cel-go\'s evalAnd and evalOr', () => {
    expect(runtimeError("{'x': 1}['a'] <= 1 && {'x': 1}['b'] <= 1")).toBe('no such key: a');
    expect(runtimeError("{'x': 1}['a'] <= 1 || {'x': 1}['b'] <= 1")).toBe('no such key: a');
    // A failing side does not matter when the other decides.
    expect(run("{'x': 1}['a'] <= 1 && false")).toBe(false);
    expect(run("{'x': 1}['a'] <= 1 || true")).toBe(true);
    expect(runtimeError("true && {'x': 1}['b'] <= 1")).toBe('no such key: b');
  });

  it('report the left key on a CRD write (client-node)', async () => {
    const cluster = await createFakeCluster();
    try {
      const rule = 'self.a <= 1 && self.b <= 1';
      const api = await installWidgets(cluster, specSchema({ limits: { type: 'object', additionalProperties: { type: 'integer' }, 'x-kubernetes-validations': [{ rule }] } }));
      await expectStatus(api.createNamespacedCustomObject({ ...at, body: widget('empty', { limits: {} }) }), {
        code: 422,
        message: `Widget.schema.example.com "empty" is invalid: spec.limits: Invalid value: "object": no such key: a evaluating rule: ${rule}`,
      });
    } finally {
      await cluster.close();
    }
  });
});

describe('rules with an empty list literal on CRD writes (client-node)', () => {
  let cluster: FakeCluster;
  beforeAll(async () => {
    cluster = await createFakeCluster();
  });
  afterAll(() => cluster.close());

  it('accepts the rule and evaluates it on custom resources', async () => {
    const rule = '[].all(x, x > self) && (self == 0 ? [] : [self]).all(r, r > 0)';
    const api = await installWidgets(cluster, specSchema({ replicas: { type: 'integer', 'x-kubernetes-validations': [{ rule, message: 'must not be negative' }] } }));
    await api.createNamespacedCustomObject({ ...at, body: widget('three', { replicas: 3 }) });
    await api.createNamespacedCustomObject({ ...at, body: widget('zero', { replicas: 0 }) });
    const status = await expectStatus(api.createNamespacedCustomObject({ ...at, body: widget('minus', { replicas: -1 }) }), { code: 422, reason: 'Invalid' });
    expect((status.details as { causes: unknown[] }).causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: -1: must not be negative', field: 'spec.replicas' }]);
  });

  it('still reports a wrong operand in cel-go words', async () => {
    const ext = cluster.kubeConfig.makeApiClient(k8s.ApiextensionsV1Api);
    const crd = widgetCrd(specSchema({ name: { type: 'string', maxLength: 10, 'x-kubernetes-validations': [{ rule: '[self].all(x, x > 0)' }] } }));
    const status = await expectStatus(ext.createCustomResourceDefinition({ body: clientCrd(crd) }), { code: 422, reason: 'Invalid' });
    const causes = (status.details as { causes: Array<{ message: string }> }).causes;
    expect(causes).toHaveLength(1);
    expect(causes[0]!.message).toContain("compilation failed: ERROR: <input>:1:17: found no matching overload for '_>_' applied to '(string, int)'");
  });
});

describe('overload overrides', () => {
  it('refuses an override registered after the first compile (it would be silently ignored)', () => {
    expect(run("'  a '.trim()")).toBe('a');
    expect(() => overrideOverloads([{ signature: 'string.trim(): string', handler: () => 'x' }])).toThrow(
      'overload overrides must be registered before the first CEL compile (applyOverrides has run)',
    );
    expect(run("' b '.trim()")).toBe('b');
  });
});
