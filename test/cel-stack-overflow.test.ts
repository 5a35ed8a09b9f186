// A CEL rule whose parsing and checking fit the stack but a later pass does not (the cost
// estimate recursing through a long chain, on a thread whose stack let the parser through) is
// still the recursion error cel-go's words give, never a 500 (seen in CI as `Internal error
// occurred: Maximum call stack size exceeded` for 3,000 `||` terms). The overflow is stood in
// for, since where it strikes depends on the stack of the thread.
import { describe, expect, it, vi } from 'vitest';

const stack = vi.hoisted(() => ({ overflow: false }));

vi.mock('../src/cel/cost.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/cel/cost.ts')>();
  return {
    ...actual,
    estimateCost: (...args: Parameters<typeof actual.estimateCost>) => {
      if (stack.overflow) throw new RangeError('Maximum call stack size exceeded');
      return actual.estimateCost(...args);
    },
  };
});

const { compileRules } = await import('../src/cel/compile.ts');
const { schemaDeclType } = await import('../src/cel/decl-type.ts');

describe('a stack overflow after checking', () => {
  it('answers compilation failed with the recursion error, and compiles other rules as before', () => {
    const decl = schemaDeclType({ type: 'object', properties: { s: { type: 'string' } } }, false)!;
    stack.overflow = true;
    const [overflowing] = compileRules([{ rule: 'self.s == "overflow"' }], decl);
    stack.overflow = false;
    const [plain] = compileRules([{ rule: 'self.s == "fine"' }], decl);
    expect(overflowing!.error).toEqual({ type: 'Invalid', detail: 'compilation failed: ERROR: <input>:-1:0: max recursion depth exceeded' });
    expect(overflowing!.program).toBeUndefined();
    expect(plain!.error).toBeUndefined();
    expect(plain!.program).toBeDefined();
  });
});
