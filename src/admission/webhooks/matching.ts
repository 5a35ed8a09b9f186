// Whether a webhook is called for a request (generic/webhook.go ShouldCallHook): the namespace
// and object selectors, the rules (predicates/rules/rules.go), then the match conditions.
// Selector errors count only once a rule matched, as the real one defers them.
import type { KubeObject } from '../../apis/object.ts';
import type { VersionedStore } from '../../storage/versioned-store.ts';
import { forbidden, internalError, StatusError } from '../../errors/status-error.ts';
import type { WebhookAccessor } from './accessor.ts';
import type { MatchResult } from './match-conditions.ts';
import type { WebhookRequest } from './request.ts';
import type { AdmissionServices } from '../services.ts';
import { authorizerContext } from '../cel-authorizer.ts';
import { equivalentTypes, requestAs } from './equivalent.ts';
import { namespaceLabels } from './namespace-labels.ts';
import { ruleMatches, ruleMatchesAnyVersion } from './rules.ts';

/** namespace.Matcher.MatchNamespaceSelector: [matches, deferred error]. */
function matchNamespaceSelector(store: VersionedStore, hook: WebhookAccessor, r: WebhookRequest): [boolean, StatusError | undefined] {
  if (!r.namespace && r.resource.resource !== 'namespaces') return [true, undefined];
  const selector = hook.namespaceSelector;
  if (selector instanceof Error) return [false, internalError(selector.message)];
  if (selector.empty) return [true, undefined];
  try {
    return [selector.matches(namespaceLabels(store, r)), undefined];
  } catch (err) {
    if (err instanceof StatusError) return [false, err];
    throw err;
  }
}

const matchObject = (obj: KubeObject | undefined, matches: (labels: Record<string, string> | undefined) => boolean) => obj !== undefined && matches(obj.metadata?.labels);

/** object.Matcher.MatchObjectSelector: the new or the old object. */
function matchObjectSelector(hook: WebhookAccessor, r: WebhookRequest): [boolean, StatusError | undefined] {
  const selector = hook.objectSelector;
  if (selector instanceof Error) return [false, internalError(selector.message)];
  if (selector.empty) return [true, undefined];
  return [matchObject(r.object, selector.matches) || matchObject(r.oldObject, selector.matches), undefined];
}

/** False when no rule of the webhook can match the request in any version (the cheap first filter). */
export function mayCallHook(hook: WebhookAccessor, r: WebhookRequest): boolean {
  return (hook.spec.rules ?? []).some((rule) => ruleMatchesAnyVersion(rule, r));
}

/**
 * ShouldCallHook: the request as the webhook is to be called with it (converted for an
 * equivalent match, which makes the answer a promise), or undefined to skip it; throws the StatusError that fails the request (a
 * selector error, a missing namespace, match conditions failing closed, a failed conversion).
 */
export function shouldCallHook(
  services: AdmissionServices,
  hook: WebhookAccessor,
  r: WebhookRequest,
  /** Only whether it matches: an equivalent match answers `r` unconverted, without its match conditions. */
  probe = false,
): WebhookRequest | undefined | Promise<WebhookRequest | undefined> {
  const [nsMatches, nsError] = matchNamespaceSelector(services.store, hook, r);
  if (!nsMatches && !nsError) return undefined;
  const [objMatches, objError] = matchObjectSelector(hook, r);
  if (!objMatches && !objError) return undefined;
  const rules = hook.spec.rules ?? [];
  if (rules.some((rule) => ruleMatches(rule, r))) return matchConditions(services, hook, r, nsError ?? objError, probe);
  if (hook.spec.matchPolicy === 'Equivalent') {
    for (const rule of rules) {
      for (const equivalent of equivalentTypes(services.catalog, r.attributes.type, r.subresource)) {
        const resource = { group: equivalent.group, version: equivalent.version, resource: equivalent.plural };
        if (ruleMatches(rule, { ...r, resource })) {
          const deferred = nsError ?? objError;
          if (deferred) throw deferred;
          if (probe) return r;
          // KindFor(equivalent, subresource): the resource itself and its status are the
          // equivalent's own kind, the request converted to it; any other subresource keeps the
          // kind it is registered with in every version (scale: autoscaling/v1 Scale), unconverted.
          if (r.subresource !== '' && r.subresource !== 'status') return matchConditions(services, hook, { ...r, resource }, undefined, false);
          return requestAs(r, equivalent, services).then((invocation) => matchConditions(services, hook, invocation, undefined, false));
        }
      }
    }
  }
  return undefined;
}

/** The deferred selector error, then the match conditions on the (versioned) request. */
function matchConditions(services: AdmissionServices, hook: WebhookAccessor, invocation: WebhookRequest, deferred: StatusError | undefined, probe: boolean): WebhookRequest | undefined | Promise<WebhookRequest | undefined> {
  if (deferred) throw deferred;
  if (probe || (hook.spec.matchConditions ?? []).length === 0) return invocation;
  const decide = (result: MatchResult) => {
    const r = invocation;
    if (result.error !== undefined) throw forbidden({ group: r.requestResource.group, resource: r.requestResource.resource }, r.name, result.error);
    return result.matches ? invocation : undefined;
  };
  const authorizer = authorizerContext(services, invocation.attributes);
  if (conditionModule) return decide(conditionModule.evaluateMatchConditions(hook, invocation, authorizer));
  return loadMatchConditions().then((m) => decide(m.evaluateMatchConditions(hook, invocation, authorizer)));
}

// The CEL engine loads on first use (cel/lazy.ts): only a webhook with match conditions needs it.
type MatchConditionModule = typeof import('./match-conditions.ts');
let conditionModule: MatchConditionModule | undefined;
let loadingConditions: Promise<MatchConditionModule> | undefined;
function loadMatchConditions(): Promise<MatchConditionModule> {
  return (loadingConditions ??= import('./match-conditions.ts').then((m) => (conditionModule = m)));
}
