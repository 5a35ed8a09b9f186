// The status and scale subresources of custom resources, through client-node's CustomObjectsApi:
// what each endpoint keeps and drops, generation rules, validation of /status against the status
// schema (with its path quirk), Scale reads and writes, and the errors of ScaleREST.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectInvalid, expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let custom: k8s.CustomObjectsApi;

const G = 'stable.example.com';
const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

interface CrdOptions {
  status?: boolean;
  scale?: Record<string, string> | false;
  scope?: 'Namespaced' | 'Cluster';
}

function crontabCrd(options: CrdOptions = {}) {
  const subresources: Record<string, unknown> = {};
  if (options.status !== false) subresources.status = {};
  if (options.scale !== false) {
    subresources.scale = options.scale ?? { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' };
  }
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `crontabs.${G}` },
    spec: {
      group: G,
      scope: options.scope ?? 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { type: 'object', properties: { cronSpec: { type: 'string' }, replicas: { type: 'integer' } } },
                status: {
                  type: 'object',
                  properties: { replicas: { type: 'integer' }, labelSelector: { type: 'string' }, num: { type: 'integer', maximum: 10 } },
                },
              },
            },
          },
        },
      ],
    },
  };
}

type CronTab = {
  metadata: { name: string; namespace?: string; generation: number; resourceVersion: string; uid: string; labels?: Record<string, string>; creationTimestamp: string };
  spec?: { cronSpec?: string; replicas?: number };
  status?: Record<string, unknown>;
};

const crontab = (name: string, spec: Record<string, unknown> = { cronSpec: '* * * * */5', replicas: 3 }, extra: Record<string, unknown> = {}) => ({
  apiVersion: `${G}/v1`,
  kind: 'CronTab',
  metadata: { name },
  spec,
  ...extra,
});

