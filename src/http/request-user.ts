// Who a request is served as, when the cluster authenticates (auth/filter.ts sets it): the
// handler passes it on in the write options, for admission's userInfo and the review APIs.
import type { UserInfo } from '../apis/options.ts';

const requestUsers = new WeakMap<Request, UserInfo>();

export function rememberRequestUser(request: Request, user: UserInfo): void {
  requestUsers.set(request, user);
}

/** The authenticated user of `request`; undefined on a cluster without authentication. */
export function userOfRequest(request: Request): UserInfo | undefined {
  return requestUsers.get(request);
}
