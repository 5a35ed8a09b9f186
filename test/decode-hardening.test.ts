// Bodies that could crash, freeze or poison a cluster are refused before anything is committed,
// with the real server's answers: deep nesting (encoding/json's 10,000 levels, and kubefake's own
// limit below it, util/nesting-depth.ts), YAML alias bombs (go-yaml's alias ratio), `!!binary`,
// and custom resources too large for etcd. Every write that is committed reaches every watcher.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clusterInternals } from '../src/cluster/internals.ts';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { MAX_OBJECT_DEPTH } from '../src/util/nesting-depth.ts';
import { at, COLLECTION_PATH, installWidgets, widget } from './support/schema-crd.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let custom: k8s.CustomObjectsApi;
let core: k8s.CoreV1Api;
let baseUrls: string[];

beforeEach(async () => {
  cluster = await createFakeCluster();
  custom = await installWidgets(cluster, { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } });
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  // The in-process transport and the listener answer alike.
  baseUrls = [cluster.url, (await cluster.listen()).url];
});
afterEach(() => cluster.close());

const TOO_DEEP = `kubefake: objects nested deeper than ${MAX_OBJECT_DEPTH} levels are not supported (kube-apiserver accepts up to 10000)`;

/** `{"a":{"a":...1}}`, `levels` objects deep. */
function nestedJson(levels: number): string {
  return '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
}

