// Ownership of the replicas through the scale subresource, as kube-apiserver's integration test
// TestScaleAllResources runs it (test/integration/apiserver/apply/scale_test.go): server-side
// apply of a Scale with conflicts and force, PUT and merge patch of a Scale taking ownership, and
// co-owning, for the apps/v1 workloads and a custom resource, through client-node.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { GROUP, KIND, PLURAL, VERSION, widgetCrd } from './support/schema-crd.ts';

let cluster: FakeCluster;
let objects: k8s.KubernetesObjectApi;
beforeEach(async () => {
  cluster = await createFakeCluster();
  objects = cluster.kubeConfig.makeApiClient(k8s.KubernetesObjectApi);
});
afterEach(() => cluster.close());

const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

const template = { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:latest' }] } };
const workload = (kind: string) => ({ apiVersion: 'apps/v1', kind, metadata: { name: 'test', namespace: 'default' }, spec: { replicas: 1, selector: { matchLabels: { app: 'nginx' } }, template } });
const scaleBody = (replicas: number) => ({ kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'test', namespace: 'default' }, spec: { replicas } });

const applyPatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply);
type Answer = { status: number; body: Record<string, unknown> };
type ScaleCalls = {
  patch(p: { name: string; namespace: string; body: object; fieldManager?: string; force?: boolean }, o: k8s.ConfigurationOptions): Promise<k8s.HttpInfo<unknown>>;
  replace(p: { name: string; namespace: string; body: object; fieldManager?: string }): Promise<k8s.HttpInfo<unknown>>;
};

/** The Scale of `test` in `default`, through client-node's scale calls of the kind (or of a custom resource). */
function scaleOf(target: 'Deployment' | 'StatefulSet' | 'ReplicaSet' | 'Widget'): { apply(replicas: number, manager: string, force?: boolean): Promise<Answer>; merge(body: object, manager: string): Promise<Answer>; put(replicas: number, manager: string): Promise<Answer> } {
  const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
  const resource = { group: GROUP, version: VERSION, plural: PLURAL };
  const calls: Record<typeof target, ScaleCalls> = {
    Deployment: { patch: (p, o) => apps.patchNamespacedDeploymentScaleWithHttpInfo(p, o), replace: (p) => apps.replaceNamespacedDeploymentScaleWithHttpInfo(p as never) },
    StatefulSet: { patch: (p, o) => apps.patchNamespacedStatefulSetScaleWithHttpInfo(p, o), replace: (p) => apps.replaceNamespacedStatefulSetScaleWithHttpInfo(p as never) },
    ReplicaSet: { patch: (p, o) => apps.patchNamespacedReplicaSetScaleWithHttpInfo(p, o), replace: (p) => apps.replaceNamespacedReplicaSetScaleWithHttpInfo(p as never) },
    Widget: { patch: (p, o) => custom.patchNamespacedCustomObjectScaleWithHttpInfo({ ...resource, ...p }, o), replace: (p) => custom.replaceNamespacedCustomObjectScaleWithHttpInfo({ ...resource, ...p }) },
  };
  const { patch, replace } = calls[target];
  const at = { name: 'test', namespace: 'default' };
  const answer = async (call: Promise<k8s.HttpInfo<unknown>>): Promise<Answer> => {
    try {
      const res = await call;
      return { status: res.httpStatusCode, body: res.data as Record<string, unknown> };
    } catch (err) {
      if (!(err instanceof k8s.ApiException)) throw err;
      return { status: err.code, body: JSON.parse(err.body as string) as Record<string, unknown> };
    }
  };
  return {
    apply: (replicas, manager, force = false) => answer(patch({ ...at, body: scaleBody(replicas), fieldManager: manager, force }, applyPatch)),
    merge: (body, manager) => answer(patch({ ...at, body, fieldManager: manager }, merge)),
    put: (replicas, manager) => answer(replace({ ...at, body: scaleBody(replicas), fieldManager: manager })),
  };
}

type Entry = k8s.V1ManagedFieldsEntry;
const replicasOwners = (obj: k8s.KubernetesObject, path = ['f:spec', 'f:replicas']): string[] =>
  (obj.metadata?.managedFields ?? [])
    .filter((e: Entry) => {
      let v: unknown = e.fieldsV1;
      for (const p of path) v = (v as Record<string, unknown> | undefined)?.[p];
      return v !== undefined;
    })
    .map((e: Entry) => e.manager ?? '')
    .sort();
