// PolicyToEvaluate (pod-security-admission/api/helpers.go v0.36.2): labels over the defaults, warn
// following a stricter enforce, unparsable values and their field errors.
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, levelVersionString, policyToEvaluate, type Policy } from './api.ts';

const evaluate = (labels: Record<string, string>) => {
  const { policy, errors } = policyToEvaluate(labels, DEFAULT_POLICY);
  const show = (p: Policy) => ({ enforce: levelVersionString(p.enforce), audit: levelVersionString(p.audit), warn: levelVersionString(p.warn) });
  return { policy: show(policy), errors: errors.map((e) => `${e.field}: ${String(e.value)}: ${e.detail}`) };
};
const L = (mode: string) => `pod-security.kubernetes.io/${mode}`;

describe('policyToEvaluate', () => {
  it('no labels: the defaults', () => {
    expect(evaluate({})).toEqual({ policy: { enforce: 'privileged:latest', audit: 'privileged:latest', warn: 'privileged:latest' }, errors: [] });
  });

  it('warn follows a stricter enforce (with its version) unless warn is set', () => {
    expect(evaluate({ [L('enforce')]: 'baseline', [L('enforce-version')]: 'v1.30' }).policy).toEqual({ enforce: 'baseline:v1.30', audit: 'privileged:latest', warn: 'baseline:v1.30' });
    expect(evaluate({ [L('enforce')]: 'baseline', [L('warn-version')]: 'v1.29' }).policy.warn).toBe('baseline:v1.29');
    expect(evaluate({ [L('enforce')]: 'restricted', [L('warn')]: 'privileged' }).policy.warn).toBe('privileged:latest');
    // A version label alone sets no level.
    expect(evaluate({ [L('enforce-version')]: 'v1.30' }).policy).toEqual({ enforce: 'privileged:v1.30', audit: 'privileged:latest', warn: 'privileged:latest' });
  });

  it('unparsable values: enforce restricted (and warn not following it), audit and warn privileged, versions latest', () => {
    expect(evaluate({ [L('enforce')]: 'Baseline', [L('audit')]: 'x', [L('warn')]: 'y', [L('audit-version')]: 'v1.01', [L('warn-version')]: '1.30' })).toEqual({
      policy: { enforce: 'restricted:latest', audit: 'privileged:latest', warn: 'privileged:latest' },
      errors: [
        'metadata.labels[pod-security.kubernetes.io/enforce]: Baseline: must be one of privileged, baseline, restricted',
        'metadata.labels[pod-security.kubernetes.io/audit]: x: must be one of privileged, baseline, restricted',
        'metadata.labels[pod-security.kubernetes.io/audit-version]: v1.01: must be "latest" or "v1.x"',
        'metadata.labels[pod-security.kubernetes.io/warn]: y: must be one of privileged, baseline, restricted',
        'metadata.labels[pod-security.kubernetes.io/warn-version]: 1.30: must be "latest" or "v1.x"',
      ],
    });
  });

  it('any int64 minor is a version, a larger one is not', () => {
    expect(evaluate({ [L('enforce')]: 'baseline', [L('enforce-version')]: 'v1.9223372036854775807' })).toEqual({
      policy: { enforce: 'baseline:v1.9223372036854775807', audit: 'privileged:latest', warn: 'baseline:v1.9223372036854775807' },
      errors: [],
    });
    expect(evaluate({ [L('enforce-version')]: 'v1.9223372036854775808' }).errors).toEqual([
      'metadata.labels[pod-security.kubernetes.io/enforce-version]: v1.9223372036854775808: must be "latest" or "v1.x"',
    ]);
  });
});
