// Validation of the kinds controllers write, beyond the workloads and Services
// (pkg/apis/{batch,networking,policy}/validation, v1.36), through client-node and kubectl: each
// rule family with the real message and field path, and a valid object still accepted.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let batch: k8s.BatchV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster();
  batch = cluster.kubeConfig.makeApiClient(k8s.BatchV1Api);
});
afterAll(() => cluster.close());

const causes = (status: Record<string, unknown>) => ((status.details as { causes: Array<{ field: string; message: string }> }).causes ?? []).map((c) => `${c.field}: ${c.message}`);

const podTemplate = (restartPolicy = 'OnFailure'): k8s.V1PodTemplateSpec => ({ spec: { restartPolicy, containers: [{ name: 'app', image: 'busybox' }] } });
const cronJob = (name: string, spec: Partial<k8s.V1CronJobSpec>) =>
  batch.createNamespacedCronJob({ namespace: 'default', body: { metadata: { name }, spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: podTemplate() } }, ...spec } } });

describe('CronJob', () => {
  it('reports schedules robfig/cron cannot parse, with its error texts', async () => {
    const cases: Array<[string, string]> = [
      ['x', 'expected exactly 5 fields, found 1: [x]'],
      ['* * * *  * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
      ['60 * * * *', 'end of range (60) above maximum (59): 60'],
      ['0 0 0 * *', 'beginning of range (0) below minimum (1): 0'],
      ['*/0 * * * *', 'step of range should be a positive number: */0'],
      ['a * * * *', 'failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax'],
      ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
      ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ];
    for (const [schedule, detail] of cases) {
      await expectStatus(cronJob('sched', { schedule }), {
        code: 422,
        reason: 'Invalid',
        message: `CronJob.batch "sched" is invalid: spec.schedule: Invalid value: ${JSON.stringify(schedule)}: ${detail}`,
      });
    }
    await expectStatus(cronJob('empty', { schedule: '' }), { code: 422, message: 'CronJob.batch "empty" is invalid: spec.schedule: Required value' });
    for (const schedule of ['0 9 * * MON-FRI', '@hourly', '@every 90m', '15,45 */2 1-15 jan,jul ?']) {
      const ok = await cronJob(`ok-${(schedule.length * 7919) % 1000}`, { schedule });
      expect(ok.spec?.schedule).toBe(schedule);
    }
  });

  it('refuses TZ= in the schedule and unknown time zones', async () => {
    await expectStatus(cronJob('tz', { schedule: 'TZ=UTC 0 * * * *' }), {
      code: 422,
      message: 'CronJob.batch "tz" is invalid: spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    });
    const status = await expectStatus(cronJob('zones', { timeZone: 'Mars/Olympus' }), { code: 422 });
    expect(causes(status)).toEqual(['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus']);
    const odd = await expectStatus(cronJob('zones', { timeZone: '../etc/passwd' }), { code: 422 });
    expect(causes(odd)).toEqual(['spec.timeZone: Invalid value: "../etc/passwd": unknown time zone ../etc/passwd']);
    const local = await expectStatus(cronJob('zones', { timeZone: 'Local' }), { code: 422 });
    expect(causes(local)).toEqual(['spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones']);
    const ok = await cronJob('berlin', { timeZone: 'Europe/Berlin' });
    expect(ok.spec?.timeZone).toBe('Europe/Berlin');
  });

  it('checks the concurrency policy, the counts and the job template', async () => {
    const status = await expectStatus(
      cronJob('spec', {
        concurrencyPolicy: 'Sometimes',
        startingDeadlineSeconds: -1,
        successfulJobsHistoryLimit: -2,
        jobTemplate: { spec: { backoffLimit: -1, manualSelector: true, selector: { matchLabels: { a: 'b' } }, template: podTemplate('Always') } },
      }),
      { code: 422, reason: 'Invalid' },
    );
    expect(causes(status)).toEqual([
      'spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
      'spec.jobTemplate.spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
      'spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
      'spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated',
      'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
      'spec.successfulJobsHistoryLimit: Invalid value: -2: must be greater than or equal to 0',
    ]);
  });

  it('validates updates too, where the name limit no longer applies', async () => {
    const created = await cronJob('to-update', {});
    await expectStatus(batch.replaceNamespacedCronJob({ name: 'to-update', namespace: 'default', body: { ...created, spec: { ...created.spec!, schedule: '* * *' } } }), {
      code: 422,
      message: 'CronJob.batch "to-update" is invalid: spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]',
    });
    const updated = await batch.replaceNamespacedCronJob({ name: 'to-update', namespace: 'default', body: { ...created, spec: { ...created.spec!, schedule: '@daily' } } });
    expect(updated.spec?.schedule).toBe('@daily');
  });
});

describe.skipIf(!kubectlAvailable)('through kubectl', () => {
  it('kubectl create reports a bad CronJob schedule', async () => {
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    const r = await kubectl(['create', 'cronjob', 'kubectl-cj', '--image=busybox', '--schedule=61 * * * *']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('error: failed to create cronjob: CronJob.batch "kubectl-cj" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61');
  });
});
