// flowcontrol.apiserver.k8s.io/v1: discovery data from the generated catalogue; the FlowSchema and
// PriorityLevelConfiguration strategies (pkg/registry/flowcontrol/*/strategy.go) reset status on
// create and stamp metadata.generation (1 on create, +1 on a spec change). kubefake runs no API
// priority and fairness, so it neither creates the suggested/mandatory objects nor fills status.
import type { ResourceType } from '../resource-type.ts';
import { generationBuiltin } from './generic.ts';
import { builtinFacts } from './shared.ts';

const facts = (plural: string) => builtinFacts('flowcontrol.apiserver.k8s.io', 'v1', plural);

export function flowcontrolV1ResourceTypes(): ResourceType[] {
  return [generationBuiltin(facts('flowschemas')), generationBuiltin(facts('prioritylevelconfigurations'))];
}
