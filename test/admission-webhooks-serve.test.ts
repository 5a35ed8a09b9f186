// Admission webhooks from `kubefake serve` (a child process) to a webhook server over real HTTPS,
// its serving certificate signed by a CA generated for the test and trusted through caBundle.
import * as k8s from '@kubernetes/client-node';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServingCertificates } from '../src/transport/serving-certs.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { serve } from './support/serve.ts';
import { expectStatus } from './support/status.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Review = { apiVersion: string; request: any };

describe('admission webhooks from kubefake serve', () => {
  let server: Server | undefined;
  let stop: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await stop?.();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    stop = undefined;
  });

  it('calls a webhook over HTTPS with a generated CA: its patch applied, its denial answered (client-node and kubectl)', async () => {
    const certs = await createServingCertificates(['127.0.0.1']);
    server = createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const review = JSON.parse(body) as Review;
        const response: Record<string, unknown> = { uid: review.request.uid, allowed: true };
        if (req.url!.startsWith('/mutate')) {
          response.patchType = 'JSONPatch';
          response.patch = Buffer.from(JSON.stringify([{ op: 'add', path: '/data/seen-by', value: 'https-webhook' }])).toString('base64');
        } else if (review.request.name === 'forbidden') {
          response.allowed = false;
          response.status = { code: 403, reason: 'Forbidden', message: 'this name is taken' };
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response }));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const caBundle = Buffer.from(certs.caCert).toString('base64');
    const hook = (name: string, path: string) => ({
      name,
      clientConfig: { url: `https://127.0.0.1:${port}${path}`, caBundle },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    });
    const dir = mkdtempSync(join(tmpdir(), 'kubefake-webhooks-'));
    writeFileSync(
      join(dir, 'webhooks.json'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [
          { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'm' }, webhooks: [hook('mutate.example.com', '/mutate')] },
          { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'v' }, webhooks: [hook('validate.example.com', '/validate')] },
        ],
      }),
    );
    const kubeconfig = join(dir, 'config');
    const run = serve(['serve', '--manifests', dir, '--kubeconfig', kubeconfig]);
    stop = async () => {
      run.child.kill('SIGTERM');
      await run.exited;
    };
    await run.ready;
    await expect.poll(() => readFileSync(kubeconfig, 'utf8').length > 0).toBe(true);

    const kc = new k8s.KubeConfig();
    kc.loadFromString(readFileSync(kubeconfig, 'utf8'));
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' }, data: { a: '1' } } });
    expect(created.data).toEqual({ a: '1', 'seen-by': 'https-webhook' });
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'forbidden' }, data: { x: '1' } } }), {
      code: 403,
      reason: 'Forbidden',
      message: 'admission webhook "validate.example.com" denied the request: this name is taken',
    });

    if (kubectlAvailable) {
      const kubectl = kubectlRunner(readFileSync(kubeconfig, 'utf8'));
      expect(await kubectl(['create', 'configmap', 'b', '--from-literal=b=2'])).toMatchObject({ code: 0, stdout: 'configmap/b created\n' });
      expect((await kubectl(['get', 'configmap', 'b', '-o', 'jsonpath={.data}'])).stdout).toBe('{"b":"2","seen-by":"https-webhook"}');
      expect(await kubectl(['create', 'configmap', 'forbidden', '--from-literal=x=1'])).toMatchObject({
        code: 1,
        stderr: 'error: failed to create configmap: admission webhook "validate.example.com" denied the request: this name is taken\n',
      });
    }
  });
});
