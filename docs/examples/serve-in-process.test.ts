import { expect, test } from 'vitest';
import { createFakeCluster } from 'kubefake';

test('listen() serves the same cluster over real HTTP; handle() answers a Request directly', async () => {
  await using cluster = await createFakeCluster();
  const { url, kubeconfig } = await cluster.listen({ port: 0, host: '127.0.0.1' }); // kubeconfig: YAML text for kubectl or any client
  expect(kubeconfig).toContain(`server: ${url}`);
  const overHttp = await fetch(`${url}/api/v1/namespaces/default`);
  expect(((await overHttp.json()) as { metadata: { name: string } }).metadata.name).toBe('default');

  const direct = await cluster.handle(new Request(`${cluster.url}/api/v1/namespaces/nope`));
  expect(direct.status).toBe(404);
  expect(await direct.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'namespaces "nope" not found' });
});
