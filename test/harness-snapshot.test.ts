// cluster.snapshot() and cluster.diff(): stored state as ordered plain data (or YAML), filtered,
// with volatile fields normalised unless the cluster is deterministic; diffs between two moments.
import * as k8s from '@kubernetes/client-node';
import { loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster, type KubeObject } from '../src/index.ts';

const CRONTAB_CRD = new URL('../examples/crontab/crontab-crd.yaml', import.meta.url);

async function populate(cluster: FakeCluster) {
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  await core.createNamespace({ body: { metadata: { name: 'b-team' } } });
  await core.createNamespace({ body: { metadata: { name: 'a-team' } } });
  const owner = await core.createNamespacedConfigMap({ namespace: 'b-team', body: { metadata: { name: 'zeta', labels: { tier: 'web' } }, data: { k: 'v' } } });
  await core.createNamespacedConfigMap({ namespace: 'a-team', body: { metadata: { name: 'alpha', labels: { tier: 'db' } } } });
  await core.createNamespacedSecret({
    namespace: 'a-team',
    body: { metadata: { name: 'creds', labels: { tier: 'web' }, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'zeta', uid: owner.metadata!.uid! }] }, stringData: { p: 'x' } },
  });
  await apps.createNamespacedDeployment({
    namespace: 'a-team',
    body: { metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } } },
  });
}

const refs = (objects: { apiVersion?: string; kind?: string; metadata?: { namespace?: string; name?: string } }[]) =>
  objects.map((o) => `${o.apiVersion} ${o.kind} ${o.metadata?.namespace ?? ''}/${o.metadata?.name}`);