function nested(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

async function send(base: string, method: string, path: string, body: string, contentType: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, { method, headers: { 'content-type': contentType }, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Records every event a client-node watch on widgets delivers. */
async function watchWidgets() {
  const events: Array<{ type: string; name: string; rv: string }> = [];
  const controller = await new k8s.Watch(cluster.kubeConfig).watch(
    COLLECTION_PATH,
    { resourceVersion: (await custom.listNamespacedCustomObject(at)).metadata.resourceVersion },
    (type, obj: k8s.KubernetesObject) => events.push({ type, name: obj.metadata?.name ?? '', rv: obj.metadata?.resourceVersion ?? '' }),
    () => undefined,
  );
  return { events, stop: () => controller.abort() };
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('nesting depth', () => {
  it('stores, reads, lists and watches an object nested just below the limit', async () => {
    const watch = await watchWidgets();
    // spec (1) inside the object (1): the whole object is MAX_OBJECT_DEPTH - 10 deep, managedFields included.
    const spec = nested(MAX_OBJECT_DEPTH - 12);
    const created = (await custom.createNamespacedCustomObject({ ...at, body: widget('deep', spec) })) as { spec: unknown; metadata: { resourceVersion: string } };
    expect(created.spec).toEqual(spec);
    expect(((await custom.getNamespacedCustomObject({ ...at, name: 'deep' })) as { spec: unknown }).spec).toEqual(spec);
    const list = (await custom.listNamespacedCustomObject(at)) as { items: Array<{ spec: unknown }> };
    expect(list.items.map((i) => i.spec)).toEqual([spec]);
    const yaml = await fetch(`${cluster.url}${COLLECTION_PATH}/deep`, { headers: { accept: 'application/yaml' } });
    expect(yaml.status).toBe(200);
    expect(await yaml.text()).toMatch(/^apiVersion: schema.example.com\/v1\n/);
    await until(() => watch.events.length === 1);
    expect(watch.events).toEqual([{ type: 'ADDED', name: 'deep', rv: created.metadata.resourceVersion }]);
    watch.stop();
  });

  it.each([
    ['kubefake limit', MAX_OBJECT_DEPTH + 1, TOO_DEEP],
    ['between the limits', 5_000, TOO_DEEP],
  ])('refuses a body past the %s with 400 over both transports, stores nothing, and watchers miss nothing', async (_name, levels, message) => {
    const watch = await watchWidgets();
    const store = clusterInternals(cluster).store;
    for (const base of baseUrls) {
      const revision = store.revision;
      const res = await send(base, 'POST', COLLECTION_PATH, JSON.stringify(widget('deep', null)).replace('"spec":null', `"spec":${nestedJson(levels)}`), 'application/json');
      expect(res).toEqual({ status: 400, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 } });
      expect(store.revision).toBe(revision);
    }
    expect(((await custom.listNamespacedCustomObject(at)) as { items: unknown[] }).items).toEqual([]);
    // The next committed write is the next event every watcher sees.
    const next = (await custom.createNamespacedCustomObject({ ...at, body: widget('after', {}) })) as { metadata: { resourceVersion: string } };
    await until(() => watch.events.length === 1);
    expect(watch.events).toEqual([{ type: 'ADDED', name: 'after', rv: next.metadata.resourceVersion }]);
    watch.stop();
  });

  it("answers encoding/json's own 400 past 10,000 levels", async () => {
    const body = JSON.stringify(widget('deep', null)).replace('"spec":null', `"spec":${nestedJson(10_000)}`);
    for (const base of baseUrls) {
      const res = await send(base, 'POST', COLLECTION_PATH, body, 'application/json');
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(
        `the object provided is unrecognized (must be of type Widget): couldn't get version/kind; json parse error: invalid character '{' exceeded max depth (${body.slice(0, 30)} ...)`,
      );
    }
  });

  it.each([
    ['application/merge-patch+json', (v: string) => `{"spec":{"b":${v}}}`],
    ['application/json-patch+json', (v: string) => `[{"op":"add","path":"/spec/b","value":${v}}]`],
    ['application/apply-patch+yaml', (v: string) => `{"apiVersion":"schema.example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"b":${v}}}`],
  ])('refuses a %s patch nesting past the limit, leaving the object as it was', async (contentType, patch) => {
    const created = (await custom.createNamespacedCustomObject({ ...at, body: widget('w', { keep: true }) })) as { metadata: { resourceVersion: string } };
    for (const base of baseUrls) {
      const res = await send(base, 'PATCH', `${COLLECTION_PATH}/w?fieldManager=m`, patch(nestedJson(2_000)), contentType);
      expect(res).toMatchObject({ status: 400, body: { message: TOO_DEEP, reason: 'BadRequest' } });
    }
    const read = (await custom.getNamespacedCustomObject({ ...at, name: 'w' })) as { spec: unknown; metadata: { resourceVersion: string } };
    expect(read.spec).toEqual({ keep: true });
    expect(read.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it('refuses a patch whose result would nest past the limit, though the patch alone does not', async () => {
    await custom.createNamespacedCustomObject({ ...at, body: widget('w', nested(MAX_OBJECT_DEPTH - 20)) });
    const path = '/spec' + '/a'.repeat(MAX_OBJECT_DEPTH - 20);
    const res = await send(cluster.url, 'PATCH', `${COLLECTION_PATH}/w`, JSON.stringify([{ op: 'replace', path, value: nested(40) }]), 'application/json-patch+json');
    expect(res).toMatchObject({ status: 400, body: { message: TOO_DEEP } });
  });
});

// Nine lists of nine aliases of the one before: 9^9 strings once expanded, from ~500 bytes.
const ALIAS_BOMB = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
  .concat(['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(',')}]`))
  .join('\n');
// The same through `<<` merge keys, in a ConfigMap-shaped document.
const MERGE_BOMB = [
  'apiVersion: v1',
  'kind: ConfigMap',
  'metadata: {name: bomb}',
  'x0: &x0 {a: "1", b: "2", c: "3", d: "4", e: "5", f: "6", g: "7", h: "8"}',
  ...Array.from({ length: 8 }, (_, i) => `x${i + 1}: &x${i + 1} {<<: [${Array(8).fill(`*x${i}`).join(', ')}], p: *x${i}, q: *x${i}}`),
  'data: *x8',
].join('\n');

describe('YAML alias expansion (go-yaml decode.go allowedAliasRatio)', () => {
  it('answers 400 `document contains excessive aliasing` to an alias bomb, at once, over both transports', async () => {
    expect(ALIAS_BOMB.length).toBeLessThan(600);
    const body = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\n${ALIAS_BOMB}\n`;
    const summary = Buffer.from(body.slice(0, 30)).toString('hex');
    for (const base of baseUrls) {
      const res = await send(base, 'POST', '/api/v1/namespaces/default/configmaps', body, 'application/yaml');
      expect(res).toEqual({
        status: 400,
        body: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `the object provided is unrecognized (must be of type ConfigMap): yaml: document contains excessive aliasing (${summary} ...)`,
          reason: 'BadRequest',
          code: 400,
        },
      });
    }
  });

  it('refuses a merge-key bomb as a create body, an apply patch and a manifest', async () => {
    for (const base of baseUrls) {
      const created = await send(base, 'POST', '/api/v1/namespaces/default/configmaps', MERGE_BOMB, 'application/yaml');
      expect(created.status).toBe(400);
      expect(created.body.message).toMatch(/^the object provided is unrecognized \(must be of type ConfigMap\): yaml: document contains excessive aliasing \(/);
      const applied = await send(base, 'PATCH', '/api/v1/namespaces/default/configmaps/bomb?fieldManager=m', MERGE_BOMB, 'application/apply-patch+yaml');
      expect(applied).toMatchObject({ status: 400, body: { reason: 'BadRequest', message: 'error decoding YAML: error converting YAML to JSON: yaml: document contains excessive aliasing' } });
    }
    await expect(cluster.apply(MERGE_BOMB)).rejects.toThrow('yaml: document contains excessive aliasing');
    expect((await core.listNamespacedConfigMap({ namespace: 'default' })).items.map((c) => c.metadata?.name)).not.toContain('bomb');
  });

  it('answers 400 `anchor value contains itself` to a self-referencing alias', async () => {
    const res = await send(cluster.url, 'POST', '/api/v1/namespaces/default/configmaps', 'metadata: &m {name: x, labels: *m}\n', 'application/yaml');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/: yaml: anchor 'm' value contains itself \(/);
  });

  it('expands ordinary anchors, aliases and merge keys into independent copies', async () => {
    const body = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: anchors',
      '  labels: &labels {app: web, tier: front}',
      '  annotations:',
      '    <<: *labels',
      '    extra: "yes"',
      'data: *labels',
    ].join('\n');
    const res = await send(cluster.url, 'POST', '/api/v1/namespaces/default/configmaps', body, 'application/yaml');
    expect(res.status).toBe(201);
    const read = await core.readNamespacedConfigMap({ name: 'anchors', namespace: 'default' });
    expect(read.metadata?.labels).toEqual({ app: 'web', tier: 'front' });
    expect(read.metadata?.annotations).toEqual({ app: 'web', tier: 'front', extra: 'yes' });
    expect(read.data).toEqual({ app: 'web', tier: 'front' });
    await core.patchNamespacedConfigMap({ name: 'anchors', namespace: 'default', body: { data: { app: 'changed' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    expect((await core.readNamespacedConfigMap({ name: 'anchors', namespace: 'default' })).metadata?.labels).toEqual({ app: 'web', tier: 'front' });
  });
});

describe('!!binary YAML (go-yaml decodes it into a string)', () => {
  it('stores the decoded bytes as the string value', async () => {
    for (const [i, base] of baseUrls.entries()) {
      const body = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bin-${i}}\ndata:\n  greeting: !!binary aGVsbG8=\n  block: !!binary |\n    aGVs\n    bG8gd29ybGQ=\n`;
      const res = await send(base, 'POST', '/api/v1/namespaces/default/configmaps', body, 'application/yaml');
      expect(res.status).toBe(201);
      expect((await core.readNamespacedConfigMap({ name: `bin-${i}`, namespace: 'default' })).data).toEqual({ greeting: 'hello', block: 'hello world' });
    }
  });

  it('answers 400 `!!binary value contains invalid base64 data` for bad base64', async () => {
    for (const base of baseUrls) {
      const res = await send(base, 'POST', '/api/v1/namespaces/default/configmaps', 'metadata: {name: bad}\ndata: {x: !!binary "not base64!"}\n', 'application/yaml');
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^the object provided is unrecognized \(must be of type ConfigMap\): yaml: !!binary value contains invalid base64 data \(/);
    }
  });
});

describe('custom resources etcd would refuse', () => {
  const bigString = (bytes: number) => 'x'.repeat(bytes);

  it('answers 500 `etcdserver: request is too large` (no reason) for one over 1.5 MiB, storing nothing', async () => {
    const watch = await watchWidgets();
    const revision = clusterInternals(cluster).store.revision;
    await expectStatus(custom.createNamespacedCustomObject({ ...at, body: widget('big', { blob: bigString(1_600_000) }) }), {
      code: 500,
      message: 'etcdserver: request is too large',
    });
    const status = await send(cluster.url, 'POST', COLLECTION_PATH, JSON.stringify(widget('big', { blob: bigString(2_000_000) })), 'application/json');
    expect(status).toEqual({ status: 500, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'etcdserver: request is too large', code: 500 } });
    expect(clusterInternals(cluster).store.revision).toBe(revision);
    expect(((await custom.listNamespacedCustomObject(at)) as { items: unknown[] }).items).toEqual([]);
    // One that fits is stored, and is the watcher's next event.
    await custom.createNamespacedCustomObject({ ...at, body: widget('fits', { blob: bigString(1_400_000) }) });
    await until(() => watch.events.length === 1);
    expect(watch.events.map((e) => e.name)).toEqual(['fits']);
    watch.stop();
  });

  it('refuses an update that grows one past the limit, keeping the stored object', async () => {
    await custom.createNamespacedCustomObject({ ...at, body: widget('grows', { blob: 'small' }) });
    await expectStatus(
      custom.patchNamespacedCustomObject({ ...at, name: 'grows', body: { spec: { blob: bigString(1_600_000) } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch)),
      { code: 500, message: 'etcdserver: request is too large' },
    );
    expect(((await custom.getNamespacedCustomObject({ ...at, name: 'grows' })) as { spec: unknown }).spec).toEqual({ blob: 'small' });
  });

  it('stores one that fits only without managedFields without them, as create.go retries', async () => {
    // ~110k keys: the object is ~1 MiB, its managedFields (`"f:k12345":{}` per key) about as much again.
    const spec: Record<string, string> = {};
    for (let i = 0; i < 110_000; i++) spec[`k${i}`] = 'v';
    const created = (await custom.createNamespacedCustomObject({ ...at, body: widget('many', spec) })) as { metadata: Record<string, unknown> };
    expect(created.metadata.managedFields).toBeUndefined();
    const read = (await custom.getNamespacedCustomObject({ ...at, name: 'many' })) as { spec: Record<string, string>; metadata: Record<string, unknown> };
    expect(Object.keys(read.spec)).toHaveLength(110_000);
    expect(read.metadata.managedFields).toBeUndefined();
  });
});
