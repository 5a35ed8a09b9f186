// Server-side apply and managedFields through the real client (upstream vectors 23–27 of the
// wire spec §12, plus the field-ownership rules of §5.3).
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
let apps: k8s.AppsV1Api;
let custom: k8s.CustomObjectsApi;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
});
afterEach(() => cluster.close());

const as = (strategy: k8s.PatchStrategy) => k8s.setHeaderOptions('Content-Type', strategy);
const apply = as(k8s.PatchStrategy.ServerSideApply);
const merge = as(k8s.PatchStrategy.MergePatch);

/** managedFields without their times, which depend on the clock. */
const entries = (obj: { metadata?: k8s.V1ObjectMeta }) =>
  (obj.metadata?.managedFields ?? []).map(({ time, ...rest }) => {
    expect(time).toBeInstanceOf(Date);
    return rest;
  });

const configMap = (data?: Record<string, string>, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', ...(labels ? { labels } : {}) },
  ...(data ? { data } : {}),
});

const applyConfigMap = (body: unknown, fieldManager = 'apply_test', extra: { force?: boolean } = {}) =>
  core.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body, fieldManager, ...extra }, apply);

describe('server-side apply of a built-in', () => {
  it('creates the object with 201 and one Apply entry (vector 24)', async () => {
    await expectStatus(core.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body: configMap({ key: 'value' }) }, apply), {
      code: 422,
      reason: 'Invalid',
      message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    });
    const res = await core.patchNamespacedConfigMapWithHttpInfo({ name: 'cm', namespace: 'default', body: configMap({ key: 'value' }), fieldManager: 'apply_test' }, apply);
    expect(res.httpStatusCode).toBe(201);
    expect(entries(res.data)).toEqual([
      { manager: 'apply_test', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:key': {} } } },
    ]);
    const again = await core.patchNamespacedConfigMapWithHttpInfo({ name: 'cm', namespace: 'default', body: configMap({ key: 'value' }), fieldManager: 'apply_test' }, apply);
    expect(again.httpStatusCode).toBe(200);
  });

  it('records Update managers of later merge patches next to the applier (vector 23)', async () => {
    await applyConfigMap(configMap({ key: 'value' }, { 'test-label': 'test' }));
    await core.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body: { data: { 'new-key': 'value' } }, fieldManager: 'updater' }, merge);
    await core.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body: { data: { key: 'new value' } }, fieldManager: 'updater' }, merge);
    const cm = await core.readNamespacedConfigMap({ name: 'cm', namespace: 'default' });
    expect(entries(cm)).toEqual([
      { manager: 'apply_test', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:test-label': {} } } } },
      { manager: 'updater', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:key': {}, 'f:new-key': {} } } },
    ]);
  });

  it('answers a conflict with 409, the manager "using" its version, and FieldManagerConflict causes; force takes ownership', async () => {
    await applyConfigMap(configMap({ key: 'value', other: 'x' }));
    await core.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body: { data: { key: 'changed', other: 'y' } }, fieldManager: 'updater' }, merge);
    const status = await expectStatus(applyConfigMap(configMap({ key: 'value', other: 'x' })), {
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 2 conflicts: conflicts with "updater" using v1:\n- .data.key\n- .data.other',
      details: {
        causes: [
          { reason: 'FieldManagerConflict', message: 'conflict with "updater" using v1', field: '.data.key' },
          { reason: 'FieldManagerConflict', message: 'conflict with "updater" using v1', field: '.data.other' },
        ],
      },
    });
    expect(status.details).not.toHaveProperty('name');
    const forced = await applyConfigMap(configMap({ key: 'value', other: 'x' }), 'apply_test', { force: true });
    expect(forced.data).toEqual({ key: 'value', other: 'x' });
    expect(entries(forced).map((e) => e.manager)).toEqual(['apply_test']);
  });

  it('names an Apply owner in a conflict without "using"', async () => {
    await applyConfigMap(configMap({ key: 'a' }), 'first');
    await expectStatus(applyConfigMap(configMap({ key: 'b' }), 'second'), {
      code: 409,
      message: 'Apply failed with 1 conflict: conflict with "first": .data.key',
    });
  });

  it('shares ownership of equal values without conflict, and keeps a shared field when one applier drops it', async () => {
    await applyConfigMap(configMap({ shared: 'v', mine: '1' }), 'one');
    await applyConfigMap(configMap({ shared: 'v' }), 'two');
    const dropped = await applyConfigMap(configMap(), 'one');
    expect(dropped.data).toEqual({ shared: 'v' });
    const gone = await applyConfigMap(configMap(), 'two');
    expect(gone.data).toBeUndefined();
    expect(gone.metadata?.managedFields).toBeUndefined();
  });

  it('removes the labels an applier stops applying', async () => {
    await applyConfigMap(configMap({ k: 'v' }, { a: '1', b: '2' }));
    const applied = await applyConfigMap(configMap({ k: 'v' }, { a: '1' }));
    expect(applied.metadata?.labels).toEqual({ a: '1' });
    const none = await applyConfigMap(configMap({ k: 'v' }));
    expect(none.metadata?.labels).toBeUndefined();
  });

  it('does not write an unchanged apply (no new resourceVersion)', async () => {
    const first = await applyConfigMap(configMap({ k: 'v' }));
    const second = await applyConfigMap(configMap({ k: 'v' }));
    expect(second.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
    expect(second.metadata?.managedFields).toEqual(first.metadata?.managedFields);
  });

  it('refuses a body of another version with 400 (vector 26) and managedFields in the body', async () => {
    await expectStatus(
      apps.patchNamespacedDeployment({ name: 'd', namespace: 'default', fieldManager: 'm', body: { apiVersion: 'extensions/v1beta', kind: 'Deployment', metadata: { name: 'd' } } }, apply),
      { code: 400, reason: 'BadRequest', message: 'invalid object type: extensions/v1beta, Kind=Deployment' },
    );
    await expectStatus(applyConfigMap({ ...configMap({}), metadata: { name: 'cm', managedFields: [] } }), {
      code: 400,
      message: 'metadata.managedFields must be nil',
    });
  });

  it('refuses force on other patch types', async () => {
    await applyConfigMap(configMap({ k: 'v' }));
    await expectStatus(core.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body: { data: {} }, force: true }, merge), {
      code: 422,
      message: 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    });
  });

  it('clears managedFields with a merge patch of [{}] (vector 27), and an unmanaged object stays so until applied', async () => {
    await applyConfigMap(configMap({ k: 'v' }));
    const cleared = await core.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body: { metadata: { managedFields: [{}] } } }, merge);
    expect(cleared.metadata?.managedFields).toBeUndefined();
    const updated = await core.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body: { data: { k: 'w' } }, fieldManager: 'updater' }, merge);
    expect(updated.metadata?.managedFields).toBeUndefined();
    // The first apply gives the fields already there to "before-first-apply".
    const applied = await applyConfigMap(configMap(undefined, { l: 'x' }), 'late');
    expect(entries(applied).map((e) => [e.manager, e.operation, e.fieldsV1])).toEqual([
      ['late', 'Apply', { 'f:metadata': { 'f:labels': { 'f:l': {} } } }],
      ['before-first-apply', 'Update', { 'f:data': { '.': {}, 'f:k': {} } }],
    ]);
  });

  it('keys containers by name and ports by containerPort and protocol (defaulted)', async () => {
    const deployment = (image: string) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image, ports: [{ containerPort: 80 }] }] } },
      },
    });
    const created = await apps.patchNamespacedDeployment({ name: 'web', namespace: 'default', fieldManager: 'ci', body: deployment('app:1') }, apply);
    expect(created.metadata?.managedFields?.[0]?.fieldsV1).toEqual({
      'f:spec': {
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:containers': {
              'k:{"name":"app"}': {
                '.': {},
                'f:image': {},
                'f:name': {},
                'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
              },
            },
          },
        },
      },
    });
    // Another manager adds a sidecar to the list-map without touching "app".
    const sidecar = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { template: { spec: { containers: [{ name: 'proxy', image: 'proxy:1' }] } } },
    };
    const both = await apps.patchNamespacedDeployment({ name: 'web', namespace: 'default', fieldManager: 'mesh', body: sidecar }, apply);
    expect(both.spec?.template.spec?.containers.map((c) => `${c.name}=${c.image}`)).toEqual(['app=app:1', 'proxy=proxy:1']);
    await expectStatus(apps.patchNamespacedDeployment({ name: 'web', namespace: 'default', fieldManager: 'mesh', body: { ...sidecar, spec: { replicas: 3, selector: { matchLabels: { app: 'other' } } } } }, apply), {
      code: 409,
      message: 'Apply failed with 1 conflict: conflict with "ci": .spec.selector',
    });
  });

  it('works through KubernetesObjectApi.patch with fieldManager and force', async () => {
    const objects = cluster.kubeConfig.makeApiClient(k8s.KubernetesObjectApi);
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'obj', namespace: 'default' }, data: { a: '1' } };
    await objects.patch(body, undefined, undefined, 'owner', undefined, k8s.PatchStrategy.ServerSideApply);
    await expect(objects.patch({ ...body, data: { a: '2' } }, undefined, undefined, 'intruder', false, k8s.PatchStrategy.ServerSideApply)).rejects.toMatchObject({ code: 409 });
    const forced = (await objects.patch({ ...body, data: { a: '2' } }, undefined, undefined, 'intruder', true, k8s.PatchStrategy.ServerSideApply)) as k8s.V1ConfigMap;
    expect(forced.data).toEqual({ a: '2' });
    expect(forced.metadata?.managedFields?.map((e) => e.manager)).toEqual(['intruder']);
  });

  it('dry-run apply creates nothing', async () => {
    const res = await core.patchNamespacedConfigMapWithHttpInfo({ name: 'cm', namespace: 'default', body: configMap({ k: 'v' }), fieldManager: 'm', dryRun: 'All' }, apply);
    expect(res.httpStatusCode).toBe(201);
    expect(res.data.metadata?.managedFields?.[0]?.manager).toBe('m');
    await expectStatus(core.readNamespacedConfigMap({ name: 'cm', namespace: 'default' }), { code: 404 });
  });

  it('fails on duplicate keys in the body under fieldValidation=Strict', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: "1"\n  a: "2"\n';
    const res = await cluster.handle(
      new Request(`${cluster.url}/api/v1/namespaces/default/configmaps/cm?fieldManager=m&fieldValidation=Strict`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/apply-patch+yaml' },
        body: yaml,
      }),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "a" already set in map',
    );
    const lenient = await cluster.handle(
      new Request(`${cluster.url}/api/v1/namespaces/default/configmaps/cm?fieldManager=m&fieldValidation=Ignore`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/apply-patch+yaml' },
        body: yaml,
      }),
    );
    expect(lenient.status).toBe(201);
    expect(((await lenient.json()) as { data: unknown }).data).toEqual({ a: '2' });
    // Warn (the default) applies the last value; the finding would be a warning, but its text has
    // newlines, which the apiserver's warning recorder refuses, so no Warning header is sent.
    const warned = await cluster.handle(
      new Request(`${cluster.url}/api/v1/namespaces/default/configmaps/cm?fieldManager=m`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/apply-patch+yaml' },
        body: yaml.replace('a: "2"', 'a: "3"'),
      }),
    );
    expect(warned.status).toBe(200);
    expect(warned.headers.get('warning')).toBeNull();
    expect(((await warned.json()) as { data: unknown }).data).toEqual({ a: '3' });
  });
});

