// selectableFields of CRD versions as field selectors on list and watch, through client-node:
// string, integer and boolean targets, missing fields, `!=`, the per-version set, and the
// crConverter's `field label not supported` errors.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let custom: k8s.CustomObjectsApi;

const G = 'stable.example.com';
const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

const shirtSchema = {
  openAPIV3Schema: {
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'integer' }, onSale: { type: 'boolean' } } },
    },
  },
};

function shirtCrd(scope: 'Namespaced' | 'Cluster' = 'Namespaced') {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `shirts.${G}` },
    spec: {
      group: G,
      scope,
      names: { plural: 'shirts', singular: 'shirt', kind: 'Shirt' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: shirtSchema,
          selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }, { jsonPath: '.spec.onSale' }],
        },
        // A second version selects on color only. (Its schema differs: with identical schemas the
        // internal CRD moves the schema to spec.validation, where per-version selectableFields are refused.)
        {
          name: 'v2',
          served: true,
          storage: false,
          schema: { openAPIV3Schema: { ...shirtSchema.openAPIV3Schema, description: 'v2' } },
          selectableFields: [{ jsonPath: '.spec.color' }],
        },
      ],
    },
  };
}

const shirt = (name: string, spec: Record<string, unknown>) => ({ apiVersion: `${G}/v1`, kind: 'Shirt', metadata: { name }, spec });

async function names(version: string, fieldSelector: string): Promise<string[]> {
  const list = (await custom.listNamespacedCustomObject({ group: G, version, namespace: 'default', plural: 'shirts', fieldSelector })) as { items: { metadata: { name: string } }[] };
  return list.items.map((i) => i.metadata.name);
}

beforeEach(async () => {
  cluster = await createFakeCluster();
  custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
});
afterEach(() => cluster.close());

describe('selectable fields on list', () => {
  beforeEach(async () => {
    await cluster.apply([
      shirtCrd(),
      shirt('blue-s', { color: 'blue', size: 1, onSale: true }),
      shirt('blue-m', { color: 'blue', size: 2, onSale: false }),
      shirt('green-m', { color: 'green', size: 2 }),
      shirt('plain', {}),
    ]);
  });

  it('selects on string, integer and boolean fields as fmt prints them', async () => {
    expect(await names('v1', 'spec.color=blue')).toEqual(['blue-m', 'blue-s']);
    expect(await names('v1', 'spec.size=2')).toEqual(['blue-m', 'green-m']);
    expect(await names('v1', 'spec.onSale=true')).toEqual(['blue-s']);
    expect(await names('v1', 'spec.color==green,spec.size=2')).toEqual(['green-m']);
  });

  it('reads a missing field as the empty string', async () => {
    expect(await names('v1', 'spec.color=')).toEqual(['plain']);
    expect(await names('v1', 'spec.onSale!=true')).toEqual(['blue-m', 'green-m', 'plain']);
  });

  it('still selects on metadata.name and metadata.namespace', async () => {
    expect(await names('v1', 'metadata.name=blue-m,metadata.namespace=default')).toEqual(['blue-m']);
  });

  it('a field selectable in one version only is refused in the other', async () => {
    expect(await names('v2', 'spec.color=green')).toEqual(['green-m']);
    await expectStatus(custom.listNamespacedCustomObject({ group: G, version: 'v2', namespace: 'default', plural: 'shirts', fieldSelector: 'spec.size=2' }), {
      code: 400,
      reason: 'BadRequest',
      message: 'field label not supported: spec.size',
    });
  });

  it('refuses other fields with 400 field label not supported', async () => {
    await expectStatus(custom.listNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'shirts', fieldSelector: 'spec.fabric=cotton' }), {
      code: 400,
      reason: 'BadRequest',
      message: 'field label not supported: spec.fabric',
    });
  });
});

describe('selectable fields elsewhere', () => {
  it('cluster-scoped resources do not know metadata.namespace', async () => {
    await cluster.apply([shirtCrd('Cluster'), shirt('a', { color: 'red' })]);
    const list = (await custom.listClusterCustomObject({ group: G, version: 'v1', plural: 'shirts', fieldSelector: 'spec.color=red' })) as { items: unknown[] };
    expect(list.items).toHaveLength(1);
    await expectStatus(custom.listClusterCustomObject({ group: G, version: 'v1', plural: 'shirts', fieldSelector: 'metadata.namespace=default' }), {
      code: 400,
      message: 'field label not supported: metadata.namespace',
    });
  });

  it('a watch selects on them too: leaving the selection is DELETED, entering it ADDED', async () => {
    await cluster.apply([shirtCrd(), shirt('a', { color: 'blue' })]);
    const list = (await custom.listNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'shirts' })) as { metadata: { resourceVersion: string } };
    const events: string[] = [];
    const controller = await new k8s.Watch(cluster.kubeConfig).watch(
      `/apis/${G}/v1/namespaces/default/shirts`,
      { resourceVersion: list.metadata.resourceVersion, fieldSelector: 'spec.color=blue' },
      (type, obj: k8s.KubernetesObject) => events.push(`${type} ${obj.metadata?.name}`),
      () => undefined,
    );
    const ref = { group: G, version: 'v1', namespace: 'default', plural: 'shirts' };
    await custom.patchNamespacedCustomObject({ ...ref, name: 'a', body: { spec: { color: 'red' } } }, merge);
    await custom.createNamespacedCustomObject({ ...ref, body: shirt('b', { color: 'red' }) });
    await custom.patchNamespacedCustomObject({ ...ref, name: 'b', body: { spec: { color: 'blue' } } }, merge);
    const start = Date.now();
    while (events.length < 2 && Date.now() - start < 5000) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    expect(events).toEqual(['DELETED a', 'ADDED b']);
  });
});
