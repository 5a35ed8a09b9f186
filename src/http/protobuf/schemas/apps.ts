// Protobuf field tables for k8s.io/api/apps/v1 (generated.proto, types.go) at Kubernetes 1.36
// (k8s.io/api and k8s.io/apimachinery v0.36.3): the messages reachable from the kinds in ./index.ts.
// Row: [proto field number, Go json tag, type]; see ../schema.ts for the notation. Listed in Go
// declaration order, which is the order encoding/json writes keys in.
import type { MessageTable } from '../schema.ts';

export const appsMessages: MessageTable = {
  'apps.Deployment': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'spec,omitempty', 'apps.DeploymentSpec'],
    [3, 'status,omitempty', 'apps.DeploymentStatus'],
  ],
  'apps.DeploymentCondition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [6, 'lastUpdateTime,omitempty', 'Time'],
    [7, 'lastTransitionTime,omitempty', 'Time'],
    [4, 'reason,omitempty', 'string'],
    [5, 'message,omitempty', 'string'],
  ],
  'apps.DeploymentSpec': [
    [1, 'replicas,omitempty', '*int32'],
    [2, 'selector', '*meta.LabelSelector'],
    [3, 'template', 'core.PodTemplateSpec'],
    [4, 'strategy,omitempty', 'apps.DeploymentStrategy'],
    [5, 'minReadySeconds,omitempty', 'int32'],
    [6, 'revisionHistoryLimit,omitempty', '*int32'],
    [7, 'paused,omitempty', 'bool'],
    [9, 'progressDeadlineSeconds,omitempty', '*int32'],
  ],
  'apps.DeploymentStatus': [
    [1, 'observedGeneration,omitempty', 'int64'],
    [2, 'replicas,omitempty', 'int32'],
    [3, 'updatedReplicas,omitempty', 'int32'],
    [7, 'readyReplicas,omitempty', 'int32'],
    [4, 'availableReplicas,omitempty', 'int32'],
    [5, 'unavailableReplicas,omitempty', 'int32'],
    [9, 'terminatingReplicas,omitempty', '*int32'],
    [6, 'conditions,omitempty', '[]apps.DeploymentCondition'],
    [8, 'collisionCount,omitempty', '*int32'],
  ],
  'apps.DeploymentStrategy': [
    [1, 'type,omitempty', 'string'],
    [2, 'rollingUpdate,omitempty', '*apps.RollingUpdateDeployment'],
  ],
  'apps.RollingUpdateDeployment': [
    [1, 'maxUnavailable,omitempty', '*IntOrString'],
    [2, 'maxSurge,omitempty', '*IntOrString'],
  ],
};
