// Protobuf field tables for k8s.io/api/batch/v1 (generated.proto, types.go) at Kubernetes 1.36
// (k8s.io/api and k8s.io/apimachinery v0.36.3): the messages reachable from the kinds in ./index.ts.
// Row: [proto field number, Go json tag, type]; see ../schema.ts for the notation. Listed in Go
// declaration order, which is the order encoding/json writes keys in.
import type { MessageTable } from '../schema.ts';

export const batchMessages: MessageTable = {
  'batch.CronJob': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'spec,omitempty', 'batch.CronJobSpec'],
    [3, 'status,omitempty', 'batch.CronJobStatus'],
  ],
  'batch.CronJobSpec': [
    [1, 'schedule', 'string'],
    [8, 'timeZone,omitempty', '*string'],
    [2, 'startingDeadlineSeconds,omitempty', '*int64'],
    [3, 'concurrencyPolicy,omitempty', 'string'],
    [4, 'suspend,omitempty', '*bool'],
    [5, 'jobTemplate', 'batch.JobTemplateSpec'],
    [6, 'successfulJobsHistoryLimit,omitempty', '*int32'],
    [7, 'failedJobsHistoryLimit,omitempty', '*int32'],
  ],
  'batch.CronJobStatus': [
    [1, 'active,omitempty', '[]core.ObjectReference'],
    [4, 'lastScheduleTime,omitempty', '*Time'],
    [5, 'lastSuccessfulTime,omitempty', '*Time'],
  ],
  'batch.Job': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'spec,omitempty', 'batch.JobSpec'],
    [3, 'status,omitempty', 'batch.JobStatus'],
  ],
  'batch.JobCondition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [3, 'lastProbeTime,omitempty', 'Time'],
    [4, 'lastTransitionTime,omitempty', 'Time'],
    [5, 'reason,omitempty', 'string'],
    [6, 'message,omitempty', 'string'],
  ],
  'batch.JobSpec': [
    [1, 'parallelism,omitempty', '*int32'],
    [2, 'completions,omitempty', '*int32'],
    [3, 'activeDeadlineSeconds,omitempty', '*int64'],
    [11, 'podFailurePolicy,omitempty', '*batch.PodFailurePolicy'],
    [16, 'successPolicy,omitempty', '*batch.SuccessPolicy'],
    [7, 'backoffLimit,omitempty', '*int32'],
    [12, 'backoffLimitPerIndex,omitempty', '*int32'],
    [13, 'maxFailedIndexes,omitempty', '*int32'],
    [4, 'selector,omitempty', '*meta.LabelSelector'],
    [5, 'manualSelector,omitempty', '*bool'],
    [6, 'template', 'core.PodTemplateSpec'],
    [8, 'ttlSecondsAfterFinished,omitempty', '*int32'],
    [9, 'completionMode,omitempty', '*string'],
    [10, 'suspend,omitempty', '*bool'],
    [14, 'podReplacementPolicy,omitempty', '*string'],
    [15, 'managedBy,omitempty', '*string'],
  ],
  'batch.JobStatus': [
    [1, 'conditions,omitempty', '[]batch.JobCondition'],
    [2, 'startTime,omitempty', '*Time'],
    [3, 'completionTime,omitempty', '*Time'],
    [4, 'active,omitempty', 'int32'],
    [5, 'succeeded,omitempty', 'int32'],
    [6, 'failed,omitempty', 'int32'],
    [11, 'terminating,omitempty', '*int32'],
    [7, 'completedIndexes,omitempty', 'string'],
    [10, 'failedIndexes,omitempty', '*string'],
    [8, 'uncountedTerminatedPods,omitempty', '*batch.UncountedTerminatedPods'],
    [9, 'ready,omitempty', '*int32'],
  ],
  'batch.JobTemplateSpec': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'spec,omitempty', 'batch.JobSpec'],
  ],
  'batch.PodFailurePolicy': [
    [1, 'rules', '[]batch.PodFailurePolicyRule'],
  ],
  'batch.PodFailurePolicyOnExitCodesRequirement': [
    [1, 'containerName,omitempty', '*string'],
    [2, 'operator', 'string'],
    [3, 'values', '[]int32'],
  ],
  'batch.PodFailurePolicyOnPodConditionsPattern': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
  ],
  'batch.PodFailurePolicyRule': [
    [1, 'action', 'string'],
    [2, 'onExitCodes,omitempty', '*batch.PodFailurePolicyOnExitCodesRequirement'],
    [3, 'onPodConditions,omitempty', '[]batch.PodFailurePolicyOnPodConditionsPattern'],
  ],
  'batch.SuccessPolicy': [
    [1, 'rules', '[]batch.SuccessPolicyRule'],
  ],
  'batch.SuccessPolicyRule': [
    [1, 'succeededIndexes,omitempty', '*string'],
    [2, 'succeededCount,omitempty', '*int32'],
  ],
  'batch.UncountedTerminatedPods': [
    [1, 'succeeded,omitempty', '[]string'],
    [2, 'failed,omitempty', '[]string'],
  ],
};
