// authentication.k8s.io/v1: create-only review APIs that store nothing; discovery data from the
// generated catalogue. Without `auth: true` every request is taken to come from one cluster
// administrator (REQUESTER), and no token authenticator is configured.
//  - TokenReview (pkg/registry/authentication/tokenreview/storage.go): an empty spec.token is
//    400 `token is required for TokenReview in authentication`; with no token authenticator the
//    review comes back unchanged, status zero (`{"user":{}}`: not authenticated). An
//    authenticating cluster asks its token authenticator for spec.audiences (the API server's own
//    when empty): authenticated, the user and the audiences granted, or the error that refused it.
//  - SelfSubjectReview (pkg/registry/authentication/selfsubjectreview/rest.go): a new review
//    stamped with the current time, status.userInfo the requester.
import { badRequest } from '../../errors/status-error.ts';
import { formatTimestamp } from '../../go/time.ts';
import type { ResourceType, TokenReviewer } from '../resource-type.ts';
import { builtin, child, getIn } from './shared.ts';

/** The user every kubefake request is made as: a cluster administrator (group system:masters). */
export const REQUESTER = { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] } as const;

const review = { allowUnconditionalUpdate: false, allowCreateOnUpdate: false, returnDeletedObject: false, namespaced: false } as const;

export function authenticationV1ResourceTypes(): ResourceType[] {
  return [
    builtin('authentication.k8s.io', 'v1', {
      ...review,
      kind: 'SelfSubjectReview',
      plural: 'selfsubjectreviews',
      // An authenticating cluster (auth: true) answers with the requester itself.
      createOnly: (obj, { now, user }) => ({
        kind: obj.kind,
        apiVersion: obj.apiVersion,
        metadata: { creationTimestamp: formatTimestamp(now) },
        status: { userInfo: user ? { username: user.username, ...(user.uid ? { uid: user.uid } : {}), groups: [...(user.groups ?? [])], ...(user.extra ? { extra: user.extra } : {}) } : { username: REQUESTER.username, groups: [...REQUESTER.groups] } },
      }),
    }),
    builtin('authentication.k8s.io', 'v1', {
      ...review,
      kind: 'TokenReview',
      plural: 'tokenreviews',
      createOnly: (obj, { tokens }) => {
        const token = getIn(obj, ['spec', 'token']);
        if (typeof token !== 'string' || token === '') throw badRequest('token is required for TokenReview in authentication');
        const spec = child(obj, 'spec');
        // The decoded metadata as Go writes it back: unset fields (creationTimestamp: null) drop out.
        obj.metadata = Object.fromEntries(Object.entries(obj.metadata ?? {}).filter(([, v]) => v !== null && v !== undefined));
        obj.status = tokens ? tokenReviewStatus(tokens, token, spec.audiences) : { user: {} };
        return obj;
      },
    }),
  ];
}

/**
 * TokenReviewStatus as REST.Create fills it: `authenticated` (omitted when false), the user with its
 * extra, the audiences the authenticator granted, or `error` with the authenticator's text.
 */
function tokenReviewStatus(tokens: TokenReviewer, token: string, audiences: unknown): Record<string, unknown> {
  const requested = Array.isArray(audiences) && audiences.length > 0 ? audiences.filter((a): a is string => typeof a === 'string') : undefined;
  const result = tokens.review(token, requested);
  if ('error' in result) return { user: {}, error: result.error };
  const { username, uid, groups, extra } = result.user;
  return {
    authenticated: true,
    user: { username, ...(uid ? { uid } : {}), ...(groups?.length ? { groups: [...groups] } : {}), ...(extra && Object.keys(extra).length ? { extra } : {}) },
    audiences: result.audiences,
  };
}
