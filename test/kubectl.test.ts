// kubectl against cluster.listen(): the everyday commands must behave as against a real apiserver.
import { readFileSync } from 'node:fs';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner, type KubectlResult } from './support/kubectl.ts';

describe.skipIf(!kubectlAvailable)('kubectl over cluster.listen()', () => {
  let cluster: FakeCluster;
  let kubectl: (args: string[], input?: string) => Promise<KubectlResult>;
  let core: k8s.CoreV1Api;

  beforeAll(async () => {
    cluster = await createFakeCluster();
    const { kubeconfig } = await cluster.listen();
    kubectl = kubectlRunner(kubeconfig);
    core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  });
  afterAll(() => cluster.close());

  it('gets namespaces', async () => {
    const r = await kubectl(['get', 'namespaces', '-o', 'name']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(['namespace/default', 'namespace/kube-node-lease', 'namespace/kube-public', 'namespace/kube-system']);
  });

  it('gets configmaps written through client-node, in a table and as YAML', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'from-client' }, data: { k: 'v' } } });
    const table = await kubectl(['get', 'configmaps']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^NAME\s+.*\nfrom-client\s/);
    const yaml = await kubectl(['get', 'configmap', 'from-client', '-o', 'jsonpath={.data.k}']);
    expect(yaml.stdout).toBe('v');
  });

  it('creates a configmap that client-node then reads', async () => {
    const r = await kubectl(['create', 'configmap', 'made-by-kubectl', '--from-literal=mode=fast']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('configmap/made-by-kubectl created');
    const cm = await core.readNamespacedConfigMap({ name: 'made-by-kubectl', namespace: 'default' });
    expect(cm.data).toEqual({ mode: 'fast' });
  });

  it('creates namespaces, secrets and deployments through the protobuf bodies kubectl sends', async () => {
    expect((await kubectl(['create', 'namespace', 'team-a'])).stdout.trim()).toBe('namespace/team-a created');
    expect((await kubectl(['create', 'secret', 'generic', 'creds', '-n', 'team-a', '--from-literal=password=s3cret'])).stdout.trim()).toBe('secret/creds created');
    expect((await kubectl(['create', 'deployment', 'web', '-n', 'team-a', '--image=nginx', '--replicas=2', '--port=80'])).stdout.trim()).toBe('deployment.apps/web created');
    const secret = await core.readNamespacedSecret({ name: 'creds', namespace: 'team-a' });
    expect(Buffer.from(secret.data!.password!, 'base64').toString()).toBe('s3cret');
    expect(secret.type).toBe('Opaque');
    const dep = await cluster.kubeConfig.makeApiClient(k8s.AppsV1Api).readNamespacedDeployment({ name: 'web', namespace: 'team-a' });
    expect(dep.spec?.replicas).toBe(2);
    expect(dep.spec?.template.spec?.containers[0]).toMatchObject({ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }] });
    expect(dep.metadata?.generation).toBe(1);
  });

  it('prints the server’s NotFound and AlreadyExists errors', async () => {
    const missing = await kubectl(['get', 'configmap', 'nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('Error from server (NotFound): configmaps "nope" not found');
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'taken' } } });
    const dup = await kubectl(['create', 'configmap', 'taken']);
    expect(dup.code).toBe(1);
    expect(dup.stderr.trim()).toBe('error: failed to create configmap: configmaps "taken" already exists');
  });

  it('deletes a configmap and waits for it to be gone', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'doomed' } } });
    const r = await kubectl(['delete', 'configmap', 'doomed']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('configmap "doomed" deleted');
    await expect(core.readNamespacedConfigMap({ name: 'doomed', namespace: 'default' })).rejects.toMatchObject({ code: 404 });
  });

  it('filters with label selectors', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'labelled', labels: { app: 'demo' } } } });
    const r = await kubectl(['get', 'configmaps', '-l', 'app=demo', '-o', 'name']);
    expect(r.stdout.trim()).toBe('configmap/labelled');
  });

  it('applies a CRD and then its objects from files, and reads them back by short name', async () => {
    const crd = readFileSync(new URL('../examples/crontab/crontab-crd.yaml', import.meta.url), 'utf8');
    const applied = await kubectl(['apply', '-f', '-'], crd);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout.trim()).toBe('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created');
    await cluster.settle();
    const object = readFileSync(new URL('../examples/crontab/my-crontab.yaml', import.meta.url), 'utf8');
    const created = await kubectl(['apply', '-f', '-'], object);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout.trim()).toBe('crontab.stable.example.com/my-new-cron-object created');
    const got = await kubectl(['get', 'ct', 'my-new-cron-object', '-o', 'jsonpath={.spec.image}']);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toBe('my-awesome-cron-image');
    const invalid = await kubectl(['apply', '-f', '-'], object.replace('my-new-cron-object', 'bad').replace('cronSpec: "* * * * */5"', 'cronSpec: 5'));
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('spec.cronSpec: Invalid value: "integer": spec.cronSpec in body must be of type string: "integer"');
  });

  it('re-applies a changed Deployment: kubectl sends a strategic merge patch and the change lands', async () => {
    const manifest = (image: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: applied
  namespace: default
spec:
  selector:
    matchLabels: {app: applied}
  template:
    metadata:
      labels: {app: applied}
    spec:
      containers:
      - name: app
        image: ${image}
`;
    expect((await kubectl(['apply', '-f', '-'], manifest('app:1'))).stdout.trim()).toBe('deployment.apps/applied created');
    const changed = await kubectl(['apply', '-f', '-'], manifest('app:2'));
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout.trim()).toBe('deployment.apps/applied configured');
    const dep = await cluster.kubeConfig.makeApiClient(k8s.AppsV1Api).readNamespacedDeployment({ name: 'applied', namespace: 'default' });
    expect(dep.spec?.template.spec?.containers[0]?.image).toBe('app:2');
    expect(dep.metadata?.generation).toBe(2);
  });
});
