import * as k8s from '@kubernetes/client-node';
import { expect, test } from 'vitest';
import { createFakeCluster } from 'kubefake';

test('a watch of Tables, as kubectl get --watch asks for it', async () => {
  await using cluster = await createFakeCluster();
  await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' }, data: { a: '1' } });

  // client-node's Watch sends no Accept header: a KubeConfig copy that adds one watches Tables.
  const kc = new k8s.KubeConfig();
  kc.loadFromString(cluster.kubeConfig.exportConfig());
  const authenticate = kc.applySecurityAuthentication.bind(kc);
  kc.applySecurityAuthentication = async (ctx) => {
    await authenticate(ctx);
    ctx.setHeaderParam('Accept', 'application/json;as=Table;v=v1;g=meta.k8s.io');
  };
  const first = new Promise<[string, unknown[]]>((resolve) => {
    // Only `settings`: the namespace also holds kube-root-ca.crt, which would come first.
    void new k8s.Watch(kc).watch('/api/v1/namespaces/default/configmaps', { includeObject: 'Object', fieldSelector: 'metadata.name=settings' },
      (type, table) => resolve([type, table.rows[0].cells]), () => undefined);
  });
  const [type, cells] = await first;
  expect(type).toBe('ADDED');
  expect(cells.slice(0, 2)).toEqual(['settings', 1]); // NAME, DATA (AGE follows)
});
