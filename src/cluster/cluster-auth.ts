// An `auth: true` cluster's authentication and authorization, assembled (loaded only for such a
// cluster: fake-cluster.ts imports this module on demand, and what it needs from src/auth with it): the token authenticator
// (the default kubeconfig's token is the administrator's), the RBAC authorizer over the store,
// and the permission log behind cluster.permissions (the bootstrap roles every cluster has: bootstrap-rbac.ts).
import { ADMIN_IDENTITY, TokenAuthenticator, usernameOf, type Identity } from '../auth/authenticator.ts';
import { validateServiceAccountToken, type TokenObjectGetter } from '../auth/service-account-token-validator.ts';
import type { AuthParts } from '../auth/filter.ts';
import { minimalRoleYaml, notAllowedBy, PermissionLog, type UsedPermission } from '../auth/permissions.ts';
import { RbacAuthorizer } from '../auth/rbac-authorizer.ts';
import type { GenericRegistry } from '../registry/generic-registry.ts';
import { serviceAccountTokenClaims } from '../registry/subresources/serviceaccount-token.ts';
import type { VersionedStore } from '../storage/versioned-store.ts';
import type { Clock } from '../util/clock-and-random.ts';
import { loadManifests, type Manifests } from './manifests.ts';

/** cluster.permissions. Identities are an identity object or a user name. */
export interface Permissions {
  /** Every (verb, group, resource, subresource, namespace, name) the identity was allowed, discovery and self-reviews aside. */
  used(identity: Identity | string): UsedPermission[];
  /** The least ClusterRole (cluster scope) and Roles (per namespace) that allow exactly what `used()` lists, as YAML. */
  minimalRole(identity: Identity | string, options?: { name?: string }): string;
  /** What the identity used that the Roles/ClusterRoles in `manifests` (YAML text, paths, objects) would not allow; [] when they suffice. */
  notAllowedBy(identity: Identity | string, manifests: Manifests): Promise<UsedPermission[]>;
  /** Forgets what was recorded. */
  clear(): void;
}

export { withAuthorization } from '../auth/filter.ts';
export { escalationPlugin } from '../auth/escalation.ts';
export { ADMIN_IDENTITY, userOf } from '../auth/authenticator.ts';

/** The administrator's token: the one every kubefake kubeconfig has carried. */
const ADMIN_TOKEN = 'kubefake';

/** The core v1 resources a service account token names. */
export type TokenResource = 'serviceaccounts' | 'secrets' | 'pods' | 'nodes';

export function clusterAuth(store: VersionedStore, registryOf: (resource: TokenResource) => GenericRegistry, clock: Clock): AuthParts {
  // ServiceAccountTokenGetter over the stored objects, read as they are (no request semantics).
  const objects: TokenObjectGetter = {
    serviceAccount: (namespace, name) => registryOf('serviceaccounts').peek(namespace, name),
    secret: (namespace, name) => registryOf('secrets').peek(namespace, name),
    pod: (namespace, name) => registryOf('pods').peek(namespace, name),
    node: (name) => registryOf('nodes').peek(undefined, name),
  };
  const authenticator = new TokenAuthenticator((token, audiences) => {
    const verified = serviceAccountTokenClaims(registryOf('serviceaccounts'), token);
    if (!verified || 'error' in verified) return verified;
    return validateServiceAccountToken(verified.claims, audiences, clock.now(), objects);
  });
  authenticator.register(ADMIN_TOKEN, ADMIN_IDENTITY);
  return { authenticator, authorizer: new RbacAuthorizer(store), permissions: new PermissionLog() };
}

/** cluster.permissions of an `auth: true` cluster. */
export function permissionsApi(auth: AuthParts): Permissions {
  return {
    used: (identity) => auth.permissions.used(usernameOf(identity)),
    minimalRole: (identity, options = {}) => {
      const username = usernameOf(identity);
      return minimalRoleYaml(auth.permissions.used(username), options.name ?? roleNameFor(username));
    },
    async notAllowedBy(identity, manifests) {
      const roles = (await loadManifests(manifests)) as Record<string, unknown>[];
      return notAllowedBy(auth.permissions.used(usernameOf(identity)), roles);
    },
    clear: () => auth.permissions.clear(),
  };
}

/** A role name from a user name (`system:serviceaccount:ns:ctrl` → `ctrl`). */
function roleNameFor(username: string): string {
  const last = username.split(':').pop() || 'kubefake';
  return last.toLowerCase().replace(/[^a-z0-9.-]+/g, '-');
}
