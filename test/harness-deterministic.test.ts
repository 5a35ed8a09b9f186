// Deterministic mode: a frozen clock and seeded uids/generated names, so two runs of the same test
// store byte-identical objects; cluster.clock moves every timestamp and age the cluster writes.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { wire } from './support/wire.ts';

const CRONTAB_CRD = new URL('../examples/crontab/crontab-crd.yaml', import.meta.url);
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The same steps a test would take, through client-node. */
async function scenario(cluster: FakeCluster): Promise<void> {
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  await cluster.apply(CRONTAB_CRD);
  await core.createNamespace({ body: { metadata: { name: 'team' } } });
  const owner = await core.createNamespacedConfigMap({ namespace: 'team', body: { metadata: { generateName: 'settings-' }, data: { a: '1' } } });
  cluster.clock.advance(90_000);
  await core.createNamespacedSecret({ namespace: 'team', body: { metadata: { generateName: 'token-', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata!.name!, uid: owner.metadata!.uid! }] } } });
  await apps.createNamespacedDeployment({
    namespace: 'team',
    body: {
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
    },
  });
  await cluster.apply({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'nightly', namespace: 'team', finalizers: ['example.com/keep'] }, spec: { image: 'x' } });
  cluster.clock.advance(60_000);
  await cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi).deleteNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'team', plural: 'crontabs', name: 'nightly' });
  await cluster.settle();
}

describe('deterministic mode', () => {
  it('gives byte-identical snapshots, uids and timestamps included, on two runs', async () => {
    const runs: string[] = [];
    for (let i = 0; i < 2; i++) {
      await using cluster = await createFakeCluster({ deterministic: true });
      await scenario(cluster);
      runs.push(cluster.snapshot({ format: 'yaml', includeBootstrap: true }));
    }
    expect(runs[0]).toBe(runs[1]);
    // Nothing was normalised away: real uids, times and resourceVersions are in the text.
    expect(runs[0]).toMatch(/uid: [0-9a-f]{8}-/);
    expect(runs[0]).toContain("creationTimestamp: '2025-01-01T00:01:30Z'");
    expect(runs[0]).not.toContain('<uid-');
  });

  it('starts the clock at 2025-01-01T00:00:00Z and seeds uids and generateName suffixes', async () => {
    await using cluster = await createFakeCluster({ deterministic: true });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const cm = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { generateName: 'cfg-' } } });
    expect(cm.metadata!.creationTimestamp).toEqual(new Date('2025-01-01T00:00:00Z'));
    expect(cm.metadata!.uid).toMatch(UUID_V4);
    expect(cm.metadata!.name).toMatch(/^cfg-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(cluster.clock.frozen).toBe(true);
  });

  it('times managedFields by its own clock when another cluster of the process wrote the same types first', async () => {
    // Most built-in resource types (apps/v1 among them) are shared by the clusters of a process;
    // each cluster's writes are timed by its own clock (a field manager kept per type alone kept
    // the first cluster's clock for every later cluster).
    const times = async (cluster: FakeCluster) => {
      const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
      const template = { metadata: { labels: { app: 'w' } }, spec: { containers: [{ name: 'c', image: 'x' }] } };
      await apps.createNamespacedDeployment({ namespace: 'default', body: { metadata: { name: 'w' }, spec: { selector: { matchLabels: { app: 'w' } }, template } } });
      const status = { status: { conditions: [{ type: 'Available', status: 'True' }] } };
      const written = await apps.patchNamespacedDeploymentStatus({ name: 'w', namespace: 'default', body: status }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
      return written.metadata!.managedFields!.map((e) => `${e.subresource ?? ''}@${e.time?.toISOString()}`).sort();
    };
    {
      await using first = await createFakeCluster({ clock: '2031-05-05T05:05:05Z' });
      expect(await times(first)).toEqual(['@2031-05-05T05:05:05.000Z', 'status@2031-05-05T05:05:05.000Z']);
    }
    await using second = await createFakeCluster({ deterministic: true });
    expect(await times(second)).toEqual(['@2025-01-01T00:00:00.000Z', 'status@2025-01-01T00:00:00.000Z']);
  });

  it('hands out the same uids and names for the same seed, different ones for another seed', async () => {
    const firstUids = async (options: Parameters<typeof createFakeCluster>[0]) => {
      await using cluster = await createFakeCluster(options);
      const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
      const out: string[] = [];
      for (let i = 0; i < 3; i++) {
        const cm = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { generateName: 'x-' } } });
        out.push(`${cm.metadata!.name} ${cm.metadata!.uid}`);
      }
      return out;
    };
    const a = await firstUids({ seed: 'alpha' });
    expect(await firstUids({ seed: 'alpha' })).toEqual(a);
    expect(await firstUids({ seed: 'beta' })).not.toEqual(a);
    expect(await firstUids({ seed: 7 })).toEqual(await firstUids({ seed: 7, deterministic: true }));
    expect(new Set(a.map((line) => line.split(' ')[1])).size).toBe(3);
  });

  it('runs on real time with random uids when not deterministic', async () => {
    await using one = await createFakeCluster();
    await using two = await createFakeCluster();
    const make = (c: FakeCluster) => c.kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'same' } } });
    const before = Date.now();
    const [a, b] = [await make(one), await make(two)];
    expect(a.metadata!.uid).not.toBe(b.metadata!.uid);
    expect(a.metadata!.creationTimestamp!.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(one.clock.frozen).toBe(false);
  });
});