describe('Update managers', () => {
  it('records creates and updates under fieldManager, else the User-Agent prefix', async () => {
    const created = await core.createNamespacedConfigMap({ namespace: 'default', fieldManager: 'creator', body: { metadata: { name: 'u' }, data: { a: '1' } } });
    expect(entries(created)).toEqual([
      { manager: 'creator', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } } },
    ]);
    const res = await cluster.handle(
      new Request(`${cluster.url}/api/v1/namespaces/default/configmaps/u`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'user-agent': 'my-controller/v1.2 (linux)' },
        body: JSON.stringify({ ...created, data: { a: '1', b: '2' } }),
      }),
    );
    const updated = (await res.json()) as k8s.V1ConfigMap;
    expect(updated.metadata?.managedFields?.map((e) => [e.manager, e.fieldsV1])).toEqual([
      ['creator', { 'f:data': { '.': {}, 'f:a': {} } }],
      ['my-controller', { 'f:data': { 'f:b': {} } }],
    ]);
  });

  it('compares a create with the kind’s zero value, as the typed converter writes it', async () => {
    const created = await apps.createNamespacedDeployment({
      namespace: 'default',
      fieldManager: 'kubectl-create',
      body: { metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'app:1' }] } } } },
    });
    const fields = created.metadata!.managedFields![0]!.fieldsV1 as Record<string, Record<string, Record<string, Record<string, unknown>>>>;
    // spec, template and its pod spec exist in the zero Deployment: not "added" themselves.
    expect(Object.keys(fields['f:spec']!)).not.toContain('.');
    expect(Object.keys(fields['f:spec']!['f:template']!)).toEqual(['f:metadata', 'f:spec']);
    expect(fields['f:spec']!['f:template']!['f:metadata']).toEqual({ 'f:labels': { '.': {}, 'f:app': {} } });
    expect(Object.keys(fields['f:spec']!['f:template']!['f:spec']!['f:containers'] as object)).toEqual(['k:{"name":"app"}']);
  });

  it('folds the oldest of more than ten Update managers into ancient-changes', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', fieldManager: 'm0', body: { metadata: { name: 'many' }, data: { k0: 'v' } } });
    let cm: k8s.V1ConfigMap | undefined;
    for (let i = 1; i <= 11; i++) {
      cm = await core.patchNamespacedConfigMap({ name: 'many', namespace: 'default', fieldManager: `m${i}`, body: { data: { [`k${i}`]: 'v' } } }, merge);
    }
    const managers = cm!.metadata!.managedFields!.map((e) => e.manager);
    expect(managers).toHaveLength(10);
    expect(managers).toContain('ancient-changes');
    const ancient = cm!.metadata!.managedFields!.find((e) => e.manager === 'ancient-changes')!;
    expect(Object.keys((ancient.fieldsV1 as Record<string, Record<string, unknown>>)['f:data']!).filter((k) => k !== '.').length).toBeGreaterThanOrEqual(2);
  });
});

