import { beforeAll, describe, expect, it } from 'vitest';
import { create, typesFor, update } from './test-helpers.ts';

const type = typesFor();

describe('Job', () => {
  const jobs = type('batch', 'jobs');
  const job = () => ({ metadata: { name: 'pi', namespace: 'default', uid: 'abc' }, spec: { template: { spec: { containers: [{ name: 'pi', image: 'perl' }], restartPolicy: 'Never' } } } });

  it('applies SetDefaults_Job and generates the selector from the uid', () => {
    const { obj } = create(jobs, job());
    expect(obj.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
      manualSelector: false,
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'abc' } },
      template: {
        metadata: { labels: { 'batch.kubernetes.io/controller-uid': 'abc', 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': 'abc', 'job-name': 'pi' } },
        spec: { restartPolicy: 'Never', dnsPolicy: 'ClusterFirst' },
      },
    });
    // Read back through defaulting, the Job takes the template labels.
    expect(obj.metadata?.labels).toEqual({ 'batch.kubernetes.io/controller-uid': 'abc', 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': 'abc', 'job-name': 'pi' });
    expect(obj.metadata?.generation).toBe(1);
    expect(obj.status).toEqual({});
  });

  it('shares the template label map when it copied it', () => {
    const withLabels = job();
    (withLabels.spec.template as Record<string, unknown>).metadata = { labels: { app: 'pi' } };
    expect(create(jobs, withLabels).obj.metadata?.labels).toMatchObject({ app: 'pi', 'job-name': 'pi' });
    const ownLabels = { ...withLabels, metadata: { ...withLabels.metadata, labels: { team: 'x' } } };
    expect(create(jobs, ownLabels).obj.metadata?.labels).toEqual({ team: 'x' });
  });

  it('leaves manual selectors alone', () => {
    const manual = job();
    (manual.spec as Record<string, unknown>).manualSelector = true;
    expect((create(jobs, manual).obj.spec as Record<string, unknown>).selector).toBeUndefined();
  });

  it('keeps status on update and selects on status.successful', () => {
    const old = { ...create(jobs, job()).obj, status: { succeeded: 1 } };
    expect(update(jobs, { ...structuredClone(old), status: {} }, old).obj.status).toEqual({ succeeded: 1 });
    expect(jobs.fieldSelectors!['status.successful']!(old)).toBe('1');
    expect(jobs.fieldSelectors!['status.successful']!({})).toBe('0');
    expect(jobs.fieldLabelError!('status.succeeded')).toBe('field label "status.succeeded" not supported for batchv1.Job');
  });
});

describe('CronJob', () => {
  const cronjobs = type('batch', 'cronjobs');
  // The CronJob validation loads on first use: the registry awaits it before a write, so do the helpers' callers.
  beforeAll(() => cronjobs.loadValidation?.());

  it('applies SetDefaults_CronJob and the template pod defaults', () => {
    const { obj } = create(cronjobs, {
      metadata: { name: 'nightly' },
      spec: { schedule: '0 0 * * *', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } } } },
    });
    expect(obj.spec).toMatchObject({
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
      jobTemplate: { spec: { template: { spec: { restartPolicy: 'Always', containers: [{ imagePullPolicy: 'Always' }] } } } },
    });
    // SetDefaults_Job does not apply to the job template.
    expect((obj.spec as { jobTemplate: { spec: Record<string, unknown> } }).jobTemplate.spec.backoffLimit).toBeUndefined();
    expect(obj.metadata?.generation).toBe(1);
  });

  it('limits names to 52 characters on create only', () => {
    const name = 'x'.repeat(53);
    const spec = () => ({ schedule: '@daily', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } } } } });
    expect(create(cronjobs, { metadata: { name }, spec: spec() }).errors).toEqual([`metadata.name: Invalid value: "${name}": must be no more than 52 characters`]);
    expect(update(cronjobs, { metadata: { name }, spec: spec() }, { metadata: { name }, spec: spec() }).errors).toEqual([]);
  });
});
