// Protobuf field tables for k8s.io/api/authorization/v1 (generated.proto, types.go) at Kubernetes 1.36
// (k8s.io/api v0.36.0): the access reviews kubectl's typed clients POST (`auth can-i`, `auth can-i --list`).
// Row: [proto field number, Go json tag, type]; see ../schema.ts for the notation. Listed in Go
// declaration order, which is the order encoding/json writes keys in. Not listed: the `extra`
// maps (map<string, ExtraValue>, a []string in Go), which kubectl never sends.
import type { MessageTable } from '../schema.ts';

const status: MessageTable[string] = [
  [1, 'allowed', 'bool'],
  [4, 'denied,omitempty', 'bool'],
  [2, 'reason,omitempty', 'string'],
  [3, 'evaluationError,omitempty', 'string'],
];

export const authorizationMessages: MessageTable = {
  'authorization.FieldSelectorAttributes': [[1, 'rawSelector,omitempty', 'string']],
  'authorization.LabelSelectorAttributes': [
    [1, 'rawSelector,omitempty', 'string'],
    [2, 'requirements,omitempty', '[]meta.LabelSelectorRequirement'],
  ],
  'authorization.ResourceAttributes': [
    [1, 'namespace,omitempty', 'string'],
    [2, 'verb,omitempty', 'string'],
    [3, 'group,omitempty', 'string'],
    [4, 'version,omitempty', 'string'],
    [5, 'resource,omitempty', 'string'],
    [6, 'subresource,omitempty', 'string'],
    [7, 'name,omitempty', 'string'],
    [8, 'fieldSelector,omitempty', '*authorization.FieldSelectorAttributes'],
    [9, 'labelSelector,omitempty', '*authorization.LabelSelectorAttributes'],
  ],
  'authorization.NonResourceAttributes': [
    [1, 'path,omitempty', 'string'],
    [2, 'verb,omitempty', 'string'],
  ],
  'authorization.SubjectAccessReviewSpec': [
    [1, 'resourceAttributes,omitempty', '*authorization.ResourceAttributes'],
    [2, 'nonResourceAttributes,omitempty', '*authorization.NonResourceAttributes'],
    [3, 'user,omitempty', 'string'],
    [4, 'groups,omitempty', '[]string'],
    [6, 'uid,omitempty', 'string'],
  ],
  'authorization.SelfSubjectAccessReviewSpec': [
    [1, 'resourceAttributes,omitempty', '*authorization.ResourceAttributes'],
    [2, 'nonResourceAttributes,omitempty', '*authorization.NonResourceAttributes'],
  ],
  'authorization.SubjectAccessReviewStatus': status,
  'authorization.SubjectAccessReview': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'spec', 'authorization.SubjectAccessReviewSpec'],
    [3, 'status,omitempty', 'authorization.SubjectAccessReviewStatus'],
  ],
  'authorization.LocalSubjectAccessReview': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'spec', 'authorization.SubjectAccessReviewSpec'],
    [3, 'status,omitempty', 'authorization.SubjectAccessReviewStatus'],
  ],
  'authorization.SelfSubjectAccessReview': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'spec', 'authorization.SelfSubjectAccessReviewSpec'],
    [3, 'status,omitempty', 'authorization.SubjectAccessReviewStatus'],
  ],
  'authorization.SelfSubjectRulesReviewSpec': [[1, 'namespace,omitempty', 'string']],
  'authorization.ResourceRule': [
    [1, 'verbs', '[]string'],
    [2, 'apiGroups,omitempty', '[]string'],
    [3, 'resources,omitempty', '[]string'],
    [4, 'resourceNames,omitempty', '[]string'],
  ],
  'authorization.NonResourceRule': [
    [1, 'verbs', '[]string'],
    [2, 'nonResourceURLs,omitempty', '[]string'],
  ],
  'authorization.SubjectRulesReviewStatus': [
    [1, 'resourceRules', '[]authorization.ResourceRule'],
    [2, 'nonResourceRules', '[]authorization.NonResourceRule'],
    [3, 'incomplete', 'bool'],
    [4, 'evaluationError,omitempty', 'string'],
  ],
  'authorization.SelfSubjectRulesReview': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'spec', 'authorization.SelfSubjectRulesReviewSpec'],
    [3, 'status,omitempty', 'authorization.SubjectRulesReviewStatus'],
  ],
};
