// policy/v1: discovery data from the generated catalogue; PodDisruptionBudget's strategy
// (pkg/registry/policy/poddisruptionbudget/strategy.go) resets status on create and stamps
// metadata.generation (1 on create, +1 on a spec change); its spec is validated on create and
// update (policy-validation.ts).
import type { ResourceType } from '../resource-type.ts';
import { generationBuiltin } from './generic.ts';
import { validatePodDisruptionBudget } from './policy-validation.ts';
import { builtinFacts } from './shared.ts';

export function policyV1ResourceTypes(): ResourceType[] {
  return [
    generationBuiltin(builtinFacts('policy', 'v1', 'poddisruptionbudgets'), undefined, {
      strategy: { validate: validatePodDisruptionBudget, validateUpdate: (obj) => validatePodDisruptionBudget(obj) },
    }),
  ];
}
