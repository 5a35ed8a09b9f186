// rules.Matcher (apiserver/pkg/admission/plugin/webhook/predicates/rules/rules.go): whether one
// RuleWithOperations covers a request; webhooks and admission policies both match with it.
import type { RuleWithOperations } from './accessor.ts';
import type { WebhookRequest } from './request.ts';

/** What a rule looks at: the resource as matched (the request's, or an equivalent one), and the request's scope, operation and subresource. */
export type RuleRequest = Pick<WebhookRequest, 'resource' | 'namespace' | 'operation' | 'subresource'>;

function exactOrWildcard(items: readonly string[] | undefined, requested: string): boolean {
  return (items ?? []).some((item) => item === '*' || item === requested);
}

const isNamespaceResource = (r: RuleRequest) => r.resource.group === '' && r.resource.version === 'v1' && r.resource.resource === 'namespaces';

/** rules.Matcher.Matches. */
export function ruleMatches(rule: RuleWithOperations, r: RuleRequest): boolean {
  if (!exactOrWildcard(rule.apiGroups, r.resource.group)) return false;
  if (!exactOrWildcard(rule.apiVersions, r.resource.version)) return false;
  return ruleMatchesAnyVersion(rule, r);
}

/**
 * The rule's scope, operations and resources, whatever its groups and versions: what every
 * version of a resource has in common (equivalent resources share their name), so a webhook none
 * of whose rules pass this is never called for the request, and the plugins stop there.
 */
export function ruleMatchesAnyVersion(rule: RuleWithOperations, r: RuleRequest): boolean {
  const scope = rule.scope ?? '*';
  if (scope === 'Namespaced' && (isNamespaceResource(r) || !r.namespace)) return false;
  if (scope === 'Cluster' && !(isNamespaceResource(r) || !r.namespace)) return false;
  if (scope !== '*' && scope !== 'Namespaced' && scope !== 'Cluster') return false;
  if (!(rule.operations ?? []).some((op) => op === '*' || op === r.operation)) return false;
  return (rule.resources ?? []).some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === r.resource.resource) && (sub === '*' || sub === r.subresource);
  });
}
