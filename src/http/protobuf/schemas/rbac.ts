// Protobuf field tables for k8s.io/api/rbac/v1 (generated.proto, types.go) at Kubernetes 1.36
// (k8s.io/api and k8s.io/apimachinery v0.36.3): the messages reachable from the kinds in ./index.ts.
// Row: [proto field number, Go json tag, type]; see ../schema.ts for the notation. Listed in Go
// declaration order, which is the order encoding/json writes keys in.
import type { MessageTable } from '../schema.ts';

export const rbacMessages: MessageTable = {
  'rbac.AggregationRule': [
    [1, 'clusterRoleSelectors,omitempty', '[]meta.LabelSelector'],
  ],
  'rbac.ClusterRole': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'rules', '[]rbac.PolicyRule'],
    [3, 'aggregationRule,omitempty', '*rbac.AggregationRule'],
  ],
  'rbac.ClusterRoleBinding': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'subjects,omitempty', '[]rbac.Subject'],
    [3, 'roleRef', 'rbac.RoleRef'],
  ],
  'rbac.PolicyRule': [
    [1, 'verbs', '[]string'],
    [2, 'apiGroups,omitempty', '[]string'],
    [3, 'resources,omitempty', '[]string'],
    [4, 'resourceNames,omitempty', '[]string'],
    [5, 'nonResourceURLs,omitempty', '[]string'],
  ],
  'rbac.Role': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'rules', '[]rbac.PolicyRule'],
  ],
  'rbac.RoleBinding': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'subjects,omitempty', '[]rbac.Subject'],
    [3, 'roleRef', 'rbac.RoleRef'],
  ],
  'rbac.RoleRef': [
    [1, 'apiGroup', 'string'],
    [2, 'kind', 'string'],
    [3, 'name', 'string'],
  ],
  'rbac.Subject': [
    [1, 'kind', 'string'],
    [2, 'apiGroup,omitempty', 'string'],
    [3, 'name', 'string'],
    [4, 'namespace,omitempty', 'string'],
  ],
};
