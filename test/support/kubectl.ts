// Runs the kubectl on PATH against a kubeconfig, with its own HOME so discovery caches never leak between tests.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../../src/index.ts';

export const kubectlAvailable = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
})();

if (!kubectlAvailable) console.warn('kubectl is not on PATH: the kubectl tests are skipped');

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export type Kubectl = (args: string[], input?: string) => Promise<KubectlResult>;

/** An environment for kubectl with its own HOME (no shared discovery cache) and this kubeconfig. */
export function kubectlEnv(kubeconfig: string): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), 'kubefake-kubectl-'));
  const config = join(home, 'kubeconfig');
  writeFileSync(config, kubeconfig);
  return { ...process.env, HOME: home, KUBECONFIG: config };
}

export function kubectlRunner(kubeconfig: string): Kubectl {
  const env = kubectlEnv(kubeconfig);
  return (args, input) =>
    new Promise((resolve) => {
      const child = execFile('kubectl', args, { env, timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
      if (input !== undefined) child.stdin?.end(input);
    });
}

export interface KubectlCluster {
  cluster: FakeCluster;
  kubectl: Kubectl;
  core: k8s.CoreV1Api;
}

/**
 * For a describe block: one fresh cluster served over listen(), kubectl pointed at it, and a
 * client-node CoreV1Api on the same cluster; closed after the block. Read the fields inside tests.
 */
export function useKubectlCluster(): KubectlCluster {
  const ctx = {} as KubectlCluster;
  beforeAll(async () => {
    ctx.cluster = await createFakeCluster();
    ctx.kubectl = kubectlRunner((await ctx.cluster.listen()).kubeconfig);
    ctx.core = ctx.cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  });
  afterAll(() => ctx.cluster?.close());
  return ctx;
}
