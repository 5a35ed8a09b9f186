// What a real cluster cannot do that a fake one can: a test that needs it is a fake-only test.

/** Thrown by a real-cluster-backed FakeCluster for a feature only the fake offers; names it. */
export class NotSupportedOnRealCluster extends Error {
  readonly feature: string;

  constructor(feature: string) {
    super(`kubefake: ${feature} is not supported on a real cluster (KUBEFAKE_KUBECONFIG is set); run this test against the fake only`);
    this.name = 'NotSupportedOnRealCluster';
    this.feature = feature;
  }
}

/** The kubeconfig that turns createFakeCluster() into real-cluster mode: the option, else KUBEFAKE_KUBECONFIG. */
export function realClusterKubeconfig(option: string | undefined): string | undefined {
  return option ?? (process.env.KUBEFAKE_KUBECONFIG || undefined);
}

/** Whether createFakeCluster() without a `kubeconfig` option runs against a real cluster (for skipping fake-only tests). */
export function isRealClusterMode(): boolean {
  return realClusterKubeconfig(undefined) !== undefined;
}
