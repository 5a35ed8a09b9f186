// The served discovery documents against the upstream ones vendored in scripts/upstream/v1.36:
// legacy APIResourceLists byte-for-value equal for the group versions vendored as legacy
// documents, and every stable resource of the upstream aggregated document served with the same
// entry. What a default server does not serve is checked with facts known independently of the
// generator's filter (no beta/alpha group version, the exact group version list).
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { DEFAULT_APIS_GROUP_VERSIONS } from './support/default-group-versions.ts';

const UPSTREAM = new URL('../scripts/upstream/v1.36/', import.meta.url);
const upstream = (file: string) => JSON.parse(readFileSync(new URL(file, UPSTREAM), 'utf8'));
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

let cluster: FakeCluster;
beforeEach(async () => {
  cluster = await createFakeCluster();
});
afterEach(() => cluster.close());
const get = async (path: string, accept = 'application/json') => {
  const res = await fetch(cluster.url + path, { headers: { accept } });
  return { status: res.status, body: res.status === 200 ? await res.json() : await res.text() };
};

describe('legacy discovery documents', () => {
  it.each([
    ['/api/v1', 'api__v1.json'],
    ['/apis/storage.k8s.io/v1', 'apis__storage.k8s.io__v1.json'],
    ['/apis/resource.k8s.io/v1', 'apis__resource.k8s.io__v1.json'],
    ['/apis/events.k8s.io/v1', 'apis__events.k8s.io__v1.json'],
    ['/apis/autoscaling/v1', 'apis__autoscaling__v1.json'],
  ])('serves %s as upstream %s', async (path, file) => {
    const served = await get(path);
    expect(served.status).toBe(200);
    // Subresources installed after the documents' commits are listed beside them (and checked below).
    const added = new Set((upstream('subresources-since-documents.json').subresources as { resource: string; subresource: string }[]).map((s) => `${s.resource}/${s.subresource}`));
    const body = served.body as { resources: { name: string }[] };
    expect({ ...body, resources: body.resources.filter((r) => !added.has(r.name)) }).toEqual(upstream(file));
  });

  it('serves pods/resize, which the vendored api__v1.json predates, where a v1.36 server lists it', async () => {
    const names = ((await get('/api/v1')).body as { resources: { name: string }[] }).resources.map((r) => r.name);
    const resize = ((await get('/api/v1')).body as { resources: { name: string }[] }).resources.find((r) => r.name === 'pods/resize');
    expect(resize).toEqual({ name: 'pods/resize', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get', 'patch', 'update'] });
    expect(names.indexOf('pods/resize')).toBe(names.indexOf('pods/proxy') + 1);
  });
});

describe('aggregated discovery', () => {
  it('serves every stable resource of the upstream document with the same entry', async () => {
    const served = (await get('/apis', AGGREGATED)).body as { items: { metadata: { name: string }; versions: { version: string; resources: { resource: string }[] }[] }[] };
    const servedEntry = (group: string, version: string, resource: string) =>
      served.items.find((i) => i.metadata.name === group)?.versions.find((v) => v.version === version)?.resources.find((r) => r.resource === resource);
    let compared = 0;
    for (const item of upstream('aggregated_v2.json').items as typeof served.items) {
      for (const v of item.versions.filter((x) => /^v\d+$/.test(x.version))) {
        for (const r of v.resources) {
          expect(servedEntry(item.metadata.name, v.version, r.resource), `${item.metadata.name}/${v.version}/${r.resource}`).toEqual(r);
          compared++;
        }
      }
    }
    expect(compared).toBe(44);
  });

  it('lists the groups in the upstream order, each version with freshness Current and no creationTimestamp', async () => {
    const served = (await get('/apis', AGGREGATED)).body as { items: { metadata: Record<string, unknown>; versions: { version: string; freshness: string }[] }[] };
    const order = (upstream('aggregated_v2.json').items as { metadata: { name: string } }[]).map((i) => i.metadata.name);
    const names = served.items.map((i) => i.metadata.name as string);
    expect(names).toEqual(order.filter((n) => names.includes(n)));
    for (const item of served.items) {
      expect(Object.keys(item.metadata)).toEqual(['name']);
      for (const v of item.versions) expect(v.freshness).toBe('Current');
    }
  });
});

describe('the default-enabled set', () => {
  it('serves exactly the stable group versions of a default kube-apiserver v1.36', async () => {
    const groups = (await get('/apis')).body as { groups: { versions: { groupVersion: string }[] }[] };
    expect(groups.groups.flatMap((g) => g.versions.map((v) => v.groupVersion))).toEqual(DEFAULT_APIS_GROUP_VERSIONS);
  });

  it.each([
    '/apis/resource.k8s.io/v1alpha3',
    '/apis/resource.k8s.io/v1beta1',
    '/apis/storage.k8s.io/v1beta1',
    '/apis/coordination.k8s.io/v1beta1',
    '/apis/admissionregistration.k8s.io/v1alpha1',
    '/apis/flowcontrol.apiserver.k8s.io/v1beta3',
    '/apis/internal.apiserver.k8s.io/v1alpha1',
    '/apis/storagemigration.k8s.io/v1alpha1',
    '/apis/internal.apiserver.k8s.io',
  ])('does not serve %s', async (path) => {
    expect((await get(path)).status).toBe(404);
  });

  it('carries the known discovery facts of apps/v1 deployments', async () => {
    const list = (await get('/apis/apps/v1')).body as { resources: Record<string, unknown>[] };
    expect(list.resources.find((r) => r.name === 'deployments')).toEqual({
      name: 'deployments',
      singularName: 'deployment',
      namespaced: true,
      kind: 'Deployment',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['deploy'],
      categories: ['all'],
      storageVersionHash: '8aSe+NMegvE=',
    });
    expect(list.resources.find((r) => r.name === 'deployments/scale')).toEqual({
      name: 'deployments/scale',
      singularName: '',
      namespaced: true,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
  });
});

describe('OpenAPI of the new kinds', () => {
  it('describes them in /openapi/v3 and /openapi/v2 with their group version kind', async () => {
    const v3 = (await get('/openapi/v3/apis/networking.k8s.io/v1')).body as { components: { schemas: Record<string, { 'x-kubernetes-group-version-kind'?: unknown }> } };
    expect(v3.components.schemas['io.k8s.api.networking.v1.Ingress']?.['x-kubernetes-group-version-kind']).toEqual([{ group: 'networking.k8s.io', kind: 'Ingress', version: 'v1' }]);
    const v2 = (await get('/openapi/v2')).body as { definitions: Record<string, { 'x-kubernetes-group-version-kind'?: unknown }>; paths: Record<string, unknown> };
    expect(v2.definitions['io.k8s.api.policy.v1.PodDisruptionBudget']?.['x-kubernetes-group-version-kind']).toEqual([{ group: 'policy', kind: 'PodDisruptionBudget', version: 'v1' }]);
    expect(Object.keys(v2.paths)).toContain('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews');
    expect(Object.keys(v2.paths)).toContain('/api/v1/namespaces/{namespace}/replicationcontrollers/{name}/scale');
  });
});
