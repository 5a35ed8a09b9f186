// The request filters request logs and fault rules select requests with; the attributes
// themselves are the HTTP layer's (http/request-attributes.ts).
import type { RequestAttributes, RequestVerb } from '../http/request-attributes.ts';

export { requestAttributes, type RequestAttributes, type RequestVerb } from '../http/request-attributes.ts';

/**
 * Selects requests. Every given field must match; `resource` is the plural, optionally qualified
 * by its group (`deployments.apps`) and/or followed by a subresource (`deployments/status`).
 */
export interface RequestMatch {
  /** One verb or a list of them (`'update'`, `['create', 'patch']`). */
  verb?: RequestVerb | string | ReadonlyArray<RequestVerb | string>;
  /** `crontabs`, `deployments.apps`, `crontabs/status`, `deployments.apps/scale`. */
  resource?: string;
  /** API group; matches any group when omitted. */
  group?: string;
  /** Namespace in the URL. */
  namespace?: string;
  /** Object name in the URL (a create has none: its name is in the body). */
  name?: string;
  /** Subresource in the URL (`status`, `scale`). */
  subresource?: string;
}

export function matchesRequest(attrs: RequestAttributes, match: RequestMatch): boolean {
  if (match.verb !== undefined) {
    const verbs = typeof match.verb === 'string' ? [match.verb] : match.verb;
    if (!verbs.includes(attrs.verb)) return false;
  }
  if (match.resource !== undefined) {
    const [qualified, sub] = match.resource.split('/', 2) as [string, string | undefined];
    const dot = qualified.indexOf('.');
    const plural = dot < 0 ? qualified : qualified.slice(0, dot);
    if (attrs.resource !== plural) return false;
    if (dot >= 0 && attrs.group !== qualified.slice(dot + 1)) return false;
    if (sub !== undefined && attrs.subresource !== sub) return false;
  }
  if (match.group !== undefined && attrs.group !== match.group) return false;
  if (match.namespace !== undefined && attrs.namespace !== match.namespace) return false;
  if (match.name !== undefined && attrs.name !== match.name) return false;
  if (match.subresource !== undefined && attrs.subresource !== match.subresource) return false;
  return true;
}
