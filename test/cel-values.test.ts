// JSON → CEL values as a rule sees them (UnstructuredToVal): what is converted (ints, int-or-string,
// objects of declared fields, lists and maps of them), what passes through as it is (strings,
// bools, doubles and lists of them), absent and null fields, property names that JavaScript objects
// already carry, and the runtime cost meter around evaluations (it must start afresh each time).
import { Environment } from '@marcbachmann/cel-js';
import { describe, expect, it } from 'vitest';
import { compile, compileExpression, evaluate } from '../src/cel/index.ts';
import { metered } from '../src/cel/runtime-cost.ts';

// One evaluation of a rule on a JSON value (compile errors throw).
const check = (rule: string, schema: Record<string, unknown>, self: unknown) => evaluate(rule, schema, self);

describe('JSON values as CEL values', () => {
  const schema = {
    type: 'object',
    properties: {
      replicas: { type: 'integer' },
      ratio: { type: 'number' },
      name: { type: 'string' },
      on: { type: 'boolean' },
      port: { 'x-kubernetes-int-or-string': true },
      tags: { type: 'array', items: { type: 'string' } },
      matrix: { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
      items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' }, label: { type: 'string' } } } },
      byName: { type: 'object', additionalProperties: { type: 'object', properties: { n: { type: 'integer' } } } },
    },
  };

  it('integers are ints, numbers doubles (whole or not), strings and bools themselves', () => {
    expect(check('type(self.replicas) == int && self.replicas == 3', schema, { replicas: 3 }).valid).toBe(true);
    expect(check('type(self.ratio) == double && self.ratio == 1.0', schema, { ratio: 1 }).valid).toBe(true);
    expect(check('self.ratio == 0.5', schema, { ratio: 0.5 }).valid).toBe(true);
    expect(check("self.name == 'a' && self.on", schema, { name: 'a', on: true }).valid).toBe(true);
  });

  it('int-or-string is an int or a string, as the value is', () => {
    expect(check('type(self.port) == int', schema, { port: 80 }).valid).toBe(true);
    expect(check('type(self.port) == string', schema, { port: 'http' }).valid).toBe(true);
  });

  it('converts inside lists, lists of lists and maps', () => {
    expect(check("self.tags == ['a', 'b'] && self.tags[1] == 'b'", schema, { tags: ['a', 'b'] }).valid).toBe(true);
    expect(check('self.matrix[1][0] + 1 == 4 && type(self.matrix[0][0]) == int', schema, { matrix: [[1], [3]] }).valid).toBe(true);
    expect(check("self.items.all(i, i.n > 0) && self.items.exists(i, i.label == 'x')", schema, { items: [{ n: 1 }, { n: 2, label: 'x' }] }).valid).toBe(true);
    expect(check("self.byName['a'].n == 1 && !has(self.byName.b)", schema, { byName: { a: { n: 1 } } }).valid).toBe(true);
  });

  it('a null or absent field reads as absent', () => {
    expect(check('!has(self.name) && !has(self.items)', schema, { name: null, items: null }).valid).toBe(true);
    expect(check("self.name == 'a'", schema, { name: null })).toMatchObject({ valid: false, error: 'no such key: name' });
    expect(check('self.items.all(i, !has(i.label))', schema, { items: [{ n: 1, label: null }, { n: 2 }] }).valid).toBe(true);
  });

  it('a declared property named like a member of every JS object is there only when the JSON has it', () => {
    const named = { type: 'object', properties: { toString: { type: 'string' }, valueOf: { type: 'integer' }, hasOwnProperty: { type: 'boolean' } } };
    expect(check('!has(self.toString) && !has(self.valueOf) && !has(self.hasOwnProperty)', named, {}).valid).toBe(true);
    expect(check("self.toString == 'x' && self.valueOf == 2 && self.hasOwnProperty", named, { toString: 'x', valueOf: 2, hasOwnProperty: true }).valid).toBe(true);
    expect(check('self.valueOf == 2', named, {})).toMatchObject({ valid: false, error: 'no such key: valueOf' });
  });

  it('a declared property named `constructor` is a field like any other', () => {
    const named = { type: 'object', properties: { constructor: { type: 'string' }, n: { type: 'integer' } } };
    expect(check("self.constructor == 'x' && self.n == 1", named, { constructor: 'x', n: 1 }).valid).toBe(true);
    expect(check('!has(self.constructor) && self.?constructor.orValue(\'none\') == \'none\'', named, { n: 1 }).valid).toBe(true);
    expect(check("self.constructor == 'x'", named, { n: 1 })).toMatchObject({ valid: false, error: 'no such key: constructor' });
    const transition = compile('self == oldSelf', named);
    expect(transition.evaluate({ constructor: 'x', n: 1 }, { n: 1, constructor: 'x' }).valid).toBe(true);
    expect(transition.evaluate({ constructor: 'x', n: 1 }, { constructor: 'y', n: 1 }).valid).toBe(false);
    const inList = { type: 'array', items: named };
    expect(check("self.all(o, o.constructor.startsWith('a')) && self.map(o, o.n) == [1, 2]", inList, [{ constructor: 'a1', n: 1 }, { constructor: 'a2', n: 2 }]).valid).toBe(true);
  });

  it('undeclared fields stay invisible', () => {
    expect(compile('has(self.extra)', schema).errors[0]).toContain("undefined field 'extra'");
    expect(check("self.items.all(i, i.n > 0)", schema, { items: [{ n: 1, extra: 'x' }] }).valid).toBe(true);
  });

  it('a value that does not fit its type is reported by the engine, not thrown', () => {
    const result = check('self.replicas > 0', schema, { replicas: 'three' });
    expect(result.valid).toBe(false);
    expect(result.error).toEqual(expect.any(String));
  });

  it('leaves the evaluated object as it was (values pass through without being copied)', () => {
    const self = { replicas: 2, tags: ['b', 'a'], matrix: [[1]], items: [{ n: 1, label: 'x' }], byName: { a: { n: 1 } }, port: 'http' };
    const before = JSON.parse(JSON.stringify(self));
    const rule = compile("self.tags + ['c'] == ['b', 'a', 'c'] && self.items.map(i, i.n).size() == 1 && self.matrix[0] + [2] == [1, 2]", schema);
    expect(rule.evaluate(self).valid).toBe(true);
    expect(rule.evaluate(self).valid).toBe(true);
    expect(self).toEqual(before);
  });
});

describe('reading fields of object types (the direct reads of direct-access.ts, and their fallbacks)', () => {
  const schema = {
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { n: { type: 'integer' }, name: { type: 'string' }, inner: { type: 'object', properties: { x: { type: 'integer' } } } } },
    },
  };

  it('reads present fields and reports absent ones as the engine does, however often it has run', () => {
    const rule = compile('self.spec.inner.x == 1', schema);
    for (let i = 0; i < 50; i++) {
      expect(rule.evaluate({ spec: { inner: { x: 1 } } })).toEqual({ valid: true, cost: expect.any(Number) });
      expect(rule.evaluate({ spec: { inner: {} } })).toMatchObject({ valid: false, error: 'no such key: x' });
      expect(rule.evaluate({ spec: {} })).toMatchObject({ valid: false, error: 'no such key: inner' });
    }
  });

  it('optional selection and has() see the same fields', () => {
    const rule = compile("self.spec.?name.orValue('none') == (has(self.spec.name) ? self.spec.name : 'none')", schema);
    expect(rule.evaluate({ spec: {} }).valid).toBe(true);
    expect(rule.evaluate({ spec: { name: 'a' } }).valid).toBe(true);
  });

  it('a field value of the wrong type (possible only through kubefake/cel) is the engine\'s error', () => {
    const rule = compile('self.spec.n > 0', schema);
    expect(rule.evaluate({ spec: { n: 2 } }).valid).toBe(true);
    const wrong = rule.evaluate({ spec: { n: 'two' } });
    expect(wrong.valid).toBe(false);
    expect(wrong.error).toEqual(expect.any(String));
  });

  it('macros bind the items of object lists, and report an item that is not an object', () => {
    const list = { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } } } };
    const rule = compile('self.items.all(i, self.items.exists(j, j.n == i.n)) && self.items.filter(i, i.n > 1).map(i, i.n) == [2, 3]', list);
    for (let k = 0; k < 20; k++) expect(rule.evaluate({ items: [{ n: 1 }, { n: 2 }, { n: 3 }] }).valid).toBe(true);
    const wrong = compile('self.items.all(i, has(i.n))', list).evaluate({ items: [{ n: 1 }, 'x'] });
    expect(wrong.valid).toBe(false);
    expect(wrong.error).toEqual(expect.any(String));
  });

  it('a transition rule reads self and oldSelf', () => {
    const rule = compile('self.spec.n >= oldSelf.spec.n', schema);
    expect(rule.evaluate({ spec: { n: 2 } }, { spec: { n: 1 } }).valid).toBe(true);
    expect(rule.evaluate({ spec: { n: 1 } }, { spec: { n: 2 } }).valid).toBe(false);
    expect(rule.evaluate({ spec: { n: 1 } }, { spec: {} })).toMatchObject({ valid: false, error: 'no such key: n' });
  });
});

