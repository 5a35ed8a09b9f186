// Which requests an admission policy or binding covers (k8s.io/apiserver
// pkg/admission/plugin/policy/matching/matching.go, generic/policy_matcher.go, and the webhook
// predicates it uses: rules/rules.go, namespace/matcher.go, object/matcher.go).
import { isPlainObject, type KubeObject } from '../../apis/object.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import { tryLabelSelectorAsSelector } from '../../selectors/label-selector-as-selector.ts';
import { admissionKindOf, type AdmissionAttributes, type GroupVersionKind, type GroupVersionResource } from '../../registry/admission.ts';
import type { AdmissionServices } from '../services.ts';
import type { RuleWithOperations } from '../webhooks/accessor.ts';
import { equivalentTypes } from '../webhooks/equivalent.ts';
import { namespaceLabels } from '../webhooks/namespace-labels.ts';
import { requestNamespace } from '../webhooks/request.ts';
import { ruleMatches as ruleMatchesRequest } from '../webhooks/rules.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (isPlainObject(v) ? v : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export const NAMESPACES_BUCKET = '/namespaces';

export interface MatchResult {
  matches: boolean;
  resource?: GroupVersionResource;
  kind?: GroupVersionKind;
  /** The served type the rule matched: the request's, or an equivalent version of it (matchPolicy Equivalent). */
  type?: ResourceType;
}

const resourceOf = (a: AdmissionAttributes): GroupVersionResource => ({ group: a.type.group, version: a.type.version, resource: a.type.plural });
const kindOf = admissionKindOf;

/**
 * metav1.LabelSelectorAsSelector(sel).Matches(labels); an empty selector matches everything, one
 * that does not convert (validation refuses those) nothing.
 */
export function labelSelectorMatches(selector: Json, labels: Record<string, string> | undefined): boolean {
  return tryLabelSelectorAsSelector(selector)?.matches(labels) ?? false;
}

const isEmptySelector = (s: Json): boolean => tryLabelSelectorAsSelector(s)?.empty ?? false;

/** rules.Matcher.Matches (webhooks/rules.ts) of a stored, validated rule against `resource`. */
function ruleMatches(rule: Json, a: AdmissionAttributes, resource: GroupVersionResource): boolean {
  return ruleMatchesRequest(rule as RuleWithOperations, { resource, namespace: requestNamespace(a), operation: a.operation, subresource: a.subresource });
}

type RuleMatch = { resource: GroupVersionResource; kind: GroupVersionKind; type: ResourceType } | undefined;

/** matchesResourceRules: the rules as written, then (Equivalent) each rule against the equivalent resources. */
function matchesResourceRules(services: AdmissionServices, rules: unknown, matchPolicy: unknown, a: AdmissionAttributes): RuleMatch {
  const list = (Array.isArray(rules) ? rules : []).map((r) => obj(r) ?? {});
  const named = (rule: Json) => {
    const names = strings(rule.resourceNames);
    return names.length === 0 || names.includes(a.name);
  };
  for (const rule of list) if (ruleMatches(rule, a, resourceOf(a)) && named(rule)) return { resource: resourceOf(a), kind: kindOf(a), type: a.type };
  if (matchPolicy !== 'Equivalent') return undefined;
  const equivalents = equivalentTypes(services.catalog, a.type, a.subresource);
  for (const rule of list) {
    for (const eq of equivalents) {
      const resource = { group: eq.group, version: eq.version, resource: eq.plural };
      // KindFor(equivalent, subresource): only the resource and its status take the
      // equivalent's kind (and the object its version); other subresources keep theirs (Scale).
      if (ruleMatches(rule, a, resource) && named(rule)) {
        if (a.subresource !== '' && a.subresource !== 'status') return { resource, kind: kindOf(a), type: a.type };
        return { resource, kind: { group: eq.group, version: eq.version, kind: eq.kind }, type: eq };
      }
    }
  }
  return undefined;
}

export class MatchError extends Error {}

const labelsOf = (o: KubeObject | undefined): Record<string, string> | undefined => (o?.metadata as { labels?: Record<string, string> } | undefined)?.labels;

