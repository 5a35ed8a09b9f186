import { expect, test } from 'vitest';
import { compile, compileExpression, validate } from 'kubefake/cel';

test('rules tested without a cluster', () => {
  const schema = { type: 'object', properties: { replicas: { type: 'integer' }, maxReplicas: { type: 'integer' } } };
  const rule = compile({ rule: 'self.replicas <= self.maxReplicas', message: 'too many replicas' }, schema);
  expect(rule.errors).toEqual([]); // or cel-go's compile errors
  expect(rule.cost).toBeGreaterThan(0); // estimated worst-case cost
  expect(rule.evaluate({ replicas: 5, maxReplicas: 3 })).toMatchObject({ valid: false, message: 'too many replicas' });

  // A whole object against a schema's x-kubernetes-validations, as a custom resource write runs them.
  const crdSchema = { type: 'object', properties: { spec: { ...schema, 'x-kubernetes-validations': [{ rule: 'self.replicas <= self.maxReplicas', message: 'too many replicas' }] } } };
  expect(validate(crdSchema, { spec: { replicas: 5, maxReplicas: 3 } })).toEqual({ errors: ['spec: Invalid value: too many replicas'], warnings: [] });

  expect(compile('self == 1', { type: 'boolean' }).errors[0]).toContain("found no matching overload for '_==_' applied to '(bool, int)'");
});

test('cel-go semantics where the engine differs', () => {
  expect(compileExpression('[].all(x, x > 0)').evaluate()).toBe(true);
  expect(compileExpression('dyn(3u) in [1, 2, 3]').evaluate()).toBe(true);
  expect(() => compileExpression('-(-9223372036854775808)').evaluate()).toThrow('integer overflow');
  expect(compileExpression('x || true', {}, { disableCheck: true }).evaluate()).toBe(true); // unchecked: errors only where evaluated
  expect(compileExpression("'%.2f'.format([1234.5])").evaluate()).toBe('1,234.50');
});
