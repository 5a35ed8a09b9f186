// Protobuf field tables for k8s.io/api/policy/v1 (generated.proto, types.go) at Kubernetes 1.36
// (k8s.io/api and k8s.io/apimachinery v0.36.3): the messages reachable from the kinds in ./index.ts.
// Row: [proto field number, Go json tag, type]; see ../schema.ts for the notation. Listed in Go
// declaration order, which is the order encoding/json writes keys in.
import type { MessageTable } from '../schema.ts';

export const policyMessages: MessageTable = {
  'policy.PodDisruptionBudget': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'spec,omitempty', 'policy.PodDisruptionBudgetSpec'],
    [3, 'status,omitempty', 'policy.PodDisruptionBudgetStatus'],
  ],
  'policy.PodDisruptionBudgetSpec': [
    [1, 'minAvailable,omitempty', '*IntOrString'],
    [2, 'selector,omitempty', '*meta.LabelSelector'],
    [3, 'maxUnavailable,omitempty', '*IntOrString'],
    [4, 'unhealthyPodEvictionPolicy,omitempty', '*string'],
  ],
  'policy.PodDisruptionBudgetStatus': [
    [1, 'observedGeneration,omitempty', 'int64'],
    [2, 'disruptedPods,omitempty', 'map[string]Time'],
    [3, 'disruptionsAllowed', 'int32'],
    [4, 'currentHealthy', 'int32'],
    [5, 'desiredHealthy', 'int32'],
    [6, 'expectedPods', 'int32'],
    [7, 'conditions,omitempty', '[]meta.Condition'],
  ],
};