const replicasOf = (obj: k8s.KubernetesObject) => (obj as { spec?: { replicas?: number } }).spec?.replicas;

describe.each(['Deployment', 'StatefulSet', 'ReplicaSet'])('replicas ownership through %s/scale', (kind) => {
  const read = () => objects.read({ apiVersion: 'apps/v1', kind, metadata: { name: 'test', namespace: 'default' } });

  it('follows TestScaleAllResources: apply conflicts, force, PUT, co-owning and merge patch', async () => {
    const scale = scaleOf(kind as 'Deployment' | 'StatefulSet' | 'ReplicaSet');
    await objects.patch(workload(kind), undefined, undefined, 'apply_test', undefined, k8s.PatchStrategy.ServerSideApply);
    expect(replicasOwners(await read())).toEqual(['apply_test']);

    expect((await scale.merge({ spec: { replicas: 5 } }, 'scale_test')).status).toBe(200);
    let obj = await read();
    expect([replicasOf(obj), replicasOwners(obj)]).toEqual([5, ['scale_test']]);

    // Re-applying the original object conflicts with the scaler; force takes the replicas back.
    await expectStatus(objects.patch(workload(kind), undefined, undefined, 'apply_test', undefined, k8s.PatchStrategy.ServerSideApply), {
      code: 409,
      message: `Apply failed with 1 conflict: conflict with "scale_test" with subresource "scale" using apps/v1: .spec.replicas`,
    });
    await objects.patch(workload(kind), undefined, undefined, 'apply_test', true, k8s.PatchStrategy.ServerSideApply);
    obj = await read();
    expect([replicasOf(obj), replicasOwners(obj)]).toEqual([1, ['apply_test']]);

    // Applying a Scale with other replicas conflicts with the object's applier, named as the Scale sees it.
    const conflict = await scale.apply(17, 'apply_scale');
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "apply_test": .spec.replicas',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "apply_test"', field: '.spec.replicas' }] },
    });
    const forced = await scale.apply(17, 'apply_scale', true);
    expect([forced.status, forced.body.kind, (forced.body.spec as { replicas: number }).replicas]).toEqual([200, 'Scale', 17]);
    obj = await read();
    expect([replicasOf(obj), replicasOwners(obj)]).toEqual([17, ['apply_scale']]);
    // The applier of the Scale is recorded on the object, in the object's version, with subresource scale.
    expect(obj.metadata?.managedFields?.find((e: Entry) => e.manager === 'apply_scale')).toMatchObject({
      operation: 'Apply',
      apiVersion: 'apps/v1',
      subresource: 'scale',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
    });

    expect((await scale.put(7, 'replace_test')).status).toBe(200);
    obj = await read();
    expect([replicasOf(obj), replicasOwners(obj)]).toEqual([7, ['replace_test']]);

    // The same replicas applied: both managers own them.
    expect((await scale.apply(7, 'co_owning_test')).status).toBe(200);
    expect(replicasOwners(await read())).toEqual(['co_owning_test', 'replace_test']);

    expect((await scale.merge({ spec: { replicas: 5 } }, 'scale_test')).status).toBe(200);
    obj = await read();
    expect([replicasOf(obj), replicasOwners(obj)]).toEqual([5, ['scale_test']]);
  });
});

