// cluster.permissions of a cluster without `auth: true`: every method says what it needs (the
// real one, cluster-auth.ts, loads only with authentication).
import type { Permissions } from './cluster-auth.ts';

const needsAuth = (): never => {
  throw new Error('kubefake: cluster.permissions needs a cluster created with { auth: true }');
};

export const permissionsWithoutAuth: Permissions = { used: needsAuth, minimalRole: needsAuth, notAllowedBy: async () => needsAuth(), clear: needsAuth };
