// batch/v1: discovery data from the generated catalogue (src/generated), strategies from
// pkg/registry/batch/{job,cronjob}/strategy.go, defaults from pkg/apis/batch/v1/defaults.go and the
// Job field-label conversion from pkg/apis/batch/v1/conversion.go.
import type { ResourceType } from '../resource-type.ts';
import type { KubeObject } from '../object.ts';
import { isPlainObject } from '../object.ts';
import { defaultPodTemplate } from './pod-spec.ts';
import { keepFromStored, validateStatus } from './status-strategies.ts';
import { validateJob, validateJobUpdate } from './workload-validation.ts';
import { validationOnDemand } from './validation-on-demand.ts';
import { validateJobStatusUpdate } from './job-status-validation.ts';
import {
  arrAt,
  builtin,
  child,
  composeStrategy,
  defaulting,
  generation,
  getIn,
  goInt,
  goString,
  meta,
  metadataName,
  metadataNamespace,
  objAt,
  setDefault,
  statusSubresource,
  unset,
} from './shared.ts';

const batch = (def: Parameters<typeof builtin>[2]) => builtin('batch', 'v1', def);
// The CronJob validation (with the schedule parser, go/cron, and its time zones) loads before the
// first CronJob write, not with kubefake.
const cronJobValidation = validationOnDemand('a CronJob', () => import('./batch-validation.ts'));

export function batchV1ResourceTypes(): ResourceType[] {
  return [
    batch({
      kind: 'CronJob',
      plural: 'cronjobs',
      namespaced: true,
      subresources: ['status'],
      allowUnconditionalUpdate: true,
      allowCreateOnUpdate: false,
      returnDeletedObject: false,
      loadValidation: cronJobValidation.load,
      strategy: composeStrategy(defaulting(defaultCronJob), statusSubresource(), generation(), { validate: (o) => cronJobValidation.get().validateCronJobCreate(o), validateUpdate: (o, old) => cronJobValidation.get().validateCronJobUpdate(o, old) }),
      statusStrategy: composeStrategy(defaulting(defaultCronJob), keepFromStored('spec')),
    }),
    batch({
      kind: 'Job',
      plural: 'jobs',
      namespaced: true,
      subresources: ['status'],
      fieldSelectors: {
        'metadata.name': metadataName,
        'metadata.namespace': metadataNamespace,
        'status.successful': (obj) => goInt(getIn(obj, ['status', 'succeeded'])),
      },
      fieldLabelError: (key) => `field label ${JSON.stringify(key)} not supported for batchv1.Job`,
      allowUnconditionalUpdate: true,
      allowCreateOnUpdate: false,
      returnDeletedObject: false,
      strategy: composeStrategy(
        defaulting(defaultJob),
        { prepareForCreate: generateSelectorIfNeeded, renamedForCreate: renameSelectorLabels },
        statusSubresource(),
        generation(),
        // Defaulting runs again when the stored object is read back: the Job then takes the
        // template labels generateSelector added as its own labels.
        defaulting(defaultJob),
        // The job strategy's ValidateUpdate: ValidateJob as on create, then ValidateJobSpecUpdate.
        { validate: validateJob, validateUpdate: validateJobUpdate },
      ),
      // jobStatusStrategy: the spec kept from the stored Job, ValidateJobUpdateStatus with the
      // transition rules JobManagedBy switches on (job-status-validation.ts).
      statusStrategy: composeStrategy(defaulting(defaultJob), keepFromStored('spec'), defaulting(defaultJob), validateStatus(validateJobStatusUpdate)),
    }),
  ];
}

