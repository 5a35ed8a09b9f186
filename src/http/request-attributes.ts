// Who asked for what: the Kubernetes request attributes of an HTTP request (the verb, resource,
// namespace, name and subresource apiserver's RequestInfoFactory derives), for the request log,
// fault rules and the authorization filter.
import { isWatchRequest } from './query-options.ts';
import { parseRequestPath } from './request-info.ts';
import { rawRequestTarget, requestTargetOf } from './request-target.ts';
import { parseFieldSelector, selectorMetadataName } from '../selectors/field-selector.ts';
import { isPathSegmentName } from '../validation/names.ts';

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
  /**
   * Namespace in the path (for a namespace object, `/api/v1/namespaces/<name>`, its own name);
   * undefined for other cluster-scoped resources and requests across all namespaces.
   */
  namespace?: string;
  /**
   * Object name in the path; for a list or watch, the name its fieldSelector pins
   * (`metadata.name=web`), as RequestInfoFactory reads it; otherwise undefined for collections.
   */
  name?: string;
  /** `status`, `scale`… when the path names one. */
  subresource?: string;
  /** The User-Agent header (client-node sends `kubernetes-client-javascript/<version>`, kubectl `kubectl/<version> (…)`). */
  userAgent?: string;
}

export function requestAttributes(request: Request): RequestAttributes {
  const method = request.method.toUpperCase();
  const base = { method, path: rawRequestTarget(request), userAgent: request.headers.get('user-agent') ?? undefined };
  // A target net/http refuses (an invalid escape) is no resource request.
  const target = requestTargetOf(request);
  const info = target ? parseRequestPath(target.path) : undefined;
  if (!target || !info || info.kind === 'non-resource') return { ...base, verb: method.toLowerCase(), isResourceRequest: false };
  const { group, version, resource, name, subresource } = info;
  // requestinfo.go (RequestInfoFactory.NewRequestInfo): `/api/v1/namespaces/<name>` is a request
  // in namespace <name> on the namespaces resource, so a Role in that namespace can grant it.
  const namespace = info.namespace ?? (resource === 'namespaces' && name !== undefined ? name : undefined);
  const verb = resourceVerb(method, name !== undefined, info.watchPrefix, target.query);
  // A list or watch (without the watch prefix) whose fieldSelector pins metadata.name is a request
  // for that name (requestinfo.go), so RBAC's resourceNames can allow `kubectl get pod web -w`.
  const named = name ?? ((verb === 'list' || verb === 'watch') && !info.watchPrefix ? selectedName(target.query) : undefined);
  return { ...base, verb, isResourceRequest: true, group, version, resource, namespace, name: named, subresource };
}

/** fieldSelector's RequiresExactMatch("metadata.name"), when a valid path segment; a selector that does not parse names nothing. */
function selectedName(query: URLSearchParams): string | undefined {
  const text = query.get('fieldSelector');
  if (!text) return undefined;
  let name: string | undefined;
  try {
    name = selectorMetadataName(parseFieldSelector(text));
  } catch {
    return undefined;
  }
  return name !== undefined && isPathSegmentName(name).length === 0 ? name : undefined;
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
