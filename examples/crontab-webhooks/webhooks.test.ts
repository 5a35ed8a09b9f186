// The CronTab webhooks tested end to end: the CRD and the webhook configurations are applied, the
// webhooks answered in-process (admissionWebhook), and CronTabs written through client-node and
// kubectl, with the CronTab controller of the neighbouring example reconciling what they admit.
// Run: npx vitest run examples/crontab-webhooks
import * as k8s from '@kubernetes/client-node';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { admissionWebhook, type FakeCluster } from '../../src/index.ts';
import { expect, test } from '../../src/vitest.ts';
import { startCronTabController, type CronTab } from '../crontab-controller/controller.ts';
import { DEFAULT_SCHEDULE, defaultCronTab, MANAGED_BY, validateCronTab } from './webhooks.ts';

const CRD = new URL('../crontab-controller/crontab-crd.yaml', import.meta.url);
const CONFIGURATIONS = new URL('./webhook-configurations.yaml', import.meta.url);
const SERVICE = { namespace: 'crontab-system', name: 'crontab-webhooks' };
const crontabs = { group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs' };
const crontab = (name: string, spec: CronTab['spec']) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec });

function serveWebhooks(cluster: FakeCluster) {
  cluster.serveWebhook({ ...SERVICE, path: '/default' }, admissionWebhook(defaultCronTab));
  cluster.serveWebhook({ ...SERVICE, path: '/validate' }, admissionWebhook(validateCronTab));
}

describe('CronTab webhooks through client-node', () => {
  test.override({ clusterOptions: { manifests: [CRD, CONFIGURATIONS] } });

  test('defaults the schedule and the label, and the controller reconciles the defaulted CronTab', async ({ cluster }) => {
    serveWebhooks(cluster);
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    const created = (await custom.createNamespacedCustomObject({ ...crontabs, body: crontab('nightly', { image: 'backup:1' }) })) as CronTab;
    expect(created.spec).toEqual({ image: 'backup:1', cronSpec: DEFAULT_SCHEDULE, replicas: 1 });
    expect(created.metadata!.labels).toEqual({ 'app.kubernetes.io/managed-by': MANAGED_BY });

    const controller = await startCronTabController(cluster.kubeConfig);
    await cluster.waitFor({ kind: 'CronTab', name: 'nightly' }, (o) => (o as CronTab | undefined)?.status?.observedGeneration === 1);
    await controller.stop();
    expect({ kind: 'Deployment', name: 'nightly' }).toExistInCluster(cluster);
  });

  test('refuses a bad schedule and an untagged image, with the webhook\'s message and code', async ({ cluster }) => {
    serveWebhooks(cluster);
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    const error = await custom.createNamespacedCustomObject({ ...crontabs, body: crontab('broken', { image: 'backup', cronSpec: '* * *' }) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(k8s.ApiException);
    expect((error as k8s.ApiException<string>).code).toBe(422);
    expect(JSON.parse((error as k8s.ApiException<string>).body)).toMatchObject({
      reason: 'Invalid',
      message: 'admission webhook "validate.crontab.stable.example.com" denied the request: spec.cronSpec "* * *" must have 5 fields; spec.image "backup" must name a tag other than latest',
    });
    expect({ kind: 'CronTab', name: 'broken' }).not.toExistInCluster(cluster);
  });

  test('without the webhook server running, writes fail closed', async ({ cluster }) => {
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    const error = await custom.createNamespacedCustomObject({ ...crontabs, body: crontab('nightly', { image: 'backup:1' }) }).catch((e: unknown) => e);
    expect(JSON.parse((error as k8s.ApiException<string>).body).message).toBe(
      'Internal error occurred: failed calling webhook "default.crontab.stable.example.com": failed to call webhook: Post "https://crontab-webhooks.crontab-system.svc:443/default?timeout=10s": services "crontab-webhooks" not found',
    );
  });
});

const kubectlAvailable = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
})();

/** kubectl on PATH against `kubeconfig`, with its own HOME; resolves with exit code and output. */
function kubectl(kubeconfig: string) {
  const home = mkdtempSync(join(tmpdir(), 'crontab-webhooks-'));
  writeFileSync(join(home, 'kubeconfig'), kubeconfig);
  const env = { ...process.env, HOME: home, KUBECONFIG: join(home, 'kubeconfig') };
  return (args: string[], input?: string) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile('kubectl', args, { env, timeout: 60_000 }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
      if (input !== undefined) child.stdin?.end(input);
    });
}

describe.skipIf(!kubectlAvailable)('CronTab webhooks through kubectl', () => {
  test.override({ clusterOptions: { manifests: [CRD, CONFIGURATIONS] } });

  test('kubectl apply gets the defaults, and the denial as kubectl prints it', async ({ cluster }) => {
    serveWebhooks(cluster);
    const run = kubectl((await cluster.listen()).kubeconfig);
    const good = 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  image: backup:1\n';
    expect(await run(['apply', '-f', '-'], good)).toMatchObject({ code: 0, stdout: 'crontab.stable.example.com/nightly created\n' });
    const got = await run(['get', 'crontab', 'nightly', '-o', 'jsonpath={.spec.cronSpec} {.metadata.labels}']);
    expect(got.stdout).toBe(`${DEFAULT_SCHEDULE} {"app.kubernetes.io/managed-by":"${MANAGED_BY}"}`);

    const bad = good.replace('nightly', 'broken').replace('backup:1', 'backup:latest');
    const refused = await run(['apply', '-f', '-'], bad);
    expect(refused.code).toBe(1);
    // kubectl words a 422 without causes as "The request is invalid".
    expect(refused.stderr).toBe(
      'The request is invalid: error when creating "STDIN": admission webhook "validate.crontab.stable.example.com" denied the request: spec.image "backup:latest" must name a tag other than latest\n',
    );
  });
});
