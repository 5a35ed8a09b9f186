// Several versions per CRD through the real client (the "Versions in CustomResourceDefinitions"
// page): None conversion, storage versions and status.storedVersions, the storage-version
// migration walk-through, version priority, unserved versions and deprecation warnings.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster, type KubeObject } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { captureWarnings } from './support/warnings.ts';

let cluster: FakeCluster;
let ext: k8s.ApiextensionsV1Api;
let custom: k8s.CustomObjectsApi;
const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

beforeEach(async () => {
  cluster = await createFakeCluster();
  ext = cluster.kubeConfig.makeApiClient(k8s.ApiextensionsV1Api);
  custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
});
afterEach(() => cluster.close());

const G = 'example.com';
const CRD_NAME = `crontabs.${G}`;
type Props = Record<string, Record<string, unknown>>;
const schema = (properties: Props) => ({ openAPIV3Schema: { type: 'object', properties } });
const HOST_PORT: Props = { host: { type: 'string' }, port: { type: 'string' } };

interface VersionSpec {
  name: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  properties?: Props;
}

/** The versions page's CronTab CRD (None conversion), with the versions given. */
function crontabCrd(versions: VersionSpec[]) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: CRD_NAME },
    spec: {
      group: G,
      versions: versions.map(({ properties, ...v }) => ({ served: true, storage: false, ...v, schema: schema(properties ?? HOST_PORT) })),
      conversion: { strategy: 'None' },
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
    },
  };
}
const SEED_CRD = crontabCrd([
  { name: 'v1beta1', storage: true },
  { name: 'v1', storage: false },
]);

const at = (version: string) => ({ group: G, version, namespace: 'default', plural: 'crontabs' });
const crontab = (version: string, name: string, fields: Record<string, unknown> = {}) => ({ apiVersion: `${G}/${version}`, kind: 'CronTab', metadata: { name }, ...fields });
type Obj = KubeObject & Record<string, unknown>;

/** The apiVersion the object was last written with into storage (the change history keeps stored objects). */
const storedApiVersion = (name: string) => cluster.history.last({ kind: 'crontabs.example.com', name })?.apiVersion;

async function storedVersions(): Promise<string[] | undefined> {
  return (await ext.readCustomResourceDefinition({ name: CRD_NAME })).status?.storedVersions;
}

/** Changes the CRD's versions with an update (apply() keeps schema `default`s, which client-node's typed serialiser drops). */
async function setVersions(versions: VersionSpec[]) {
  await cluster.apply(crontabCrd(versions));
}

