// rules.IsExemptAdmissionConfigurationResource: webhooks are not called for the admission
// configuration objects themselves, so a broken webhook can always be removed.
import type { ResourceType } from '../../apis/resource-type.ts';

const EXEMPT_KINDS = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
]);

export const isExemptFromWebhooks = (type: ResourceType): boolean => type.group === 'admissionregistration.k8s.io' && EXEMPT_KINDS.has(type.kind);
