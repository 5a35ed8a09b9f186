// Protobuf field tables for k8s.io/apimachinery/pkg/apis/meta/v1 (generated.proto, types.go) at Kubernetes 1.36
// (k8s.io/api and k8s.io/apimachinery v0.36.3): the messages reachable from the kinds in ./index.ts.
// Row: [proto field number, Go json tag, type]; see ../schema.ts for the notation. Listed in Go
// declaration order, which is the order encoding/json writes keys in.
import type { MessageTable } from '../schema.ts';

export const metaMessages: MessageTable = {
  'meta.Condition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [3, 'observedGeneration,omitempty', 'int64'],
    [4, 'lastTransitionTime', 'Time'],
    [5, 'reason', 'string'],
    [6, 'message', 'string'],
  ],
  'meta.DeleteOptions': [
    [1, 'gracePeriodSeconds,omitempty', '*int64'],
    [2, 'preconditions,omitempty', '*meta.Preconditions'],
    [3, 'orphanDependents,omitempty', '*bool'],
    [4, 'propagationPolicy,omitempty', '*string'],
    [5, 'dryRun,omitempty', '[]string'],
    [6, 'ignoreStoreReadErrorWithClusterBreakingPotential,omitempty', '*bool'],
  ],
  'meta.LabelSelector': [
    [1, 'matchLabels,omitempty', 'map[string]string'],
    [2, 'matchExpressions,omitempty', '[]meta.LabelSelectorRequirement'],
  ],
  'meta.LabelSelectorRequirement': [
    [1, 'key', 'string'],
    [2, 'operator', 'string'],
    [3, 'values,omitempty', '[]string'],
  ],
  'meta.ManagedFieldsEntry': [
    [1, 'manager,omitempty', 'string'],
    [2, 'operation,omitempty', 'string'],
    [3, 'apiVersion,omitempty', 'string'],
    [4, 'time,omitempty', '*Time'],
    [6, 'fieldsType,omitempty', 'string'],
    [7, 'fieldsV1,omitempty', '*FieldsV1'],
    [8, 'subresource,omitempty', 'string'],
  ],
  'meta.ObjectMeta': [
    [1, 'name,omitempty', 'string'],
    [2, 'generateName,omitempty', 'string'],
    [3, 'namespace,omitempty', 'string'],
    [4, 'selfLink,omitempty', 'string'],
    [5, 'uid,omitempty', 'string'],
    [6, 'resourceVersion,omitempty', 'string'],
    [7, 'generation,omitempty', 'int64'],
    [8, 'creationTimestamp,omitempty,omitzero', 'Time'],
    [9, 'deletionTimestamp,omitempty', '*Time'],
    [10, 'deletionGracePeriodSeconds,omitempty', '*int64'],
    [11, 'labels,omitempty', 'map[string]string'],
    [12, 'annotations,omitempty', 'map[string]string'],
    [13, 'ownerReferences,omitempty', '[]meta.OwnerReference'],
    [14, 'finalizers,omitempty', '[]string'],
    [17, 'managedFields,omitempty', '[]meta.ManagedFieldsEntry'],
  ],
  'meta.OwnerReference': [
    [5, 'apiVersion', 'string'],
    [1, 'kind', 'string'],
    [3, 'name', 'string'],
    [4, 'uid', 'string'],
    [6, 'controller,omitempty', '*bool'],
    [7, 'blockOwnerDeletion,omitempty', '*bool'],
  ],
  'meta.Preconditions': [
    [1, 'uid,omitempty', '*string'],
    [2, 'resourceVersion,omitempty', '*string'],
  ],
};
