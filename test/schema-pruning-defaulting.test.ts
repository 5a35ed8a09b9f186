// Pruning, null dropping and defaulting of custom resources through the real client: what a write
// stores and answers, and what reads show (defaults of the stored version applied on every read,
// never written back). apiextensions-apiserver pkg/apiserver/schema/{pruning,defaulting,objectmeta}
// and customresource_handler.go's decoders.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { at, installWidgets, specSchema, widget, widgetCrd, type Schema } from './support/schema-crd.ts';
import { captureWarnings } from './support/warnings.ts';

let cluster: FakeCluster;
beforeEach(async () => {
  cluster = await createFakeCluster();
});
afterEach(() => cluster.close());

type Widget = { apiVersion: string; kind: string; metadata: k8s.V1ObjectMeta; spec?: Record<string, unknown>; status?: unknown; [k: string]: unknown };
const str = { type: 'string' };

async function createWidget(custom: k8s.CustomObjectsApi, name: string, spec: unknown, extra: Record<string, unknown> = {}): Promise<Widget> {
  return (await custom.createNamespacedCustomObject({ ...at, body: widget(name, spec, extra) })) as Widget;
}
const readWidget = async (custom: k8s.CustomObjectsApi, name: string) => (await custom.getNamespacedCustomObject({ ...at, name })) as Widget;

describe('pruning', () => {
  it('drops fields the schema does not specify, at any depth, and says so in warnings (sorted)', async () => {
    const custom = await installWidgets(
      cluster,
      specSchema({
        known: str,
        list: { type: 'array', items: { type: 'object', properties: { a: str } } },
        map: { type: 'object', additionalProperties: { type: 'object', properties: { a: str } } },
      }),
    );
    const capture = captureWarnings();
    const created = (await custom.createNamespacedCustomObject(
      { ...at, body: widget('w', { known: 'k', zzz: 1, list: [{ a: 'x', b: 'y' }], map: { key: { a: 'x', c: 1 } } }, { topLevel: true }) },
      capture.options,
    )) as Widget;
    expect(created.spec).toEqual({ known: 'k', list: [{ a: 'x' }], map: { key: { a: 'x' } } });
    expect(created.topLevel).toBeUndefined();
    expect(capture.warnings()).toEqual(['unknown field "spec.list[0].b"', 'unknown field "spec.map.key.c"', 'unknown field "spec.zzz"', 'unknown field "topLevel"']);
    expect((await readWidget(custom, 'w')).spec).toEqual(created.spec);
  });

  it('x-kubernetes-preserve-unknown-fields keeps a subtree, but specified properties inside are pruned again', async () => {
    // The task page's example: json.spec.something is pruned, json.status.something is kept.
    const custom = await installWidgets(cluster, {
      type: 'object',
      properties: {
        json: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { spec: { type: 'object', properties: { foo: str, bar: str } } },
        },
      },
    });
    const capture = captureWarnings();
    const created = (await custom.createNamespacedCustomObject(
      { ...at, body: { ...widget('p', undefined), json: { spec: { foo: 'abc', bar: 'def', something: 'x' }, status: { something: 'x' } } } },
      capture.options,
    )) as Widget;
    expect(created.json).toEqual({ spec: { foo: 'abc', bar: 'def' }, status: { something: 'x' } });
    expect(capture.warnings()).toEqual(['unknown field "json.spec.something"']);
  });

  it('a fully open field stores any JSON', async () => {
    const custom = await installWidgets(cluster, specSchema({ anything: { 'x-kubernetes-preserve-unknown-fields': true } }));
    const value = { nested: [1, 'two', { three: null }], flag: false };
    expect((await createWidget(custom, 'open', { anything: value })).spec).toEqual({ anything: value });
  });

  it('root and embedded metadata lose unknown fields; embedded apiVersion/kind/metadata are kept', async () => {
    const custom = await installWidgets(
      cluster,
      specSchema({ template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { x: str } } } } }),
    );
    const capture = captureWarnings();
    const body = {
      ...widget('emb', { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'inner', labels: { a: 'b' }, bogus: 1 }, spec: { x: 'y', z: 1 }, extra: 1 } }),
      metadata: { name: 'emb', unknownMeta: 'x' },
    };
    const created = (await custom.createNamespacedCustomObject({ ...at, body }, capture.options)) as Widget;
    expect(created.spec).toEqual({ template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'inner', labels: { a: 'b' } }, spec: { x: 'y' } } });
    expect(created.metadata).not.toHaveProperty('unknownMeta');
    // Root metadata first, then the pruned paths sorted, then embedded metadata.
    expect(capture.warnings()).toEqual([
      'unknown field "metadata.unknownMeta"',
      'unknown field "spec.template.extra"',
      'unknown field "spec.template.spec.z"',
      'unknown field "spec.template.metadata.bogus"',
    ]);
  });
});

