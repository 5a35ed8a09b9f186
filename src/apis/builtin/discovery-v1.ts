// discovery.k8s.io/v1: discovery data from the generated catalogue; EndpointSlice's strategy
// (pkg/registry/discovery/endpointslice/strategy.go) stamps metadata.generation (1 on create,
// +1 when anything but metadata changes: endpoints, ports, addressType).
import type { ResourceType } from '../resource-type.ts';
import type { KubeObject } from '../object.ts';
import { generationBuiltin } from './generic.ts';
import { builtinFacts } from './shared.ts';

const content = (obj: KubeObject) => [obj.endpoints ?? null, obj.ports ?? null, obj.addressType ?? null];

export function discoveryV1ResourceTypes(): ResourceType[] {
  return [generationBuiltin(builtinFacts('discovery.k8s.io', 'v1', 'endpointslices'), content)];
}