describe('None conversion', () => {
  it('serves an object created at v1beta1 at v1, with only apiVersion changed (the fixture scenario)', async () => {
    await cluster.apply(SEED_CRD);
    const created = (await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: crontab('v1beta1', 'first', { host: 'a', port: '1' }) })) as Obj;
    const read = (await custom.getNamespacedCustomObject({ ...at('v1'), name: 'first' })) as Obj;
    expect(read).toEqual({ ...created, apiVersion: `${G}/v1` });
    expect(storedApiVersion('first')).toBe(`${G}/v1beta1`);
  });

  it('stores a write made at v1 at the storage version v1beta1 and answers it at v1', async () => {
    await cluster.apply(SEED_CRD);
    const created = (await custom.createNamespacedCustomObject({ ...at('v1'), body: crontab('v1', 'second', { host: 'b', port: '2' }) })) as Obj;
    expect(created).toMatchObject({ apiVersion: `${G}/v1`, host: 'b', port: '2' });
    expect(storedApiVersion('second')).toBe(`${G}/v1beta1`);
    const asBeta = (await custom.getNamespacedCustomObject({ ...at('v1beta1'), name: 'second' })) as Obj;
    expect(asBeta).toEqual({ ...created, apiVersion: `${G}/v1beta1` });
  });

  it('lists every object at the requested version, wherever it is stored', async () => {
    await cluster.apply(SEED_CRD);
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: crontab('v1beta1', 'a', { host: 'a' }) });
    await setVersions([{ name: 'v1beta1' }, { name: 'v1', storage: true }]);
    await custom.createNamespacedCustomObject({ ...at('v1'), body: crontab('v1', 'b', { host: 'b' }) });
    expect([storedApiVersion('a'), storedApiVersion('b')]).toEqual([`${G}/v1beta1`, `${G}/v1`]);
    for (const version of ['v1beta1', 'v1']) {
      const list = (await custom.listNamespacedCustomObject({ ...at(version) })) as { apiVersion: string; kind: string; items: Obj[] };
      expect(list.apiVersion).toBe(`${G}/${version}`);
      expect(list.kind).toBe('CronTabList');
      expect(list.items.map((o) => [o.metadata?.name, o.apiVersion, o.host])).toEqual([
        ['a', `${G}/${version}`, 'a'],
        ['b', `${G}/${version}`, 'b'],
      ]);
    }
  });

  it('prunes with the schema of the version stored at, then of the version asked for', async () => {
    // v1beta1 knows `legacy`, v1 knows `extra`: a field survives only where both schemas have it.
    await cluster.apply(
      crontabCrd([
        { name: 'v1beta1', storage: true, properties: { ...HOST_PORT, legacy: { type: 'string' } } },
        { name: 'v1', properties: { ...HOST_PORT, extra: { type: 'string' } } },
      ]),
    );
    const created = (await custom.createNamespacedCustomObject({ ...at('v1'), body: crontab('v1', 'p', { host: 'h', extra: 'lost in storage' }) })) as Obj;
    expect(created).toMatchObject({ apiVersion: `${G}/v1`, host: 'h' });
    expect(created).not.toHaveProperty('extra');
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: crontab('v1beta1', 'q', { host: 'h', legacy: 'kept in storage' }) });
    expect(await custom.getNamespacedCustomObject({ ...at('v1beta1'), name: 'q' })).toMatchObject({ legacy: 'kept in storage' });
    expect(await custom.getNamespacedCustomObject({ ...at('v1'), name: 'q' })).not.toHaveProperty('legacy');
  });

  it('applies the defaults of the version stored at when reading, not those of the version asked for', async () => {
    await cluster.apply(SEED_CRD);
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: crontab('v1beta1', 'd', { host: 'h' }) });
    // Defaults added later: the stored object has no port; reads fill in the storage version's.
    await setVersions([
      { name: 'v1beta1', storage: true, properties: { host: { type: 'string' }, port: { type: 'string', default: 'beta-port' } } },
      { name: 'v1', properties: { host: { type: 'string' }, port: { type: 'string', default: 'v1-port' } } },
    ]);
    expect(await custom.getNamespacedCustomObject({ ...at('v1'), name: 'd' })).toMatchObject({ apiVersion: `${G}/v1`, port: 'beta-port' });
    expect(await custom.getNamespacedCustomObject({ ...at('v1beta1'), name: 'd' })).toMatchObject({ port: 'beta-port' });
  });

  it('lets a watch at one version see writes made through another', async () => {
    await cluster.apply(SEED_CRD);
    const events: Array<[string, string | undefined, string | undefined]> = [];
    const watch = await new k8s.Watch(cluster.kubeConfig).watch(
      `/apis/${G}/v1/namespaces/default/crontabs`,
      {},
      (type, obj: Obj) => events.push([type, obj.apiVersion, obj.host as string | undefined]),
      () => undefined,
    );
    const created = (await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: crontab('v1beta1', 'w', { host: 'one' }) })) as Obj;
    await custom.replaceNamespacedCustomObject({ ...at('v1beta1'), name: 'w', body: { ...created, host: 'two' } });
    await custom.deleteNamespacedCustomObject({ ...at('v1beta1'), name: 'w' });
    await expect.poll(() => events.length).toBe(3);
    watch.abort();
    expect(events).toEqual([
      ['ADDED', `${G}/v1`, 'one'],
      ['MODIFIED', `${G}/v1`, 'two'],
      ['DELETED', `${G}/v1`, 'two'],
    ]);
  });

  it('fails reads of an object stored at a version the CRD no longer has, as the converter does', async () => {
    await cluster.apply(SEED_CRD);
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: crontab('v1beta1', 'old', { host: 'h' }) });
    // A storage migration that skipped this object, then v1beta1 dropped from storedVersions and spec.
    await setVersions([{ name: 'v1beta1' }, { name: 'v1', storage: true }]);
    await ext.patchCustomResourceDefinitionStatus({ name: CRD_NAME, body: { status: { storedVersions: ['v1'] } } }, merge);
    await setVersions([{ name: 'v1', storage: true }]);
    await expectStatus(custom.getNamespacedCustomObject({ ...at('v1'), name: 'old' }), {
      code: 500,
      message: `request to convert CR from an invalid group/version: ${G}/v1beta1`,
    });
  });
});

