// jobs/status writes as the v1.36 Job status strategy validates them (pkg/registry/batch/job/
// strategy.go getStatusValidationOptions with JobManagedBy, pkg/apis/batch/validation
// ValidateJobStatusUpdate): the transitions an external controller (spec.managedBy) may make, through
// client-node's replaceNamespacedJobStatus and patchNamespacedJobStatus, with the real 422 texts.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { expectStatus } from './support/status.ts';
import { useValidationCluster } from './support/validation.ts';

const api = useValidationCluster();

const namespace = 'default';
const START = new Date('2026-01-01T10:00:00Z');
const END = new Date('2026-01-01T10:05:00Z');
const condition = (type: string, status = 'True'): k8s.V1JobCondition => ({ type, status, reason: 'ByTest', message: 'set by the test' });

/** A Job an external controller manages (kube-controller-manager leaves it alone). */
async function externalJob(name: string, spec: Partial<k8s.V1JobSpec> = {}): Promise<k8s.V1Job> {
  return api.batch.createNamespacedJob({
    namespace,
    body: {
      metadata: { name },
      spec: { managedBy: 'example.com/batch-controller', template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } }, ...spec },
    },
  });
}

/** replaceNamespacedJobStatus with `status` on the stored Job. */
async function writeStatus(name: string, status: k8s.V1JobStatus): Promise<k8s.V1Job> {
  const job = await api.batch.readNamespacedJob({ name, namespace });
  return api.batch.replaceNamespacedJobStatus({ name, namespace, body: { ...job, status } });
}

const invalid = (name: string, errors: string[]) => ({
  code: 422,
  reason: 'Invalid',
  message: `Job.batch "${name}" is invalid: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`,
});

describe('jobs/status transitions', () => {
  it('an external controller runs and completes its Job: startTime, ready <= active, SuccessCriteriaMet then Complete with completionTime', async () => {
    await externalJob('ok');
    await writeStatus('ok', { startTime: START, active: 1, ready: 1 });
    await writeStatus('ok', { startTime: START, active: 0, ready: 0, succeeded: 1, conditions: [condition('SuccessCriteriaMet')] });
    const done = await writeStatus('ok', {
      startTime: START,
      completionTime: END,
      active: 0,
      ready: 0,
      succeeded: 1,
      conditions: [condition('SuccessCriteriaMet'), condition('Complete')],
    });
    expect(done.status?.conditions?.map((c) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
    expect(done.status?.completionTime).toEqual(END);
  });

  it('refuses Complete without completionTime and SuccessCriteriaMet, and a finished Job with active pods or no startTime', async () => {
    await externalJob('early');
    await expectStatus(
      writeStatus('early', { active: 1, conditions: [condition('Complete')] }),
      invalid('early', [
        'status.completionTime: Required value: completionTime is required for Complete jobs',
        'status.conditions: Invalid value: cannot set Complete=True condition without the SuccessCriteriaMet=true condition',
        'status.active: Invalid value: 1: active>0 is invalid for finished job',
        'status.startTime: Required value: startTime is required for finished job',
      ]),
    );
    await expectStatus(
      writeStatus('early', { startTime: END, completionTime: START, conditions: [condition('SuccessCriteriaMet'), condition('Complete')] }),
      invalid('early', ['status.completionTime: Invalid value: "2026-01-01T10:00:00Z": completionTime cannot be set before startTime']),
    );
    await expectStatus(
      writeStatus('early', { startTime: START, conditions: [condition('Failed')] }),
      invalid('early', ['status.conditions: Invalid value: cannot set Failed=True condition without the FailureTarget=true condition']),
    );
    // Nothing was written.
    expect((await api.batch.readNamespacedJob({ name: 'early', namespace })).status).toEqual({});
  });

  it('keeps terminal conditions, counters and completionTime: a finished Job cannot be reopened', async () => {
    await externalJob('final');
    await writeStatus('final', { startTime: START, active: 1, ready: 1, failed: 2 });
    await expectStatus(writeStatus('final', { startTime: START, active: 1, failed: 1 }), invalid('final', ['status.failed: Invalid value: 1: cannot decrease the failed counter']));
    await writeStatus('final', { startTime: START, completionTime: END, succeeded: 1, failed: 2, conditions: [condition('SuccessCriteriaMet'), condition('Complete')] });
    await expectStatus(
      writeStatus('final', { startTime: START, completionTime: END, succeeded: 1, failed: 2, active: 1, conditions: [condition('SuccessCriteriaMet'), condition('Complete', 'False')] }),
      invalid('final', [
        'status.completionTime: Invalid value: "2026-01-01T10:05:00Z": cannot set completionTime when there is no Complete=True condition',
        'status.conditions: Invalid value: cannot disable the terminal Complete=True condition',
      ]),
    );
    await expectStatus(
      writeStatus('final', { startTime: START, completionTime: START, succeeded: 1, failed: 2, conditions: [condition('SuccessCriteriaMet'), condition('Complete')] }),
      invalid('final', ['status.completionTime: Invalid value: "2026-01-01T10:00:00Z": completionTime cannot be mutated']),
    );
  });

  it('refuses more ready pods than active and an unsuspended Job losing its startTime, through PATCH too', async () => {
    await externalJob('counts');
    await writeStatus('counts', { startTime: START, active: 1, ready: 1 });
    await expectStatus(
      api.batch.patchNamespacedJobStatus({ name: 'counts', namespace, body: { status: { ready: 2 } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch)),
      invalid('counts', ['status.ready: Invalid value: 2: cannot set more ready pods than active']),
    );
    await expectStatus(
      api.batch.patchNamespacedJobStatus({ name: 'counts', namespace, body: { status: { startTime: null } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch)),
      invalid('counts', ['status.startTime: Required value: startTime cannot be removed for unsuspended job']),
    );
    const patched = await api.batch.patchNamespacedJobStatus({ name: 'counts', namespace, body: { status: { active: 2, ready: 2 } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    expect(patched.status).toMatchObject({ active: 2, ready: 2 });
  });

  it('checks completedIndexes and failedIndexes only when they change, against the Indexed spec', async () => {
    await externalJob('indexed', { completionMode: 'Indexed', completions: 4, parallelism: 4, backoffLimitPerIndex: 1 });
    await expectStatus(
      writeStatus('indexed', { startTime: START, completedIndexes: '0,5', failedIndexes: '0' }),
      invalid('indexed', [
        'status.completedIndexes: Invalid value: "0,5": error parsing completedIndexes: too large index: "5"',
        'status.failedIndexes: Invalid value: "0": failedIndexes and completedIndexes overlap at index: 0',
      ]),
    );
    await writeStatus('indexed', { startTime: START, completedIndexes: '0-1', failedIndexes: '3' });
    await externalJob('plain', { completions: 2 });
    await expectStatus(
      writeStatus('plain', { startTime: START, completedIndexes: '0', failedIndexes: '' }),
      invalid('plain', [
        'status.completedIndexes: Invalid value: "0": cannot set non-empty completedIndexes when non-indexed completion mode',
        'status.failedIndexes: Invalid value: "": cannot set non-null failedIndexes when backoffLimitPerIndex is null',
      ]),
    );
  });
});