describe('cluster.clock', () => {
  it('starts a frozen clock at a given instant and moves creation and deletion timestamps with advance()', async () => {
    await using cluster = await createFakeCluster({ clock: '2030-06-01T12:00:00Z' });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const first = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'first', finalizers: ['example.com/hold'] } } });
    expect(first.metadata!.creationTimestamp).toEqual(new Date('2030-06-01T12:00:00Z'));
    expect(cluster.clock.advance(3_600_000)).toEqual(new Date('2030-06-01T13:00:00Z'));
    const second = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'second' } } });
    expect(second.metadata!.creationTimestamp).toEqual(new Date('2030-06-01T13:00:00Z'));
    cluster.clock.advance(30_000);
    await core.deleteNamespacedConfigMap({ name: 'first', namespace: 'default' });
    const deleting = await core.readNamespacedConfigMap({ name: 'first', namespace: 'default' });
    expect(deleting.metadata!.deletionTimestamp).toEqual(new Date('2030-06-01T13:00:30Z'));
    cluster.clock.set('2031-01-01T00:00:00Z');
    expect(cluster.clock.now()).toEqual(new Date('2031-01-01T00:00:00Z'));
  });

  it('puts a pod graceful deletion at clock time plus the grace period', async () => {
    await using cluster = await createFakeCluster({ clock: Date.parse('2030-01-01T00:00:00Z') });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'p', finalizers: ['example.com/hold'] }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }] } } });
    await core.deleteNamespacedPod({ name: 'p', namespace: 'default', gracePeriodSeconds: 30 });
    await cluster.settle();
    // The stand-in kubelet confirms at once (grace 0), but the first deletionTimestamp was now + 30 s.
    const graceful = cluster.history.all({ kind: 'Pod', name: 'p', type: 'MODIFIED' })[0]!;
    expect(graceful.after!.metadata!.deletionTimestamp).toBe('2030-01-01T00:00:30Z');
  });

  it('stamps controller conditions and scheduling-gate conditions from the clock', async () => {
    await using cluster = await createFakeCluster({ clock: '2030-02-03T04:05:06Z' });
    const [crd] = await cluster.apply(CRONTAB_CRD);
    const conditions = (crd!.status as { conditions: { type: string; lastTransitionTime: string }[] }).conditions;
    expect(conditions.map((c) => [c.type, c.lastTransitionTime])).toEqual([
      ['NamesAccepted', '2030-02-03T04:05:06Z'],
      ['Established', '2030-02-03T04:05:06Z'],
    ]);
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const pod = await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'gated' }, spec: { schedulingGates: [{ name: 'example.com/wait' }], containers: [{ name: 'c', image: 'busybox' }] } } });
    expect(pod.status!.conditions![0]!.lastTransitionTime).toEqual(new Date('2030-02-03T04:05:06Z'));

    await core.createNamespace({ body: { metadata: { name: 'doomed' } } });
    await core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } } });
    cluster.clock.advance(5_000);
    await core.deleteNamespace({ name: 'doomed' });
    await cluster.settle();
    const ns = cluster.get({ kind: 'Namespace', name: 'doomed' })!;
    const nsConditions = (ns.status as { conditions: { lastTransitionTime: string }[] }).conditions;
    expect(nsConditions.length).toBeGreaterThan(0);
    for (const c of nsConditions) expect(c.lastTransitionTime).toBe('2030-02-03T04:05:11Z');
  });

  it('prints Table ages against the cluster clock', async () => {
    await using cluster = await createFakeCluster({ deterministic: true });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'aging' } } });
    const ageCell = async () => {
      const res = wire();
      await core.readNamespacedConfigMap({ name: 'aging', namespace: 'default' }, k8s.setHeaderOptions('Accept', 'application/json;as=Table;v=v1;g=meta.k8s.io', res.options));
      const table = res.body<{ columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] }>();
      return table.rows[0]!.cells[table.columnDefinitions.findIndex((c) => c.name === 'Age')];
    };
    expect(await ageCell()).toBe('0s');
    cluster.clock.advance(3 * 24 * 3_600_000 + 5 * 3_600_000);
    expect(await ageCell()).toBe('3d5h');
  });

  it('offsets a real-time clock with advance()', async () => {
    await using cluster = await createFakeCluster();
    const before = Date.now();
    cluster.clock.advance(86_400_000);
    expect(cluster.clock.now().getTime()).toBeGreaterThanOrEqual(before + 86_400_000);
    const cm = await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'tomorrow' } } });
    expect(cm.metadata!.creationTimestamp!.getTime()).toBeGreaterThanOrEqual(Math.floor((before + 86_400_000) / 1000) * 1000);
  });

  it('rejects a clock that is not a time and a step that is not a number', async () => {
    await expect(createFakeCluster({ clock: 'yesterday-ish' })).rejects.toThrow('kubefake: clock is not a valid time: yesterday-ish');
    await using cluster = await createFakeCluster({ deterministic: true });
    expect(() => cluster.clock.advance(Number.NaN)).toThrow('finite number of milliseconds');
  });
});
