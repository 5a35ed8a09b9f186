// admissionregistration.k8s.io/v1: discovery data from the generated catalogue; strategies from
// pkg/registry/admissionregistration/<resource>/strategy.go. The webhook configurations stamp
// metadata.generation from their `webhooks` list, the admission policies and bindings from spec.
// The webhook configurations are defaulted and validated (admissionregistration-validation.ts).
// The admission policies run in src/admission/policy, the webhooks in src/admission/webhooks.
import type { ResourceType } from '../resource-type.ts';
import type { KubeObject } from '../object.ts';
import { genericDefinition } from './generic.ts';
import type { FieldError } from '../../errors/field-error.ts';
import {
  defaultAdmissionPolicy,
  defaultAdmissionPolicyBinding,
  validateMutatingAdmissionPolicy,
  validateMutatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
} from './admission-policy-validation.ts';
import { defaultWebhooks, validateWebhookConfiguration } from './admissionregistration-validation.ts';
import { builtin, builtinFacts, composeStrategy, defaulting, generation } from './shared.ts';

const facts = (plural: string) => builtinFacts('admissionregistration.k8s.io', 'v1', plural);
const webhooks = (obj: KubeObject) => obj.webhooks ?? null;

export function admissionregistrationV1ResourceTypes(): ResourceType[] {
  return [
    admissionPolicy('mutatingadmissionpolicies', defaultAdmissionPolicy(true), validateMutatingAdmissionPolicy),
    admissionPolicy('mutatingadmissionpolicybindings', defaultAdmissionPolicyBinding, validateMutatingAdmissionPolicyBinding),
    webhookConfiguration('mutatingwebhookconfigurations', true),
    admissionPolicy('validatingadmissionpolicies', defaultAdmissionPolicy(false), validateValidatingAdmissionPolicy),
    admissionPolicy('validatingadmissionpolicybindings', defaultAdmissionPolicyBinding, validateValidatingAdmissionPolicyBinding),
    webhookConfiguration('validatingwebhookconfigurations', false),
  ];
}

/** Admission policies and bindings: defaults, generation from spec, the spec's validation (admission-policy-validation.ts). */
function admissionPolicy(plural: string, defaults: (o: KubeObject) => void, validate: (o: KubeObject) => FieldError[]): ResourceType {
  const def = genericDefinition(facts(plural));
  const strategy = composeStrategy(defaulting(defaults), def.strategy ?? {}, generation(), { validate, validateUpdate: (o) => validate(o) });
  return builtin('admissionregistration.k8s.io', 'v1', { ...def, strategy });
}

/** Defaults first, so that generation compares defaulted webhooks with the stored ones. */
function webhookConfiguration(plural: string, mutating: boolean): ResourceType {
  const def = genericDefinition(facts(plural));
  const strategy = composeStrategy(defaulting(defaultWebhooks(mutating)), def.strategy ?? {}, generation(webhooks), validateWebhookConfiguration(mutating));
  return builtin('admissionregistration.k8s.io', 'v1', { ...def, strategy });
}
