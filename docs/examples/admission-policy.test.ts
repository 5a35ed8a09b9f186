import * as k8s from '@kubernetes/client-node';
import { expect, test } from 'vitest';
import { createFakeCluster } from 'kubefake';

test('a ValidatingAdmissionPolicy refuses a Deployment with too many replicas', async () => {
  await using cluster = await createFakeCluster();
  await cluster.apply([
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'replica-limit' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }] },
        validations: [{ expression: 'object.spec.replicas <= 5', messageExpression: "'replicas must be at most 5, not ' + string(object.spec.replicas)" }],
      },
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'replica-limit' },
      spec: { policyName: 'replica-limit', validationActions: ['Deny'] },
    },
  ]);

  const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  const deployment = (replicas: number): k8s.V1Deployment => ({
    metadata: { name: 'web' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
    },
  });
  const refused = await apps.createNamespacedDeployment({ namespace: 'default', body: deployment(10) }).catch((e: k8s.ApiException<string>) => e);
  expect(refused).toMatchObject({ code: 422 });
  expect(JSON.parse((refused as k8s.ApiException<string>).body).message).toBe(
    `deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit' denied request: replicas must be at most 5, not 10`,
  );
  await apps.createNamespacedDeployment({ namespace: 'default', body: deployment(3) });
});
