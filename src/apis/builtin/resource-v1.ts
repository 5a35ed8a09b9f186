// resource.k8s.io/v1 (dynamic resource allocation): discovery data from the generated catalogue;
// DeviceClass and ResourceSlice strategies (pkg/registry/resource/*/strategy.go) stamp
// metadata.generation; ResourceSlice field selectors from pkg/apis/resource/v1/conversion.go.
import type { ResourceType } from '../resource-type.ts';
import { generationBuiltin } from './generic.ts';
import { builtinFacts, getIn, goString, metadataName } from './shared.ts';

const facts = (plural: string) => builtinFacts('resource.k8s.io', 'v1', plural);

export function resourceV1ResourceTypes(): ResourceType[] {
  return [
    generationBuiltin(facts('deviceclasses')),
    generationBuiltin(facts('resourceslices'), undefined, {
      fieldSelectors: {
        'metadata.name': metadataName,
        'spec.nodeName': (obj) => goString(getIn(obj, ['spec', 'nodeName'])),
        'spec.driver': (obj) => goString(getIn(obj, ['spec', 'driver'])),
      },
    }),
  ];
}