describe('cluster.snapshot()', () => {
  it('orders objects by apiVersion, kind, namespace and name, leaving out the unchanged boot namespaces', async () => {
    await using cluster = await createFakeCluster();
    await populate(cluster);
    expect(refs(cluster.snapshot())).toEqual([
      'apps/v1 Deployment a-team/web',
      'v1 ConfigMap a-team/alpha',
      'v1 ConfigMap b-team/zeta',
      'v1 Namespace /a-team',
      'v1 Namespace /b-team',
      'v1 Secret a-team/creds',
    ]);
    expect(refs(cluster.snapshot({ kinds: ['Namespace'], includeBootstrap: true }))).toEqual([
      'v1 Namespace /a-team',
      'v1 Namespace /b-team',
      'v1 Namespace /default',
      'v1 Namespace /kube-node-lease',
      'v1 Namespace /kube-public',
      'v1 Namespace /kube-system',
    ]);
  });

  it('shows a boot namespace once a test has changed it', async () => {
    await using cluster = await createFakeCluster();
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await core.patchNamespace({ name: 'default', body: { metadata: { labels: { env: 'test' } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    expect(refs(cluster.snapshot())).toEqual(['v1 Namespace /default']);
  });

  it('filters by kinds (kind, plural, short name, kind.group), namespaces and labels', async () => {
    await using cluster = await createFakeCluster();
    await populate(cluster);
    expect(refs(cluster.snapshot({ kinds: ['Deployment', 'secrets'] }))).toEqual(['apps/v1 Deployment a-team/web', 'v1 Secret a-team/creds']);
    expect(refs(cluster.snapshot({ kinds: ['cm'] }))).toEqual(['v1 ConfigMap a-team/alpha', 'v1 ConfigMap b-team/zeta']);
    expect(refs(cluster.snapshot({ kinds: ['deployments.apps', { apiVersion: 'v1', kind: 'Secret' }] }))).toEqual(['apps/v1 Deployment a-team/web', 'v1 Secret a-team/creds']);
    expect(refs(cluster.snapshot({ kinds: ['Deployment.batch'] }))).toEqual([]);
    // Namespaces select namespaced objects only.
    expect(refs(cluster.snapshot({ namespaces: ['b-team'] }))).toEqual(['v1 ConfigMap b-team/zeta']);
    expect(refs(cluster.snapshot({ labels: 'tier=web' }))).toEqual(['v1 ConfigMap b-team/zeta', 'v1 Secret a-team/creds']);
    expect(refs(cluster.snapshot({ labels: { tier: 'db' }, kinds: ['ConfigMap'] }))).toEqual(['v1 ConfigMap a-team/alpha']);
  });

  it('normalises uids (objects first, in snapshot order; references linked), resourceVersions and timestamps', async () => {
    await using cluster = await createFakeCluster();
    await populate(cluster);
    const [secret] = cluster.snapshot({ kinds: ['Secret'] });
    // The owner is not in this snapshot: its uid is numbered after the objects'.
    expect(secret!.metadata).toEqual({
      name: 'creds',
      namespace: 'a-team',
      uid: '<uid-1>',
      resourceVersion: '<resourceVersion>',
      creationTimestamp: '<timestamp>',
      labels: { tier: 'web' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'zeta', uid: '<uid-2>' }],
    });
    // In a snapshot of both, the owner's own uid is the one its dependent's reference names.
    const both = cluster.snapshot({ kinds: ['Secret', 'ConfigMap'] });
    expect(both.map((o) => `${o.metadata!.name} ${o.metadata!.uid}`)).toEqual(['alpha <uid-1>', 'zeta <uid-2>', 'creds <uid-3>']);
    expect(both[2]!.metadata!.ownerReferences![0]!.uid).toBe('<uid-2>');
  });

  it('gives the same normalised YAML on two real-time runs', async () => {
    const texts: string[] = [];
    for (let i = 0; i < 2; i++) {
      await using cluster = await createFakeCluster();
      await populate(cluster);
      await cluster.apply(CRONTAB_CRD);
      texts.push(cluster.snapshot({ format: 'yaml' }));
    }
    expect(texts[0]).toBe(texts[1]);
  });

  describe('names generated from generateName', () => {
    /** Five web- ConfigMaps (different data), a token- Secret owned by one of them, and a ConfigMap that names that one. */
    async function generate(cluster: FakeCluster) {
      const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
      const made = [];
      for (const size of ['s', 'm', 'l', 'xl', 'xs']) made.push(await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { generateName: 'web-' }, data: { size } } }));
      const owner = made[2]!.metadata!; // size l
      await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { generateName: 'token-', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner.name!, uid: owner.uid! }] } } });
      await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'pointer' }, data: { target: owner.name! } } });
    }

    it('replace the random suffix, numbered in an order that does not depend on it, wherever the name appears', async () => {
      await using cluster = await createFakeCluster();
      await generate(cluster);
      const snapshot = cluster.snapshot();
      // By kind, then name (`pointer` < `web-…`); names generated from the same prefix by content.
      expect(snapshot.map((o) => `${o.kind} ${o.metadata!.name} ${o.metadata!.uid} ${JSON.stringify(o.data ?? {})}`)).toEqual([
        'ConfigMap pointer <uid-1> {"target":"web-<suffix-1>"}',
        'ConfigMap web-<suffix-1> <uid-2> {"size":"l"}',
        'ConfigMap web-<suffix-2> <uid-3> {"size":"m"}',
        'ConfigMap web-<suffix-3> <uid-4> {"size":"s"}',
        'ConfigMap web-<suffix-4> <uid-5> {"size":"xl"}',
        'ConfigMap web-<suffix-5> <uid-6> {"size":"xs"}',
        'Secret token-<suffix-6> <uid-7> {}',
      ]);
      expect(snapshot[1]!.metadata!.generateName).toBe('web-');
      expect(snapshot[6]!.metadata!.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'ConfigMap', name: 'web-<suffix-1>', uid: '<uid-2>' }]);
    });

    it('give the same snapshot and diff on two real-time runs', async () => {
      const runs: Array<{ yaml: string; diff: unknown }> = [];
      for (let i = 0; i < 2; i++) {
        await using cluster = await createFakeCluster();
        const before = cluster.snapshot();
        await generate(cluster);
        runs.push({ yaml: cluster.snapshot({ format: 'yaml' }), diff: cluster.diff(before) });
      }
      expect(runs[0]!.yaml).toBe(runs[1]!.yaml);
      expect(runs[0]!.diff).toEqual(runs[1]!.diff);
      expect((runs[0]!.diff as { created: Array<{ name: string }> }).created.map((r) => r.name)).toEqual([
        'pointer',
        'web-<suffix-1>',
        'web-<suffix-2>',
        'web-<suffix-3>',
        'web-<suffix-4>',
        'web-<suffix-5>',
        'token-<suffix-6>',
      ]);
    });


    it('number objects with the same content in the order they were written (the pods of one ReplicaSet)', async () => {
      // Twelve runs: with the random names deciding, the pointer would name <suffix-1> or <suffix-2>.
      const seen = new Set<string>();
      for (let i = 0; i < 12; i++) {
        await using cluster = await createFakeCluster();
        const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
        const first = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { generateName: 'web-' }, data: { size: 's' } } });
        await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { generateName: 'web-' }, data: { size: 's' } } });
        await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'pointer' }, data: { target: first.metadata!.name! } } });
        seen.add(cluster.snapshot({ format: 'yaml' }));
      }
      expect(seen.size).toBe(1);
      expect([...seen][0]).toContain('target: web-<suffix-1>');
    });
    it('number the names of a diff after those of its snapshot, and show them in the changes', async () => {
      await using cluster = await createFakeCluster();
      const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
      const first = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { generateName: 'job-' } } });
      await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'pointer' } } });
      const before = cluster.snapshot();
      const second = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { generateName: 'job-' } } });
      const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
      await core.patchNamespacedConfigMap({ name: 'pointer', namespace: 'default', body: { data: { previous: first.metadata!.name!, current: second.metadata!.name! } } }, merge);
      expect(cluster.diff(before)).toEqual({
        created: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'job-<suffix-2>' }],
        changed: [
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            namespace: 'default',
            name: 'pointer',
            changes: [{ path: 'data', after: { previous: 'job-<suffix-1>', current: 'job-<suffix-2>' } }],
          },
        ],
        deleted: [],
      });
    });

    it('keep names that were given, names that only look generated, and the names of a deterministic cluster', async () => {
      await using cluster = await createFakeCluster();
      const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
      // A given name wins over generateName; a suffix outside the apiserver's alphabet (vowels, 0, 1, 3) was not generated.
      await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'given', generateName: 'web-' } } });
      await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'web-a0e13', generateName: 'web-' } } });
      await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'web-bcdfg' } } });
      expect(cluster.snapshot().map((o) => o.metadata!.name)).toEqual(['given', 'web-a0e13', 'web-bcdfg']);

      await using deterministic = await createFakeCluster({ deterministic: true });
      const made = await deterministic.kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespacedConfigMap({ namespace: 'default', body: { metadata: { generateName: 'web-' } } });
      expect(deterministic.snapshot().map((o) => o.metadata!.name)).toEqual([made.metadata!.name]);
      expect(deterministic.snapshot({ normalize: true }).map((o) => o.metadata!.name)).toEqual(['web-<suffix-1>']);
    });

    it('keep the prefix as the apiserver cut it (58 characters)', async () => {
      await using cluster = await createFakeCluster();
      const long = `${'a'.repeat(60)}-`;
      await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespacedConfigMap({ namespace: 'default', body: { metadata: { generateName: long } } });
      expect(cluster.snapshot()[0]!.metadata).toMatchObject({ name: `${'a'.repeat(58)}<suffix-1>`, generateName: long });
    });
  });

  it('answers YAML that parses back to the object form and can be applied again', async () => {
    await using cluster = await createFakeCluster({ deterministic: true });
    await populate(cluster);
    const yaml = cluster.snapshot({ format: 'yaml', kinds: ['ConfigMap'] });
    expect(yaml.startsWith('apiVersion: v1\nkind: ConfigMap\n')).toBe(true);
    expect(yaml.split('\n---\n').length).toBe(2);
    expect(loadAll(yaml)).toEqual(cluster.snapshot({ kinds: ['ConfigMap'] }));
    await using other = await createFakeCluster({ deterministic: true });
    await other.apply([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a-team' } }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'b-team' } }]);
    const stripped = (loadAll(yaml) as KubeObject[]).map((o) => ({ ...o, metadata: { name: o.metadata!.name, namespace: o.metadata!.namespace } }));
    expect(await other.apply(stripped)).toHaveLength(2);
  });

  it('keeps real values when asked not to normalise, and normalises a deterministic cluster when asked to', async () => {
    await using cluster = await createFakeCluster();
    const cm = await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'raw' } } });
    expect(cluster.snapshot({ normalize: false })[0]!.metadata!.uid).toBe(cm.metadata!.uid);
    await using deterministic = await createFakeCluster({ deterministic: true });
    await deterministic.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
    expect(deterministic.snapshot()[0]!.metadata!.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(deterministic.snapshot({ normalize: true })[0]!.metadata!.uid).toBe('<uid-1>');
  });

  it('leaves managedFields out unless asked for them', async () => {
    await using cluster = await createFakeCluster({ deterministic: true });
    await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'c' } } });
    const stored = cluster.get({ kind: 'ConfigMap', name: 'c' })!;
    expect(cluster.snapshot()[0]!.metadata!.managedFields).toBeUndefined();
    expect(cluster.snapshot({ managedFields: true })[0]!.metadata!.managedFields).toEqual(stored.metadata!.managedFields);
  });

  it('hands out copies: changing a snapshot changes nothing stored', async () => {
    await using cluster = await createFakeCluster();
    await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } });
    (cluster.snapshot()[0]!.data as Record<string, string>).a = 'changed';
    expect(cluster.get({ kind: 'ConfigMap', name: 'c' })!.data).toEqual({ a: '1' });
  });

  it('rejects a label selector that does not parse with its message', async () => {
    await using cluster = await createFakeCluster();
    expect(() => cluster.snapshot({ labels: 'a in (' })).toThrow(/unable to parse requirement|found '', expected/);
  });
});