const ref = (name: string) => ({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs', name });

async function setup(options: CrdOptions = {}) {
  await cluster.apply(crontabCrd(options));
}

async function create(name: string, spec?: Record<string, unknown>, extra?: Record<string, unknown>): Promise<CronTab> {
  return (await custom.createNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs', body: crontab(name, spec, extra) })) as CronTab;
}

const read = async (name: string) => (await custom.getNamespacedCustomObject(ref(name))) as CronTab;

beforeEach(async () => {
  cluster = await createFakeCluster();
  custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
});
afterEach(() => cluster.close());

describe('status subresource', () => {
  it('drops status on create and starts at generation 1', async () => {
    await setup();
    const created = await create('a', undefined, { status: { replicas: 7 } });
    expect(created.status).toBeUndefined();
    expect(created.metadata.generation).toBe(1);
  });

  it('main-resource writes keep the stored status; only spec changes bump generation', async () => {
    await setup();
    await create('a');
    await custom.patchNamespacedCustomObjectStatus({ ...ref('a'), body: { status: { replicas: 2 } } }, merge);
    const patched = (await custom.patchNamespacedCustomObject({ ...ref('a'), body: { status: { replicas: 9 }, metadata: { labels: { x: 'y' } } } }, merge)) as CronTab;
    expect(patched.status).toEqual({ replicas: 2 });
    expect(patched.metadata.labels).toEqual({ x: 'y' });
    expect(patched.metadata.generation).toBe(1);
    const current = await read('a');
    const replaced = (await custom.replaceNamespacedCustomObject({ ...ref('a'), body: { ...current, spec: { ...current.spec, replicas: 4 }, status: { replicas: 0 } } })) as CronTab;
    expect(replaced.status).toEqual({ replicas: 2 });
    expect(replaced.metadata.generation).toBe(2);
  });

  it('GET /status answers the whole object', async () => {
    await setup();
    const created = await create('a');
    const got = (await custom.getNamespacedCustomObjectStatus(ref('a'))) as CronTab;
    expect(got).toEqual(created);
  });

  it('PUT /status changes only status: spec, labels and annotations sent with it are discarded, generation stays', async () => {
    await setup();
    const created = await create('a');
    const body = {
      ...created,
      metadata: { ...created.metadata, labels: { changed: 'true' }, annotations: { a: 'b' } },
      spec: { cronSpec: 'other', replicas: 99 },
      status: { replicas: 3, labelSelector: 'app=cron' },
    };
    const updated = (await custom.replaceNamespacedCustomObjectStatus({ ...ref('a'), body })) as CronTab;
    expect(updated.spec).toEqual(created.spec);
    expect(updated.metadata.labels).toBeUndefined();
    expect(updated.metadata).not.toHaveProperty('annotations');
    expect(updated.status).toEqual({ replicas: 3, labelSelector: 'app=cron' });
    expect(updated.metadata.generation).toBe(1);
    expect(Number(updated.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    expect(await read('a')).toEqual(updated);
  });

  it('PATCH /status merges into status and leaves the rest alone', async () => {
    await setup();
    await create('a');
    await custom.patchNamespacedCustomObjectStatus({ ...ref('a'), body: { status: { replicas: 1, labelSelector: 'x=y' } } }, merge);
    const patched = (await custom.patchNamespacedCustomObjectStatus({ ...ref('a'), body: { spec: { replicas: 50 }, status: { replicas: 2 } } }, merge)) as CronTab;
    expect(patched.status).toEqual({ replicas: 2, labelSelector: 'x=y' });
    expect(patched.spec?.replicas).toBe(3);
  });

  it('a status write that removes status removes it', async () => {
    await setup();
    await create('a');
    await custom.patchNamespacedCustomObjectStatus({ ...ref('a'), body: { status: { replicas: 1 } } }, merge);
    const current = await read('a');
    const { status: _s, ...withoutStatus } = current;
    const updated = (await custom.replaceNamespacedCustomObjectStatus({ ...ref('a'), body: withoutStatus })) as CronTab;
    expect(updated).not.toHaveProperty('status');
  });

  it('validates /status against the status schema: the cause path has the status. prefix, the message does not', async () => {
    await setup();
    await create('a');
    await expectInvalid(custom.patchNamespacedCustomObjectStatus({ ...ref('a'), body: { status: { num: 15 } } }, merge), { group: G, kind: 'CronTab', name: 'a' }, [
      { field: 'status.num', reason: 'FieldValueInvalid', message: 'Invalid value: 15: num in body should be less than or equal to 10' },
    ]);
  });

  it('runs the CEL rules of the object on /status writes', async () => {
    const crd = crontabCrd();
    const status = crd.spec.versions[0]!.schema.openAPIV3Schema.properties.status as Record<string, unknown>;
    status['x-kubernetes-validations'] = [{ rule: 'self.replicas <= 10', message: 'at most 10 replicas' }];
    await cluster.apply(crd);
    await create('a');
    await expectStatus(custom.patchNamespacedCustomObjectStatus({ ...ref('a'), body: { status: { replicas: 11 } } }, merge), {
      code: 422,
      reason: 'Invalid',
      message: 'CronTab.stable.example.com "a" is invalid: status: Invalid value: at most 10 replicas',
    });
  });

  it('checks the scale status paths on /status writes', async () => {
    await setup();
    await create('a');
    await expectStatus(custom.patchNamespacedCustomObjectStatus({ ...ref('a'), body: { status: { replicas: -2 } } }, merge), {
      code: 422,
      reason: 'Invalid',
      message: 'CronTab.stable.example.com "a" is invalid: .status.replicas: Invalid value: -2: should be a non-negative integer',
    });
  });

  it('needs the current resourceVersion and the object to exist', async () => {
    await setup();
    const created = await create('a');
    await custom.patchNamespacedCustomObjectStatus({ ...ref('a'), body: { status: { replicas: 1 } } }, merge);
    await expectStatus(custom.replaceNamespacedCustomObjectStatus({ ...ref('a'), body: { ...created, status: { replicas: 2 } } }), {
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on crontabs.stable.example.com "a": the object has been modified; please apply your changes to the latest version and try again',
    });
    await expectStatus(custom.patchNamespacedCustomObjectStatus({ ...ref('missing'), body: { status: { replicas: 1 } } }, merge), {
      code: 404,
      reason: 'NotFound',
      message: 'crontabs.stable.example.com "missing" not found',
    });
  });

  it('without the subresource: /status is NotFound and status writes on the resource count as changes', async () => {
    await setup({ status: false, scale: false });
    await create('a', undefined, { status: { replicas: 1 } });
    const created = await read('a');
    expect(created.status).toEqual({ replicas: 1 });
    await expectStatus(custom.getNamespacedCustomObjectStatus(ref('a')), { code: 404, reason: 'NotFound', message: 'crontabs.stable.example.com "a" not found' });
    const patched = (await custom.patchNamespacedCustomObject({ ...ref('a'), body: { status: { replicas: 2 } } }, merge)) as CronTab;
    expect(patched.status).toEqual({ replicas: 2 });
    expect(patched.metadata.generation).toBe(2);
  });

  it('answers other verbs on /status with 405 MethodNotSupported', async () => {
    await setup();
    await create('a');
    const response = await cluster.handle(new Request(`${cluster.url}/apis/${G}/v1/namespaces/default/crontabs/a/status`, { method: 'DELETE' }));
    expect(response.status).toBe(405);
    expect(await response.json()).toMatchObject({ reason: 'MethodNotAllowed', message: 'delete is not supported on resources of kind "crontabs.stable.example.com"' });
  });

  it('serves /status for cluster-scoped custom resources', async () => {
    await setup({ scope: 'Cluster' });
    await custom.createClusterCustomObject({ group: G, version: 'v1', plural: 'crontabs', body: crontab('c') });
    const patched = (await custom.patchClusterCustomObjectStatus({ group: G, version: 'v1', plural: 'crontabs', name: 'c', body: { status: { replicas: 4 } } }, merge)) as CronTab;
    expect(patched.status).toEqual({ replicas: 4 });
    expect(patched.metadata).not.toHaveProperty('namespace');
  });
});

describe('scale subresource', () => {
  it('reads a Scale from the CRD paths (status replicas default to 0)', async () => {
    await setup();
    const created = await create('a');
    const scale = await custom.getNamespacedCustomObjectScale(ref('a'));
    expect(scale).toEqual({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name: 'a',
        namespace: 'default',
        uid: created.metadata.uid,
        resourceVersion: created.metadata.resourceVersion,
        creationTimestamp: created.metadata.creationTimestamp,
      },
      spec: { replicas: 3 },
      status: { replicas: 0 },
    });
    await custom.patchNamespacedCustomObjectStatus({ ...ref('a'), body: { status: { replicas: 2, labelSelector: 'app=cron' } } }, merge);
    expect(await custom.getNamespacedCustomObjectScale(ref('a'))).toMatchObject({ status: { replicas: 2, selector: 'app=cron' } });
  });

  it('PUT /scale writes spec replicas through the resource: generation bumps, status is kept', async () => {
    await setup();
    await create('a');
    await custom.patchNamespacedCustomObjectStatus({ ...ref('a'), body: { status: { replicas: 3 } } }, merge);
    const scale = (await custom.getNamespacedCustomObjectScale(ref('a'))) as { spec: { replicas: number } };
    scale.spec.replicas = 5;
    const answered = (await custom.replaceNamespacedCustomObjectScale({ ...ref('a'), body: scale })) as { spec: { replicas: number }; status: { replicas: number } };
    expect(answered).toMatchObject({ kind: 'Scale', spec: { replicas: 5 }, status: { replicas: 3 } });
    const after = await read('a');
    expect(after.spec).toEqual({ cronSpec: '* * * * */5', replicas: 5 });
    expect(after.metadata.generation).toBe(2);
    expect(after.status).toEqual({ replicas: 3 });
  });

  it('PATCH /scale applies the patch to the Scale', async () => {
    await setup();
    await create('a');
    const answered = await custom.patchNamespacedCustomObjectScale({ ...ref('a'), body: { spec: { replicas: 0 } } }, merge);
    expect(answered).toMatchObject({ spec: {}, status: { replicas: 0 } });
    expect((await read('a')).spec?.replicas).toBe(0);
    const jsonPatched = await custom.patchNamespacedCustomObjectScale(
      { ...ref('a'), body: [{ op: 'replace', path: '/spec/replicas', value: 2 }] },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch),
    );
    expect(jsonPatched).toMatchObject({ spec: { replicas: 2 } });
  });

  it('refuses strategic merge patches of a custom resource scale with 415', async () => {
    await setup();
    await create('a');
    await expectStatus(custom.patchNamespacedCustomObjectScale({ ...ref('a'), body: { spec: { replicas: 1 } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch)), {
      code: 415,
      reason: 'UnsupportedMediaType',
    });
  });

  it('GET of an object without spec replicas is a 500; an update must set them', async () => {
    await setup();
    await create('a', { cronSpec: 'x' });
    await expectStatus(custom.getNamespacedCustomObjectScale(ref('a')), {
      code: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: the spec replicas field ".spec.replicas" does not exist',
    });
    await expectStatus(custom.patchNamespacedCustomObjectScale({ ...ref('a'), body: { metadata: { labels: { a: 'b' } } } }, merge), {
      code: 400,
      reason: 'BadRequest',
      message: 'the spec replicas field ".spec.replicas" cannot be empty',
    });
    const answered = await custom.patchNamespacedCustomObjectScale({ ...ref('a'), body: { spec: { replicas: 2 } } }, merge);
    expect(answered).toMatchObject({ spec: { replicas: 2 } });
  });

  it('negative replicas fail the custom resource validation with the CRD path', async () => {
    await setup();
    await create('a');
    await expectStatus(custom.patchNamespacedCustomObjectScale({ ...ref('a'), body: { spec: { replicas: -1 } } }, merge), {
      code: 422,
      reason: 'Invalid',
      message: 'CronTab.stable.example.com "a" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer',
    });
    await expectStatus(custom.createNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs', body: crontab('b', { replicas: -3 }) }), {
      code: 422,
      message: 'CronTab.stable.example.com "b" is invalid: .spec.replicas: Invalid value: -3: should be a non-negative integer',
    });
  });

  it('a Scale resourceVersion is a precondition; without one the update is unconditional', async () => {
    await setup();
    await create('a');
    const scale = (await custom.getNamespacedCustomObjectScale(ref('a'))) as { metadata: Record<string, unknown>; spec: { replicas: number } };
    await custom.patchNamespacedCustomObject({ ...ref('a'), body: { spec: { cronSpec: 'changed' } } }, merge);
    await expectStatus(custom.replaceNamespacedCustomObjectScale({ ...ref('a'), body: { ...scale, spec: { replicas: 4 } } }), {
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on crontabs.stable.example.com "a": the object has been modified; please apply your changes to the latest version and try again',
    });
    const { resourceVersion: _rv, ...metadata } = scale.metadata;
    const answered = await custom.replaceNamespacedCustomObjectScale({ ...ref('a'), body: { ...scale, metadata, spec: { replicas: 4 } } });
    expect(answered).toMatchObject({ spec: { replicas: 4 } });
  });

  it('checks the Scale body against the URL', async () => {
    await setup();
    await create('a');
    const scale = (await custom.getNamespacedCustomObjectScale(ref('a'))) as { metadata: Record<string, unknown> };
    await expectStatus(custom.replaceNamespacedCustomObjectScale({ ...ref('a'), body: { ...scale, metadata: { ...scale.metadata, name: 'b' } } }), {
      code: 400,
      message: 'the name of the object (b) does not match the name on the URL (a)',
    });
    await expectStatus(custom.replaceNamespacedCustomObjectScale({ ...ref('a'), body: { ...scale, apiVersion: 'apps/v1' } }), {
      code: 400,
      message: 'the API version in the data (apps/v1) does not match the expected API version (autoscaling/v1)',
    });
    await expectStatus(custom.replaceNamespacedCustomObjectScale({ ...ref('a'), body: { ...scale, spec: { replicas: 'two' } } }), {
      code: 400,
      message: 'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32',
    });
  });

  it('dry-run scale writes answer the new Scale without storing it', async () => {
    await setup();
    await create('a');
    const answered = await custom.patchNamespacedCustomObjectScale({ ...ref('a'), body: { spec: { replicas: 7 } }, dryRun: 'All' }, merge);
    expect(answered).toMatchObject({ spec: { replicas: 7 } });
    expect((await read('a')).spec?.replicas).toBe(3);
  });

  it('is NotFound for a version without the scale subresource, and for a missing object', async () => {
    await setup({ scale: false });
    await create('a');
    await expectStatus(custom.getNamespacedCustomObjectScale(ref('a')), { code: 404, message: 'crontabs.stable.example.com "a" not found' });
    await setup();
    await expectStatus(custom.getNamespacedCustomObjectScale(ref('missing')), { code: 404, message: 'crontabs.stable.example.com "missing" not found' });
  });

  it('prints a Table of a Scale with the Desired and Available columns', async () => {
    await setup();
    await create('a');
    const response = await cluster.handle(
      new Request(`${cluster.url}/apis/${G}/v1/namespaces/default/crontabs/a/scale`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }),
    );
    const table = (await response.json()) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Desired', 'Available', 'Age']);
    expect(table.rows[0]!.cells.slice(0, 3)).toEqual(['a', 3, 0]);
  });

  it('prints the ages of /status and /scale Tables on the cluster clock', async () => {
    await using fake = await createFakeCluster({ deterministic: true });
    await fake.apply(crontabCrd());
    await fake.kubeConfig.makeApiClient(k8s.CustomObjectsApi).createNamespacedCustomObject({ group: G, version: 'v1', namespace: 'default', plural: 'crontabs', body: crontab('a') });
    fake.clock.advance(5 * 3_600_000);
    const ageOf = async (subresource: string) => {
      const res = await fake.handle(
        new Request(`${fake.url}/apis/${G}/v1/namespaces/default/crontabs/a/${subresource}`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }),
      );
      const table = (await res.json()) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
      return table.rows[0]!.cells[table.columnDefinitions.findIndex((c) => c.name === 'Age')];
    };
    expect(await ageOf('status')).toBe('5h');
    expect(await ageOf('scale')).toBe('5h');
  });
});
