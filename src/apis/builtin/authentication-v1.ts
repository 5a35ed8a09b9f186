// authentication.k8s.io/v1: create-only review APIs that store nothing; discovery data from the
// generated catalogue. kubefake has no authentication: every request is taken to come from one
// cluster administrator (REQUESTER), and no token authenticator is configured.
//  - TokenReview (pkg/registry/authentication/tokenreview/storage.go): an empty spec.token is
//    400 `token is required for TokenReview in authentication`; with no token authenticator the
//    review comes back unchanged, status zero (`{"user":{}}`: not authenticated).
//  - SelfSubjectReview (pkg/registry/authentication/selfsubjectreview/rest.go): a new review
//    stamped with the current time, status.userInfo the requester.
import { badRequest } from '../../errors/status-error.ts';
import { formatTimestamp } from '../../go/time.ts';
import type { ResourceType } from '../resource-type.ts';
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
      createOnly: (obj) => {
        const token = getIn(obj, ['spec', 'token']);
        if (typeof token !== 'string' || token === '') throw badRequest('token is required for TokenReview in authentication');
        child(obj, 'spec');
        // The decoded metadata as Go writes it back: unset fields (creationTimestamp: null) drop out.
        obj.metadata = Object.fromEntries(Object.entries(obj.metadata ?? {}).filter(([, v]) => v !== null && v !== undefined));
        obj.status = { user: {} };
        return obj;
      },
    }),
  ];
}
