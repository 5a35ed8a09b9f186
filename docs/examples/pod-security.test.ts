import * as k8s from '@kubernetes/client-node';
import { expect, test } from 'vitest';
import { createFakeCluster } from 'kubefake';

test('Pod Security admission: a restricted namespace refuses a pod that runs as it likes', async () => {
  await using cluster = await createFakeCluster();
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: 'secure', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } } });

  const plain = { metadata: { name: 'web' }, spec: { containers: [{ name: 'web', image: 'nginx' }] } };
  const refused = await core.createNamespacedPod({ namespace: 'secure', body: plain }).catch((e: k8s.ApiException<string>) => e);
  expect((refused as k8s.ApiException<string>).code).toBe(403);
  expect(JSON.parse((refused as k8s.ApiException<string>).body).message).toBe(
    'pods "web" is forbidden: violates PodSecurity "restricted:latest": ' +
      'allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false), ' +
      'unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"]), ' +
      'runAsNonRoot != true (pod or container "web" must set securityContext.runAsNonRoot=true), ' +
      'seccompProfile (pod or container "web" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  );

  const securityContext = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } };
  const hardened = { metadata: { name: 'web' }, spec: { containers: [{ name: 'web', image: 'nginx', securityContext }] } };
  expect((await core.createNamespacedPod({ namespace: 'secure', body: hardened })).metadata?.name).toBe('web');
});
