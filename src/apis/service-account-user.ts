// The user a service account is (apiserver/pkg/authentication/serviceaccount/util.go): shared by
// the token authenticator, the service account token validator, impersonation and the CEL authorizer library.
import type { UserInfo } from './options.ts';

/** user.AllAuthenticated: the group the authenticator chain's group adder puts every authenticated user in. */
export const ALL_AUTHENTICATED = 'system:authenticated';

/**
 * serviceaccount.UserInfo: a service account's user name (MakeUsername) and groups
 * (MakeGroupNames), before authentication's group adder puts system:authenticated after them.
 */
export function serviceAccountUser(namespace: string, name: string, uid?: string): UserInfo {
  return { username: `system:serviceaccount:${namespace}:${name}`, ...(uid ? { uid } : {}), groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`] };
}

/** A service account's user as a token authenticates it: in system:authenticated too. */
export function authenticatedServiceAccount(namespace: string, name: string, uid?: string): UserInfo {
  const user = serviceAccountUser(namespace, name, uid);
  return { ...user, groups: [...user.groups!, ALL_AUTHENTICATED] };
}
