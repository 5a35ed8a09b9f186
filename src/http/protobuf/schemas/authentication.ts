// Protobuf field tables for k8s.io/api/authentication/v1 (generated.proto, types.go) at Kubernetes 1.36
// (k8s.io/api and k8s.io/apimachinery v0.36.3): the messages reachable from the kinds in ./index.ts.
// Row: [proto field number, Go json tag, type]; see ../schema.ts for the notation. Listed in Go
// declaration order, which is the order encoding/json writes keys in.
import type { MessageTable } from '../schema.ts';

export const authenticationMessages: MessageTable = {
  // UserInfo without `extra` (map<string, ExtraValue>, a []string in Go), which clients never send.
  'authentication.UserInfo': [
    [1, 'username,omitempty', 'string'],
    [2, 'uid,omitempty', 'string'],
    [3, 'groups,omitempty', '[]string'],
  ],
  'authentication.SelfSubjectReviewStatus': [[1, 'userInfo,omitempty', 'authentication.UserInfo']],
  'authentication.SelfSubjectReview': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'status,omitempty', 'authentication.SelfSubjectReviewStatus'],
  ],
  'authentication.TokenReviewSpec': [
    [1, 'token,omitempty', 'string'],
    [2, 'audiences,omitempty', '[]string'],
  ],
  'authentication.TokenReviewStatus': [
    [1, 'authenticated,omitempty', 'bool'],
    [2, 'user,omitempty', 'authentication.UserInfo'],
    [4, 'audiences,omitempty', '[]string'],
    [3, 'error,omitempty', 'string'],
  ],
  'authentication.TokenReview': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'spec', 'authentication.TokenReviewSpec'],
    [3, 'status,omitempty', 'authentication.TokenReviewStatus'],
  ],
  'authentication.BoundObjectReference': [
    [1, 'kind,omitempty', 'string'],
    [2, 'apiVersion,omitempty', 'string'],
    [3, 'name,omitempty', 'string'],
    [4, 'uid,omitempty', 'string'],
  ],
  'authentication.TokenRequest': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'spec', 'authentication.TokenRequestSpec'],
    [3, 'status,omitempty', 'authentication.TokenRequestStatus'],
  ],
  'authentication.TokenRequestSpec': [
    [1, 'audiences', '[]string'],
    [4, 'expirationSeconds', '*int64'],
    [3, 'boundObjectRef', '*authentication.BoundObjectReference'],
  ],
  'authentication.TokenRequestStatus': [
    [1, 'token', 'string'],
    [2, 'expirationTimestamp', 'Time'],
  ],
};
