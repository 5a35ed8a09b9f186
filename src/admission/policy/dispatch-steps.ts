// The steps generic/policy_dispatcher.go takes for every policy kind before evaluating: does the
// policy's definition match (and which param kind), does each binding match (and which params),
// and the request's namespace object. A configuration problem goes to `configError`, which each
// plugin answers its own way (failurePolicy), and the step is skipped.
import type { KubeObject } from '../../apis/object.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import { notFound } from '../../errors/status-error.ts';
import type { AdmissionAttributes } from '../../registry/admission.ts';
import type { AdmissionServices } from '../services.ts';
import { bindingMatches, definitionMatches, MatchError, NAMESPACES_BUCKET, type MatchResult } from './matching.ts';
import { collectParams, ParamError, resolveParamKind } from './params.ts';
import { namespaceObject } from './request.ts';

export type ConfigError = (policy: KubeObject, binding: KubeObject | undefined, message: string) => void;

/** A policy whose definition matches the request, with its param kind; undefined when it does not (or is misconfigured). */
export function matchingPolicy(
  services: AdmissionServices,
  a: AdmissionAttributes,
  policy: KubeObject,
  configError: ConfigError,
): { match: MatchResult; paramType: ResourceType | undefined } | undefined {
  let match: MatchResult;
  try {
    match = definitionMatches(services, a, policy);
  } catch (e) {
    if (!(e instanceof MatchError)) throw e;
    configError(policy, undefined, e.message);
    return undefined;
  }
  if (!match.matches) return undefined;
  try {
    return { match, paramType: resolveParamKind(services, policy) };
  } catch (e) {
    if (!(e instanceof ParamError)) throw e;
    configError(policy, undefined, e.message);
    return undefined;
  }
}

/** The params a matching binding evaluates its policy with; undefined when the binding does not match (or is misconfigured). */
export async function matchingBindingParams(
  services: AdmissionServices,
  a: AdmissionAttributes,
  policy: KubeObject,
  paramType: ResourceType | undefined,
  binding: KubeObject,
  configError: ConfigError,
): Promise<(KubeObject | null)[] | undefined> {
  try {
    if (!bindingMatches(services, a, binding)) return undefined;
  } catch (e) {
    if (!(e instanceof MatchError)) throw e;
    configError(policy, binding, e.message);
    return undefined;
  }
  try {
    return await collectParams(services, policy, paramType, binding, a.namespace ?? '');
  } catch (e) {
    if (!(e instanceof ParamError)) throw e;
    configError(policy, binding, e.message);
    return undefined;
  }
}

/** The namespaceObject variable (dispatcher.go): none for a cluster-scoped request or a namespace itself; 404 when the namespace is gone. */
export function requestNamespaceObject(services: AdmissionServices, a: AdmissionAttributes): KubeObject | null {
  const isNamespace = a.type.group === '' && a.type.version === 'v1' && a.type.kind === 'Namespace';
  const namespaceName = isNamespace ? '' : (a.namespace ?? '');
  if (namespaceName === '') return null;
  const stored = services.store.get(NAMESPACES_BUCKET, namespaceName);
  if (!stored) throw notFound({ group: '', resource: 'namespaces' }, namespaceName);
  return namespaceObject(stored);
}
