// certificates.k8s.io/v1: discovery data from the generated catalogue; the field-label conversion
// of pkg/apis/certificates/v1/conversion.go adds spec.signerName. kubefake signs nothing: the
// approval subresource and the signer controllers are not served.
import type { ResourceType } from '../resource-type.ts';
import { genericDefinition } from './generic.ts';
import { builtin, builtinFacts, getIn, goString, metadataName } from './shared.ts';

export function certificatesV1ResourceTypes(): ResourceType[] {
  const def = genericDefinition(builtinFacts('certificates.k8s.io', 'v1', 'certificatesigningrequests'));
  return [
    builtin('certificates.k8s.io', 'v1', {
      ...def,
      fieldSelectors: { 'metadata.name': metadataName, 'spec.signerName': (obj) => goString(getIn(obj, ['spec', 'signerName'])) },
    }),
  ];
}
