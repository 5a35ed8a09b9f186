// Direct reads (cluster.get, cluster.list) and cluster.waitFor: assertions on stored state without
// HTTP, and waiting on a condition instead of sleeping.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createFakeCluster } from '../src/index.ts';

const CRONTAB_CRD = new URL('../examples/crontab/crontab-crd.yaml', import.meta.url);

describe('cluster.get() and cluster.list()', () => {
  it('read stored objects by kind, name and namespace', async () => {
    await using cluster = await createFakeCluster();
    await cluster.apply(CRONTAB_CRD);
    await cluster.apply([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { app: 'x' } }, data: { k: 'v' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'other', labels: { app: 'y' } } },
      { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'nightly' }, spec: { image: 'x' } },
    ]);
    const cm = cluster.get({ kind: 'ConfigMap', name: 'a' })!; // namespace defaults to `default`
    const viaClient = await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).readNamespacedConfigMap({ name: 'a', namespace: 'default' });
    expect(cm).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { k: 'v' }, metadata: { uid: viaClient.metadata!.uid, resourceVersion: viaClient.metadata!.resourceVersion } });
    expect(cluster.get({ kind: 'configmaps', name: 'b', namespace: 'other' })!.metadata!.namespace).toBe('other');
    expect(cluster.get({ kind: 'ConfigMap', name: 'b' })).toBeUndefined();
    expect(cluster.get({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: 'nightly' })!.spec).toEqual({ image: 'x' });
    expect(cluster.get({ kind: 'Namespace', name: 'other' })!.kind).toBe('Namespace');
    // An object names itself.
    expect(cluster.get(cm)!.metadata!.name).toBe('a');

    // Every namespace also holds the root-CA publisher's kube-root-ca.crt (other's once it has run).
    await cluster.settle();
    const ref = (o: { metadata?: { namespace?: string; name?: string } }) => `${o.metadata!.namespace}/${o.metadata!.name}`;
    expect(cluster.list('ConfigMap').map(ref)).toEqual([
      'default/a',
      'default/kube-root-ca.crt',
      'kube-node-lease/kube-root-ca.crt',
      'kube-public/kube-root-ca.crt',
      'kube-system/kube-root-ca.crt',
      'other/b',
      'other/kube-root-ca.crt',
    ]);
    expect(cluster.list('cm', { namespace: 'other' }).map((o) => o.metadata!.name)).toEqual(['b', 'kube-root-ca.crt']);
    expect(cluster.list('ConfigMap', { labelSelector: { app: 'x' } }).map((o) => o.metadata!.name)).toEqual(['a']);
    expect(cluster.list('ConfigMap', { labelSelector: 'app!=x', fieldSelector: 'metadata.namespace=other' }).map((o) => o.metadata!.name)).toEqual(['b', 'kube-root-ca.crt']);
    expect(cluster.list('crontabs.stable.example.com')).toHaveLength(1);
  });

  it('show a multi-version custom resource as stored, under its storage apiVersion, with read-time defaults', async () => {
    await using cluster = await createFakeCluster();
    const version = (name: string, storage: boolean, field: string) => ({
      name,
      served: true,
      storage,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [field]: { type: 'string' }, d: { type: 'string', default: 'dflt' } } } } } },
    });
    await cluster.apply({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'things.ex.com' },
      spec: { group: 'ex.com', scope: 'Namespaced', names: { plural: 'things', singular: 'thing', kind: 'Thing' }, versions: [version('v1', true, 'a'), version('v2', false, 'b')] },
    });
    await cluster.apply({ apiVersion: 'ex.com/v1', kind: 'Thing', metadata: { name: 't' }, spec: { a: 'A' } });
    // Over HTTP, v2 prunes v1's field; a direct read does not convert, and says which version it shows.
    const viaClient = (await cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi).getNamespacedCustomObject({ group: 'ex.com', version: 'v2', namespace: 'default', plural: 'things', name: 't' })) as { apiVersion: string; spec: object };
    expect(viaClient).toMatchObject({ apiVersion: 'ex.com/v2', spec: { d: 'dflt' } });
    expect(viaClient.spec).not.toHaveProperty('a');
    const direct = cluster.get({ apiVersion: 'ex.com/v2', kind: 'Thing', name: 't' })!;
    expect(direct).toMatchObject({ apiVersion: 'ex.com/v1', spec: { a: 'A', d: 'dflt' } });
    expect(cluster.list({ apiVersion: 'ex.com/v2', kind: 'Thing' })).toEqual([direct]);
  });

  it('hands out copies, and names what it cannot resolve', async () => {
    await using cluster = await createFakeCluster();
    await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } });
    (cluster.get({ kind: 'ConfigMap', name: 'a' })!.data as Record<string, string>).k = 'changed';
    expect(cluster.list('ConfigMap')[0]!.data).toEqual({ k: 'v' });
    expect(() => cluster.get({ kind: 'Gizmo', name: 'a' })).toThrow('kubefake: no served resource matches "Gizmo"');
    expect(() => cluster.list({ apiVersion: 'apps/v2', kind: 'Deployment' })).toThrow('kubefake: no served resource matches apps/v2 Deployment');
    expect(() => cluster.get({ name: 'a' } as never)).toThrow('kubefake: an object reference needs kind and name');
    expect(() => cluster.list('Pod', { fieldSelector: 'spec.color=red' })).toThrow('field label not supported: spec.color');
  });
});

