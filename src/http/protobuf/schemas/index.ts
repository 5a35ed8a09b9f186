// The kinds whose protobuf request bodies kubefake decodes, and every message they reach.
// The set covers what kubectl's typed clients POST (`kubectl create <generator>`, `create token`)
// and `kubectl certificate approve|deny` PUTs,
// plus metav1.DeleteOptions for client-go callers that delete with a protobuf body.
import { MessageRegistry, type MessageTable } from '../schema.ts';
import { appsMessages } from './apps.ts';
import { authenticationMessages } from './authentication.ts';
import { authorizationMessages } from './authorization.ts';
import { autoscalingMessages } from './autoscaling.ts';
import { batchMessages } from './batch.ts';
import { certificatesMessages } from './certificates.ts';
import { coreMessages } from './core.ts';
import { metaMessages } from './meta.ts';
import { networkingMessages } from './networking.ts';
import { policyMessages } from './policy.ts';
import { rbacMessages } from './rbac.ts';
import { schedulingMessages } from './scheduling.ts';

const ALL_MESSAGES: MessageTable = {
  ...metaMessages,
  ...coreMessages,
  ...appsMessages,
  ...batchMessages,
  ...rbacMessages,
  ...networkingMessages,
  ...policyMessages,
  ...schedulingMessages,
  ...authenticationMessages,
  ...authorizationMessages,
  ...autoscalingMessages,
  ...certificatesMessages,
};

export const messages = new MessageRegistry(ALL_MESSAGES);

/** `apiVersion` + ' ' + `kind` → root message. */
const KIND_MESSAGES: ReadonlyMap<string, string> = new Map([
  ['v1 ConfigMap', 'core.ConfigMap'],
  ['v1 Secret', 'core.Secret'],
  ['v1 Namespace', 'core.Namespace'],
  ['v1 ServiceAccount', 'core.ServiceAccount'],
  ['v1 Service', 'core.Service'],
  ['v1 Pod', 'core.Pod'],
  ['v1 ResourceQuota', 'core.ResourceQuota'],
  ['apps/v1 Deployment', 'apps.Deployment'],
  ['batch/v1 Job', 'batch.Job'],
  ['batch/v1 CronJob', 'batch.CronJob'],
  ['rbac.authorization.k8s.io/v1 Role', 'rbac.Role'],
  ['rbac.authorization.k8s.io/v1 ClusterRole', 'rbac.ClusterRole'],
  ['rbac.authorization.k8s.io/v1 RoleBinding', 'rbac.RoleBinding'],
  ['rbac.authorization.k8s.io/v1 ClusterRoleBinding', 'rbac.ClusterRoleBinding'],
  ['networking.k8s.io/v1 Ingress', 'networking.Ingress'],
  ['policy/v1 PodDisruptionBudget', 'policy.PodDisruptionBudget'],
  ['scheduling.k8s.io/v1 PriorityClass', 'scheduling.PriorityClass'],
  ['authentication.k8s.io/v1 TokenRequest', 'authentication.TokenRequest'],
  ['authentication.k8s.io/v1 TokenReview', 'authentication.TokenReview'],
  ['authentication.k8s.io/v1 SelfSubjectReview', 'authentication.SelfSubjectReview'],
  ['authorization.k8s.io/v1 SubjectAccessReview', 'authorization.SubjectAccessReview'],
  ['authorization.k8s.io/v1 LocalSubjectAccessReview', 'authorization.LocalSubjectAccessReview'],
  ['authorization.k8s.io/v1 SelfSubjectAccessReview', 'authorization.SelfSubjectAccessReview'],
  ['authorization.k8s.io/v1 SelfSubjectRulesReview', 'authorization.SelfSubjectRulesReview'],
  ['autoscaling/v1 Scale', 'autoscaling.Scale'],
  ['certificates.k8s.io/v1 CertificateSigningRequest', 'certificates.CertificateSigningRequest'],
]);

/**
 * Option kinds: metav1.AddToGroupVersion registers them in every group version (and in
 * meta.k8s.io/v1), so any apiVersion goes.
 */
const OPTION_MESSAGES: ReadonlyMap<string, string> = new Map([['DeleteOptions', 'meta.DeleteOptions']]);

/** The root message for a group version and kind, if kubefake can decode it. */
export function messageForKind(apiVersion: string, kind: string): string | undefined {
  return KIND_MESSAGES.get(`${apiVersion} ${kind}`) ?? OPTION_MESSAGES.get(kind);
}

/** Every decodable `apiVersion kind` pair (option kinds as `* Kind`). */
export function decodableKinds(): string[] {
  return [...KIND_MESSAGES.keys(), ...[...OPTION_MESSAGES.keys()].map((k) => `* ${k}`)];
}
