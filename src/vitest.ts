// `kubefake/vitest`: a Vitest `test` with a fresh `cluster` per test (closed afterwards) and the
// kubefake matchers registered on `expect`.
// First: on an unsupported Node.js, fail with one sentence before any dependency loads.
import './node-support.ts';
import { expect, test as base } from 'vitest';
import type { FakeCluster, FakeClusterOptions, Manifests } from './cluster/fake-cluster.ts';
import { createFakeCluster } from './cluster/create-cluster.ts';
import { kubefakeMatchers, type ExpectedCondition } from './harness/matchers.ts';
import { isRealClusterMode, NotSupportedOnRealCluster } from './cluster/real/not-supported.ts';

expect.extend(kubefakeMatchers);

/** The fixtures kubefake/vitest's `test` adds. */
export interface KubefakeFixtures {
  /** A cluster of its own for each test, created with `clusterOptions` and closed after the test. */
  cluster: FakeCluster;
  /** Options for the test's cluster; change them with `test.override({ clusterOptions: { … } })`. Default `{}`. */
  clusterOptions: FakeClusterOptions;
}

/** Vitest's `test` with the `cluster` fixture. */
export const test = base.extend<KubefakeFixtures>({
  clusterOptions: [{}, { injected: false }],
  cluster: async ({ clusterOptions }, use) => {
    const cluster = await createFakeCluster(clusterOptions);
    try {
      await use(cluster);
    } finally {
      await cluster.close();
    }
  },
});

/** The same as `test`. */
export const it = test;

/**
 * `test` for what only the fake offers (deterministic mode, the clock, faults, exact snapshots):
 * skipped when the suite runs against a real cluster (KUBEFAKE_KUBECONFIG, docs/real-cluster.md).
 */
export const fakeOnly: typeof test = test.skipIf(isRealClusterMode()) as typeof test;
export { isRealClusterMode, NotSupportedOnRealCluster };
export { expect };
export { kubefakeMatchers, type ExpectedCondition };

declare module 'vitest' {
  interface Matchers<R extends void | Promise<void> = void | Promise<void>, T = unknown> {
    /** The object has a `status.conditions` entry of this type with status `True` (or as `expected` says). */
    toHaveCondition(type: string, expected?: ExpectedCondition): R;
    /** The permissions used (cluster.permissions.used()) are all allowed by the Roles/ClusterRoles in `manifests`; await it. */
    toBeAllowedBy(manifests: Manifests): Promise<R>;
    /** The object (or `{ kind, name, namespace? }`) is stored in `cluster` now. */
    toExistInCluster(cluster: FakeCluster): R;
  }
}
