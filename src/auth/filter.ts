// The authentication, impersonation and authorization filters of kube-apiserver's handler chain
// (endpoints/filters/authentication.go, impersonation.go, authorization.go), in front of the API
// handler of an `auth: true` cluster: 401 for a token nobody issued, 403 with the real texts for
// what RBAC does not allow, and a record of every permission used.
import type { UserInfo } from '../apis/options.ts';
import { badRequest, forbidden, unauthorized } from '../errors/status-error.ts';
import { requestAttributes } from '../http/request-attributes.ts';
import { errorResponse } from '../http/responses.ts';
import { clientCertificateUser, rememberRequestUser } from '../http/request-user.ts';
import { isDNS1123Label, isDNS1123Subdomain } from '../validation/names.ts';
import { forbiddenMessage, type AuthorizationAttributes } from './attributes.ts';
import { ANONYMOUS, type TokenAuthenticator } from './authenticator.ts';
import { serviceAccountUser } from '../apis/service-account-user.ts';
import type { PermissionLog } from './permissions.ts';
import type { RbacAuthorizer } from './rbac-authorizer.ts';

export interface AuthParts {
  authenticator: TokenAuthenticator;
  authorizer: RbacAuthorizer;
  permissions: PermissionLog;
}

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
// The user and group names of authentication/user/user.go.
const ANONYMOUS_USER = ANONYMOUS.username;
const ALL_AUTHENTICATED = 'system:authenticated';
const ALL_UNAUTHENTICATED = 'system:unauthenticated';

export function withAuthorization(handle: (request: Request) => Promise<Response>, parts: AuthParts): (request: Request) => Promise<Response> {
  return async (request) => {
    // The union authenticator: a verified client certificate first, then the bearer token.
    const authenticated = clientCertificateUser(request) ?? parts.authenticator.authenticate(request.headers.get('authorization'));
    if (!authenticated) return errorResponse(unauthorized());
    const impersonated = impersonate(request, authenticated, parts);
    if (impersonated instanceof Response) return impersonated;
    const user = impersonated;
    const attrs = authorizationAttributes(request, user);
    const decision = parts.authorizer.authorize(attrs);
    if (!decision.allowed) return forbiddenResponse(attrs, decision.reason);
    parts.permissions.record(attrs);
    rememberRequestUser(request, user);
    return handle(request);
  };
}

/** authorizer.Attributes of a request, from the request info the HTTP layer derives. */
function authorizationAttributes(request: Request, user: UserInfo): AuthorizationAttributes {
  const info = requestAttributes(request);
  const path = new URL(request.url).pathname;
  const resource = info.resource ?? '';
  const name = info.name ?? '';
  const namespace = info.namespace ?? '';
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path,
    apiGroup: info.group ?? '',
    apiVersion: info.version ?? '',
    resource,
    subresource: info.subresource ?? '',
    namespace,
    name,
  };
}

/** responsewriters.Forbidden: a 403 Status naming the group resource and object. */
function forbiddenResponse(attrs: AuthorizationAttributes, reason: string): Response {
  const gr = attrs.isResourceRequest ? { group: attrs.apiGroup, resource: attrs.resource } : null;
  return errorResponse(forbidden(gr, attrs.name, forbiddenMessage(attrs, reason)));
}

/**
 * The values of a header sent on several lines. Go reads each line as one value (req.Header[name]);
 * a fetch Request holds them joined with ", " (the Fetch standard's combine), so that is the split:
 * kubectl's `--as-group a --as-group b` gives two groups, one line `a,b` stays the group "a,b" as in Go.
 * (A value that itself holds ", " cannot be told apart from two lines once joined.)
 */
function headerLines(joined: string | null): string[] {
  return joined === null ? [] : joined.split(', ').map((v) => v.trim());
}

/**
 * WithImpersonation: Impersonate-User, -Group, -Uid and -Extra-* headers, each checked with the
 * `impersonate` verb for the acting user; answers the user to serve the request as, or the refusal.
 */
