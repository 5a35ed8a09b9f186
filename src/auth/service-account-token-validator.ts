// What kube-apiserver's service account token authenticator checks once a token's signature and
// issuer are known good: the audiences (pkg/serviceaccount/jwt.go, checkAudiences), then
// validator.Validate (pkg/serviceaccount/claims.go): the times, then the service account, and the
// Secret, Pod or Node the token is bound to, each still there with the uid the token names and not
// deleted more than jwt.DefaultLeeway ago. Each refusal is the validator's error text, which
// TokenReview answers in status.error (the API answers a plain 401).
// Ported from the newest claims.go the reference index holds (with node bindings and credential
// ids; no copy tagged v1.36 is indexed, and there is no pkg/serviceaccount/lookup.go in it: the
// deletion rule is Validate's `invalidIfDeletedBefore`). kube-apiserver's 10s cache of successful
// token authentications is not modelled: every request is validated afresh.
import type { UserInfo } from '../apis/options.ts';
import { SERVICE_ACCOUNT_ISSUER, type ServiceAccountTokenClaims } from '../registry/subresources/serviceaccount-token.ts';
import { goQuote } from '../errors/go-format.ts';
import { authenticatedServiceAccount } from '../apis/service-account-user.ts';

/** --api-audiences: the API server's own audiences (its service account issuer, as kubeadm sets it). */
export const API_AUDIENCES: readonly string[] = [SERVICE_ACCOUNT_ISSUER];

/** go-jose jwt.DefaultLeeway: how far a token's times, and a deletion, may lie. */
const LEEWAY_MS = 60_000;

/** What the validator reads of an object a token names. */
export interface TokenObject {
  metadata: { uid?: string; deletionTimestamp?: string };
}

/** ServiceAccountTokenGetter: the stored objects, undefined when absent. */
export interface TokenObjectGetter {
  serviceAccount(namespace: string, name: string): TokenObject | undefined;
  secret(namespace: string, name: string): TokenObject | undefined;
  pod(namespace: string, name: string): TokenObject | undefined;
  node(name: string): TokenObject | undefined;
}

/** An authenticator's answer: a user (with the audiences it is good for), or why not. */
export type TokenAuthentication = { user: UserInfo; audiences: string[] } | { error: string };

// The extra keys of serviceaccount.ServiceAccountInfo.UserInfo (apiserver/pkg/authentication/serviceaccount).
const POD_NAME_KEY = 'authentication.kubernetes.io/pod-name';
const POD_UID_KEY = 'authentication.kubernetes.io/pod-uid';
const NODE_NAME_KEY = 'authentication.kubernetes.io/node-name';
const NODE_UID_KEY = 'authentication.kubernetes.io/node-uid';
const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';

const INVALIDATED = 'service account token has been invalidated';

/** Go's `%q` of a []string (authenticator.Audiences): each quoted, space-separated, in brackets. */
const quotedList = (values: readonly string[]) => `[${values.map(goQuote).join(' ')}]`;

/** `deletionTimestamp.Before(now - leeway)`: deleted long enough ago that its tokens are done. */
function deletedBefore(obj: TokenObject, now: Date): boolean {
  const at = obj.metadata.deletionTimestamp;
  return !!at && Date.parse(at) < now.getTime() - LEEWAY_MS;
}

/**
 * The user a verified service account token authenticates as for `requestedAudiences` (the API
 * server's own when the request names none), or the error that refuses it.
 */
