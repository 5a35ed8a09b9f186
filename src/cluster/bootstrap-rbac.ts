// The bootstrap RBAC policy every cluster starts with, whatever its authorization mode: kube-apiserver
// installs it on each start (pkg/registry/rbac/rest/storage_rbac.go, PostStartHook
// "rbac/bootstrap-roles"). The objects come ready-made, managedFields and aggregated rules included,
// from src/generated/bootstrap-rbac.ts (src/cluster/bootstrap-rbac-templates.ts derives them when
// generating), frozen once and shared; each cluster stores shallow copies carrying its own uid and
// timestamps straight into the store: no registry, admission or field manager runs at start.
import type { KubeObject } from '../apis/object.ts';
import { BOOTSTRAP_RBAC } from '../generated/bootstrap-rbac.ts';
import { formatTimestamp } from '../go/time.ts';
import type { VersionedStore } from '../storage/versioned-store.ts';
import type { Clock, RandomSource } from '../util/clock-and-random.ts';
import { deepFreeze } from '../util/deep-freeze.ts';

deepFreeze(BOOTSTRAP_RBAC);

/**
 * Stores the bootstrap ClusterRoles (admin, edit and view already aggregated, as the controller
 * leaves them), ClusterRoleBindings, and the Roles and RoleBindings of kube-system and
 * kube-public (the namespaces must exist), each a shallow copy of a shared frozen template with this
 * cluster's uid and creation time (one timestamp for all, read once).
 */
export function installBootstrapRbac(store: VersionedStore, clock: Clock, random: RandomSource): void {
  const now = formatTimestamp(clock.now());
  for (const { bucket, key, object, managedFields } of BOOTSTRAP_RBAC) {
    const { name, namespace, labels, annotations } = object.metadata;
    // Go's ObjectMeta order, as the apiserver writes it.
    const metadata = {
      name,
      ...(namespace ? { namespace } : {}),
      uid: random.uid(),
      resourceVersion: '',
      creationTimestamp: now,
      labels,
      annotations,
      managedFields: managedFields.map(({ manager, operation, apiVersion, fieldsType, fieldsV1 }) => ({ manager, operation, apiVersion, time: now, fieldsType, fieldsV1 })),
    };
    store.create(bucket, key, { ...object, metadata } as KubeObject);
  }
}
