// admission.NewVersionedAttributes: a policy that matched an equivalent version of the request's
// resource (matchPolicy Equivalent) sees the object converted to that version, through the storage
// codecs (to the storage version, then to the matched one), as the apiserver's object convertor
// does; a mutating policy's result is converted back to the request's version.
import type { KubeObject } from '../../apis/object.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import { toStatusError } from '../../errors/status-error.ts';
import type { AdmissionServices } from '../services.ts';

export class ConversionFailure extends Error {}

/** `obj`, served as `from`, converted to the version `to` serves. */
export async function convertObject(services: AdmissionServices, obj: KubeObject, from: ResourceType, to: ResourceType): Promise<KubeObject> {
  if (from.group === to.group && from.version === to.version) return obj;
  const env = { random: services.random };
  try {
    const stored = from.codec ? await from.codec.encode(obj, env) : obj;
    const [out] = to.codec ? await to.codec.decode([stored], env, false) : [stored];
    return out!;
  } catch (e) {
    throw new ConversionFailure(toStatusError(e).status.message ?? String(e));
  }
}
