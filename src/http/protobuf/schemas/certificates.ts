// Protobuf field tables for k8s.io/api/certificates/v1 (generated.proto, types.go) at Kubernetes 1.36
// (k8s.io/api and k8s.io/apimachinery v0.36.3): the messages reachable from the kinds in ./index.ts.
// Row: [proto field number, Go json tag, type]; see ../schema.ts for the notation. Listed in Go
// declaration order, which is the order encoding/json writes keys in.
import type { MessageTable } from '../schema.ts';

export const certificatesMessages: MessageTable = {
  'certificates.CertificateSigningRequest': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'spec', 'certificates.CertificateSigningRequestSpec'],
    [3, 'status,omitempty', 'certificates.CertificateSigningRequestStatus'],
  ],
  // Without `extra` (map<string, ExtraValue>, a []string in Go; field 6 is skipped): the server
  // fills it from the requesting user, and the approval and status writes kubectl sends in
  // protobuf keep the stored spec.
  'certificates.CertificateSigningRequestSpec': [
    [1, 'request', 'bytes'],
    [7, 'signerName', 'string'],
    [8, 'expirationSeconds,omitempty', '*int32'],
    [5, 'usages,omitempty', '[]string'],
    [2, 'username,omitempty', 'string'],
    [3, 'uid,omitempty', 'string'],
    [4, 'groups,omitempty', '[]string'],
  ],
  'certificates.CertificateSigningRequestStatus': [
    [1, 'conditions,omitempty', '[]certificates.CertificateSigningRequestCondition'],
    [2, 'certificate,omitempty', 'bytes'],
  ],
  'certificates.CertificateSigningRequestCondition': [
    [1, 'type', 'string'],
    [6, 'status', 'string'],
    [2, 'reason,omitempty', 'string'],
    [3, 'message,omitempty', 'string'],
    [4, 'lastUpdateTime,omitempty', 'Time'],
    [5, 'lastTransitionTime,omitempty', 'Time'],
  ],
};
