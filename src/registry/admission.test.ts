import { describe, expect, it } from 'vitest';
import { admissionChain, type AdmissionAttributes, type AdmissionPlugin } from './admission.ts';

const attributes = (operation: AdmissionAttributes['operation']): AdmissionAttributes => ({
  operation,
  type: {} as AdmissionAttributes['type'],
  subresource: '',
  namespace: 'ns',
  name: 'x',
  object: { metadata: { name: 'x' } },
  oldObject: undefined,
  options: {},
  dryRun: false,
  userInfo: undefined,
  warnings: [],
  auditAnnotations: {},
});

describe('admissionChain', () => {
  it('runs every mutating plugin in order, then every validating one in order', async () => {
    const calls: string[] = [];
    const plugin = (name: string, phases: ('admit' | 'validate')[]): AdmissionPlugin => ({
      name,
      ...(phases.includes('admit') ? { admit: () => void calls.push(`${name}.admit`) } : {}),
      ...(phases.includes('validate') ? { validate: () => void calls.push(`${name}.validate`) } : {}),
    });
    const chain = admissionChain([plugin('a', ['admit', 'validate']), plugin('b', ['validate']), plugin('c', ['admit'])]);
    const attrs = attributes('CREATE');
    await chain.admit(attrs);
    await chain.validate(attrs);
    expect(calls).toEqual(['a.admit', 'c.admit', 'a.validate', 'b.validate']);
  });

  it('skips a plugin for operations it does not handle, and stops at the first refusal', async () => {
    const calls: string[] = [];
    const chain = admissionChain([
      { name: 'createOnly', handles: (op) => op === 'CREATE', validate: () => void calls.push('createOnly') },
      { name: 'deny', validate: () => { throw new Error('denied'); } },
      { name: 'after', validate: () => void calls.push('after') },
    ]);
    await expect(chain.validate(attributes('UPDATE'))).rejects.toThrow('denied');
    expect(calls).toEqual([]);
    await expect(chain.validate(attributes('CREATE'))).rejects.toThrow('denied');
    expect(calls).toEqual(['createOnly']);
  });
});
