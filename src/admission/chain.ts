// The admission chain a default kube-apiserver v1.36 runs, in its order
// (pkg/kubeapiserver/options/plugins.go, AllOrderedPlugins; the default-on set is
// DefaultOffAdmissionPlugins' complement). Every mutating plugin runs before every validating
// one (admission.chainAdmissionHandler), so the order matters within each phase:
//
//   NamespaceLifecycle · LimitRanger · ServiceAccount · TaintNodesByCondition · PodSecurity ·
//   Priority · DefaultTolerationSeconds · DefaultStorageClass · StorageObjectInUseProtection ·
//   PodGroupProtection · PersistentVolumeClaimResize · RuntimeClass · CertificateApproval ·
//   CertificateSigning · ClusterTrustBundleAttest · CertificateSubjectRestriction ·
//   DefaultIngressClass · PodTopologyLabels · PodGroupWorkloadExists ·
//   NodeDeclaredFeatureValidator · JobValidation · PodResizeValidator · MutatingAdmissionPolicy ·
//   MutatingAdmissionWebhook · ValidatingAdmissionPolicy · ValidatingAdmissionWebhook ·
//   ResourceQuota
//
// NamespaceLifecycle's create check runs in the registry itself (registry/namespace-admission.ts).
// A plugin kubefake implements is listed below at its place in that order. Left out, as they act
// on nothing a default v1.36 server serves: PodGroupProtection, PodGroupWorkloadExists and
// JobValidation (scheduling.k8s.io PodGroups/Workloads, alpha or beta APIs off by default, or
// gated off) and ClusterTrustBundleAttest (ClusterTrustBundle is served at v1beta1 only, off by
// default). Not yet: NodeDeclaredFeatureValidator (pod updates checked against the node's
// status.declaredFeatures, with component-helpers' feature inference).
import { admissionChain, type AdmissionChain, type AdmissionPlugin } from '../registry/admission.ts';
import { podSecurityPlugin, podSecurityReads } from './pod-security/plugin.ts';
import type { AdmissionServices } from './services.ts';
import { mutatingAdmissionPolicyPlugin } from './policy/mutating-admission-policy.ts';
import { validatingAdmissionPolicyPlugin } from './policy/validating-admission-policy.ts';
import { limitRanger } from './limit-ranger.ts';
import { taintNodesByCondition } from './taint-nodes-by-condition.ts';
import { priority } from './priority.ts';
import { defaultTolerationSeconds } from './default-toleration-seconds.ts';
import { defaultStorageClassPlugin } from './default-storage-class.ts';
import { runtimeClass } from './runtime-class.ts';
import { storageObjectInUseProtection } from './storage-object-in-use-protection.ts';
import { persistentVolumeClaimResize } from './pvc-resize.ts';
import { certificateApproval, certificateSigning, certificateSubjectRestriction } from './certificates.ts';
import { defaultIngressClass } from './default-ingress-class.ts';
import { podTopologyLabels } from './pod-topology-labels.ts';
import { podResizeValidator } from './pod-resize-validator.ts';
import { resourceQuota } from './resource-quota.ts';
import { serviceAccountPlugin } from './service-account.ts';
import { mutatingAdmissionWebhook } from './webhooks/mutating.ts';
import { validatingAdmissionWebhook } from './webhooks/validating.ts';

/** The default plugins, in the real chain's order. */
export function defaultAdmissionPlugins(services: AdmissionServices): AdmissionPlugin[] {
  return [
    limitRanger(services), // LimitRanger
    serviceAccountPlugin(services), // ServiceAccount
    taintNodesByCondition(), // TaintNodesByCondition
    podSecurityPlugin(podSecurityReads(services)), // PodSecurity
    priority(services), // Priority
    defaultTolerationSeconds(), // DefaultTolerationSeconds
    defaultStorageClassPlugin(services), // DefaultStorageClass
    storageObjectInUseProtection(), // StorageObjectInUseProtection
    persistentVolumeClaimResize(services), // PersistentVolumeClaimResize
    runtimeClass(services), // RuntimeClass
    certificateApproval(services), // CertificateApproval
    certificateSigning(services), // CertificateSigning
    certificateSubjectRestriction(), // CertificateSubjectRestriction
    defaultIngressClass(services), // DefaultIngressClass
    podTopologyLabels(services), // PodTopologyLabels
    podResizeValidator(services), // PodResizeValidator
    mutatingAdmissionPolicyPlugin(services), // MutatingAdmissionPolicy
    mutatingAdmissionWebhook(services), // MutatingAdmissionWebhook
    validatingAdmissionPolicyPlugin(services), // ValidatingAdmissionPolicy
    validatingAdmissionWebhook(services), // ValidatingAdmissionWebhook
    resourceQuota(services), // ResourceQuota
  ];
}

/**
 * The default plugins with `extra` (checks the cluster adds, such as RBAC's escalation
 * prevention) before ResourceQuota, which goes last so that nothing refuses a write it charged.
 */
export function defaultAdmissionChain(services: AdmissionServices, extra: readonly AdmissionPlugin[] = []): AdmissionChain {
  const plugins = defaultAdmissionPlugins(services);
  const quota = plugins.findIndex((p) => p.name === 'ResourceQuota');
  const at = quota < 0 ? plugins.length : quota;
  return admissionChain([...plugins.slice(0, at), ...extra, ...plugins.slice(at)]);
}
