// The public `kubefake/cel` entry: compile a rule against a schema node, evaluate it, validate a
// whole object, and the Kubernetes libraries and standard-library fills on top of the engine.
import { describe, expect, it } from 'vitest';
import { compile, compileExpression, evaluate, validate } from '../src/cel/index.ts';

const replicas = {
  type: 'object',
  properties: { minReplicas: { type: 'integer' }, replicas: { type: 'integer' }, maxReplicas: { type: 'integer' }, name: { type: 'string', maxLength: 20 } },
};
const value = (expression: string, variables: Record<string, string> = {}, bindings: Record<string, unknown> = {}) => {
  const e = compileExpression(expression, variables);
  if (e.error) throw new Error(e.error);
  return e.evaluate(bindings);
};

describe('compile and evaluate', () => {
  it('type-checks against the schema and evaluates with exact integers', () => {
    const rule = compile('self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas', replicas);
    expect(rule.errors).toEqual([]);
    // cel-go: each `<=` is 1 + two selects of 2; `&&` adds both sides.
    expect(rule.cost).toBe(10);
    expect(rule.evaluate({ minReplicas: 1, replicas: 2, maxReplicas: 3 })).toEqual({ valid: true, cost: expect.any(Number) });
    expect(rule.evaluate({ minReplicas: 1, replicas: 9, maxReplicas: 3 })).toMatchObject({ valid: false, message: 'failed rule: self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas' });
    expect(evaluate('self.replicas + 1 == 9007199254740993', replicas, { replicas: 9007199254740992 }).valid).toBe(true);
  });

  it('reports compile errors in cel-go words', () => {
    expect(compile('self.replicas == true', replicas).errors).toEqual(["compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(int, bool)'\n | self.replicas == true\n | ..............^"]);
    expect(compile('self.name.startsWith(1)', replicas).errors[0]).toContain("found no matching overload for 'startsWith' applied to 'string.(int)'");
    expect(compile('self.replicass > 0', replicas).errors[0]).toContain("ERROR: <input>:1:5: undefined field 'replicass'");
    expect(compile('foo > 0', replicas).errors[0]).toContain("undeclared reference to 'foo' (in container '')");
    expect(compile('self.replicas', replicas).errors).toEqual(['cel expression must evaluate to a bool']);
    expect(compile({ rule: 'true', messageExpression: '1' }, replicas).errors).toEqual(['messageExpression must evaluate to a string']);
    expect(compile('self.replicas >', replicas).errors[0]).toMatch(/^compilation failed: ERROR: <input>:1:\d+: Syntax error: /);
  });

  it('reports runtime errors as cel-go does', () => {
    const rule = compile('self.replicas / self.minReplicas > 0', replicas);
    expect(rule.evaluate({ replicas: 1, minReplicas: 0 })).toMatchObject({ valid: false, error: 'division by zero' });
    expect(rule.evaluate({ replicas: 1 })).toMatchObject({ valid: false, error: 'no such key: minReplicas' });
  });

  it('transition rules need oldSelf unless it is optional', () => {
    const rule = compile('self.replicas >= oldSelf.replicas', replicas);
    expect(rule.usesOldSelf).toBe(true);
    expect(rule.evaluate({ replicas: 1 })).toEqual({ valid: true, cost: 0 });
    expect(rule.evaluate({ replicas: 1 }, { replicas: 2 }).valid).toBe(false);
    const optional = compile({ rule: '!oldSelf.hasValue() || self.replicas >= oldSelf.value().replicas', optionalOldSelf: true }, replicas);
    expect(optional.evaluate({ replicas: 1 }).valid).toBe(true);
    expect(optional.evaluate({ replicas: 1 }, { replicas: 2 }).valid).toBe(false);
  });

  it('maps formats and list types to CEL types', () => {
    const schema = {
      type: 'object',
      properties: {
        at: { type: 'string', format: 'date-time' },
        ttl: { type: 'string', format: 'duration' },
        data: { type: 'string', format: 'byte' },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        port: { 'x-kubernetes-int-or-string': true },
      },
    };
    const self = { at: '2024-01-01T00:00:00Z', ttl: '90m', data: 'aGk=', tags: ['b', 'a'], port: 'http' };
    for (const rule of [
      "self.at + self.ttl == timestamp('2024-01-01T01:30:00Z')",
      "self.ttl == duration('1h30m')",
      "self.data == b'hi'",
      "self.tags == ['a', 'b']",
      'type(self.port) == string',
    ]) {
      expect(evaluate(rule, schema, self), rule).toMatchObject({ valid: true });
    }
  });

  it('validates a whole object with paths, messages and warnings', () => {
    const schema = { type: 'object', properties: { spec: { ...replicas, 'x-kubernetes-validations': [{ rule: 'self.replicas <= self.maxReplicas', message: 'too many' }] } } };
    expect(validate(schema, { spec: { replicas: 5, maxReplicas: 3 } })).toEqual({ errors: ['spec: Invalid value: too many'], warnings: [] });
    expect(validate(schema, { spec: { replicas: 5, maxReplicas: 3 } }, { spec: { replicas: 5, maxReplicas: 3 } })).toEqual({ errors: [], warnings: ['spec: Invalid value: too many'] });
  });

  it('stops a runaway rule at the per-call cost limit', () => {
    const schema = { type: 'array', maxItems: 2000, items: { type: 'integer' } };
    const result = evaluate('self.all(x, self.all(y, x != y || x == y))', schema, Array.from({ length: 2000 }, (_, i) => i));
    expect(result).toMatchObject({ valid: false, error: 'operation cancelled: actual cost limit exceeded' });
  });
});

