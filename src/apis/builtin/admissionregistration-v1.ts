// admissionregistration.k8s.io/v1: discovery data from the generated catalogue; strategies from
// pkg/registry/admissionregistration/<resource>/strategy.go. The webhook configurations stamp
// metadata.generation from their `webhooks` list, the admission policies and bindings from spec.
// kubefake stores these objects but does not call the webhooks or evaluate the policies.
import type { ResourceType } from '../resource-type.ts';
import type { KubeObject } from '../object.ts';
import { generationBuiltin } from './generic.ts';
import { builtinFacts } from './shared.ts';

const facts = (plural: string) => builtinFacts('admissionregistration.k8s.io', 'v1', plural);
const webhooks = (obj: KubeObject) => obj.webhooks ?? null;

export function admissionregistrationV1ResourceTypes(): ResourceType[] {
  return [
    generationBuiltin(facts('mutatingadmissionpolicies')),
    generationBuiltin(facts('mutatingadmissionpolicybindings')),
    generationBuiltin(facts('mutatingwebhookconfigurations'), webhooks),
    generationBuiltin(facts('validatingadmissionpolicies')),
    generationBuiltin(facts('validatingadmissionpolicybindings')),
    generationBuiltin(facts('validatingwebhookconfigurations'), webhooks),
  ];
}