describe('cluster.diff()', () => {
  it('lists created, changed (field by field) and deleted objects since a snapshot', async () => {
    await using cluster = await createFakeCluster();
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    // A second label keeps the map: an emptied one is not stored at all (omitempty).
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'kept', labels: { 'app.kubernetes.io/name': 'x', keep: 'y' } }, data: { a: '1', gone: 'y' } } });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'removed' } } });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'untouched' } } });
    const before = cluster.snapshot();

    await core.patchNamespacedConfigMap(
      { name: 'kept', namespace: 'default', body: { data: { a: '2', gone: null, b: '3' }, metadata: { labels: { 'app.kubernetes.io/name': null } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await core.deleteNamespacedConfigMap({ name: 'removed', namespace: 'default' });
    await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'new' } } });

    expect(cluster.diff(before)).toEqual({
      created: [{ apiVersion: 'v1', kind: 'Secret', namespace: 'default', name: 'new' }],
      changed: [
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          namespace: 'default',
          name: 'kept',
          changes: [
            { path: 'data.a', before: '1', after: '2' },
            { path: 'data.b', after: '3' },
            { path: 'data.gone', before: 'y' },
            { path: 'metadata.labels["app.kubernetes.io/name"]', before: 'x' },
          ],
        },
      ],
      deleted: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'removed' }],
    });
  });

  it('reports a deletion timestamp, normalised, and an object re-created under the same name as deleted and created', async () => {
    await using cluster = await createFakeCluster();
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } } });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'again' } } });
    const before = cluster.snapshot();
    await core.deleteNamespacedConfigMap({ name: 'held', namespace: 'default' });
    await core.deleteNamespacedConfigMap({ name: 'again', namespace: 'default' });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'again' } } });
    const diff = cluster.diff(before);
    const ref = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name });
    expect(diff.created).toEqual([ref('again')]);
    expect(diff.deleted).toEqual([ref('again')]);
    expect(diff.changed).toEqual([
      {
        ...ref('held'),
        changes: [
          { path: 'metadata.deletionTimestamp', after: '<timestamp>' },
          { path: 'metadata.deletionGracePeriodSeconds', after: 0 },
        ],
      },
    ]);
  });

  it('uses the filters of the snapshot it is given, and answers nothing when nothing changed', async () => {
    await using cluster = await createFakeCluster();
    const before = cluster.snapshot({ kinds: ['Secret'] });
    await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ignored' } });
    expect(cluster.diff(before)).toEqual({ created: [], changed: [], deleted: [] });
  });

  it('refuses what did not come from snapshot()', async () => {
    await using cluster = await createFakeCluster();
    expect(() => cluster.diff(structuredClone(cluster.snapshot()))).toThrow('kubefake: diff() takes an array returned by cluster.snapshot()');
  });
});

it('serialises an empty snapshot as empty YAML', async () => {
  await using cluster = await createFakeCluster();
  expect(cluster.snapshot({ format: 'yaml' })).toBe('');
});