describe('the runtime cost meter', () => {
  const list = { type: 'array', maxItems: 2000, items: { type: 'integer' } };
  const runaway = 'self.all(x, self.all(y, x != y || x == y))';

  it('charges the same cost for the same evaluation, and more for more data', () => {
    const rule = compile('self.all(x, x > 0)', list);
    const ten = Array.from({ length: 10 }, (_, i) => i + 1);
    const first = rule.evaluate(ten);
    expect(first.valid).toBe(true);
    expect(rule.evaluate(ten).cost).toBe(first.cost);
    expect(rule.evaluate([...ten, ...ten]).cost).toBeGreaterThan(first.cost);
  });

  it('starts afresh after an evaluation that hit the limit', () => {
    const big = Array.from({ length: 2000 }, (_, i) => i);
    const cheap = compile('self.all(x, x >= 0)', list);
    const before = cheap.evaluate([1, 2, 3]);
    expect(evaluate(runaway, list, big)).toMatchObject({ valid: false, error: 'operation cancelled: actual cost limit exceeded' });
    expect(cheap.evaluate([1, 2, 3])).toEqual(before);
    expect(compileExpression('[1, 2, 3].all(x, x > 0)').evaluate()).toBe(true);
  });

  it('meters compileExpression too', () => {
    const runaway = compileExpression('xs.all(x, xs.all(y, x != y || x == y))', { xs: 'list<int>' });
    expect(() => runaway.evaluate({ xs: Array.from({ length: 2000 }, (_, i) => BigInt(i)) })).toThrow('operation cancelled: actual cost limit exceeded');
  });

  it('leaves other users of the engine in the process unmetered', () => {
    const other = new Environment().parse('[1, 2, 3, 4, 5, 6, 7, 8].all(x, [1, 2, 3, 4, 5, 6, 7, 8].all(y, x > 0 && y > 0))');
    expect(metered(10, () => other({}))).toEqual({ value: true, cost: 0, exceeded: false });
  });

  it('meters a messageExpression on its own: a failing rule reports its own cost', () => {
    const withMessage = compile({ rule: 'self.all(x, x > 0)', messageExpression: "'bad: ' + string(self.size())" }, list);
    const plain = compile('self.all(x, x > 0)', list);
    const data = [1, 2, 0];
    expect(withMessage.evaluate(data)).toEqual({ valid: false, message: 'bad: 3', cost: plain.evaluate(data).cost });
  });
});

