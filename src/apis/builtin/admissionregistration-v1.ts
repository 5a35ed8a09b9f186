// admissionregistration.k8s.io/v1: discovery data from the generated catalogue; strategies from
// pkg/registry/admissionregistration/<resource>/strategy.go. The webhook configurations stamp
// metadata.generation from their `webhooks` list, the admission policies and bindings from spec.
// The webhook configurations are defaulted and validated (admissionregistration-validation.ts).
// kubefake stores these objects but does not call the webhooks or evaluate the policies.
import type { ResourceType } from '../resource-type.ts';
import type { KubeObject } from '../object.ts';
import { genericDefinition, generationBuiltin } from './generic.ts';
import { defaultWebhooks, validateWebhookConfiguration } from './admissionregistration-validation.ts';
import { builtin, builtinFacts, composeStrategy, defaulting, generation } from './shared.ts';

const facts = (plural: string) => builtinFacts('admissionregistration.k8s.io', 'v1', plural);
const webhooks = (obj: KubeObject) => obj.webhooks ?? null;

export function admissionregistrationV1ResourceTypes(): ResourceType[] {
  return [
    generationBuiltin(facts('mutatingadmissionpolicies')),
    generationBuiltin(facts('mutatingadmissionpolicybindings')),
    webhookConfiguration('mutatingwebhookconfigurations', true),
    generationBuiltin(facts('validatingadmissionpolicies')),
    generationBuiltin(facts('validatingadmissionpolicybindings')),
    webhookConfiguration('validatingwebhookconfigurations', false),
  ];
}

/** Defaults first, so that generation compares defaulted webhooks with the stored ones. */
function webhookConfiguration(plural: string, mutating: boolean): ResourceType {
  const def = genericDefinition(facts(plural));
  const strategy = composeStrategy(defaulting(defaultWebhooks(mutating)), def.strategy ?? {}, generation(webhooks), validateWebhookConfiguration(mutating));
  return builtin('admissionregistration.k8s.io', 'v1', { ...def, strategy });
}
