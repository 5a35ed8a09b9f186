// Authentication for `auth: true` clusters: bearer tokens of static identities minted by the
// cluster (cluster.kubeConfigFor) and of service accounts (TokenRequest JWTs, verified as the
// serviceaccount authenticator does). Every authenticated user is in system:authenticated (the
// group adder of kube-apiserver's authenticator chain); a request with no token is
// system:anonymous in system:unauthenticated (anonymous auth is on by default).
import { randomBytes } from 'node:crypto';
import type { UserInfo } from '../apis/options.ts';
import { API_AUDIENCES, type TokenAuthentication } from './service-account-token-validator.ts';
import { ALL_AUTHENTICATED, authenticatedServiceAccount } from '../apis/service-account-user.ts';

/** Whom a kubeconfig speaks for: a user with groups, or a service account `namespace/name`. */
export type Identity = { user: string; groups?: string[]; uid?: string; extra?: Record<string, string[]> } | { serviceAccount: string };

export const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
export const ADMIN_IDENTITY: Identity = { user: 'kubefake-admin', groups: ['system:masters'] };

/** bearertoken.invalidToken: the error when a bearer token is presented and no authenticator knows it. */
const INVALID_BEARER_TOKEN = 'invalid bearer token';

/** The user an identity authenticates as (groups as the real authenticators add them). */
export function userOf(identity: Identity): UserInfo {
  if ('serviceAccount' in identity) {
    const [namespace, name, ...rest] = identity.serviceAccount.split('/');
    if (!namespace || !name || rest.length) throw new TypeError(`kubefake: a service account identity is "namespace/name", got ${JSON.stringify(identity.serviceAccount)}`);
    return authenticatedServiceAccount(namespace, name);
  }
  const groups = [...(identity.groups ?? [])];
  if (!groups.includes(ALL_AUTHENTICATED)) groups.push(ALL_AUTHENTICATED);
  return { username: identity.user, groups, ...(identity.uid ? { uid: identity.uid } : {}), ...(identity.extra ? { extra: identity.extra } : {}) };
}

/** The stable key of an identity (permissions are recorded by user name). */
export const usernameOf = (identity: Identity | string): string => (typeof identity === 'string' ? identity : userOf(identity).username);

export class TokenAuthenticator {
  private readonly tokens = new Map<string, UserInfo>();
  private readonly serviceAccountToken: (token: string, audiences: readonly string[]) => TokenAuthentication | undefined;

  /** `serviceAccountToken`: the service account token authenticator, undefined when the token is not one of its. */
  constructor(serviceAccountToken: (token: string, audiences: readonly string[]) => TokenAuthentication | undefined) {
    this.serviceAccountToken = serviceAccountToken;
  }

  /** A bearer token for `identity` (the same one each time it is asked for). */
  tokenFor(identity: Identity): string {
    const user = userOf(identity);
    for (const [token, known] of this.tokens) if (known.username === user.username && JSON.stringify(known) === JSON.stringify(user)) return token;
    const token = `kubefake-${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, user);
    return token;
  }

  /** Makes `token` authenticate as `identity` (the default kubeconfig's and a TLS listener's tokens). */
  register(token: string, identity: Identity): void {
    this.tokens.set(token, userOf(identity));
  }

  /**
   * The bearer token authenticator chain for `audiences` (the API server's own unless a TokenReview
   * names others): the cluster's own tokens first (static tokens, audience-agnostic: good only for
   * the API server's audiences, as authenticator.WrapAudienceAgnosticToken makes them), then the
   * service account tokens; a token nobody knows is bearertoken's `invalid bearer token`.
   */
  review(token: string, audiences: readonly string[] = API_AUDIENCES): TokenAuthentication {
    const known = this.tokens.get(token);
    if (known) {
      // authenticator.Audiences.Intersect: the requested audiences that are the API server's, in the request's order.
      const granted = audiences.filter((a) => API_AUDIENCES.includes(a));
      if (granted.length) return { user: known, audiences: granted };
    }
    return this.serviceAccountToken(token, audiences) ?? { error: INVALID_BEARER_TOKEN };
  }

  /**
   * The user of an `Authorization` header: undefined for a bearer token that does not authenticate
   * (401); ANONYMOUS without a bearer token (the bearer authenticator has no opinion on other
   * schemes, and the anonymous authenticator comes last in the union).
   */
  authenticate(header: string | null): UserInfo | undefined {
    const parts = (header ?? '').trim().split(' ');
    if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer' || parts[1] === '') return ANONYMOUS;
    const result = this.review(parts[1]!);
    return 'user' in result ? result.user : undefined;
  }
}
