// Validation of a Job's retry and end policies on create and update, through client-node, with
// the texts, paths and order of pkg/apis/batch/validation/validation.go (v1.36):
// backoffLimitPerIndex and maxFailedIndexes, podFailurePolicy, successPolicy, podReplacementPolicy,
// and the same rules for a CronJob's jobTemplate.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { expectStatus } from './support/status.ts';
import { causeLines, invalidCauses, useValidationCluster } from './support/validation.ts';

const api = useValidationCluster();

const namespace = 'default';
const template = (restartPolicy = 'Never'): k8s.V1PodTemplateSpec => ({ spec: { restartPolicy, containers: [{ name: 'main', image: 'busybox' }], initContainers: [{ name: 'setup', image: 'busybox' }] } });
const refused = (name: string, spec: Record<string, unknown>) => invalidCauses(api.batch.createNamespacedJob({ namespace, body: { metadata: { name }, spec: { template: template(), ...spec } as k8s.V1JobSpec } }));

describe('Job validation', () => {
  it('refuses podFailurePolicy rules that are incomplete, unknown or inconsistent', async () => {
    expect(
      await refused('pfp', {
        podFailurePolicy: {
          rules: [
            { action: '', onExitCodes: { operator: 'In', values: [0, 3, 3, 1] } },
            { action: 'Restart', onExitCodes: { operator: 'Maybe', containerName: 'other', values: [] } },
            { action: 'FailIndex', onPodConditions: [{ type: 'Bad Type', status: 'Perhaps' }, { type: 'Ready', status: '' }] },
            { action: 'Ignore' },
            { action: 'Count', onExitCodes: { operator: 'NotIn', values: [1] }, onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
          ],
        },
      }),
    ).toEqual([
      'spec.podFailurePolicy.rules[0].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3',
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [0,3,3,1]: must be ordered',
      'spec.podFailurePolicy.rules[1].action: Unsupported value: "Restart": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
      'spec.podFailurePolicy.rules[1].onExitCodes.operator: Unsupported value: "Maybe": supported values: "In", "NotIn"',
      'spec.podFailurePolicy.rules[1].onExitCodes.containerName: Invalid value: "other": must be one of the container or initContainer names in the pod template',
      'spec.podFailurePolicy.rules[1].onExitCodes.values: Invalid value: []: at least one value is required',
      'spec.podFailurePolicy.rules[2].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set',
      `spec.podFailurePolicy.rules[2].onPodConditions[0].type: Invalid value: "Bad Type": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      'spec.podFailurePolicy.rules[2].onPodConditions[0].status: Unsupported value: "Perhaps": supported values: "False", "True", "Unknown"',
      'spec.podFailurePolicy.rules[3]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
      'spec.podFailurePolicy.rules[4]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported',
    ]);
  });

  it('wants restartPolicy Never and podReplacementPolicy Failed with a podFailurePolicy, and a known replacement policy', async () => {
    const policy = { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] };
    expect(await refused('onfailure', { podFailurePolicy: policy, podReplacementPolicy: 'TerminatingOrFailed', template: template('OnFailure') })).toEqual([
      'spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"',
      'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
    ]);
    expect(await refused('replace', { podReplacementPolicy: 'Sometimes' })).toEqual(['spec.podReplacementPolicy: Unsupported value: "Sometimes": supported values: "Failed", "TerminatingOrFailed"']);
    // Accepted: the pattern's status defaults to True and the replacement policy to Failed.
    const job = await api.batch.createNamespacedJob({ namespace, body: { metadata: { name: 'fine' }, spec: { template: template(), podFailurePolicy: policy as k8s.V1PodFailurePolicy } } });
    expect(job.spec?.podFailurePolicy?.rules[0]?.onPodConditions?.[0]).toEqual({ type: 'DisruptionTarget', status: 'True' });
    expect(job.spec?.podReplacementPolicy).toBe('Failed');
  });

  it('ties backoffLimitPerIndex and maxFailedIndexes to Indexed jobs and their completions', async () => {
    expect(await refused('nonindexed', { backoffLimitPerIndex: 1, maxFailedIndexes: 1 })).toEqual([
      'spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode',
      'spec.maxFailedIndexes: Invalid value: 1: requires indexed completion mode',
    ]);
    expect(await refused('indexed', { completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: -1, maxFailedIndexes: 3 })).toEqual([
      'spec.backoffLimitPerIndex: Invalid value: -1: must be greater than or equal to 0',
      'spec.maxFailedIndexes: Invalid value: 3: must be less than or equal to completions',
    ]);
    expect(await refused('nolimit', { completionMode: 'Indexed', completions: 2, maxFailedIndexes: 1 })).toEqual(['spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified']);
    expect(await refused('big', { completionMode: 'Indexed', completions: 200_000, parallelism: 20_000, backoffLimitPerIndex: 1 })).toEqual([
      'spec.maxFailedIndexes: Required value: must be specified when completions is above 100000',
      'spec.parallelism: Invalid value: 20000: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index',
    ]);
  });

  it('refuses a successPolicy outside Indexed mode and rules that do not fit the completions', async () => {
    expect(await refused('nonindexed-sp', { successPolicy: { rules: [{ succeededCount: 1 }] } })).toEqual([
      'spec.successPolicy: Invalid value: {"Rules":[{"SucceededIndexes":null,"SucceededCount":1}]}: requires indexed completion mode',
    ]);
    expect(
      await refused('sp', {
        completionMode: 'Indexed',
        completions: 5,
        successPolicy: { rules: [{}, { succeededIndexes: '3-1' }, { succeededIndexes: '0,1-2', succeededCount: 4 }, { succeededIndexes: 'a' }, { succeededIndexes: '1-2-3' }, { succeededIndexes: '7', succeededCount: -1 }, { succeededCount: 6 }] },
      }),
    ).toEqual([
      'spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified',
      'spec.successPolicy.rules[1].succeededIndexes: Invalid value: "3-1": error parsing succeededIndexes: non-increasing order, previous: 3, current: 1',
      'spec.successPolicy.rules[2].succeededCount: Invalid value: 4: must be less than or equal to 3 (the number of indexes in the specified succeededIndexes field)',
      'spec.successPolicy.rules[3].succeededIndexes: Invalid value: "a": error parsing succeededIndexes: cannot convert string to integer for index: "a"',
      `spec.successPolicy.rules[4].succeededIndexes: Invalid value: "1-2-3": error parsing succeededIndexes: the fragment "1-2-3" violates the requirement that an index interval can have at most two parts separated by '-'`,
      'spec.successPolicy.rules[5].succeededIndexes: Invalid value: "7": error parsing succeededIndexes: too large index: "7"',
      'spec.successPolicy.rules[5].succeededCount: Invalid value: -1: must be greater than or equal to 0',
      'spec.successPolicy.rules[6].succeededCount: Invalid value: 6: must be less than or equal to 5 (the number of specified completions)',
    ]);
    expect(await refused('sp-empty', { completionMode: 'Indexed', completions: 5, successPolicy: { rules: [] } })).toEqual([
      'spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified',
    ]);
  });

  it('wants managedBy to be a domain-prefixed path of at most 63 characters', async () => {
    expect(await refused('managed', { managedBy: 'my controller' })).toEqual(['spec.managedBy: Invalid value: "my controller": must be a domain-prefixed path (such as "acme.io/foo")']);
    expect(await refused('managed-path', { managedBy: 'Example.com/a b' })).toEqual([
      `spec.managedBy: Invalid value: "Example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      `spec.managedBy: Invalid value: "a b": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')`,
    ]);
    expect(await refused('managed-long', { managedBy: `example.com/${'x'.repeat(60)}` })).toEqual(['spec.managedBy: Too long: may not be more than 63 bytes']);
  });

  it('refuses an Indexed job whose last pod hostname would not be a DNS label', async () => {
    const name = 'x'.repeat(62);
    expect(await refused(name, { completionMode: 'Indexed', completions: 10 })).toEqual([`metadata.name: Invalid value: "${name}": will not able to create pod with invalid DNS label: ${name}-9`]);
  });

  it('keeps the policies immutable on update', async () => {
    const rules = [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }];
    await api.batch.createNamespacedJob({ namespace, body: { metadata: { name: 'fixed' }, spec: { template: template(), completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: 1, podFailurePolicy: { rules } } } });
    const status = await expectStatus(
      api.batch.patchNamespacedJob({ name: 'fixed', namespace, body: { spec: { backoffLimitPerIndex: 2, podFailurePolicy: { rules: [{ ...rules[0], action: 'Ignore' }] } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch)),
      { code: 422 },
    );
    expect(causeLines(status)).toEqual([
      'spec.podFailurePolicy: Invalid value: {"Rules":[{"Action":"Ignore","OnExitCodes":{"ContainerName":null,"Operator":"In","Values":[42]},"OnPodConditions":null}]}: field is immutable',
      'spec.backoffLimitPerIndex: Invalid value: 2: field is immutable',
    ]);
  });
});

describe('CronJob validation', () => {
  it('applies the same rules to its jobTemplate', async () => {
    const status = await expectStatus(
      api.batch.createNamespacedCronJob({
        namespace,
        body: { metadata: { name: 'nightly' }, spec: { schedule: '0 1 * * *', jobTemplate: { spec: { template: template(), backoffLimitPerIndex: 1, podFailurePolicy: { rules: [{ action: 'FailJob' }] } as k8s.V1PodFailurePolicy } } } },
      }),
      { code: 422 },
    );
    expect(causeLines(status)).toEqual([
      'spec.jobTemplate.spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode',
      'spec.jobTemplate.spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
    ]);
  });
});
