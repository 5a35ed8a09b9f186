// `kubefake serve`: starts, applies manifests, writes a kubeconfig, answers, stops cleanly on SIGTERM.
import * as k8s from '@kubernetes/client-node';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kubectlAvailable, kubectlEnv, kubectlRunner } from './support/kubectl.ts';
import { serve } from './support/serve.ts';

describe('kubefake serve', () => {
  it('serves the example manifests, writes the kubeconfig, and stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubefake-cli-'));
    const kubeconfig = join(dir, 'config');
    const run = serve(['serve', '--manifests', 'examples/crontab', '--kubeconfig', kubeconfig]);
    await run.ready;
    // The banner may arrive in several chunks.
    await expect.poll(() => run.output().stdout).toContain(`export KUBECONFIG=${kubeconfig}`);
    await expect.poll(() => run.output().stdout).toContain('Stop it with Ctrl-C.');
    // Every object it loaded is listed, with how to start empty and what the server does not run.
    expect(run.output().stdout).toContain(
      [
        'Loaded 2 objects from examples/crontab:',
        '  customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com',
        '  crontab.stable.example.com/my-new-cron-object (namespace default)',
        'To start empty, run it without --manifests.',
        'It is an API server only: no kubelet (Pods are stored, never run), no scheduler, no workload',
      ].join('\n'),
    );
    const url = /serving Kubernetes v1\.36 at (http:\/\/127\.0\.0\.1:\d+)/.exec(run.output().stdout)?.[1];
    expect(url).toBeTruthy();
    const kc = new k8s.KubeConfig();
    kc.loadFromString(readFileSync(kubeconfig, 'utf8'));
    expect(kc.getCurrentCluster()?.server).toBe(url);
    const crds = await kc.makeApiClient(k8s.ApiextensionsV1Api).listCustomResourceDefinition();
    expect(crds.items.map((c) => c.metadata?.name)).toEqual(['crontabs.stable.example.com']);
    const crontabs = (await kc.makeApiClient(k8s.CustomObjectsApi).listNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs' })) as { items: k8s.KubernetesObject[] };
    expect(crontabs.items.map((c) => c.metadata?.name)).toEqual(['my-new-cron-object']);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.output().stdout).toContain('kubefake stopped');
  });

  it('starts empty without --manifests and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubefake-cli-'));
    const kubeconfig = join(dir, 'config');
    const run = serve(['serve', '--kubeconfig', kubeconfig]);
    await run.ready;
    await expect.poll(() => run.output().stdout).toContain('Stop it with Ctrl-C.');
    expect(run.output().stdout).toContain('Started empty (namespaces default, kube-system, kube-public, kube-node-lease); load files with --manifests PATH.');
    expect(run.output().stdout).toContain('no workload\ncontrollers (a Deployment gets no ReplicaSet or Pods)');
    expect(run.output().stdout).not.toContain('Loaded');
    const kc = new k8s.KubeConfig();
    kc.loadFromString(readFileSync(kubeconfig, 'utf8'));
    const crds = await kc.makeApiClient(k8s.ApiextensionsV1Api).listCustomResourceDefinition();
    expect(crds.items).toEqual([]);
    const namespaces = await kc.makeApiClient(k8s.CoreV1Api).listNamespace();
    expect(namespaces.items.map((n) => n.metadata?.name).sort()).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('exits 1 with one prefixed line for a --manifests path that does not exist', async () => {
    const missing = serve(['serve', '--manifests', 'examples/no-such-dir']);
    expect(await missing.exited).toBe(1);
    expect(missing.output().stderr).toBe('kubefake: cannot read manifests from examples/no-such-dir: no such file or directory\n');
    expect(missing.output().stdout).toBe('');
  });

  it('exits 1 naming the file for a manifest that is not valid YAML, serving nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubefake-cli-'));
    writeFileSync(join(dir, 'bad.yaml'), 'kind: [unclosed\n');
    const bad = serve(['serve', '--manifests', dir, '--kubeconfig', join(dir, 'config')]);
    expect(await bad.exited).toBe(1);
    expect(bad.output().stderr).toMatch(new RegExp(`^kubefake: ${dir}/bad\\.yaml: `));
    expect(bad.output().stderr).not.toContain('kubefake: kubefake:');
    expect(bad.output().stdout).toBe('');
  });

  it('exits 2 with a message for a bad port, and prints usage for an unknown command', async () => {
    const bad = serve(['serve', '--port', 'eighty']);
    expect(await bad.exited).toBe(2);
    expect(bad.output().stderr).toContain('--port must be a port number, got eighty');
    const unknown = serve(['frobnicate']);
    expect(await unknown.exited).toBe(2);
    expect(unknown.output().stderr).toContain('Usage: kubefake serve');
  });

  it('refuses plain http on a non-loopback --host before starting anything', async () => {
    const wide = serve(['serve', '--host', '0.0.0.0']);
    expect(await wide.exited).toBe(2);
    expect(wide.output().stderr).toContain('kubefake: refusing to serve plain http on 0.0.0.0');
    expect(wide.output().stdout).toBe('');
  });

  it.skipIf(!kubectlAvailable)('serves HTTPS with --tls: a 0600 kubeconfig with the CA and token that kubectl uses, and a loud warning for 0.0.0.0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubefake-cli-'));
    const kubeconfig = join(dir, 'config');
    writeFileSync(kubeconfig, 'stale, world-readable', { mode: 0o644 });
    const run = serve(['serve', '--tls', '--host', '0.0.0.0', '--kubeconfig', kubeconfig]);
    await run.ready;
    try {
      expect(run.output().stderr).toContain('kubefake: WARNING: serving on 0.0.0.0, reachable from other machines.');
      expect(run.output().stdout).toMatch(/serving Kubernetes v1\.36 at https:\/\/127\.0\.0\.1:\d+/);
      expect(statSync(kubeconfig).mode & 0o777).toBe(0o600);
      const text = readFileSync(kubeconfig, 'utf8');
      expect(text).toContain('certificate-authority-data:');
      expect(text).not.toContain('insecure-skip-tls-verify');
      const kubectl = kubectlRunner(text);
      expect(await kubectl(['get', 'namespace', 'default', '-o', 'name'])).toMatchObject({ code: 0, stdout: 'namespace/default\n' });
      const anonymous = await kubectl(['get', 'namespaces', '--token', 'guess']);
      expect(anonymous.stderr).toContain('(Unauthorized)');
    } finally {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    }
  });

  it('never writes the kubeconfig through a symlink', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubefake-cli-'));
    const elsewhere = join(dir, 'elsewhere');
    writeFileSync(elsewhere, 'not yours');
    symlinkSync(elsewhere, join(dir, 'config'));
    const run = serve(['serve', '--kubeconfig', join(dir, 'config')]);
    expect(await run.exited).toBe(1);
    expect(run.output().stderr).toContain(`kubefake: refusing to write ${join(dir, 'config')}: it is a symbolic link`);
    expect(readFileSync(elsewhere, 'utf8')).toBe('not yours');
  });

  it.skipIf(!kubectlAvailable)('runs workloads with --workloads: nodes, a Deployment rolled out, pod logs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubefake-cli-'));
    const kubeconfig = join(dir, 'config');
    const run = serve(['serve', '--workloads', '--nodes', '2', '--kubeconfig', kubeconfig]);
    await run.ready;
    try {
      await expect.poll(() => run.output().stdout).toContain('Stop it with Ctrl-C.');
      expect(run.output().stdout).toContain('With workloads: 2 Ready nodes, a scheduler, a kubelet stand-in');
      const kubectl = kubectlRunner(readFileSync(kubeconfig, 'utf8'));
      expect((await kubectl(['get', 'nodes', '-o', 'name'])).stdout).toBe('node/kubefake-node-1\nnode/kubefake-node-2\n');
      expect(await kubectl(['create', 'deployment', 'web', '--image=nginx', '--replicas=2'])).toMatchObject({ code: 0 });
      const status = await kubectl(['rollout', 'status', 'deployment/web', '--timeout=30s']);
      expect(status).toMatchObject({ code: 0, stderr: '' });
      expect(status.stdout.trim().split('\n').at(-1)).toBe('deployment "web" successfully rolled out');
      const pods = await kubectl(['get', 'pods', '-o', 'jsonpath={range .items[*]}{.status.phase}{"\\n"}{end}']);
      expect(pods.stdout).toBe('Running\nRunning\n');
      expect(await kubectl(['logs', 'deployment/web'])).toMatchObject({ code: 0, stdout: '' });
    } finally {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    }
  }, 60_000);

  it.skipIf(!kubectlAvailable)('--workloads: kubectl logs -f stays open until the pod goes, or the server stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubefake-cli-'));
    const kubeconfig = join(dir, 'config');
    const run = serve(['serve', '--workloads', '--kubeconfig', kubeconfig]);
    await run.ready;
    const env = kubectlEnv(readFileSync(kubeconfig, 'utf8'));
    const follow = (pod: string) => {
      const child = spawn('kubectl', ['logs', '-f', pod], { env });
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      let done = false;
      void exited.then(() => (done = true));
      return { exited, done: () => done };
    };
    try {
      await expect.poll(() => run.output().stdout).toContain('Stop it with Ctrl-C.');
      const kubectl = kubectlRunner(readFileSync(kubeconfig, 'utf8'));
      for (const pod of ['web', 'api']) expect(await kubectl(['run', pod, '--image=nginx'])).toMatchObject({ code: 0 });
      expect(await kubectl(['wait', '--for=condition=Ready', 'pod/web', 'pod/api', '--timeout=30s'])).toMatchObject({ code: 0 });
      const web = follow('web');
      const api = follow('api');
      // Both streams stay open while their containers run.
      expect(await kubectl(['get', 'pods', '-o', 'name'])).toMatchObject({ stdout: 'pod/api\npod/web\n' });
      expect([web.done(), api.done()]).toEqual([false, false]);
      expect(await kubectl(['delete', 'pod', 'web', '--grace-period=1'])).toMatchObject({ code: 0 });
      expect(await web.exited).toBe(0);
      expect(api.done()).toBe(false);
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      await api.exited;
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  }, 60_000);

  it('exits 2 for --nodes without --workloads', async () => {
    const bad = serve(['serve', '--nodes', '3']);
    expect(await bad.exited).toBe(2);
    expect(bad.output().stderr).toBe('kubefake: --nodes needs --workloads\n');
  });
});