describe('storage versions', () => {
  it('records every version ever used for storage in status.storedVersions', async () => {
    await cluster.apply(SEED_CRD);
    expect(await storedVersions()).toEqual(['v1beta1']);
    await setVersions([{ name: 'v1beta1' }, { name: 'v1', storage: true }]);
    expect(await storedVersions()).toEqual(['v1beta1', 'v1']);
    // Switching back adds nothing new.
    await setVersions([{ name: 'v1beta1', storage: true }, { name: 'v1' }]);
    expect(await storedVersions()).toEqual(['v1beta1', 'v1']);
  });

  it('walks through the documented migration: old objects stay, updates rewrite them at the new storage version', async () => {
    // 1. The storage version is v1beta1; an object is stored at v1beta1.
    await cluster.apply(SEED_CRD);
    const first = (await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: crontab('v1beta1', 'first', { host: 'a', port: '1' }) })) as Obj;
    // 2. v1 becomes the storage version; storedVersions is now [v1beta1, v1].
    await setVersions([{ name: 'v1beta1' }, { name: 'v1', storage: true }]);
    expect(await storedVersions()).toEqual(['v1beta1', 'v1']);
    expect(storedApiVersion('first')).toBe(`${G}/v1beta1`);
    // 3. Read at both versions: identical but for apiVersion.
    const asBeta = (await custom.getNamespacedCustomObject({ ...at('v1beta1'), name: 'first' })) as Obj;
    const asV1 = (await custom.getNamespacedCustomObject({ ...at('v1'), name: 'first' })) as Obj;
    expect(asBeta).toEqual(first);
    expect(asV1).toEqual({ ...first, apiVersion: `${G}/v1` });
    // 4. A new object is stored at v1.
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: crontab('v1beta1', 'second', { host: 'b' }) });
    expect(storedApiVersion('second')).toBe(`${G}/v1`);
    // 5. Updating the first object (same content, as a migration does) rewrites it at v1.
    const rewritten = (await custom.replaceNamespacedCustomObject({ ...at('v1beta1'), name: 'first', body: asBeta })) as Obj;
    expect(rewritten.apiVersion).toBe(`${G}/v1beta1`);
    expect(storedApiVersion('first')).toBe(`${G}/v1`);
    // Then v1beta1 leaves storedVersions through the status subresource…
    const patched = await ext.patchCustomResourceDefinitionStatus({ name: CRD_NAME, body: { status: { storedVersions: ['v1'] } } }, merge);
    expect(patched.status?.storedVersions).toEqual(['v1']);
    // …and only then may it leave spec.versions.
    await setVersions([{ name: 'v1', storage: true }]);
    expect((await ext.readCustomResourceDefinition({ name: CRD_NAME })).spec.versions.map((v) => v.name)).toEqual(['v1']);
    expect(await custom.getNamespacedCustomObject({ ...at('v1'), name: 'first' })).toMatchObject({ apiVersion: `${G}/v1`, host: 'a', port: '1' });
  });

  it('refuses to drop a version from spec.versions while it is still in storedVersions', async () => {
    await cluster.apply(SEED_CRD);
    await setVersions([{ name: 'v1beta1' }, { name: 'v1', storage: true }]);
    const current = await ext.readCustomResourceDefinition({ name: CRD_NAME });
    const body = { ...current, spec: crontabCrd([{ name: 'v1', storage: true }]).spec as k8s.V1CustomResourceDefinitionSpec };
    await expectStatus(ext.replaceCustomResourceDefinition({ name: CRD_NAME, body }), {
      code: 422,
      reason: 'Invalid',
      message:
        'CustomResourceDefinition.apiextensions.k8s.io "crontabs.example.com" is invalid: status.storedVersions[0]: Invalid value: "v1beta1": missing from spec.versions; v1beta1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1beta1 and removes v1beta1 from status.storedVersions',
    });
  });

  it('keeps the spec on a status write and re-adds the storage version on the next spec update', async () => {
    await cluster.apply(SEED_CRD);
    // The status subresource does not check storedVersions (1.36 validates only acceptedNames there),
    // so even the storage version can be dropped; the next spec update appends it again.
    const patched = await ext.patchCustomResourceDefinitionStatus(
      { name: CRD_NAME, body: { spec: { group: 'ignored.example.com' }, status: { storedVersions: ['v1'] } } },
      merge,
    );
    expect(patched.spec.group).toBe(G);
    expect(patched.status?.storedVersions).toEqual(['v1']);
    await setVersions([{ name: 'v1beta1', storage: true }, { name: 'v1' }]);
    expect(await storedVersions()).toEqual(['v1', 'v1beta1']);
  });

  it('defaults an emptied storedVersions to the storage version, as the v1 defaulting of the request does', async () => {
    await cluster.apply(SEED_CRD);
    await setVersions([{ name: 'v1beta1' }, { name: 'v1', storage: true }]);
    const patched = await ext.patchCustomResourceDefinitionStatus({ name: CRD_NAME, body: { status: { storedVersions: [] } } }, merge);
    expect(patched.status?.storedVersions).toEqual(['v1']);
  });
});

