import { describe, expect, it } from 'vitest';
import { deprecationWarningOf } from './deprecation-warning.ts';

describe('deprecationWarningOf', () => {
  const served = (name: string, deprecated = false) => ({ name, served: true, deprecated });

  it('is silent for a version that is not deprecated, and uses a custom text as is', () => {
    expect(deprecationWarningOf('g', 'K', served('v1'), [served('v1')])).toBeUndefined();
    expect(deprecationWarningOf('g', 'K', { ...served('v1', true), deprecationWarning: 'custom' }, [])).toBe('custom');
    expect(deprecationWarningOf('g', 'K', { ...served('v1', true), deprecationWarning: '' }, [])).toBe('');
  });

  it('names the highest-priority served, non-deprecated newer version', () => {
    const versions = [served('v1alpha1', true), served('v1beta1'), served('v1'), served('v2beta1'), served('v3', true), { name: 'v4', served: false }];
    // GA before beta: v1 outranks v2beta1.
    expect(deprecationWarningOf('g', 'K', versions[0]!, versions)).toBe('g/v1alpha1 K is deprecated; use g/v1 K');
    expect(deprecationWarningOf('g', 'K', versions[0]!, versions.filter((v) => v.name !== 'v1'))).toBe('g/v1alpha1 K is deprecated; use g/v2beta1 K');
  });

  it('orders as kube-aware versions: GA over beta over alpha, then non-kube names', () => {
    expect(deprecationWarningOf('g', 'K', served('foo10', true), [served('foo10', true), served('foo1')])).toBe('g/foo10 K is deprecated; use g/foo1 K');
    expect(deprecationWarningOf('g', 'K', served('v1', true), [served('v1', true), served('v9beta9'), served('foo')])).toBe('g/v1 K is deprecated');
  });
});