describe('the entries a scale write leaves', () => {
  const read = () => objects.read({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'test', namespace: 'default' } });

  it('keeps the object owners when only the Scale status is patched (TestScaleUpdateOnlyStatus)', async () => {
    await objects.patch(workload('Deployment'), undefined, undefined, 'apply_test', undefined, k8s.PatchStrategy.ServerSideApply);
    const res = await scaleOf('Deployment').merge({ status: { replicas: 42 } }, 'scale_test');
    expect(res.status).toBe(200);
    const obj = await read();
    expect([replicasOf(obj), replicasOwners(obj)]).toEqual([1, ['apply_test']]);
  });

  it('writes a new scale owner without a time, as ScaleHandler.ToParent takes times from the object', async () => {
    await objects.patch(workload('Deployment'), undefined, undefined, 'apply_test', undefined, k8s.PatchStrategy.ServerSideApply);
    const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    await apps.patchNamespacedDeploymentScale({ name: 'test', namespace: 'default', body: { spec: { replicas: 3 } }, fieldManager: 'kubectl' }, merge);
    const entries = (await read()).metadata?.managedFields ?? [];
    const scaler = entries.find((e: Entry) => e.manager === 'kubectl');
    expect(scaler).toEqual({ manager: 'kubectl', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' });
    // The applier lost the replicas and keeps the rest, with its own time.
    const applier = entries.find((e: Entry) => e.manager === 'apply_test');
    expect(applier?.time).toBeInstanceOf(Date);
    expect((applier?.fieldsV1 as { 'f:spec': Record<string, unknown> })['f:spec']['f:replicas']).toBeUndefined();
  });

  it('answers a Scale apply with the wrong kind or a bad replicas value with the apiserver errors', async () => {
    await objects.patch(workload('Deployment'), undefined, undefined, 'apply_test', undefined, k8s.PatchStrategy.ServerSideApply);
    const url = `${cluster.url}/apis/apps/v1/namespaces/default/deployments/test/scale?fieldManager=m&force=true`;
    const send = (body: unknown) => cluster.handle(new Request(url, { method: 'PATCH', body: JSON.stringify(body), headers: { 'content-type': 'application/apply-patch+yaml' } }));
    const wrongKind = await send({ ...scaleBody(2), apiVersion: 'apps/v1', kind: 'Deployment' });
    expect(wrongKind.status).toBe(400);
    expect(await wrongKind.json()).toMatchObject({ reason: 'BadRequest', message: 'invalid object type: apps/v1, Kind=Deployment' });
    const badValue = await send({ ...scaleBody(2), spec: { replicas: 'two' } });
    expect(badValue.status).toBe(500);
    expect(((await badValue.json()) as { message: string }).message).toMatch(/^failed to create typed patch object \(default\/test; autoscaling\/v1, Kind=Scale\): \.spec\.replicas: expected numeric/);
    const negative = await send(scaleBody(-1));
    expect(negative.status).toBe(422);
    expect(await negative.json()).toMatchObject({ reason: 'Invalid', message: 'Scale.autoscaling "test" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0' });
    expect(replicasOf(await read())).toBe(1);
  });
});

describe('replicas ownership through a custom resource scale', () => {
  const base = widgetCrd({ type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string' } } }, status: { type: 'object', properties: { size: { type: 'integer' } } } } });
  const crd = { ...base, spec: { ...base.spec, versions: [{ ...base.spec.versions[0]!, subresources: { status: {}, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' } } }] } };
  const widget = { apiVersion: `${GROUP}/${VERSION}`, kind: KIND, metadata: { name: 'test', namespace: 'default' }, spec: { size: 1, color: 'red' } };
  const read = () => objects.read({ apiVersion: `${GROUP}/${VERSION}`, kind: KIND, metadata: { name: 'test', namespace: 'default' } });

  it('maps the Scale .spec.replicas to the CRD specReplicasPath in both directions', async () => {
    await cluster.apply(crd);
    await objects.patch(widget, undefined, undefined, 'apply_test', undefined, k8s.PatchStrategy.ServerSideApply);
    const scale = scaleOf('Widget');
    const owners = (obj: k8s.KubernetesObject) => replicasOwners(obj, ['f:spec', 'f:size']);

    const conflict = await scale.apply(4, 'hpa');
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toBe('Apply failed with 1 conflict: conflict with "apply_test": .spec.replicas');
    expect((await scale.apply(4, 'hpa', true)).status).toBe(200);
    let obj = await read();
    expect([(obj as { spec: { size: number } }).spec.size, owners(obj)]).toEqual([4, ['hpa']]);
    // The applier keeps its other field.
    expect(replicasOwners(obj, ['f:spec', 'f:color'])).toEqual(['apply_test']);

    await expectStatus(objects.patch(widget, undefined, undefined, 'apply_test', undefined, k8s.PatchStrategy.ServerSideApply), {
      code: 409,
      message: 'Apply failed with 1 conflict: conflict with "hpa" with subresource "scale": .spec.size',
    });
    expect((await scale.put(6, 'ops')).status).toBe(200);
    obj = await read();
    expect([(obj as { spec: { size: number } }).spec.size, owners(obj)]).toEqual([6, ['ops']]);
  });
});
