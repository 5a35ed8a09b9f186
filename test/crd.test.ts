// CustomResourceDefinitions end to end through the real client: validation of the CRD,
// establishing, serving custom objects, discovery and deletion.
import * as k8s from '@kubernetes/client-node';
import { load } from 'js-yaml';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { FIXTURES_DIR } from './conformance/runner.ts';
import { expectStatus } from './support/status.ts';
import { wire } from './support/wire.ts';

let cluster: FakeCluster;
let ext: k8s.ApiextensionsV1Api;
let custom: k8s.CustomObjectsApi;

beforeEach(async () => {
  cluster = await createFakeCluster();
  ext = cluster.kubeConfig.makeApiClient(k8s.ApiextensionsV1Api);
  custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
});
afterEach(() => cluster.close());

const G = 'stable.example.com';
function crontabCrd(overrides: { name?: string; kind?: string; plural?: string; scope?: string; shortNames?: string[] } = {}) {
  const plural = overrides.plural ?? 'crontabs';
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: overrides.name ?? `${plural}.${G}` },
    spec: {
      group: G,
      scope: overrides.scope ?? 'Namespaced',
      names: { plural, singular: plural.replace(/s$/, ''), kind: overrides.kind ?? 'CronTab', shortNames: overrides.shortNames ?? ['ct'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: { spec: { type: 'object', properties: { cronSpec: { type: 'string' }, replicas: { type: 'integer', maximum: 10 } } } },
            },
          },
        },
      ],
    },
  };
}
const crontab = (name: string, spec: Record<string, unknown> = { cronSpec: '* * * * */5' }) => ({ apiVersion: `${G}/v1`, kind: 'CronTab', metadata: { name }, spec });

type Crd = { status?: { conditions?: Array<{ type: string; status: string; reason?: string; message?: string }>; acceptedNames?: Record<string, unknown>; storedVersions?: string[] } };

describe('CRD validation', () => {
  it('refuses a name that is not <plural>.<group> with 422', async () => {
    await expectStatus(ext.createCustomResourceDefinition({ body: crontabCrd({ name: 'wrong.example.com' }) as k8s.V1CustomResourceDefinition }), {
      code: 422,
      reason: 'Invalid',
      message: 'CustomResourceDefinition.apiextensions.k8s.io "wrong.example.com" is invalid: metadata.name: Invalid value: "wrong.example.com": must be spec.names.plural+"."+spec.group',
    });
  });

  it('refuses a CRD without a storage version', async () => {
    const crd = crontabCrd();
    crd.spec.versions[0]!.storage = false;
    const status = await expectStatus(ext.createCustomResourceDefinition({ body: crd as k8s.V1CustomResourceDefinition }), { code: 422, reason: 'Invalid' });
    expect(status.message).toContain('spec.versions: Invalid value: ');
    expect(status.message).toContain('must have exactly one version marked as storage version');
  });
});