describe('cluster.waitFor()', () => {
  it('resolves at once when the predicate already holds, and otherwise on the change that makes it hold', async () => {
    await using cluster = await createFakeCluster();
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' }, data: { phase: 'one' } } });
    expect((await cluster.waitFor({ kind: 'ConfigMap', name: 'a' }))!.data).toEqual({ phase: 'one' });

    const ready = cluster.waitFor({ kind: 'ConfigMap', name: 'a' }, (o) => (o?.data as Record<string, string>).phase === 'three');
    await core.patchNamespacedConfigMap({ name: 'a', namespace: 'default', body: { data: { phase: 'two' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await core.patchNamespacedConfigMap({ name: 'a', namespace: 'default', body: { data: { phase: 'three' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    expect((await ready)!.data).toEqual({ phase: 'three' });
  });

  it('waits for an object to appear, and for one to be gone (after the garbage collector)', async () => {
    await using cluster = await createFakeCluster();
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const appears = cluster.waitFor({ kind: 'Secret', name: 'later' });
    const owner = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'owner' } } });
    await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'later', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! }] } } });
    expect((await appears)!.metadata!.name).toBe('later');
    const gone = cluster.waitFor({ kind: 'Secret', name: 'later' }, (o) => o === undefined);
    await core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'default' });
    expect(await gone).toBeUndefined();
  });

  it('fails after the timeout with the last state seen and what the predicate threw', async () => {
    await using cluster = await createFakeCluster({ deterministic: true });
    await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stuck' }, data: { phase: 'one' } });
    const failure = cluster.waitFor(
      { kind: 'ConfigMap', name: 'stuck' },
      (o) => {
        if ((o!.data as Record<string, string>).phase !== 'done') throw new Error(`phase is ${(o!.data as Record<string, string>).phase}`);
        return true;
      },
      { timeout: 50 },
    );
    await expect(failure).rejects.toThrow(
      [
        'kubefake: waitFor timed out after 50 ms on v1 ConfigMap default/stuck; last seen:',
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata:',
        '  name: stuck',
        '  namespace: default',
      ].join('\n'),
    );
    await expect(failure).rejects.toThrow(/the predicate last threw: phase is one$/);
    await expect(cluster.waitFor({ kind: 'ConfigMap', name: 'never' }, undefined, { timeout: 10 })).rejects.toThrow('kubefake: waitFor timed out after 10 ms on v1 ConfigMap default/never; it does not exist');
  });

  it('rejects pending waits when the cluster closes', async () => {
    const cluster = await createFakeCluster();
    const pending = cluster.waitFor({ kind: 'ConfigMap', name: 'never' }, undefined, { timeout: 60_000 });
    await cluster.close();
    await expect(pending).rejects.toThrow('kubefake: the cluster was closed');
    // A wait started after close() fails at once rather than at its timeout.
    await expect(cluster.waitFor({ kind: 'ConfigMap', name: 'never' }, undefined, { timeout: 60_000 })).rejects.toThrow('kubefake: the cluster was closed');
  });
});
