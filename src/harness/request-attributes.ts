// Who asked for what: the Kubernetes request attributes of an HTTP request (the verb, resource,
// namespace, name and subresource apiserver's RequestInfoFactory derives), and the filters
// request logs and fault rules select requests with.
import { isWatchRequest } from '../http/query-options.ts';
import { parseRequestPath } from '../http/request-info.ts';
import { rawRequestTarget, requestTargetOf } from '../http/request-target.ts';

/** A Kubernetes verb as RBAC and audit logs name it. */
export type RequestVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** What a request asked for, as kube-apiserver's RequestInfoFactory derives it from the method and path. */
export interface RequestAttributes {
  /** The Kubernetes verb; for paths outside the resource API (`/version`, discovery) the lower-case HTTP method. */
  verb: RequestVerb | string;
  /** HTTP method, upper case. */
  method: string;
  /** Path and query string as sent. */
  path: string;
  /** True for requests on a resource path (`/api/v1/...`, `/apis/<group>/<version>/...` with a resource). */
  isResourceRequest: boolean;
  /** API group (`''` for core); undefined outside the resource API. */
  group?: string;
  /** API version (`v1`); undefined outside the resource API. */
  version?: string;
  /** Resource (plural), e.g. `deployments`. */
  resource?: string;
  /** Namespace in the path; undefined for cluster-scoped resources and requests across all namespaces. */
  namespace?: string;
  /** Object name in the path; undefined for collections (list, watch, create, deletecollection). */
  name?: string;
  /** `status`, `scale`… when the path names one. */
  subresource?: string;
  /** The User-Agent header (client-node sends `kubernetes-client-javascript/<version>`, kubectl `kubectl/<version> (…)`). */
  userAgent?: string;
}

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

export function requestAttributes(request: Request): RequestAttributes {
  const method = request.method.toUpperCase();
  const base = { method, path: rawRequestTarget(request), userAgent: request.headers.get('user-agent') ?? undefined };
  // A target net/http refuses (an invalid escape) is no resource request.
  const target = requestTargetOf(request);
  const info = target ? parseRequestPath(target.path) : undefined;
  if (!target || !info || info.kind === 'non-resource') return { ...base, verb: method.toLowerCase(), isResourceRequest: false };
  const { group, version, resource, namespace, name, subresource } = info;
  return { ...base, verb: resourceVerb(method, name !== undefined, info.watchPrefix, target.query), isResourceRequest: true, group, version, resource, namespace, name, subresource };
}

/** RequestInfoFactory's verb: GET of a collection is list or watch, DELETE of one is deletecollection. */
function resourceVerb(method: string, named: boolean, watchPrefix: boolean, query: URLSearchParams): string {
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (watchPrefix) return 'watch';
      if (named) return 'get';
      return isWatchRequest(query) ? 'watch' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return named ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
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