describe('establishing', () => {
  it('accepts the names, becomes Established and records the stored version', async () => {
    const [applied] = await cluster.apply(crontabCrd());
    const crd = (await ext.readCustomResourceDefinition({ name: `crontabs.${G}` })) as Crd;
    const conditions = Object.fromEntries((crd.status?.conditions ?? []).map((c) => [c.type, c]));
    expect(conditions.NamesAccepted).toMatchObject({ status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    expect(conditions.Established).toMatchObject({ status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
    expect(crd.status?.acceptedNames).toEqual({ plural: 'crontabs', singular: 'crontab', shortNames: ['ct'], kind: 'CronTab', listKind: 'CronTabList' });
    expect(crd.status?.storedVersions).toEqual(['v1']);
    expect((applied as Crd).status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')).toBe(true);
  });

  it('refuses names another CRD of the group holds (the last conflict checked is reported), never Established, not served', async () => {
    await cluster.apply(crontabCrd());
    await expect(cluster.apply(crontabCrd({ plural: 'crontabz', shortNames: ['cz'] }))).rejects.toThrow('kubefake: CustomResourceDefinition crontabz.stable.example.com was not established: "CronTabList" is already in use');
    const crd = (await ext.readCustomResourceDefinition({ name: `crontabz.${G}` })) as Crd;
    const conditions = Object.fromEntries((crd.status?.conditions ?? []).map((c) => [c.type, c]));
    // Kind and listKind both clash; listKind is checked last and its reason wins, as in naming_controller.go.
    expect(conditions.NamesAccepted).toMatchObject({ status: 'False', reason: 'ListKindConflict', message: '"CronTabList" is already in use' });
    expect(conditions.Established).toMatchObject({ status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
    const resources = await cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi).getAPIResources({ group: G, version: 'v1' });
    expect(resources.resources.map((r) => r.name)).toEqual(['crontabs']);
  });

  it('deletes a CRD that was never established without waiting on instances', async () => {
    await cluster.apply(crontabCrd());
    await expect(cluster.apply(crontabCrd({ plural: 'crontabz', shortNames: ['cz'] }))).rejects.toThrow('was not established');
    await ext.deleteCustomResourceDefinition({ name: `crontabz.${G}` });
    await cluster.settle();
    await expectStatus(ext.readCustomResourceDefinition({ name: `crontabz.${G}` }), { code: 404, reason: 'NotFound' });
    // The established sibling is untouched.
    expect(((await ext.readCustomResourceDefinition({ name: `crontabs.${G}` })) as Crd).status?.conditions?.find((c) => c.type === 'Established')?.status).toBe('True');
  });

  it('reports a short name conflict as ShortNamesConflict', async () => {
    await cluster.apply(crontabCrd());
    await expect(cluster.apply(crontabCrd({ plural: 'backups', kind: 'Backup', shortNames: ['ct'] }))).rejects.toThrow('"ct" is already in use');
    const crd = (await ext.readCustomResourceDefinition({ name: `backups.${G}` })) as Crd;
    expect(crd.status?.conditions?.find((c) => c.type === 'NamesAccepted')).toMatchObject({ status: 'False', reason: 'ShortNamesConflict' });
  });
});

describe('serving custom objects', () => {
  beforeEach(async () => {
    await cluster.apply(crontabCrd());
  });

  it('creates, reads and lists through CustomObjectsApi, with the CR list body', async () => {
    const created = (await custom.createNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs', body: crontab('a') })) as k8s.KubernetesObject & { metadata: { generation?: number } };
    expect(created.metadata).toMatchObject({ name: 'a', namespace: 'default', generation: 1 });
    const got = (await custom.getNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs', name: 'a' })) as k8s.KubernetesObject;
    expect(got.metadata?.uid).toBe(created.metadata?.uid);
    const list = (await custom.listNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs' })) as { kind: string; apiVersion: string; metadata: Record<string, unknown>; items: k8s.KubernetesObject[] };
    expect(list.kind).toBe('CronTabList');
    expect(list.apiVersion).toBe(`${G}/v1`);
    expect(list.metadata.continue).toBe('');
    expect(list.items.map((i) => i.metadata?.name)).toEqual(['a']);
  });

  it('works through KubernetesObjectApi, which finds the kind in discovery', async () => {
    const objects = k8s.KubernetesObjectApi.makeApiClient(cluster.kubeConfig);
    const created = await objects.create({ ...crontab('via-discovery'), metadata: { name: 'via-discovery', namespace: 'default' } });
    expect(created.kind).toBe('CronTab');
    const read = await objects.read({ apiVersion: `${G}/v1`, kind: 'CronTab', metadata: { name: 'via-discovery', namespace: 'default' } });
    expect((read.metadata as k8s.V1ObjectMeta).uid).toBe((created.metadata as k8s.V1ObjectMeta).uid);
  });

  it('validates against the schema with the real text', async () => {
    await expectStatus(custom.createNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs', body: crontab('big', { replicas: 11 }) }), {
      code: 422,
      reason: 'Invalid',
      message: 'CronTab.stable.example.com "big" is invalid: spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10',
    });
  });

  it('checks kind with 422', async () => {
    await expectStatus(custom.createNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs', body: { ...crontab('k'), kind: 'Other' } }), {
      code: 422,
      reason: 'Invalid',
      message: 'CronTab.stable.example.com "k" is invalid: kind: Invalid value: "Other": must be CronTab',
    });
  });

  it('requires a resourceVersion on update (422)', async () => {
    await custom.createNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs', body: crontab('rv') });
    await expectStatus(custom.replaceNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs', name: 'rv', body: crontab('rv', { cronSpec: 'x' }) }), {
      code: 422,
      reason: 'Invalid',
      message: 'crontabs.stable.example.com "rv" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
    });
  });

  it('bumps generation on spec changes only', async () => {
    const a = (await custom.createNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs', body: crontab('gen') })) as k8s.KubernetesObject;
    const labelled = (await custom.patchNamespacedCustomObject(
      { group: G, version: 'v1', namespace: 'default', plural: 'crontabs', name: 'gen', body: { metadata: { labels: { a: 'b' } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    )) as k8s.KubernetesObject & { metadata: { generation: number } };
    expect(labelled.metadata.generation).toBe(1);
    const changed = (await custom.patchNamespacedCustomObject(
      { group: G, version: 'v1', namespace: 'default', plural: 'crontabs', name: 'gen', body: { spec: { cronSpec: 'y' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    )) as k8s.KubernetesObject & { metadata: { generation: number } };
    expect(changed.metadata.generation).toBe(2);
    expect(a.metadata?.uid).toBe(changed.metadata?.uid);
  });

  it('answers a delete with the success Status naming the resource', async () => {
    const created = (await custom.createNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs', body: crontab('gone') })) as k8s.KubernetesObject;
    const res = wire();
    await custom.deleteNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs', name: 'gone' }, res.options);
    expect(res.body()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'gone', group: G, kind: 'crontabs', uid: created.metadata?.uid } });
  });

  it('serves cluster-scoped custom resources without a namespace', async () => {
    await cluster.apply(crontabCrd({ plural: 'clustertabs', kind: 'ClusterTab', scope: 'Cluster', shortNames: [] }));
    const created = (await custom.createClusterCustomObject({ group: G, version: 'v1', plural: 'clustertabs', body: { ...crontab('global'), kind: 'ClusterTab' } })) as k8s.KubernetesObject;
    expect(created.metadata?.namespace).toBeUndefined();
    const list = (await custom.listClusterCustomObject({ group: G, version: 'v1', plural: 'clustertabs' })) as { kind: string; items: unknown[] };
    expect(list.kind).toBe('ClusterTabList');
    expect(list.items).toHaveLength(1);
  });
});

describe('discovery', () => {
  it('lists the group version and the resource with the real verb order', async () => {
    await cluster.apply(crontabCrd());
    const resources = await custom.getAPIResources({ group: G, version: 'v1' });
    expect(resources.resources).toEqual([
      expect.objectContaining({ name: 'crontabs', singularName: 'crontab', namespaced: true, kind: 'CronTab', verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'], shortNames: ['ct'] }),
    ]);
    const groups = await cluster.kubeConfig.makeApiClient(k8s.ApisApi).getAPIVersions();
    expect(groups.groups.find((g) => g.name === G)).toEqual({ name: G, versions: [{ groupVersion: `${G}/v1`, version: 'v1' }], preferredVersion: { groupVersion: `${G}/v1`, version: 'v1' } });
  });
});

describe('discovery of multi-version CRDs', () => {
  const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
  // Kubernetes version priority, as versions.yaml's version-priority scenario lists it (its note: the
  // first is preferred). The fixture has no executable steps, so this test reads its list.
  const fixture = load(readFileSync(`${FIXTURES_DIR}/versions.yaml`, 'utf8')) as { scenarios: Array<{ name: string; versions?: string[] }> };
  const priority = fixture.scenarios.find((s) => s.name === 'version-priority')!.versions!;
  const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { image: { type: 'string' } } } } } };
  const multiVersionCrd = (group: string, plural: string, kind: string, versions: Array<{ name: string; served?: boolean; storage?: boolean }>) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, shortNames: ['pv'], categories: ['all', 'fruit'] },
      versions: versions.map((v) => ({
        name: v.name,
        served: v.served ?? true,
        storage: v.storage ?? false,
        schema,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
      })),
    },
  });
  /** sha256("<group>/<version>/<Kind>"), first 8 bytes, base64 (apiserver discovery/storageversionhash.go). */
  const hashOf = (gvk: string) => createHash('sha256').update(gvk).digest().subarray(0, 8).toString('base64');
  const shuffled = [...priority].reverse().slice(3).concat(priority.slice(-3).reverse()).reverse();

  it('orders versions by Kubernetes version priority, prefers the first, hides unserved ones, and hashes the storage version', async () => {
    const group = 'priority.example.com';
    await cluster.apply(multiVersionCrd(group, 'pears', 'Pear', [...shuffled.map((name) => ({ name, storage: name === 'v2' })), { name: 'v99', served: false }]));
    const apis = await cluster.kubeConfig.makeApiClient(k8s.ApisApi).getAPIVersions();
    const doc = apis.groups.find((g) => g.name === group)!;
    expect(doc.versions.map((v) => v.version)).toEqual(priority);
    expect(doc.preferredVersion).toEqual({ groupVersion: `${group}/${priority[0]}`, version: priority[0] });
    // Every served version reports the hash of the storage version (v2), not its own.
    for (const version of ['v10', 'v2', 'foo1']) {
      const list = await custom.getAPIResources({ group, version });
      expect(list.resources[0]).toMatchObject({ name: 'pears', storageVersionHash: hashOf(`${group}/v2/Pear`) });
    }
    expect(hashOf(`${group}/v2/Pear`)).not.toBe(hashOf(`${group}/v10/Pear`));
    // An unserved version falls through to the mux's plain-text not-found handler, as on a real server.
    const unserved = await fetch(`${cluster.url}/apis/${group}/v99`);
    expect([unserved.status, await unserved.text()]).toEqual([404, '404 page not found\n']);
  });

  it('serves the CRD in aggregated discovery: versions in priority order, resource, subresources, names', async () => {
    const group = 'priority.example.com';
    await cluster.apply(multiVersionCrd(group, 'pears', 'Pear', shuffled.map((name) => ({ name, storage: name === 'v1' }))));
    const res = await fetch(`${cluster.url}/apis`, { headers: { accept: `${AGGREGATED},application/json` } });
    expect(res.headers.get('content-type')).toBe(AGGREGATED);
    const body = (await res.json()) as { items: Array<{ metadata: { name: string }; versions: Array<{ version: string; resources: unknown[]; freshness: string }> }> };
    const item = body.items.find((i) => i.metadata.name === group)!;
    expect(item.versions.map((v) => v.version)).toEqual(priority);
    expect(item.versions[0]).toEqual({
      version: 'v10',
      freshness: 'Current',
      resources: [
        {
          resource: 'pears',
          responseKind: { group, version: 'v10', kind: 'Pear' },
          scope: 'Namespaced',
          singularResource: 'pear',
          verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
          shortNames: ['pv'],
          categories: ['all', 'fruit'],
          subresources: [
            { subresource: 'status', responseKind: { group, version: 'v10', kind: 'Pear' }, verbs: ['get', 'patch', 'update'] },
            { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
          ],
        },
      ],
    });
  });

  it('lists CRD groups after every built-in group: by group name in aggregated discovery, by API service name in /apis', async () => {
    // API service names are <version>.<group>: v1.b… sorts before v2.a…, while group names put a… first.
    await cluster.apply(multiVersionCrd('a.example.com', 'apples', 'Apple', [{ name: 'v2', storage: true }]));
    await cluster.apply(multiVersionCrd('b.example.com', 'bananas', 'Banana', [{ name: 'v1', storage: true }]));
    const legacy = (await cluster.kubeConfig.makeApiClient(k8s.ApisApi).getAPIVersions()).groups.map((g) => g.name);
    expect(legacy.slice(-2)).toEqual(['b.example.com', 'a.example.com']);
    expect(legacy.indexOf('apiextensions.k8s.io')).toBeLessThan(legacy.indexOf('b.example.com'));
    const aggregated = (await (await fetch(`${cluster.url}/apis`, { headers: { accept: AGGREGATED } })).json()) as { items: Array<{ metadata: { name: string } }> };
    expect(aggregated.items.map((i) => i.metadata.name).slice(-2)).toEqual(['a.example.com', 'b.example.com']);
  });

  it('only lists an Established CRD: a CRD whose names conflict is not served', async () => {
    await cluster.apply(multiVersionCrd('c.example.com', 'cherries', 'Cherry', [{ name: 'v1', storage: true }]));
    // Same group, another plural but the same kind: the naming controller refuses it, so it never gets served.
    await ext.createCustomResourceDefinition({ body: multiVersionCrd('c.example.com', 'morecherries', 'Cherry', [{ name: 'v1', storage: true }]) as k8s.V1CustomResourceDefinition });
    await cluster.settle();
    const list = await custom.getAPIResources({ group: 'c.example.com', version: 'v1' });
    expect(list.resources.filter((r) => !r.name.includes('/')).map((r) => r.name)).toEqual(['cherries']);
  });
});

describe('deleting a CRD', () => {
  it('goes Terminating, refuses creates (403, forbidCreateAdmission), deletes its objects (honouring their finalizers), then disappears', async () => {
    await cluster.apply(crontabCrd());
    await custom.createNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs', body: { ...crontab('held'), metadata: { name: 'held', finalizers: ['example.com/hold'] } } });
    const res = wire();
    await ext.deleteCustomResourceDefinition({ name: `crontabs.${G}` }, res.options);
    expect(res.status()).toBe(200);
    const marked = res.body<k8s.V1CustomResourceDefinition & Crd>();
    expect(marked.metadata?.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    expect(marked.status?.conditions?.find((c) => c.type === 'Terminating')).toMatchObject({
      status: 'True',
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    });
    await cluster.settle();
    await expectStatus(custom.createNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs', body: crontab('late') }), {
      code: 403,
      reason: 'Forbidden',
      message: 'crontabs.stable.example.com "late" is forbidden: create not allowed while custom resource definition is terminating',
      details: { name: 'late', group: G, kind: 'crontabs' },
    });
    const crd = (await ext.readCustomResourceDefinition({ name: `crontabs.${G}` })) as Crd;
    expect(crd.status?.conditions?.find((c) => c.type === 'Terminating')).toMatchObject({ reason: 'InstanceDeletionInProgress' });
    await custom.patchNamespacedCustomObject(
      { group: G, version: 'v1', namespace: 'default', plural: 'crontabs', name: 'held', body: { metadata: { finalizers: null } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await cluster.settle();
    await expectStatus(ext.readCustomResourceDefinition({ name: `crontabs.${G}` }), { code: 404, reason: 'NotFound' });
    // Recreated, it starts empty.
    await cluster.apply(crontabCrd());
    const list = (await custom.listNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs' })) as { items: unknown[] };
    expect(list.items).toEqual([]);
  });
});
