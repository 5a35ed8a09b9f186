// msw loads when a client first connects to a cluster, not with a cluster: a cluster's KubeConfig
// on the default transport needs no interception. Every other client kind must still be answered when it
// is the first to connect in its process. Each case in a fresh child process (msw loads once per process).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const probe = fileURLToPath(new URL('./support/lazy-msw-probe.ts', import.meta.url));

function run(which: string): Record<string, unknown> {
  // The probe's cluster uses the default transport, whatever the project's KUBEFAKE_TRANSPORT.
  const env = { ...process.env, KUBEFAKE_TRANSPORT: '' };
  const child = spawnSync(process.execPath, [probe, which], { encoding: 'utf8', timeout: 60_000, env });
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

describe('msw on first connection', () => {
  it('a cluster and its KubeConfig on the default transport load no msw, and leave Node’s socket methods as they were once closed', () => {
    expect(run('none')).toEqual({ afterCluster: false, afterKubeConfig: false, afterClient: false, restored: true });
  });

  it('a first connection to another HTTPS server switches the interception on and passes through to it; the cluster is answered after', () => {
    expect(run('other-tls-server')).toEqual({ afterCluster: false, afterKubeConfig: false, other: 'from the other server', answer: [200, 'default'], afterClient: true, restored: true });
  });

  it.each([
    ['fetch', 'a raw fetch'],
    ['https', 'https.request through its agent'],
    ['tls', 'a bare tls.connect socket writing HTTP/1.1'],
    ['kubeconfig-from-url', 'a KubeConfig built from cluster.url'],
    ['user-msw-after-cluster', 'https.request while a user’s own msw server, started after the cluster, passes the request on'],
    ['again', 'the first client of a second cluster, after interception went off with the first'],
  ])('%s: %s is answered when it is the first to connect', (which) => {
    const result = run(which);
    expect(result).toEqual({ afterCluster: false, afterKubeConfig: false, answer: [200, 'default'], afterClient: true, restored: true });
  });
});