describe('nulls', () => {
  it('drops a null of a non-nullable field, defaults it when it has a default, keeps it when nullable (task page)', async () => {
    const custom = await installWidgets(cluster, specSchema({ foo: { type: 'string', default: 'default' }, bar: { type: 'string', nullable: true }, baz: str }));
    const created = await createWidget(custom, 'n', { foo: null, bar: null, baz: null });
    expect(created.spec).toEqual({ foo: 'default', bar: null });
    expect((await readWidget(custom, 'n')).spec).toEqual({ foo: 'default', bar: null });
  });

  it('drops nulls in maps too, and defaults a null map value from additionalProperties', async () => {
    const custom = await installWidgets(
      cluster,
      specSchema({ plain: { type: 'object', additionalProperties: str }, withDefault: { type: 'object', additionalProperties: { type: 'string', default: 'd' } } }),
    );
    const created = await createWidget(custom, 'm', { plain: { a: null, b: 'x' }, withDefault: { a: null } });
    expect(created.spec).toEqual({ plain: { b: 'x' }, withDefault: { a: 'd' } });
  });
});

describe('defaulting on writes', () => {
  const defaults = specSchema({
    cronSpec: { type: 'string', default: '5 0 * * *' },
    replicas: { type: 'integer', default: 1 },
    nested: { type: 'object', default: {}, properties: { level: { type: 'integer', default: 3 }, deeper: { type: 'object', default: {}, properties: { on: { type: 'boolean', default: true } } } } },
    items: { type: 'array', items: { type: 'object', properties: { name: str, weight: { type: 'integer', default: 10 } } } },
    byKey: { type: 'object', additionalProperties: { type: 'object', properties: { enabled: { type: 'boolean', default: false } } } },
  });

  it('fills missing fields, nested defaults inside defaults, list items and map values', async () => {
    const custom = await installWidgets(cluster, defaults);
    const created = await createWidget(custom, 'd', { replicas: 4, items: [{ name: 'a' }, { name: 'b', weight: 2 }], byKey: { x: {} } });
    expect(created.spec).toEqual({
      cronSpec: '5 0 * * *',
      replicas: 4,
      nested: { level: 3, deeper: { on: true } },
      items: [{ name: 'a', weight: 10 }, { name: 'b', weight: 2 }],
      byKey: { x: { enabled: false } },
    });
  });

  it('defaults a missing parent only when the parent has a default itself', async () => {
    const custom = await installWidgets(cluster, specSchema({ noDefault: { type: 'object', properties: { a: { type: 'string', default: 'x' } } } }));
    expect((await createWidget(custom, 'a', {})).spec).toEqual({});
    expect((await createWidget(custom, 'b', { noDefault: {} })).spec).toEqual({ noDefault: { a: 'x' } });
  });

  it('applies on update and on patches too', async () => {
    const custom = await installWidgets(cluster, defaults);
    const created = await createWidget(custom, 'u', { replicas: 2 });
    const replaced = (await custom.replaceNamespacedCustomObject({ ...at, name: 'u', body: { ...created, spec: { replicas: 3 } } })) as Widget;
    expect(replaced.spec).toMatchObject({ replicas: 3, cronSpec: '5 0 * * *', nested: { level: 3, deeper: { on: true } } });
    const patched = (await custom.patchNamespacedCustomObject(
      { ...at, name: 'u', body: [{ op: 'remove', path: '/spec/cronSpec' }] },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch),
    )) as Widget;
    expect(patched.spec?.cronSpec).toBe('5 0 * * *');
  });

  it('defaults specified properties under x-kubernetes-preserve-unknown-fields', async () => {
    const custom = await installWidgets(cluster, specSchema({ open: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { mode: { type: 'string', default: 'auto' } } } }));
    expect((await createWidget(custom, 'o', { open: { free: { form: 1 } } })).spec).toEqual({ open: { free: { form: 1 }, mode: 'auto' } });
  });

  it('metadata in a default of an embedded resource is pruned like request metadata', async () => {
    const template = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-default', labels: { app: 'x' }, notAMetaField: 1 }, data: { k: 'v' } };
    const custom = await installWidgets(
      cluster,
      specSchema({ template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: template } }),
    );
    const created = await createWidget(custom, 'md', {});
    expect(created.spec).toEqual({ template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-default', labels: { app: 'x' } }, data: { k: 'v' } } });
  });
});

