// The pod part of the Python client's e2e suite (test/python/pod_e2e.py, after kubernetes/e2e_test/
// test_client.py test_pod_apis) against a workloads cluster over cluster.listen(): the pod becomes
// Running, exec through kubernetes.stream answers what the kubelet stand-in was programmed to
// print, the log is served, and a followed log ends once the pod is deleted.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

const PYTHON = '/usr/bin/python3';
const SCRIPT = new URL('./python/pod_e2e.py', import.meta.url).pathname;

const pythonClientAvailable = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import kubernetes, websocket'], { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
})();

let cluster: FakeCluster;
beforeAll(async () => {
  // The real clock: the script polls as it would against a cluster.
  cluster = await createFakeCluster({ workloads: true });
});
afterAll(() => cluster?.close());

describe.skipIf(!pythonClientAvailable)('the Python client e2e pod test', () => {
  it('sees the pod Running, execs into it, reads its log and deletes it', async () => {
    cluster.kubelet.on({ name: 'busybox-test' }, { logs: 'Wed Jan  1 00:00:00 UTC 2025\n', exec: () => ({ stdout: 'one\ntwo\nthree\n' }), stopAfter: 500 });
    const dir = mkdtempSync(join(tmpdir(), 'kubefake-py-'));
    const kubeconfig = join(dir, 'config');
    writeFileSync(kubeconfig, (await cluster.listen()).kubeconfig);
    const { stdout } = await promisify(execFile)(PYTHON, [SCRIPT, kubeconfig], { timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual({
      created: 'busybox-test',
      phase: 'Running',
      ready: [true],
      exec: 'one\ntwo\nthree\n',
      log: 'Wed Jan  1 00:00:00 UTC 2025\n',
      deleted: 'busybox-test',
      followed: 'Wed Jan  1 00:00:00 UTC 2025\n',
    });
  }, 90_000);
});
