// Runs the kubectl on PATH against a kubeconfig, with its own HOME so discovery caches never leak between tests.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

export function kubectlRunner(kubeconfig: string): (args: string[], input?: string) => Promise<KubectlResult> {
  const home = mkdtempSync(join(tmpdir(), 'kubefake-kubectl-'));
  const config = join(home, 'kubeconfig');
  writeFileSync(config, kubeconfig);
  return (args, input) =>
    new Promise((resolve) => {
      const child = execFile('kubectl', args, { env: { ...process.env, HOME: home, KUBECONFIG: config }, timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
      if (input !== undefined) child.stdin?.end(input);
    });
}
