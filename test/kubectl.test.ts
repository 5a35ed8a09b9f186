// kubectl against cluster.listen(): the everyday commands must behave as against a real apiserver.
import { readFileSync } from 'node:fs';
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubectlAvailable, useKubectlCluster } from './support/kubectl.ts';

describe.skipIf(!kubectlAvailable)('kubectl over cluster.listen()', { shuffle: false }, () => {
  // One cluster for the block and tests that build on each other's objects: they run in order even under --sequence.shuffle.
  const k = useKubectlCluster();

  it('gets namespaces', async () => {
    const r = await k.kubectl(['get', 'namespaces', '-o', 'name']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(['namespace/default', 'namespace/kube-node-lease', 'namespace/kube-public', 'namespace/kube-system']);
  });

  it('gets configmaps written through client-node, in a table and as YAML', async () => {
    await k.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'from-client' }, data: { k: 'v' } } });
    const table = await k.kubectl(['get', 'configmaps']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^NAME\s+.*\nfrom-client\s/);
    const yaml = await k.kubectl(['get', 'configmap', 'from-client', '-o', 'jsonpath={.data.k}']);
    expect(yaml.stdout).toBe('v');
  });

  it('creates a configmap that client-node then reads', async () => {
    const r = await k.kubectl(['create', 'configmap', 'made-by-kubectl', '--from-literal=mode=fast']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('configmap/made-by-kubectl created');
    const cm = await k.core.readNamespacedConfigMap({ name: 'made-by-kubectl', namespace: 'default' });
    expect(cm.data).toEqual({ mode: 'fast' });
  });

  it('creates namespaces, secrets and deployments through the protobuf bodies kubectl sends', async () => {
    expect((await k.kubectl(['create', 'namespace', 'team-a'])).stdout.trim()).toBe('namespace/team-a created');
    expect((await k.kubectl(['create', 'secret', 'generic', 'creds', '-n', 'team-a', '--from-literal=password=s3cret'])).stdout.trim()).toBe('secret/creds created');
    expect((await k.kubectl(['create', 'deployment', 'web', '-n', 'team-a', '--image=nginx', '--replicas=2', '--port=80'])).stdout.trim()).toBe('deployment.apps/web created');
    const secret = await k.core.readNamespacedSecret({ name: 'creds', namespace: 'team-a' });
    expect(Buffer.from(secret.data!.password!, 'base64').toString()).toBe('s3cret');
    expect(secret.type).toBe('Opaque');
    const dep = await k.cluster.kubeConfig.makeApiClient(k8s.AppsV1Api).readNamespacedDeployment({ name: 'web', namespace: 'team-a' });
    expect(dep.spec?.replicas).toBe(2);
    expect(dep.spec?.template.spec?.containers[0]).toMatchObject({ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }] });
    expect(dep.metadata?.generation).toBe(1);
  });

  it('prints the server’s NotFound and AlreadyExists errors', async () => {
    const missing = await k.kubectl(['get', 'configmap', 'nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('Error from server (NotFound): configmaps "nope" not found');
    await k.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'taken' } } });
    const dup = await k.kubectl(['create', 'configmap', 'taken']);
    expect(dup.code).toBe(1);
    expect(dup.stderr.trim()).toBe('error: failed to create configmap: configmaps "taken" already exists');
  });

  it('deletes a configmap and waits for it to be gone', async () => {
    await k.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'doomed' } } });
    const r = await k.kubectl(['delete', 'configmap', 'doomed']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('configmap "doomed" deleted');
    await expect(k.core.readNamespacedConfigMap({ name: 'doomed', namespace: 'default' })).rejects.toMatchObject({ code: 404 });
  });

  it('filters with label selectors', async () => {
    await k.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'labelled', labels: { app: 'demo' } } } });
    const r = await k.kubectl(['get', 'configmaps', '-l', 'app=demo', '-o', 'name']);
    expect(r.stdout.trim()).toBe('configmap/labelled');
  });

  it('applies a CRD and then its objects from files, and reads them back by short name', async () => {
    const crd = readFileSync(new URL('../examples/crontab/crontab-crd.yaml', import.meta.url), 'utf8');
    const applied = await k.kubectl(['apply', '-f', '-'], crd);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout.trim()).toBe('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created');
    await k.cluster.settle();
    const object = readFileSync(new URL('../examples/crontab/my-crontab.yaml', import.meta.url), 'utf8');
    const created = await k.kubectl(['apply', '-f', '-'], object);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout.trim()).toBe('crontab.stable.example.com/my-new-cron-object created');
    const got = await k.kubectl(['get', 'ct', 'my-new-cron-object', '-o', 'jsonpath={.spec.image}']);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toBe('my-awesome-cron-image');
    const invalid = await k.kubectl(['apply', '-f', '-'], object.replace('my-new-cron-object', 'bad').replace('cronSpec: "* * * * */5"', 'cronSpec: 5'));
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
    expect((await k.kubectl(['apply', '-f', '-'], manifest('app:1'))).stdout.trim()).toBe('deployment.apps/applied created');
    const changed = await k.kubectl(['apply', '-f', '-'], manifest('app:2'));
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout.trim()).toBe('deployment.apps/applied configured');
    const dep = await k.cluster.kubeConfig.makeApiClient(k8s.AppsV1Api).readNamespacedDeployment({ name: 'applied', namespace: 'default' });
    expect(dep.spec?.template.spec?.containers[0]?.image).toBe('app:2');
    expect(dep.metadata?.generation).toBe(2);
  });
});