/** SetDefaults_Job. */
export function defaultJob(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  if (unset(spec.completions) && unset(spec.parallelism)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  setDefault(spec, 'parallelism', 1);
  if (unset(spec.backoffLimit)) spec.backoffLimit = unset(spec.backoffLimitPerIndex) ? 6 : 2147483647;
  const templateLabels = objAt(objAt(spec.template, 'metadata'), 'labels');
  // An empty map would serialise as nothing either way; the read-back pass still copies later labels.
  if (templateLabels && Object.keys(templateLabels).length > 0 && Object.keys(obj.metadata?.labels ?? {}).length === 0) {
    meta(obj).labels = { ...(templateLabels as Record<string, string>) };
    labelsSharedWithTemplate.add(obj);
  }
  setDefault(spec, 'completionMode', 'NonIndexed');
  setDefault(spec, 'suspend', false);
  const podFailurePolicy = objAt(spec, 'podFailurePolicy');
  // JobPodReplacementPolicy is GA: the default depends on whether a pod failure policy is set.
  setDefault(spec, 'podReplacementPolicy', podFailurePolicy ? 'Failed' : 'TerminatingOrFailed');
  setDefault(spec, 'manualSelector', false);
  for (const rule of (arrAt(podFailurePolicy, 'rules') ?? []).filter(isPlainObject)) {
    for (const pattern of (arrAt(rule, 'onPodConditions') ?? []).filter(isPlainObject)) setDefault(pattern, 'status', 'True');
  }
  defaultPodTemplate(spec.template);
}

/**
 * Go assigns the template's label map itself (`obj.Labels = labels`), so labels generateSelector
 * adds to the template in the same request show up on the Job too.
 */
const labelsSharedWithTemplate = new WeakSet<KubeObject>();

const JOB_NAME_LABELS = ['job-name', 'batch.kubernetes.io/job-name'];
const CONTROLLER_UID_LABELS = ['controller-uid', 'batch.kubernetes.io/controller-uid'];

/**
 * generateSelectorIfNeeded: unless manualSelector, the pod template gets the job-name and
 * controller-uid labels and the selector matches the controller uid. Needs the uid, which the
 * registry assigns before prepareForCreate as the real one does.
 */
function generateSelectorIfNeeded(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  if (spec.manualSelector === true) return;
  const template = child(spec, 'template');
  const labels = child(child(template, 'metadata'), 'labels');
  const name = goString(obj.metadata?.name);
  const uid = goString(obj.metadata?.uid);
  // Existing values are kept; a conflict is validation's to report.
  const added = JOB_NAME_LABELS.filter((key) => !(key in labels));
  for (const key of added) labels[key] = name;
  if (added.length) jobNameLabelsAdded.set(obj, added);
  for (const key of CONTROLLER_UID_LABELS) if (!(key in labels)) labels[key] = uid;
  if (labelsSharedWithTemplate.has(obj)) meta(obj).labels = { ...(labels as Record<string, string>) };
  const matchLabels = child(child(spec, 'selector'), 'matchLabels');
  if (!('batch.kubernetes.io/controller-uid' in matchLabels)) matchLabels['batch.kubernetes.io/controller-uid'] = uid;
}

/** The job-name label keys generateSelectorIfNeeded added (rather than found) on a Job being created. */
const jobNameLabelsAdded = new WeakMap<KubeObject, string[]>();

/**
 * The Job's name changed after generateSelectorIfNeeded labelled its template with `previous`
 * (a retried generateName, a mutating plugin's name): the labels it added take the new name, as
 * the real PrepareForCreate, run after naming, would have written them. A label a plugin changed
 * meanwhile is left as the plugin set it.
 */
function renameSelectorLabels(obj: KubeObject, previous: string): void {
  const added = jobNameLabelsAdded.get(obj);
  if (!added) return;
  const name = goString(obj.metadata?.name);
  const templateLabels = objAt(objAt(objAt(objAt(obj, 'spec'), 'template'), 'metadata'), 'labels');
  const shared = labelsSharedWithTemplate.has(obj) ? objAt(obj.metadata, 'labels') : undefined;
  for (const labels of [templateLabels, shared]) {
    if (!labels) continue;
    for (const key of added) if (labels[key] === previous) labels[key] = name;
  }
}

/** SetDefaults_CronJob; the job template's pod spec gets the PodSpec defaults. */
export function defaultCronJob(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  setDefault(spec, 'concurrencyPolicy', 'Allow');
  setDefault(spec, 'suspend', false);
  setDefault(spec, 'successfulJobsHistoryLimit', 3);
  setDefault(spec, 'failedJobsHistoryLimit', 1);
  defaultPodTemplate(objAt(objAt(spec, 'jobTemplate'), 'spec')?.template);
}
