// The admission chain a default kube-apiserver v1.36 runs, in its order
// (pkg/kubeapiserver/options/plugins.go, AllOrderedPlugins; the default-on set is
// DefaultOffAdmissionPlugins' complement). Every mutating plugin runs before every validating
// one (admission.chainAdmissionHandler), so the order matters within each phase:
//
//   NamespaceLifecycle · LimitRanger · ServiceAccount · TaintNodesByCondition · PodSecurity ·
//   Priority · DefaultTolerationSeconds · DefaultStorageClass · StorageObjectInUseProtection ·
//   PersistentVolumeClaimResize · RuntimeClass · CertificateApproval · CertificateSigning ·
//   ClusterTrustBundleAttest · CertificateSubjectRestriction · DefaultIngressClass ·
//   PodTopologyLabels · MutatingAdmissionPolicy · MutatingAdmissionWebhook ·
//   ValidatingAdmissionPolicy · ValidatingAdmissionWebhook · ResourceQuota
//
// NamespaceLifecycle's create check runs in the registry itself (registry/namespace-admission.ts).
// A plugin kubefake implements is listed below at its place in that order.
import { admissionChain, type AdmissionChain, type AdmissionPlugin } from '../registry/admission.ts';
import type { AdmissionServices } from './services.ts';
import { mutatingAdmissionWebhook } from './webhooks/mutating.ts';
import { validatingAdmissionWebhook } from './webhooks/validating.ts';

/** The default plugins, in the real chain's order. */
export function defaultAdmissionPlugins(services: AdmissionServices): AdmissionPlugin[] {
  return [
    // MutatingAdmissionPolicy
    mutatingAdmissionWebhook(services),
    // ValidatingAdmissionPolicy
    validatingAdmissionWebhook(services),
  ];
}

export function defaultAdmissionChain(services: AdmissionServices): AdmissionChain {
  return admissionChain(defaultAdmissionPlugins(services));
}
