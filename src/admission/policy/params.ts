// The params of a binding (k8s.io/apiserver pkg/admission/plugin/policy/generic/policy_dispatcher.go
// CollectParams and policy_source.go's paramKind resolution), read from the store as the real
// plugin reads its param informers.
import { storageKeyOf, type ResourceType } from '../../apis/resource-type.ts';
import { isPlainObject, type KubeObject } from '../../apis/object.ts';
import { toStatusError } from '../../errors/status-error.ts';
import type { AdmissionServices } from '../services.ts';
import { labelSelectorMatches } from './matching.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (isPlainObject(v) ? v : undefined);

export class ParamError extends Error {}

/** schema.ParseGroupVersion. */
function parseGroupVersion(gv: string): { group: string; version: string } | undefined {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

/** policy_source.go: the paramKind's resource type; throws the policy's configuration error. */
export function resolveParamKind(services: AdmissionServices, policy: KubeObject): ResourceType | undefined {
  const paramKind = obj(obj(policy.spec)?.paramKind);
  if (!paramKind) return undefined;
  const apiVersion = String(paramKind.apiVersion ?? '');
  const kind = String(paramKind.kind ?? '');
  const gv = parseGroupVersion(apiVersion);
  if (!gv) throw new ParamError(`failed to parse paramKind APIVersion: unexpected GroupVersion string: ${apiVersion}`);
  const type = services.catalog.findKind(gv.group, gv.version, kind);
  if (!type) throw new ParamError(`failed to find resource referenced by paramKind: '${gv.group}/${gv.version}, Kind=${kind}'`);
  return type;
}

/**
 * CollectParams: `[null]` when the policy has no paramKind or the binding no paramRef, `[]` when
 * none are found and parameterNotFoundAction is Allow. Throws a ParamError with the real text of a
 * configuration error.
 */
export async function collectParams(services: AdmissionServices, policy: KubeObject, type: ResourceType | undefined, binding: KubeObject, requestNamespace: string): Promise<(KubeObject | null)[]> {
  const paramKind = obj(obj(policy.spec)?.paramKind);
  const paramRef = obj(obj(binding.spec)?.paramRef);
  if (!paramKind || !type || !paramRef) return [null];
  const apiVersion = String(paramKind.apiVersion ?? '');
  const kind = String(paramKind.kind ?? '');
  const refNamespace = typeof paramRef.namespace === 'string' ? paramRef.namespace : '';
  let prefix = '';
  if (type.namespaced) {
    const ns = refNamespace || requestNamespace;
    if (ns === '') throw new ParamError('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
    prefix = `${ns}/`;
  } else if (refNamespace !== '') {
    throw new ParamError('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  }
  const bucket = storageKeyOf(type);
  const name = typeof paramRef.name === 'string' ? paramRef.name : '';
  let params: KubeObject[];
  if (name !== '') {
    if (paramRef.selector) throw new ParamError('paramRef.name and paramRef.selector are mutually exclusive');
    const found = services.store.get(bucket, prefix + name);
    params = found ? [found] : [];
  } else if (paramRef.selector) {
    const selector = obj(paramRef.selector) ?? {};
    params = services.store
      .list(bucket, prefix)
      .map((e) => e.object)
      .filter((o) => labelSelectorMatches(selector, (o.metadata as { labels?: Record<string, string> }).labels));
  } else {
    throw new ParamError('one of name or selector must be provided');
  }
  if (params.length === 0 && paramRef.parameterNotFoundAction === 'Deny') throw new ParamError('no params found for policy binding with `Deny` parameterNotFoundAction');
  // Stored at the storage version: read at the paramKind's version, as the param informer lists them.
  if (type.codec && params.length > 0) {
    try {
      params = await type.codec.decode(params, { random: services.random }, true);
    } catch (e) {
      throw new ParamError(toStatusError(e).status.message ?? String(e));
    }
  }
  // wrappedParam: params carry their apiVersion and kind.
  return params.map((p) => ({ ...p, apiVersion: p.apiVersion ?? apiVersion, kind: p.kind ?? kind }));
}
