// admissionregistration.k8s.io/v1: discovery data from the generated catalogue; strategies from
// pkg/registry/admissionregistration/<resource>/strategy.go. The webhook configurations stamp
// metadata.generation from their `webhooks` list, the admission policies and bindings from spec.
// The webhook configurations are defaulted and validated (admissionregistration-validation.ts).
// The admission policies run in src/admission/policy, the webhooks in src/admission/webhooks.
import type { ResourceType } from '../resource-type.ts';
import type { KubeObject } from '../object.ts';
import { genericDefinition } from './generic.ts';
import type { FieldError } from '../../errors/field-error.ts';
import { builtin, builtinFacts, composeStrategy, defaulting, generation } from './shared.ts';
import { validationOnDemand } from './validation-on-demand.ts';

const facts = (plural: string) => builtinFacts('admissionregistration.k8s.io', 'v1', plural);
const webhooks = (obj: KubeObject) => obj.webhooks ?? null;

// The defaulting and validation of the six kinds (admission-policy-validation.ts,
// admissionregistration-validation.ts and what they use) load before the first write of one of
// them, not with kubefake.
const validation = validationOnDemand('an admissionregistration.k8s.io object', async () => ({
  ...(await import('./admission-policy-validation.ts')),
  ...(await import('./admissionregistration-validation.ts')),
}));
const loaded = () => validation.get();
const loadValidation = validation.load;

export function admissionregistrationV1ResourceTypes(): ResourceType[] {
  return [
    admissionPolicy('mutatingadmissionpolicies', (o) => loaded().defaultAdmissionPolicy(true)(o), (o) => loaded().validateMutatingAdmissionPolicy(o)),
    admissionPolicy('mutatingadmissionpolicybindings', (o) => loaded().defaultAdmissionPolicyBinding(o), (o) => loaded().validateMutatingAdmissionPolicyBinding(o)),
    webhookConfiguration('mutatingwebhookconfigurations', true),
    admissionPolicy('validatingadmissionpolicies', (o) => loaded().defaultAdmissionPolicy(false)(o), (o) => loaded().validateValidatingAdmissionPolicy(o)),
    admissionPolicy('validatingadmissionpolicybindings', (o) => loaded().defaultAdmissionPolicyBinding(o), (o) => loaded().validateValidatingAdmissionPolicyBinding(o)),
    webhookConfiguration('validatingwebhookconfigurations', false),
  ];
}

/** Admission policies and bindings: defaults, generation from spec, the spec's validation (admission-policy-validation.ts). */
function admissionPolicy(plural: string, defaults: (o: KubeObject) => void, validate: (o: KubeObject) => FieldError[]): ResourceType {
  const def = genericDefinition(facts(plural));
  const strategy = composeStrategy(defaulting(defaults), def.strategy ?? {}, generation(), { validate, validateUpdate: (o) => validate(o) });
  return builtin('admissionregistration.k8s.io', 'v1', { ...def, strategy, loadValidation });
}

/** Defaults first, so that generation compares defaulted webhooks with the stored ones. */
function webhookConfiguration(plural: string, mutating: boolean): ResourceType {
  const def = genericDefinition(facts(plural));
  const strategy = composeStrategy(
    defaulting((o) => loaded().defaultWebhooks(mutating)(o)),
    def.strategy ?? {},
    generation(webhooks),
    { validate: (o) => loaded().validateWebhookConfiguration(mutating).validate(o), validateUpdate: (o, old) => loaded().validateWebhookConfiguration(mutating).validateUpdate(o, old) },
  );
  return builtin('admissionregistration.k8s.io', 'v1', { ...def, strategy, loadValidation });
}