function impersonate(request: Request, actor: UserInfo, parts: AuthParts): UserInfo | Response {
  const headers = request.headers;
  const username = headers.get('impersonate-user') ?? '';
  const groups = headerLines(headers.get('impersonate-group')).filter(Boolean);
  const uid = headers.get('impersonate-uid') ?? '';
  const extra: Record<string, string[]> = {};
  headers.forEach((value, key) => {
    if (key.startsWith('impersonate-extra-')) extra[unescapeExtraKey(key.slice('impersonate-extra-'.length))] = headerLines(value);
  });
  const asked = username || groups.length || uid || Object.keys(extra).length;
  if (!asked) return actor;
  if (!username) return errorResponse(badRequest(`requested ${impersonationRequestList(groups, extra, uid)} without impersonating a user`));
  const checks: Omit<AuthorizationAttributes, 'user' | 'verb' | 'isResourceRequest' | 'path' | 'apiVersion'>[] = [];
  const serviceAccount = splitServiceAccountUsername(username);
  if (serviceAccount) {
    checks.push({ apiGroup: '', resource: 'serviceaccounts', subresource: '', ...serviceAccount });
  } else {
    checks.push({ apiGroup: '', resource: 'users', subresource: '', namespace: '', name: username });
  }
  for (const group of groups) checks.push({ apiGroup: '', resource: 'groups', subresource: '', namespace: '', name: group });
  // buildImpersonationRequests' order: user, groups, extras, uid (the first refused is the 403).
  for (const [key, values] of Object.entries(extra)) for (const value of values) checks.push({ apiGroup: 'authentication.k8s.io', resource: 'userextras', subresource: key, namespace: '', name: value });
  if (uid) checks.push({ apiGroup: 'authentication.k8s.io', resource: 'uids', subresource: '', namespace: '', name: uid });
  for (const check of checks) {
    const attrs: AuthorizationAttributes = { ...check, user: actor, verb: 'impersonate', isResourceRequest: true, path: '', apiVersion: '' };
    const decision = parts.authorizer.authorize(attrs);
    if (!decision.allowed) return forbiddenResponse(attrs, decision.reason);
  }
  const impersonatedGroups = [...groups];
  if (serviceAccount && !groups.length) impersonatedGroups.push(...serviceAccountUser(serviceAccount.namespace, serviceAccount.name).groups!);
  // Impersonate-Group headers are the authority, system:authenticated and system:unauthenticated
  // included: the one missing is added unless either is there (impersonation.go).
  if (username !== ANONYMOUS_USER) {
    if (!impersonatedGroups.includes(ALL_AUTHENTICATED) && !impersonatedGroups.includes(ALL_UNAUTHENTICATED)) impersonatedGroups.push(ALL_AUTHENTICATED);
  } else if (!impersonatedGroups.includes(ALL_UNAUTHENTICATED)) impersonatedGroups.push(ALL_UNAUTHENTICATED);
  return { username, groups: impersonatedGroups, ...(uid ? { uid } : {}), ...(Object.keys(extra).length ? { extra } : {}) };
}

/**
 * serviceaccount.SplitUsername: the namespace and name of `system:serviceaccount:<ns>:<name>` with
 * exactly those two parts, a valid namespace and a valid service account name; anything else
 * impersonates a User of that name (impersonation.go buildImpersonationRequests).
 */
function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (isDNS1123Label(namespace).length > 0 || isDNS1123Subdomain(name).length > 0) return undefined;
  return { namespace, name };
}

/** unescapeExtraKey: the %-escaped key of an Impersonate-Extra- header; a malformed escape is kept as sent. */
function unescapeExtraKey(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/**
 * The impersonation requests as buildImpersonationRequests prints them with %v: a Go slice of
 * v1.ObjectReference structs, each `{Kind Namespace Name UID APIVersion ResourceVersion FieldPath}`
 * with empty fields left empty (groups, then extras, then the uid, as the headers are read; Go
 * ranges over the extra headers in map order, which varies, kubefake keeps the request's order).
 */
function impersonationRequestList(groups: string[], extra: Record<string, string[]>, uid: string): string {
  const reference = (kind: string, name: string, apiVersion = '', fieldPath = '') => `{${[kind, '', name, '', apiVersion, '', fieldPath].join(' ')}}`;
  const references = [
    ...groups.map((group) => reference('Group', group)),
    ...Object.entries(extra).flatMap(([key, values]) => values.map((value) => reference('UserExtra', value, 'authentication.k8s.io/v1', key))),
    ...(uid ? [reference('UID', uid, 'authentication.k8s.io/v1')] : []),
  ];
  return `[${references.join(' ')}]`;
}