export function validateServiceAccountToken(claims: ServiceAccountTokenClaims, requestedAudiences: readonly string[], now: Date, objects: TokenObjectGetter): TokenAuthentication {
  // checkAudiences: a token without audiences is for the API server's (implicitAuds); the granted
  // ones are authenticator.Audiences.Intersect's: the requested audiences the token has, in the
  // request's order and as often as requested.
  const tokenAudiences = claims.aud?.length ? claims.aud : API_AUDIENCES;
  const audiences = requestedAudiences.filter((a) => tokenAudiences.includes(a));
  if (audiences.length === 0) return { error: `token audiences ${quotedList(tokenAudiences)} is invalid for the target audiences ${quotedList(requestedAudiences)}` };

  // jwt.Claims.Validate with DefaultLeeway: not-before, expiry, then issued-at (NumericDates are seconds).
  const t = now.getTime();
  if (claims.nbf !== undefined && t + LEEWAY_MS < claims.nbf * 1000) return { error: 'service account token is not valid yet' };
  if (claims.exp !== undefined && t - LEEWAY_MS > claims.exp * 1000) return { error: 'service account token has expired' };
  if (claims.iat !== undefined && t + LEEWAY_MS < claims.iat * 1000) return { error: 'service account token is issued in the future' };

  const k = claims['kubernetes.io'] ?? {};
  const namespace = k.namespace ?? '';
  const saRef = k.serviceaccount ?? {};
  const saName = saRef.name ?? '';
  const sa = objects.serviceAccount(namespace, saName);
  // GetServiceAccount's error as is: the client Get's NotFound.
  if (!sa) return { error: `serviceaccounts "${saName}" not found` };
  if ((sa.metadata.uid ?? '') !== (saRef.uid ?? '')) return { error: `service account UID (${sa.metadata.uid ?? ''}) does not match claim (${saRef.uid ?? ''})` };
  if (deletedBefore(sa, now)) return { error: `service account ${namespace}/${saName} has been deleted` };

  if (k.secret) {
    const secret = objects.secret(namespace, k.secret.name ?? '');
    if (!secret) return { error: INVALIDATED };
    if ((k.secret.uid ?? '') !== (secret.metadata.uid ?? '')) return { error: `secret UID (${secret.metadata.uid ?? ''}) does not match service account secret ref claim (${k.secret.uid ?? ''})` };
    if (deletedBefore(secret, now)) return { error: INVALIDATED };
  }

  const extra: Record<string, string[]> = {};
  if (k.pod) {
    const pod = objects.pod(namespace, k.pod.name ?? '');
    if (!pod) return { error: INVALIDATED };
    if ((k.pod.uid ?? '') !== (pod.metadata.uid ?? '')) return { error: `pod UID (${pod.metadata.uid ?? ''}) does not match service account pod ref claim (${k.pod.uid ?? ''})` };
    if (deletedBefore(pod, now)) return { error: INVALIDATED };
    if (k.pod.name && k.pod.uid) {
      extra[POD_NAME_KEY] = [k.pod.name];
      extra[POD_UID_KEY] = [k.pod.uid];
    }
  }

  let node: { name: string; uid: string } | undefined;
  if (k.node) {
    if (k.pod) {
      // A pod-bound token's node claim is information only (ServiceAccountTokenPodNodeInfo).
      node = { name: k.node.name ?? '', uid: k.node.uid ?? '' };
    } else {
      const stored = objects.node(k.node.name ?? '');
      if (!stored) return { error: INVALIDATED };
      if ((k.node.uid ?? '') !== (stored.metadata.uid ?? '')) return { error: `node UID (${stored.metadata.uid ?? ''}) does not match service account node ref claim (${k.node.uid ?? ''})` };
      if (deletedBefore(stored, now)) return { error: INVALIDATED };
      node = { name: k.node.name ?? '', uid: k.node.uid ?? '' };
    }
  }

  // ServiceAccountInfo.UserInfo: pod, credential id (CredentialIDForJTI), node; the group adder
  // of the authenticator chain puts system:authenticated after the service account groups.
  if (claims.jti) extra[CREDENTIAL_ID_KEY] = [`JTI=${claims.jti}`];
  if (node?.name) {
    extra[NODE_NAME_KEY] = [node.name];
    if (node.uid) extra[NODE_UID_KEY] = [node.uid];
  }
  const user: UserInfo = {
    ...authenticatedServiceAccount(namespace, saName, saRef.uid),
    // A Go map on the wire (TokenReview, SelfSubjectReview): keys sorted.
    ...(Object.keys(extra).length ? { extra: Object.fromEntries(Object.entries(extra).sort(([a], [b]) => (a < b ? -1 : 1))) } : {}),
  };
  return { user, audiences };
}
