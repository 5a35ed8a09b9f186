// matchPolicy Equivalent (generic/webhook.go ShouldCallHook, admission.NewVersionedAttributes):
// a webhook whose rules name another version of the same resource — another served version of a
// CRD, autoscaling/v1 and v2 HorizontalPodAutoscalers, core and events.k8s.io Events — is called
// with the request converted to that version. Equivalence is sharing storage, as kube-apiserver's
// EquivalentResourceRegistry keys resources by their storage prefix.
import type { KubeObject } from '../../apis/object.ts';
import { storageKeyOf, type ResourceType } from '../../apis/resource-type.ts';
import type { ConversionEnv } from '../../apis/storage-codec.ts';
import type { ApiCatalog } from '../../apis/catalog.ts';
import { internalError, StatusError } from '../../errors/status-error.ts';
import type { WebhookRequest } from './request.ts';

/**
 * EquivalentResourcesFor(resource, subresource): the other types stored where `type` is, in
 * catalog order, those serving the subresource when one is asked about; the request's own
 * resource is left out, as ShouldCallHook and the policy matcher skip it (checked already).
 */
export function equivalentTypes(catalog: ApiCatalog, type: ResourceType, subresource = ''): ResourceType[] {
  const key = storageKeyOf(type);
  const isRequested = (t: ResourceType) => t.group === type.group && t.version === type.version && t.plural === type.plural;
  return catalog.all().filter((t) => storageKeyOf(t) === key && !isRequested(t) && (subresource === '' || t.subresources.includes(subresource)));
}

/** An object of `from`'s version as `to`'s version: through the storage version both share. */
export async function convertObject(obj: KubeObject, from: ResourceType, to: ResourceType, env: ConversionEnv): Promise<KubeObject> {
  const stored = from.codec ? await from.codec.encode(structuredClone(obj), env) : obj;
  const [out] = to.codec ? await to.codec.decode([stored], env, false) : [stored];
  return out!;
}

/** The request as the webhook of `to`'s version sees it (VersionedAttributes). */
export async function requestAs(r: WebhookRequest, to: ResourceType, env: ConversionEnv): Promise<WebhookRequest> {
  const from = r.attributes.type;
  try {
    return {
      ...r,
      resource: { group: to.group, version: to.version, resource: to.plural },
      kind: { group: to.group, version: to.version, kind: to.kind },
      object: r.object && (await convertObject(r.object, from, to, env)),
      oldObject: r.oldObject && (await convertObject(r.oldObject, from, to, env)),
    };
  } catch (err) {
    throw internalError(err instanceof StatusError ? (err.status.message ?? '') : err instanceof Error ? err.message : String(err));
  }
}
