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
import { limitRanger } from './limit-ranger.ts';
import { taintNodesByCondition } from './taint-nodes-by-condition.ts';
import { priority } from './priority.ts';
import { defaultTolerationSeconds } from './default-toleration-seconds.ts';
import { defaultStorageClassPlugin } from './default-storage-class.ts';
import { runtimeClass } from './runtime-class.ts';
import { defaultIngressClass } from './default-ingress-class.ts';
import { resourceQuota } from './resource-quota.ts';

/** The default plugins, in the real chain's order. */
export function defaultAdmissionPlugins(services: AdmissionServices): AdmissionPlugin[] {
  return [
    limitRanger(services),
    taintNodesByCondition(),
    priority(services),
    defaultTolerationSeconds(),
    defaultStorageClassPlugin(services),
    runtimeClass(services),
    defaultIngressClass(services),
    resourceQuota(services),
  ];
}

export function defaultAdmissionChain(services: AdmissionServices): AdmissionChain {
  return admissionChain(defaultAdmissionPlugins(services));
}
