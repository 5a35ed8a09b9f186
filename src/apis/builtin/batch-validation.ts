// ValidateCronJobCreate / ValidateCronJobUpdate (pkg/apis/batch/validation/validation.go, v1.36):
// the schedule as robfig/cron's ParseStandard reads it (no TZ= prefix unless the stored object
// already had one), the time zone, the concurrency policy, the job template (a Job spec without a
// selector) and the non-negative counts; on create only, the name's 52-character limit.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { cronParseStandardError } from '../../go/cron.ts';
import { loadLocationError } from '../../go/time-zone.ts';
import { validateNonnegativeField } from '../../validation/meta-fields.ts';
import { byteLength } from '../../validation/names.ts';
import { isPlainObject, type KubeObject } from '../object.ts';
import { validateJobTemplateSpec } from './workload-validation.ts';

type Json = Record<string, unknown>;
const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace'];
// IANA naming rules for one name part (0-9 and + tolerated for legacy names).
const VALID_TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

const specOf = (o: KubeObject): Json => (isPlainObject(o.spec) ? o.spec : {});

export function validateCronJobCreate(cronJob: KubeObject): FieldError[] {
  const errs = validateCronJobSpec(specOf(cronJob), undefined);
  const name = typeof cronJob.metadata?.name === 'string' ? cronJob.metadata.name : '';
  // The controller appends an 11-character suffix to make Job names, which must stay within 63.
  if (byteLength(name) > 52) errs.push(fieldError.invalid('metadata.name', name, 'must be no more than 52 characters'));
  return errs;
}

/** The name limit is skipped on update so that older, longer-named CronJobs stay editable. */
export function validateCronJobUpdate(cronJob: KubeObject, old: KubeObject): FieldError[] {
  return validateCronJobSpec(specOf(cronJob), specOf(old));
}

function validateCronJobSpec(spec: Json, oldSpec: Json | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const schedule = typeof spec.schedule === 'string' ? spec.schedule : '';
  const timeZone = typeof spec.timeZone === 'string' ? spec.timeZone : undefined;
  if (schedule === '') errs.push(fieldError.required('spec.schedule'));
  else errs.push(...validateScheduleFormat(schedule, typeof oldSpec?.schedule === 'string' && oldSpec.schedule.includes('TZ'), timeZone));
  if (typeof spec.startingDeadlineSeconds === 'number') errs.push(...validateNonnegativeField(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  if (oldSpec === undefined || oldSpec.timeZone !== spec.timeZone) errs.push(...validateTimeZone(timeZone));
  const policy = typeof spec.concurrencyPolicy === 'string' ? spec.concurrencyPolicy : '';
  if (policy === '') errs.push(fieldError.required('spec.concurrencyPolicy'));
  else if (!CONCURRENCY_POLICIES.includes(policy)) errs.push(fieldError.notSupported('spec.concurrencyPolicy', policy, CONCURRENCY_POLICIES));
  errs.push(...validateJobTemplateSpec(spec.jobTemplate, 'spec.jobTemplate'));
  for (const key of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit'] as const) {
    if (typeof spec[key] === 'number') errs.push(...validateNonnegativeField(spec[key], `spec.${key}`));
  }
  return errs;
}

function validateScheduleFormat(schedule: string, allowTZInSchedule: boolean, timeZone: string | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const parseError = cronParseStandardError(schedule);
  if (parseError !== undefined) errs.push(fieldError.invalid('spec.schedule', schedule, parseError));
  if (allowTZInSchedule && schedule.includes('TZ') && timeZone !== undefined) {
    errs.push(fieldError.invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  } else if (!allowTZInSchedule && schedule.includes('TZ')) {
    errs.push(fieldError.invalid('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  return errs;
}

function validateTimeZone(timeZone: string | undefined): FieldError[] {
  if (timeZone === undefined) return [];
  const path = 'spec.timeZone';
  if (timeZone === '') return [fieldError.invalid(path, timeZone, 'timeZone must be nil or non-empty string')];
  if (timeZone.split('/').some((part) => part === '.' || part === '..' || part.startsWith('-') || !VALID_TIME_ZONE_PART.test(part))) {
    return [fieldError.invalid(path, timeZone, `unknown time zone ${timeZone}`)];
  }
  const errs: FieldError[] = [];
  if (timeZone.toLowerCase() === 'local') errs.push(fieldError.invalid(path, timeZone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  const loadError = loadLocationError(timeZone);
  if (loadError !== undefined) errs.push(fieldError.invalid(path, timeZone, loadError));
  return errs;
}
