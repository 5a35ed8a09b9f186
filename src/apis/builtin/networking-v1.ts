// networking.k8s.io/v1: discovery data from the generated catalogue; strategies from
// pkg/registry/networking/{ingress,ingressclass,networkpolicy}/strategy.go, which stamp
// metadata.generation (1 on create, +1 on a spec change); Ingress and NetworkPolicy validation
// in networking-validation.ts. IPAddress and ServiceCIDR keep the
// generic behaviour. networking/v1 registers no field-label conversion function.
import type { ResourceType } from '../resource-type.ts';
import { generationBuiltin } from './generic.ts';
import { validateIngressCreate, validateIngressUpdate, validateNetworkPolicy } from './networking-validation.ts';
import { builtinFacts } from './shared.ts';

const facts = (plural: string) => builtinFacts('networking.k8s.io', 'v1', plural);

export function networkingV1ResourceTypes(): ResourceType[] {
  return [
    generationBuiltin(facts('ingresses'), undefined, { strategy: { validate: validateIngressCreate, validateUpdate: validateIngressUpdate } }),
    generationBuiltin(facts('ingressclasses')),
    generationBuiltin(facts('networkpolicies'), undefined, { strategy: { validate: validateNetworkPolicy, validateUpdate: (obj) => validateNetworkPolicy(obj) } }),
  ];
}
