// createFakeCluster(): an in-process fake, or, in real-cluster mode (a `kubeconfig` option or
// KUBEFAKE_KUBECONFIG), the same API backed by that cluster (real/real-cluster.ts).
import { createInProcessCluster, type FakeCluster, type FakeClusterOptions } from './fake-cluster.ts';
import { realClusterKubeconfig } from './real/not-supported.ts';

/**
 * Starts a fake API server in this process and resolves once it answers, with `options.manifests`
 * installed (CRDs Established). Point `cluster.kubeConfig` at it; every cluster has its own state.
 * With a `kubeconfig` option or KUBEFAKE_KUBECONFIG set, runs against that real cluster instead,
 * in a namespace of the test's own (see docs/real-cluster.md).
 */
export async function createFakeCluster(options: FakeClusterOptions = {}): Promise<FakeCluster> {
  const kubeconfig = realClusterKubeconfig(options.kubeconfig);
  if (kubeconfig === undefined) return createInProcessCluster(options);
  // Loaded on first use: a test suite on the fake never pays for it.
  const { createRealCluster } = await import('./real/real-cluster.ts');
  const cluster = await createRealCluster(kubeconfig, options);
  try {
    if (options.manifests) await cluster.apply(options.manifests, options.manifestOptions);
  } catch (err) {
    await cluster.close();
    throw err;
  }
  return cluster;
}