/**
 * matching.Matcher.Matches over a MatchResources (namespaceSelector, objectSelector,
 * excludeResourceRules, resourceRules). Throws a StatusError (a missing namespace) as the real one
 * returns it.
 */
export function matchResources(services: AdmissionServices, a: AdmissionAttributes, criteria: Json): MatchResult {
  const resource = resourceOf(a);
  // MatchNamespaceSelector: cluster-scoped requests (but namespaces themselves) are never exempted.
  let nsError: unknown;
  if (!(requestNamespace(a) === '' && resource.resource !== 'namespaces')) {
    const selector = obj(criteria.namespaceSelector) ?? {};
    if (!isEmptySelector(selector)) {
      try {
        const labels = namespaceLabels(services.store, { resource, subresource: a.subresource, operation: a.operation, namespace: requestNamespace(a), object: a.object });
        if (!labelSelectorMatches(selector, labels)) return { matches: false };
      } catch (e) {
        nsError = e;
      }
    }
  }
  const objectSelector = obj(criteria.objectSelector) ?? {};
  // object.Matcher: the new or the old object's labels; a missing object never matches (matchObject).
  const objectMatches = (o: KubeObject | undefined) => o !== undefined && o !== null && labelSelectorMatches(objectSelector, labelsOf(o));
  if (!isEmptySelector(objectSelector) && !objectMatches(a.object) && !objectMatches(a.oldObject)) return { matches: false };
  if (matchesResourceRules(services, criteria.excludeResourceRules, criteria.matchPolicy, a)) return { matches: false };
  const rules = Array.isArray(criteria.resourceRules) ? criteria.resourceRules : [];
  let matched: RuleMatch = { resource, kind: kindOf(a), type: a.type };
  if (rules.length > 0) matched = matchesResourceRules(services, rules, criteria.matchPolicy, a);
  if (!matched) return { matches: false };
  if (nsError !== undefined) throw nsError;
  return { matches: true, ...matched };
}

/** policyMatcher.DefinitionMatches. */
export function definitionMatches(services: AdmissionServices, a: AdmissionAttributes, policy: KubeObject): MatchResult {
  const constraints = obj(obj(policy.spec)?.matchConstraints);
  if (!constraints) throw new MatchError('policy contained no match constraints, a required field');
  if (!constraints.namespaceSelector) throw new MatchError('a nil namespace selector was passed, please ensure selectors are initialized properly');
  if (!constraints.objectSelector) throw new MatchError('a nil object selector was passed, please ensure selectors are initialized properly');
  return matchResources(services, a, constraints);
}

/** policyMatcher.BindingMatches: a binding without matchResources matches what its policy matches. */
export function bindingMatches(services: AdmissionServices, a: AdmissionAttributes, binding: KubeObject): boolean {
  const criteria = obj(obj(binding.spec)?.matchResources);
  if (!criteria) return true;
  if (!criteria.namespaceSelector) throw new MatchError('a nil namespace selector was passed, please ensure selectors are initialized properly');
  if (!criteria.objectSelector) throw new MatchError('a nil object selector was passed, please ensure selectors are initialized properly');
  return matchResources(services, a, criteria).matches;
}

/**
 * generic/plugin.go Dispatch: the admission policy resources themselves are never matched by
 * policies from the API (a circular dependency), nor are the non-persisted reviews kube-apiserver
 * excludes from all admission policies (pkg/kubeapiserver/admission/exclusion/resources.go).
 */
const EXCLUDED_RESOURCES = new Set([
  'admissionregistration.k8s.io/validatingadmissionpolicies',
  'admissionregistration.k8s.io/validatingadmissionpolicybindings',
  'admissionregistration.k8s.io/mutatingadmissionpolicies',
  'admissionregistration.k8s.io/mutatingadmissionpolicybindings',
  'authentication.k8s.io/selfsubjectreviews',
  'authentication.k8s.io/tokenreviews',
  'authorization.k8s.io/localsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews',
  'authorization.k8s.io/subjectaccessreviews',
]);

export function isExcludedFromPolicies(a: AdmissionAttributes): boolean {
  return EXCLUDED_RESOURCES.has(`${a.type.group}/${a.type.plural}`);
}
