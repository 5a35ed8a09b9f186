// Splits a request path into API coordinates, as apiserver's RequestInfoFactory does.

export interface ResourceRequest {
  kind: 'resource';
  group: string;
  version: string;
  namespace: string | undefined;
  resource: string;
  name: string | undefined;
  subresource: string | undefined;
  /** True for the legacy `/watch/` prefix. */
  watchPrefix: boolean;
}

export interface NonResourceRequest {
  kind: 'non-resource';
  path: string;
}

export type RequestInfo = ResourceRequest | NonResourceRequest;

/** Subresources of namespaces that must not be read as a namespaced resource name. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/**
 * `path` is the decoded URL.Path (see requestTargetOf): like RequestInfoFactory, the path is
 * split after decoding, so `%2F` separates segments and `..` stays a segment of its own.
 */
export function parseRequestPath(decodedPath: string): RequestInfo {
  const path = decodedPath.replace(/\/{2,}/g, '/');
  const parts = path.split('/').filter((p) => p !== '');
  let rest: string[];
  let group: string;
  let version: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return { kind: 'non-resource', path };
  }
  let watchPrefix = false;
  if (rest[0] === 'watch') {
    watchPrefix = true;
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  // `namespaces/<ns>/<resource>...` addresses a namespaced resource, unless what follows the
  // namespace name is one of the namespace object's own subresources.
  if (rest[0] === 'namespaces' && rest.length >= 3 && !(rest.length === 3 && NAMESPACE_SUBRESOURCES.has(rest[2]!))) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  // A proxy subresource carries the path to proxy to after it (requestinfo.go keeps it in Parts).
  if (rest.length === 0 || (rest.length > 3 && rest[2] !== 'proxy')) return { kind: 'non-resource', path };
  return { kind: 'resource', group, version, namespace, resource: rest[0]!, name: rest[1], subresource: rest[2], watchPrefix };
}
