// kubectl's subresource commands against cluster.listen(): `kubectl scale` patches /scale, and
// `--subresource=status` reads and patches /status, for built-ins and custom resources.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner, type KubectlResult } from './support/kubectl.ts';

const G = 'stable.example.com';
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `crontabs.${G}` },
  spec: {
    group: G,
    scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', properties: { replicas: { type: 'integer' } } },
              status: { type: 'object', properties: { replicas: { type: 'integer' } } },
            },
          },
        },
      },
    ],
  },
};

describe.skipIf(!kubectlAvailable)('kubectl and subresources', { shuffle: false }, () => {
  // One cluster for the block and tests that build on each other's objects: they run in order even under --sequence.shuffle.
  let cluster: FakeCluster;
  let kubectl: (args: string[], input?: string) => Promise<KubectlResult>;

  beforeAll(async () => {
    cluster = await createFakeCluster();
    const { kubeconfig } = await cluster.listen();
    kubectl = kubectlRunner(kubeconfig);
    await cluster.apply([crd, { apiVersion: `${G}/v1`, kind: 'CronTab', metadata: { name: 'nightly', namespace: 'default' }, spec: { replicas: 1 } }]);
  });
  afterAll(() => cluster.close());

  it('scales a Deployment', async () => {
    const created = await kubectl(['create', 'deployment', 'web', '--image=nginx', '--replicas=1']);
    expect(created.stderr).toBe('');
    const r = await kubectl(['scale', 'deployment', 'web', '--replicas=4']);
    expect(r).toMatchObject({ code: 0, stdout: 'deployment.apps/web scaled\n' });
    const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    expect((await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' })).spec?.replicas).toBe(4);
  });

  it('scales a custom resource through its scale subresource', async () => {
    const r = await kubectl(['scale', 'crontab', 'nightly', '--replicas=3']);
    expect(r).toMatchObject({ code: 0, stdout: 'crontab.stable.example.com/nightly scaled\n' });
    const got = await kubectl(['get', 'ct', 'nightly', '-o', 'jsonpath={.spec.replicas}']);
    expect(got.stdout).toBe('3');
  });

  it('patches and reads status with --subresource=status', async () => {
    const patched = await kubectl(['patch', 'crontab', 'nightly', '--subresource=status', '--type=merge', '-p', '{"status":{"replicas":2},"spec":{"replicas":9}}']);
    expect(patched).toMatchObject({ code: 0, stdout: 'crontab.stable.example.com/nightly patched\n' });
    const got = await kubectl(['get', 'crontab', 'nightly', '--subresource=status', '-o', 'jsonpath={.status.replicas}/{.spec.replicas}']);
    expect(got.stdout).toBe('2/3');
  });
});