describe('kubefake serve --auth', () => {
  it('serves HTTPS with RBAC: the kubeconfig is the administrator, a request without a token is anonymous', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubefake-cli-'));
    const kubeconfig = join(dir, 'config');
    const run = serve(['serve', '--auth', '--host', '0.0.0.0', '--kubeconfig', kubeconfig]);
    await run.ready;
    try {
      // The warning for a wide address says what guards it with --auth: RBAC, not the token alone.
      expect(run.output().stderr).toBe(
        `kubefake: WARNING: serving on 0.0.0.0, reachable from other machines. Requests are authorized with RBAC; ${kubeconfig} holds the administrator's token (system:masters): keep that file private.\n`,
      );
      expect(run.output().stdout).toMatch(/serving Kubernetes v1\.36 at https:\/\/127\.0\.0\.1:\d+/);
      const kc = new k8s.KubeConfig();
      kc.loadFromString(readFileSync(kubeconfig, 'utf8'));
      expect((await kc.makeApiClient(k8s.CoreV1Api).listNamespace()).items.length).toBeGreaterThan(0);
      const whoami = await kc.makeApiClient(k8s.AuthenticationV1Api).createSelfSubjectReview({ body: {} });
      expect(whoami.status?.userInfo?.username).toBe('kubefake-admin');
      // The same kubeconfig without its token: the server's CA, no credentials.
      const anonymous = new k8s.KubeConfig();
      anonymous.loadFromString(readFileSync(kubeconfig, 'utf8').replace(/^(\s*)token: .*$/m, '$1username: nobody'));
      const err = (await anonymous.makeApiClient(k8s.CoreV1Api).listNamespace().catch((e: unknown) => e)) as k8s.ApiException<string>;
      expect(err.code).toBe(403);
      expect(JSON.parse(err.body).message).toBe('namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope');
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  });
});
