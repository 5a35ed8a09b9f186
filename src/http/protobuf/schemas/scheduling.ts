// Protobuf field tables for k8s.io/api/scheduling/v1 (generated.proto, types.go) at Kubernetes 1.36
// (k8s.io/api and k8s.io/apimachinery v0.36.3): the messages reachable from the kinds in ./index.ts.
// Row: [proto field number, Go json tag, type]; see ../schema.ts for the notation. Listed in Go
// declaration order, which is the order encoding/json writes keys in.
import type { MessageTable } from '../schema.ts';

export const schedulingMessages: MessageTable = {
  'scheduling.PriorityClass': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'value', 'int32'],
    [3, 'globalDefault,omitempty', 'bool'],
    [4, 'description,omitempty', 'string'],
    [5, 'preemptionPolicy,omitempty', '*string'],
  ],
};