describe('server-side apply of a custom resource', () => {
  beforeEach(async () => {
    await cluster.apply({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'crontabs.stable.example.com' },
      spec: {
        group: 'stable.example.com',
        scope: 'Namespaced',
        names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    properties: {
                      replicas: { type: 'integer' },
                      cronSpec: { type: 'string' },
                      ports: {
                        type: 'array',
                        'x-kubernetes-list-type': 'map',
                        'x-kubernetes-list-map-keys': ['name'],
                        items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
                      },
                    },
                  },
                  status: { type: 'object', properties: { ready: { type: 'boolean' } } },
                },
              },
            },
          },
        ],
      },
    });
  });

  const crontab = (spec: Record<string, unknown>) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'ct' }, spec });
  const ref = { group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs', name: 'ct' };
  type CronTab = { metadata: k8s.V1ObjectMeta; spec: { replicas?: number; ports?: unknown[] } };

  it('conflicts with a merge patch of another manager, and force re-applies (vector 25)', async () => {
    await custom.patchNamespacedCustomObject({ ...ref, body: crontab({ replicas: 1, cronSpec: '* * * * *' }), fieldManager: 'apply_test' }, apply);
    await custom.patchNamespacedCustomObject({ ...ref, body: { spec: { replicas: 5 } }, fieldManager: 'other' }, merge);
    const status = await expectStatus(custom.patchNamespacedCustomObject({ ...ref, body: crontab({ replicas: 1, cronSpec: '* * * * *' }), fieldManager: 'apply_test' }, apply), {
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "other" using stable.example.com/v1: .spec.replicas',
    });
    expect((status.details as { causes: unknown[] }).causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "other" using stable.example.com/v1', field: '.spec.replicas' },
    ]);
    const forced = (await custom.patchNamespacedCustomObject({ ...ref, body: crontab({ replicas: 1, cronSpec: '* * * * *' }), fieldManager: 'apply_test', force: true }, apply)) as CronTab;
    expect(forced.spec.replicas).toBe(1);
  });

  it('merges x-kubernetes-list-type=map items by key across managers', async () => {
    await custom.patchNamespacedCustomObject({ ...ref, body: crontab({ ports: [{ name: 'http', port: 80 }] }), fieldManager: 'a' }, apply);
    const both = (await custom.patchNamespacedCustomObject({ ...ref, body: crontab({ ports: [{ name: 'metrics', port: 9090 }] }), fieldManager: 'b' }, apply)) as CronTab;
    expect(both.spec.ports).toEqual([
      { name: 'http', port: 80 },
      { name: 'metrics', port: 9090 },
    ]);
    expect(both.metadata.managedFields?.find((e) => e.manager === 'b')?.fieldsV1).toEqual({
      'f:spec': { 'f:ports': { 'k:{"name":"metrics"}': { '.': {}, 'f:name': {}, 'f:port': {} } } },
    });
  });

  it('answers a field the schema does not declare with a plain 500', async () => {
    await expectStatus(custom.patchNamespacedCustomObject({ ...ref, body: crontab({ foo: 1 }), fieldManager: 'a' }, apply), {
      code: 500,
      message: 'failed to create typed patch object (/ct; stable.example.com/v1, Kind=CronTab): .spec.foo: field not declared in schema',
    });
  });

  it('does not give status to main-resource appliers, and records /status writers with subresource "status"', async () => {
    const created = (await custom.patchNamespacedCustomObject({ ...ref, body: { ...crontab({ replicas: 1 }), status: { ready: true } }, fieldManager: 'a' }, apply)) as CronTab & { status?: unknown };
    expect(created.status).toBeUndefined();
    expect(created.metadata.managedFields?.[0]?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
    const patched = (await custom.patchNamespacedCustomObjectStatus({ ...ref, body: { status: { ready: true } }, fieldManager: 'kubelet' }, merge)) as CronTab;
    expect(patched.metadata.managedFields?.map((e) => [e.manager, e.operation, e.subresource, e.fieldsV1])).toEqual([
      ['a', 'Apply', undefined, { 'f:spec': { 'f:replicas': {} } }],
      ['kubelet', 'Update', 'status', { 'f:status': { '.': {}, 'f:ready': {} } }],
    ]);
    await expectStatus(
      custom.patchNamespacedCustomObjectStatus({ ...ref, body: { ...crontab({}), status: { ready: false } }, fieldManager: 'ctrl' }, apply),
      { code: 409, message: 'Apply failed with 1 conflict: conflict with "kubelet" with subresource "status" using stable.example.com/v1: .status.ready' },
    );
  });
});
