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

/** The user a verified TLS client certificate names (CN, and O as groups), set by the listener. */
const certificateUsers = new WeakMap<Request, UserInfo>();

export function rememberClientCertificate(request: Request, user: UserInfo): void {
  certificateUsers.set(request, user);
}

export function clientCertificateUser(request: Request): UserInfo | undefined {
  return certificateUsers.get(request);
}
