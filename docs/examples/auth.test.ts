import * as k8s from '@kubernetes/client-node';
import { expect, test } from 'vitest';
import { createFakeCluster } from 'kubefake';

test('a controller identity: denied, then allowed by a Role, and the least Role it needs', async () => {
  await using cluster = await createFakeCluster({ auth: true }); // cluster.kubeConfig stays the administrator
  const bot = { serviceAccount: 'default/bot' };
  const core = cluster.kubeConfigFor(bot).makeApiClient(k8s.CoreV1Api);

  const denied = await core.listNamespacedSecret({ namespace: 'default' }).catch((e: k8s.ApiException<string>) => JSON.parse(e.body).message);
  expect(denied).toBe('secrets is forbidden: User "system:serviceaccount:default:bot" cannot list resource "secrets" in API group "" in the namespace "default"');

  await cluster.apply([
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'bot', namespace: 'default' }, rules: [{ apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: ['*'] }] },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'bot', namespace: 'default' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'bot' },
      subjects: [{ kind: 'ServiceAccount', name: 'bot', namespace: 'default' }],
    },
  ]);
  await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'state' } } });

  // What the identity was allowed to do, and the least Role for exactly that.
  expect(cluster.permissions.used(bot).map((p) => `${p.verb} ${p.resource}`)).toEqual(['create configmaps']);
  expect(cluster.permissions.minimalRole(bot)).toContain('kind: Role');
  await expect(cluster.permissions.notAllowedBy(bot, cluster.permissions.minimalRole(bot))).resolves.toEqual([]);
});