describe('libraries', () => {
  it('regex on RE2: matches with inline flags, find, findAll; no catastrophic backtracking', () => {
    expect(value("'ABC'.matches('(?i)^abc$')")).toBe(true);
    expect(value("'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!'.matches('(a+)+$')")).toBe(false);
    expect(value("'abc 123 def 456'.find('[0-9]+')")).toBe('123');
    expect(value("'abc 123 def 456'.findAll('[0-9]+')")).toEqual(['123', '456']);
    expect(value("'abc 123 def 456'.findAll('[0-9]+', 1)")).toEqual(['123']);
    expect(compileExpression("'a'.matches('(a)\\\\1')").evaluate).toBeTypeOf('function');
    expect(() => value("'a'.matches('(a)\\\\1')")).toThrow(/invalid|backreference|escape/i);
  });

  it('lists: isSorted, sum, min, max, indexOf, lastIndexOf', () => {
    expect(value('[1, 2, 3].isSorted() && !["b", "a"].isSorted()')).toBe(true);
    expect(value('[1, 2, 3].sum()')).toBe(6n);
    expect(value('[1.5, 2.5].sum()')).toBe(4);
    expect(value('[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3')).toBe(true);
    expect(value('[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2 && [1].indexOf(5) == -1')).toBe(true);
    expect(() => value('[0].filter(x, x > 0).min()')).toThrow(/min called on empty list/);
    expect(compileExpression("['a'].sum()").error).toContain("found no matching overload for 'sum' applied to 'list(string).()'");
  });

  it('strings ext (version 2, no reverse): charAt, replace, format, strings.quote, and the built-ins', () => {
    expect(value("'hello'.charAt(1) + 'hello'.replace('l', 'L') + 'hello'.replace('l', 'L', 1)")).toBe('eheLLoheLlo');
    expect(compileExpression("'abc'.reverse() == 'cba'").error).toContain("'reverse'");
    expect(value("'%s has %d items at %.2f'.format([dyn('cart'), dyn(3), dyn(1.5)])")).toBe('cart has 3 items at 1.50');
    expect(value("strings.quote('a\"b')")).toBe('"a\\"b"');
    expect(value("'a,b,c'.split(',').join('-') + ' x '.trim() + 'AbC'.lowerAscii()")).toBe('a-b-cxabc');
  });

  it('sets', () => {
    expect(value('sets.contains([1, 2, 3], [3, 1]) && sets.equivalent([1, 2], [2, 1, 1]) && sets.intersects([1], [2, 1])')).toBe(true);
    expect(value('sets.contains([1], [2])')).toBe(false);
  });

  it('standard-library fills: conversions of timestamps and durations, bytes ordering', () => {
    expect(value("int(timestamp('2009-02-13T23:31:30Z'))")).toBe(1234567890n);
    expect(value("string(timestamp('2024-01-01T00:00:00Z'))")).toBe('2024-01-01T00:00:00Z');
    expect(value("string(duration('1m30s'))")).toBe('90s');
    expect(value("b'a' < b'b' && b'ab' > b'a'")).toBe(true);
    expect(value('int(5u)')).toBe(5n);
  });

  it('optionals, cel.bind and declared variables', () => {
    expect(value('optional.of(1).orValue(2) + optional.none().orValue(3)')).toBe(4n);
    expect(value("{'a': 1}.?b.orValue(0)")).toBe(0n);
    expect(value('cel.bind(x, n * 2, x + 1)', { n: 'int' }, { n: 20n })).toBe(41n);
  });
});
