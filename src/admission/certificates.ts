// The CertificateSigningRequest admission plugins kube-apiserver v1.36 runs by default
// (plugin/pkg/admission/certificates), all validating:
// - CertificateApproval (approval/admission.go): an update of `certificatesigningrequests/approval`
//   needs the `approve` verb on the synthetic `signers` resource named by the stored request's
//   signerName (or its `<domain>/*` wildcard);
// - CertificateSigning (signing/admission.go): an update of `/status` that changes the certificate
//   or the conditions needs `sign` on that signer;
// - CertificateSubjectRestriction (subjectrestriction/admission.go): a request for the
//   kubernetes.io/kube-apiserver-client signer may not ask for the system:masters group.
// The authorization checks ask the cluster's authorizer (auth: true); without one every check is
// allowed, as kubefake's one requester is a cluster administrator.
import { REQUESTER } from '../apis/builtin/authentication-v1.ts';
import type { KubeObject } from '../apis/object.ts';
import { isPlainObject } from '../apis/object.ts';
import { decodeGoBase64 } from '../go/base64.ts';
import { certificateRequestOrganizations } from '../go/x509-csr.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../registry/admission.ts';
import { deepEqual } from '../util/deep-equal.ts';
import { admissionForbidden, isResource } from './forbidden.ts';
import type { AdmissionServices } from './services.ts';

const GROUP = 'certificates.k8s.io';
const CSRS = 'certificatesigningrequests';
/** certificatesv1.KubeAPIServerClientSignerName. */
const KUBE_APISERVER_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client';

const specOf = (o: KubeObject | undefined): Record<string, unknown> => (o && isPlainObject(o.spec) ? o.spec : {});
const statusOf = (o: KubeObject | undefined): Record<string, unknown> => (o && isPlainObject(o.status) ? o.status : {});
const signerNameOf = (o: KubeObject | undefined): string => {
  const name = specOf(o).signerName;
  return typeof name === 'string' ? name : '';
};

/**
 * certificates.IsAuthorizedForSignerName: `verb` on signers/<signerName>, else on
 * signers/<domain>/* (every signer of the domain).
 */
function isAuthorizedForSignerName(services: AdmissionServices, a: AdmissionAttributes, verb: string, signerName: string): boolean {
  const access = services.access;
  if (!access) return true;
  const user = a.userInfo ?? { username: REQUESTER.username, groups: [...REQUESTER.groups] };
  const ask = (name: string) =>
    access.authorize({ user, verb, isResourceRequest: true, path: '', apiGroup: GROUP, apiVersion: '*', resource: 'signers', subresource: '', namespace: '', name }).allowed;
  return ask(signerName) || ask(`${signerName.split('/')[0]}/*`);
}

/** CertificateApproval. */
export function certificateApproval(services: AdmissionServices): AdmissionPlugin {
  return {
    name: 'CertificateApproval',
    handles: (op) => op === 'UPDATE',
    validate(a) {
      if (a.subresource !== 'approval' || !isResource(a, GROUP, CSRS)) return;
      // The stored request's signer: an approval may not change it (the strategy keeps the spec).
      const signerName = signerNameOf(a.oldObject);
      if (!isAuthorizedForSignerName(services, a, 'approve', signerName)) {
        throw admissionForbidden(a, `user not permitted to approve requests with signerName ${JSON.stringify(signerName)}`);
      }
    },
  };
}

/** CertificateSigning. */
export function certificateSigning(services: AdmissionServices): AdmissionPlugin {
  return {
    name: 'CertificateSigning',
    handles: (op) => op === 'UPDATE',
    validate(a) {
      if (a.subresource !== 'status' || !isResource(a, GROUP, CSRS)) return;
      const [next, old] = [statusOf(a.object), statusOf(a.oldObject)];
      // Only a change of status.certificate or status.conditions is signing.
      if (deepEqual(next.certificate ?? null, old.certificate ?? null) && deepEqual(next.conditions ?? [], old.conditions ?? [])) return;
      const signerName = signerNameOf(a.oldObject);
      if (!isAuthorizedForSignerName(services, a, 'sign', signerName)) {
        throw admissionForbidden(a, `user not permitted to sign requests with signerName ${JSON.stringify(signerName)}`);
      }
    },
  };
}

/** CertificateSubjectRestriction. */
export function certificateSubjectRestriction(): AdmissionPlugin {
  return {
    name: 'CertificateSubjectRestriction',
    handles: (op) => op === 'CREATE',
    validate(a) {
      if (a.subresource !== '' || !isResource(a, GROUP, CSRS)) return;
      if (signerNameOf(a.object) !== KUBE_APISERVER_CLIENT_SIGNER) return;
      const request = specOf(a.object).request;
      const decoded = decodeGoBase64(typeof request === 'string' ? request : '');
      const parsed = certificateRequestOrganizations(decoded.ok ? Buffer.from(decoded.bytes).toString('latin1') : '');
      if ('error' in parsed) throw admissionForbidden(a, `failed to parse CSR: ${parsed.error}`);
      if (parsed.organizations.includes('system:masters')) {
        throw admissionForbidden(a, `use of ${KUBE_APISERVER_CLIENT_SIGNER} signer with system:masters group is not allowed`);
      }
    },
  };
}
