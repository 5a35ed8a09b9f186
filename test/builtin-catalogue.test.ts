// Walks the generated built-in catalogue (every resource a default kube-apiserver v1.36 serves)
// through @kubernetes/client-node's KubernetesObjectApi, which resolves each kind through the
// served discovery documents: CRUD, list and watch for every resource that has them, create for
// the create-only reviews. The minimal objects are test data (test/data/builtin-samples.ts).
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_RESOURCES, type BuiltinResourceFacts } from '../src/generated/builtin-catalogue.ts';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { BUILTIN_SAMPLES } from './data/builtin-samples.ts';

const NS = 'catalogue';
let cluster: FakeCluster;
let api: k8s.KubernetesObjectApi;
let watcher: k8s.Watch;

beforeAll(async () => {
  cluster = await createFakeCluster();
  api = k8s.KubernetesObjectApi.makeApiClient(cluster.kubeConfig);
  watcher = new k8s.Watch(cluster.kubeConfig);
  await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespace({ body: { metadata: { name: NS } } });
});
afterAll(() => cluster.close());

const keyOf = (r: BuiltinResourceFacts) => `${r.group}/${r.version}/${r.resource}`;
const apiVersionOf = (r: BuiltinResourceFacts) => (r.group ? `${r.group}/${r.version}` : r.version);
const collectionPath = (r: BuiltinResourceFacts) => `${r.group ? `/apis/${r.group}/${r.version}` : '/api/v1'}${r.namespaced ? `/namespaces/${NS}` : ''}/${r.resource}`;

function sampleOf(r: BuiltinResourceFacts): k8s.KubernetesObject & Record<string, unknown> {
  const sample = structuredClone(BUILTIN_SAMPLES[keyOf(r)]);
  if (!sample) throw new Error(`no sample for ${keyOf(r)} in test/data/builtin-samples.ts`);
  const metadata = { ...((sample.metadata as k8s.V1ObjectMeta) ?? {}), ...(r.namespaced ? { namespace: NS } : {}) };
  return { ...sample, apiVersion: apiVersionOf(r), kind: r.kind, metadata };
}

/** The HTTP status of a failed client-node call. */
async function codeOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

const isCrud = (r: BuiltinResourceFacts) => ['create', 'get', 'list', 'watch', 'update', 'patch', 'delete'].every((v) => r.verbs.includes(v));
const crud = BUILTIN_RESOURCES.filter(isCrud);
const createOnly = BUILTIN_RESOURCES.filter((r) => r.verbs.length === 1 && r.verbs[0] === 'create' && r.resource !== 'bindings');

describe('the generated catalogue', () => {
  it('has a sample for every resource it serves, and no sample for anything else', () => {
    expect(Object.keys(BUILTIN_SAMPLES).sort()).toEqual(BUILTIN_RESOURCES.filter((r) => r.resource !== 'bindings').map(keyOf).sort());
  });

  it('leaves no resource unwalked: each is CRUD, create-only, read-only or bindings', () => {
    const rest = BUILTIN_RESOURCES.filter((r) => !isCrud(r) && !createOnly.includes(r)).map(keyOf);
    expect(rest).toEqual(['/v1/bindings', '/v1/componentstatuses']);
  });
});

describe.each(crud.map((r) => [keyOf(r), r] as const))('%s', (_key, r) => {
  it('answers create, get, patch, update, list, watch and delete', async () => {
    const sample = sampleOf(r);
    const ref = { apiVersion: sample.apiVersion!, kind: sample.kind!, metadata: { name: sample.metadata!.name!, namespace: sample.metadata!.namespace } };
    const before = await api.list(sample.apiVersion!, sample.kind!, r.namespaced ? NS : undefined);
    const events: { type: string; name: string; rv: string }[] = [];
    const watch = await watcher.watch(
      collectionPath(r),
      { resourceVersion: before.metadata?.resourceVersion },
      (type, obj: k8s.KubernetesObject) => events.push({ type, name: obj.metadata?.name ?? '', rv: obj.metadata?.resourceVersion ?? '' }),
      () => undefined,
    );
    try {
      const created = await api.create(sample);
      expect(created).toMatchObject({ apiVersion: sample.apiVersion, kind: sample.kind, metadata: { name: ref.metadata.name } });
      expect(created.metadata?.uid).toBeTruthy();

      const read = await api.read(ref);
      expect(read.metadata?.uid).toBe(created.metadata?.uid);

      const patched: k8s.KubernetesObject = await api.patch({ ...ref, metadata: { ...ref.metadata, labels: { catalogue: 'patched' } } }, undefined, undefined, undefined, undefined, k8s.PatchStrategy.MergePatch);
      expect(patched.metadata?.labels?.catalogue).toBe('patched');

      const replaced: k8s.KubernetesObject = await api.replace({ ...patched, metadata: { ...patched.metadata, annotations: { catalogue: 'replaced' } } });
      expect(replaced.metadata?.annotations?.catalogue).toBe('replaced');
      expect(Number(replaced.metadata?.resourceVersion)).toBeGreaterThan(Number(patched.metadata?.resourceVersion));

      const listed = await api.list(sample.apiVersion!, sample.kind!, r.namespaced ? NS : undefined);
      expect(listed.items.map((i) => i.metadata?.name)).toContain(ref.metadata.name);

      await api.delete(ref);
      // Gone, or (namespaces, graceful pods) on its way out with a deletionTimestamp.
      const after = await api.read(ref).catch((err: { code?: number }) => err.code ?? -1);
      if (typeof after === 'number') expect(after).toBe(404);
      else expect(after.metadata?.deletionTimestamp).toBeTruthy();

      // The watch saw the create, the patch and the update, then the deletion: DELETED once the object
      // is gone (after a MODIFIED where a graceful delete with period 0 first writes deletionTimestamp).
      const seen = () => events.filter((e) => e.name === ref.metadata.name).map((e) => e.type);
      await expect.poll(() => seen().slice(0, 3), { timeout: 5000 }).toEqual(['ADDED', 'MODIFIED', 'MODIFIED']);
      if (typeof after === 'number') await expect.poll(() => seen().at(-1), { timeout: 5000 }).toBe('DELETED');
      else await expect.poll(() => seen().length, { timeout: 5000 }).toBe(4);
    } finally {
      watch.abort();
    }
  });
});

describe.each(createOnly.map((r) => [keyOf(r), r] as const))('%s (create-only)', (_key, r) => {
  it('answers create with the review and its status, stores nothing and serves no other verb', async () => {
    const sample = sampleOf(r);
    const answered = (await api.create(sample)) as k8s.KubernetesObject & { status?: unknown };
    expect(answered).toMatchObject({ apiVersion: sample.apiVersion, kind: sample.kind });
    expect(answered.status).toBeTruthy();
    expect(answered.metadata?.uid).toBeUndefined();
    // No list route: go-restful answers 405 for the collection path's GET.
    expect(await codeOf(api.list(sample.apiVersion!, sample.kind!, r.namespaced ? NS : undefined))).toBe(405);
  });
});

describe('componentstatuses (get and list only)', () => {
  it('lists the probed components (test/component-status.test.ts), and refuses create with 405', async () => {
    const list = await api.list('v1', 'ComponentStatus');
    expect(list.items.map((c) => c.metadata?.name)).toEqual(['controller-manager', 'etcd-0', 'scheduler']);
    expect(await codeOf(api.read({ apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: 'kubelet' } }))).toBe(500);
    expect(await codeOf(api.create({ apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: 'etcd-0' } }))).toBe(405);
  });
});
