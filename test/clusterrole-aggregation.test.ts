import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createFakeCluster } from '../src/index.ts';

describe('clusterrole aggregation (without auth too)', () => {
  it('writes the rules of the selected ClusterRoles into the aggregated one, and follows their changes', async () => {
    await using cluster = await createFakeCluster();
    const rbac = cluster.kubeConfig.makeApiClient(k8s.RbacAuthorizationV1Api);
    await rbac.createClusterRole({ body: { metadata: { name: 'monitoring' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-monitoring': 'true' } }] } } });
    await rbac.createClusterRole({ body: { metadata: { name: 'b-pods', labels: { 'example.com/aggregate-to-monitoring': 'true' } }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] } });
    await rbac.createClusterRole({ body: { metadata: { name: 'a-nodes', labels: { 'example.com/aggregate-to-monitoring': 'true' } }, rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }, { apiGroups: [''], resources: ['pods'], verbs: ['get'] }] } });
    await cluster.settle();
    expect((await rbac.readClusterRole({ name: 'monitoring' })).rules).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['list'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
    ]);
    await rbac.deleteClusterRole({ name: 'a-nodes' });
    await cluster.settle();
    expect((await rbac.readClusterRole({ name: 'monitoring' })).rules).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
  });

  it('writes the rules as a forced server-side apply of the controller (its managedFields entry owns rules)', async () => {
    // pkg/controller/clusterroleaggregation applyClusterRoles: Apply with FieldManager
    // "clusterrole-aggregation-controller", Force: true, of a ClusterRole with only its rules.
    await using cluster = await createFakeCluster();
    const rbac = cluster.kubeConfig.makeApiClient(k8s.RbacAuthorizationV1Api);
    await rbac.createClusterRole({ body: { metadata: { name: 'monitoring' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-monitoring': 'true' } }] } } });
    await rbac.createClusterRole({ body: { metadata: { name: 'pods', labels: { 'example.com/aggregate-to-monitoring': 'true' } }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] } });
    await cluster.settle();
    const managed = (await rbac.readClusterRole({ name: 'monitoring' })).metadata?.managedFields ?? [];
    const controller = managed.find((entry) => entry.manager === 'clusterrole-aggregation-controller');
    expect(controller).toMatchObject({ operation: 'Apply', apiVersion: 'rbac.authorization.k8s.io/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:rules': {} } });
    // Every selected role gone: the applied configuration has no rules, so the controller's rules go.
    await rbac.deleteClusterRole({ name: 'pods' });
    await cluster.settle();
    const after = await rbac.readClusterRole({ name: 'monitoring' });
    expect(after.rules ?? []).toEqual([]);
    expect(after.aggregationRule?.clusterRoleSelectors).toHaveLength(1);
  });
});