describe('versions in discovery', () => {
  const PRIORITY_ORDER = ['v10', 'v2', 'v1', 'v11beta2', 'v10beta3', 'v3beta1', 'v12alpha1', 'v11alpha2', 'foo1', 'foo10'];

  it('lists versions by version priority, whatever the CRD order, and prefers the first (the page\'s sorted list)', async () => {
    const shuffled = ['foo10', 'v1', 'v11alpha2', 'v3beta1', 'v10', 'foo1', 'v12alpha1', 'v2', 'v10beta3', 'v11beta2'];
    await cluster.apply(crontabCrd(shuffled.map((name) => ({ name, storage: name === 'v1' }))));
    const apis = cluster.kubeConfig.makeApiClient(k8s.ApisApi);
    const groups = await apis.getAPIVersions();
    const group = groups.groups.find((g) => g.name === G)!;
    expect(group.versions.map((v) => v.version)).toEqual(PRIORITY_ORDER);
    expect(group.preferredVersion).toEqual({ groupVersion: `${G}/v10`, version: 'v10' });
  });

  it('answers 404 for a version with served: false and serves the others', async () => {
    await cluster.apply(crontabCrd([{ name: 'v1beta1', served: false }, { name: 'v1', storage: true }]));
    await custom.createNamespacedCustomObject({ ...at('v1'), body: crontab('v1', 'x') });
    // The CRD handler passes an unserved version on to the end of the chain: Go's plain 404.
    const err = await custom.getNamespacedCustomObject({ ...at('v1beta1'), name: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(k8s.ApiException);
    expect((err as k8s.ApiException<string>).code).toBe(404);
    expect((err as k8s.ApiException<string>).body).toBe('404 page not found\n');
    expect(await custom.getNamespacedCustomObject({ ...at('v1'), name: 'x' })).toMatchObject({ apiVersion: `${G}/v1` });
    const discovery = await fetch(`${cluster.url}/apis/${G}`);
    expect(((await discovery.json()) as { versions: Array<{ version: string }> }).versions.map((v) => v.version)).toEqual(['v1']);
  });
});

describe('deprecated versions', () => {
  const DEPRECATION_CRD = crontabCrd([
    { name: 'v1alpha1', deprecated: true, deprecationWarning: 'example.com/v1alpha1 CronTab is deprecated; see http://example.com/v1alpha1-v1 for instructions to migrate to example.com/v1 CronTab' },
    { name: 'v1beta1', deprecated: true },
    { name: 'v1', storage: true },
  ]);

  it('sends the custom warning, the default one naming the newest served version, and none for v1', async () => {
    await cluster.apply(DEPRECATION_CRD);
    const capture = captureWarnings();
    await custom.listNamespacedCustomObject({ ...at('v1alpha1') }, capture.options);
    expect(capture.warnings()).toEqual(['example.com/v1alpha1 CronTab is deprecated; see http://example.com/v1alpha1-v1 for instructions to migrate to example.com/v1 CronTab']);
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: crontab('v1beta1', 'c') }, capture.options);
    expect(capture.warnings()).toEqual(['example.com/v1beta1 CronTab is deprecated; use example.com/v1 CronTab']);
    await custom.getNamespacedCustomObject({ ...at('v1'), name: 'c' }, capture.options);
    expect(capture.warnings()).toEqual([]);
  });

  it('names only a newer, served, non-deprecated version; none left means no suggestion', async () => {
    await cluster.apply(
      crontabCrd([
        { name: 'v1', deprecated: true, storage: true },
        { name: 'v2', deprecated: true },
        { name: 'v1beta1' },
        { name: 'v3', served: false },
      ]),
    );
    const capture = captureWarnings();
    await custom.listNamespacedCustomObject({ ...at('v1') }, capture.options);
    // v1beta1 is older than v1, v2 deprecated, v3 not served.
    expect(capture.warnings()).toEqual(['example.com/v1 CronTab is deprecated']);
  });
});