describe('defaulting on reads', () => {
  const v1 = (withDefault: boolean): Schema =>
    specSchema({ size: str, color: withDefault ? { type: 'string', default: 'blue' } : str, shape: { type: 'object', properties: { sides: withDefault ? { type: 'integer', default: 4 } : { type: 'integer' } } } });

  it('a default added to the CRD later shows on get, list and watch, without a write', async () => {
    const custom = await installWidgets(cluster, v1(false));
    const created = await createWidget(custom, 'old', { size: 'L', shape: {} });
    expect(created.spec).toEqual({ size: 'L', shape: {} });
    const rv = created.metadata.resourceVersion;

    await cluster.apply(widgetCrd(v1(true)));
    const read = await readWidget(custom, 'old');
    expect(read.spec).toEqual({ size: 'L', color: 'blue', shape: { sides: 4 } });
    expect(read.metadata.resourceVersion).toBe(rv);

    const list = (await custom.listNamespacedCustomObject({ ...at })) as { items: Widget[] };
    expect(list.items.map((i) => i.spec)).toEqual([{ size: 'L', color: 'blue', shape: { sides: 4 } }]);

    const events: Array<{ type: string; spec: unknown; rv: string | undefined }> = [];
    const done = new Promise<void>((resolve) => {
      void new k8s.Watch(cluster.kubeConfig)
        .watch(`/apis/${at.group}/${at.version}/namespaces/default/${at.plural}`, { resourceVersion: '0' }, (type, obj: Widget) => {
          events.push({ type, spec: obj.spec, rv: obj.metadata.resourceVersion });
          resolve();
        }, () => undefined)
        .then((ctrl) => done.then(() => ctrl.abort()));
    });
    await done;
    expect(events[0]).toEqual({ type: 'ADDED', spec: { size: 'L', color: 'blue', shape: { sides: 4 } }, rv });
  });

  it('is not written back: removing the default again shows the stored object as it was', async () => {
    const custom = await installWidgets(cluster, v1(false));
    await createWidget(custom, 'old', { size: 'M' });
    await cluster.apply(widgetCrd(v1(true)));
    expect((await readWidget(custom, 'old')).spec).toEqual({ size: 'M', color: 'blue' });
    await cluster.apply(widgetCrd(v1(false)));
    expect((await readWidget(custom, 'old')).spec).toEqual({ size: 'M' });
  });

  it('an update persists what the read showed, and a no-op update of it still writes once', async () => {
    const custom = await installWidgets(cluster, v1(false));
    const created = await createWidget(custom, 'old', { size: 'S' });
    await cluster.apply(widgetCrd(v1(true)));
    const read = await readWidget(custom, 'old');
    const updated = (await custom.replaceNamespacedCustomObject({ ...at, name: 'old', body: read })) as Widget;
    expect(updated.spec).toEqual({ size: 'S', color: 'blue' });
    // The stored bytes lacked the default, so this is a real write with a new resourceVersion.
    expect(updated.metadata.resourceVersion).not.toBe(created.metadata.resourceVersion);
    await cluster.apply(widgetCrd(v1(false)));
    expect((await readWidget(custom, 'old')).spec).toEqual({ size: 'S', color: 'blue' });
  });

  it('uses the defaults of the version the object was stored at, whatever version is read', async () => {
    const versions = (v1Color: Schema) => [
      { name: 'v1', served: true, storage: true, schema: specSchema({ size: str, color: v1Color }) },
      { name: 'v2', served: true, storage: false, schema: specSchema({ size: str, color: { type: 'string', default: 'green' } }) },
    ];
    await cluster.apply(widgetCrd({}, versions(str)));
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    await createWidget(custom, 'x', { size: 'L' });
    const readAt = async (version: string) => ((await custom.getNamespacedCustomObject({ ...at, version, name: 'x' })) as Widget).spec;
    // Stored at v1, which has no default: reading at v2 does not apply v2's.
    expect(await readAt('v2')).toEqual({ size: 'L' });
    await cluster.apply(widgetCrd({}, versions({ type: 'string', default: 'red' })));
    expect(await readAt('v1')).toEqual({ size: 'L', color: 'red' });
    expect(await readAt('v2')).toEqual({ size: 'L', color: 'red' });
  });
});
