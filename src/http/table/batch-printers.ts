// printJob and printCronJob (kubernetes pkg/printers/internalversion/printers.go) over batch/v1
// objects, with the wide columns the apiserver always includes.
import type { KubeObject } from '../../apis/object.ts';
import type { BuiltinPrinter } from './printer-parts.ts';
import { formatLabelSelector } from '../../selectors/format-label-selector.ts';
import { arr, containerCells, num, obj, str } from './format.ts';
import { humanDuration, parseRfc3339 } from './human-duration.ts';
import { AGE, ageOf, CONTAINERS, IMAGES, NAME, nameOf, row, since } from './printer-parts.ts';
import { column } from './table-types.ts';

const JOB_SPEC_SELECTOR_DOC =
  'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors';
const JOB_STATUS_SUCCEEDED_DOC =
  'The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.';
const CRON_JOB_DOC = {
  schedule: 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.',
  timeZone:
    'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones',
  suspend: 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.',
  active: 'A list of pointers to currently running jobs.',
  lastScheduleTime: 'Information when was the last time the job was successfully scheduled.',
};

const SELECTOR = column('Selector', 'string', JOB_SPEC_SELECTOR_DOC, { priority: 1 });

/** metav1.FormatLabelSelector: `<none>` for an empty selector, `<error>` for an unconvertible one. */
export function formatSelectorOrNone(selector: unknown): string {
  const text = formatLabelSelector(selector);
  if (text === '<invalid>') return '<error>';
  return text || '<none>';
}

/** hasJobCondition: the first condition of the type decides. */
function hasJobCondition(job: KubeObject, type: string): boolean {
  const condition = arr(obj(job.status).conditions).map(obj).find((c) => c.type === type);
  return condition?.status === 'True';
}

function jobStatus(job: KubeObject): string {
  if (hasJobCondition(job, 'Complete')) return 'Complete';
  if (hasJobCondition(job, 'Failed')) return 'Failed';
  if (job.metadata?.deletionTimestamp) return 'Terminating';
  if (hasJobCondition(job, 'Suspended')) return 'Suspended';
  if (hasJobCondition(job, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

function jobCompletions(job: KubeObject): string {
  const spec = obj(job.spec);
  const succeeded = num(obj(job.status).succeeded);
  if (typeof spec.completions === 'number') return `${succeeded}/${spec.completions}`;
  const parallelism = num(spec.parallelism);
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(job: KubeObject, now: Date): string {
  const status = obj(job.status);
  const start = parseRfc3339(status.startTime);
  if (start === undefined) return '';
  const end = parseRfc3339(status.completionTime);
  return humanDuration((end ?? now.getTime()) - start);
}

export const jobs: BuiltinPrinter = {
  columns: [
    NAME,
    column('Status', 'string', 'Status of the job.'),
    column('Completions', 'string', JOB_STATUS_SUCCEEDED_DOC),
    column('Duration', 'string', 'Time required to complete the job.'),
    AGE,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  print(o, now) {
    const spec = obj(o.spec);
    const [names, images] = containerCells(obj(obj(spec.template).spec));
    return row(nameOf(o), jobStatus(o), jobCompletions(o), jobDuration(o, now), ageOf(o, now), names, images, formatSelectorOrNone(spec.selector));
  },
};

/** printBoolPtr: True/False, `<unset>` for a nil pointer. */
const boolPtr = (v: unknown): string => (v === true ? 'True' : v === false ? 'False' : '<unset>');

export const cronJobs: BuiltinPrinter = {
  columns: [
    NAME,
    column('Schedule', 'string', CRON_JOB_DOC.schedule),
    column('Timezone', 'string', CRON_JOB_DOC.timeZone),
    column('Suspend', 'boolean', CRON_JOB_DOC.suspend),
    column('Active', 'integer', CRON_JOB_DOC.active),
    column('Last Schedule', 'string', CRON_JOB_DOC.lastScheduleTime),
    AGE,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  print(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    const jobSpec = obj(obj(spec.jobTemplate).spec);
    const [names, images] = containerCells(obj(obj(jobSpec.template).spec));
    const last = status.lastScheduleTime === undefined || status.lastScheduleTime === null ? '<none>' : since(status.lastScheduleTime, now);
    const timeZone = typeof spec.timeZone === 'string' ? spec.timeZone : '<none>';
    return row(nameOf(o), str(spec.schedule), timeZone, boolPtr(spec.suspend), arr(status.active).length, last, ageOf(o, now), names, images, formatSelectorOrNone(jobSpec.selector));
  },
};