describe('objects compared with null', () => {
  // cel-go's checker assigns null to object (message) types, so `self.spec != null` compiles on a
  // real server; an object that is present is never null.
  const schema = { type: 'object', properties: { spec: { type: 'object', properties: { n: { type: 'integer' } } }, items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } } } };

  it('compiles and answers false for ==, true for !=, on either side', () => {
    const value = { spec: { n: 1 }, items: [{ n: 2 }] };
    expect(check('self.spec == null', schema, value).valid).toBe(false);
    expect(check('null == self.items[0]', schema, value).valid).toBe(false);
    expect(check('self.spec != null && null != self.items[0]', schema, value).valid).toBe(true);
  });

  it('still reports an absent field as the error it is, not as null', () => {
    const result = check('self.spec != null', schema, {});
    expect(result.valid).toBe(false);
    expect(result.error).toMatch(/no such key: spec/);
  });
});

describe('runtime cost of library functions (library/cost.go CallCost)', () => {
  const str = { type: 'string' };

  it('lowerAscii charges a traversal of its receiver instead of 1', () => {
    const short = check("self.lowerAscii() == 'a'", str, 'A');
    const long = check("self.lowerAscii() == 'a'", str, 'A'.repeat(1000));
    // 1000 runes × 0.1 = 100 for the call, where the short string's call costs 1.
    expect(long.cost! - short.cost!).toBe(99);
  });

  it('split charges twice the traversal (it builds a result)', () => {
    const short = check("self.split(',').size() == 1", str, 'a');
    const long = check("self.split(',').size() == 1", str, 'a'.repeat(1000));
    expect(long.cost! - short.cost!).toBe(199);
  });

  it('isSorted of strings charges each string by its UTF-8 bytes × 0.1, truncated', () => {
    const list = { type: 'array', items: { type: 'string' } };
    // ten strings of 25 bytes: 10 × floor(2.5) = 20; ten of 5 bytes: 10 × 0 (the call still costs its node)
    const long = check('self.isSorted()', list, Array.from({ length: 10 }, (_, i) => String(i).padStart(25, '0')));
    const short = check('self.isSorted()', list, Array.from({ length: 10 }, (_, i) => String(i).padStart(5, '0')));
    expect(long.cost! - short.cost!).toBe(19);
  });
});
