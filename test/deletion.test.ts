// Deletion as Kubernetes does it, through the real client: finalizers, graceful pod deletion,
// the garbage collector's three propagation policies and namespace termination.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { exampleWidgetsCrd } from './support/widgets-crd.ts';
import { wire } from './support/wire.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
let rbac: k8s.RbacAuthorizationV1Api;

beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  rbac = cluster.kubeConfig.makeApiClient(k8s.RbacAuthorizationV1Api);
});
afterEach(() => cluster.close());

const ns = 'default';
// The ConfigMaps a test made: every namespace also holds the root-CA publisher's kube-root-ca.crt,
// which has no owner and which the collector leaves alone.
const names = async (namespace = ns) =>
  (await core.listNamespacedConfigMap({ namespace })).items.map((c) => c.metadata!.name!).filter((n) => n !== 'kube-root-ca.crt').sort();
const ownerRef = (owner: k8s.V1ConfigMap | k8s.V1ClusterRole, kind: string, apiVersion: string, extra: Partial<k8s.V1OwnerReference> = {}): k8s.V1OwnerReference => ({
  apiVersion,
  kind,
  name: owner.metadata!.name!,
  uid: owner.metadata!.uid!,
  ...extra,
});
const configMapRef = (owner: k8s.V1ConfigMap, extra: Partial<k8s.V1OwnerReference> = {}) => ownerRef(owner, 'ConfigMap', 'v1', extra);

/** An owner ConfigMap and `count` dependents named `<prefix>-<i>`. */
async function family(prefix: string, count: number, extra: Partial<k8s.V1OwnerReference> = {}, finalizers?: string[]) {
  const owner = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: prefix } } });
  for (let i = 0; i < count; i++) {
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: `${prefix}-${i}`, ownerReferences: [configMapRef(owner, extra)], ...(finalizers ? { finalizers } : {}) } },
    });
  }
  return owner;
}

describe('finalizers', () => {
  it('a delete marks the object once: same object and resourceVersion when repeated, MODIFIED then DELETED on the watch', async () => {
    const created = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'f', finalizers: ['example.com/hold'] } } });
    const events: Array<[string, string | undefined]> = [];
    const watch = await new k8s.Watch(cluster.kubeConfig).watch(
      `/api/v1/namespaces/${ns}/configmaps`,
      { resourceVersion: created.metadata!.resourceVersion!, fieldSelector: 'metadata.name=f' },
      (type, obj: k8s.V1ConfigMap) => events.push([type, obj.metadata?.deletionTimestamp ? 'deleting' : undefined]),
      () => {},
    );
    const first = wire();
    await core.deleteNamespacedConfigMap({ name: 'f', namespace: ns }, first.options);
    expect(first.status()).toBe(200);
    const marked = first.body<k8s.V1ConfigMap>();
    expect(marked.kind).toBe('ConfigMap');
    expect(marked.metadata?.deletionTimestamp).toBeDefined();
    expect(marked.metadata?.deletionGracePeriodSeconds).toBe(0);
    const again = wire();
    await core.deleteNamespacedConfigMap({ name: 'f', namespace: ns }, again.options);
    expect(again.body<k8s.V1ConfigMap>().metadata?.resourceVersion).toBe(marked.metadata?.resourceVersion);
    await expectStatus(
      core.patchNamespacedConfigMap({ name: 'f', namespace: ns, body: { metadata: { finalizers: ['example.com/hold', 'example.com/new'] } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch)),
      { code: 422, reason: 'Invalid', message: 'ConfigMap "f" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/new"}' },
    );
    await expectStatus(
      core.patchNamespacedConfigMap({ name: 'f', namespace: ns, body: { metadata: { deletionGracePeriodSeconds: 30 } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch)),
      { code: 422, reason: 'Invalid', message: 'ConfigMap "f" is invalid: metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable' },
    );
    await core.patchNamespacedConfigMap({ name: 'f', namespace: ns, body: { metadata: { finalizers: null } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await expectStatus(core.readNamespacedConfigMap({ name: 'f', namespace: ns }), { code: 404, reason: 'NotFound' });
    await expect.poll(() => events).toEqual([
      ['MODIFIED', 'deleting'],
      ['DELETED', 'deleting'],
    ]);
    watch.abort();
  });

  it('bumps a Deployment’s generation once when it starts deleting', async () => {
    const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    await apps.createNamespacedDeployment({
      namespace: ns,
      body: {
        metadata: { name: 'gen', finalizers: ['example.com/hold'] },
        spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
      },
    });
    const first = wire();
    await apps.deleteNamespacedDeployment({ name: 'gen', namespace: ns }, first.options);
    expect(first.body<k8s.V1Deployment>().metadata?.generation).toBe(2);
    const again = wire();
    await apps.deleteNamespacedDeployment({ name: 'gen', namespace: ns }, again.options);
    expect(again.body<k8s.V1Deployment>().metadata?.generation).toBe(2);
  });

  it('dry-run delete of an object with finalizers answers the marked object and changes nothing', async () => {
    const created = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'dry', finalizers: ['example.com/hold'] } } });
    const res = wire();
    await core.deleteNamespacedConfigMap({ name: 'dry', namespace: ns, dryRun: 'All' }, res.options);
    expect(res.body<k8s.V1ConfigMap>().metadata?.deletionTimestamp).toBeDefined();
    const stored = await core.readNamespacedConfigMap({ name: 'dry', namespace: ns });
    expect(stored.metadata?.deletionTimestamp).toBeUndefined();
    expect(stored.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
  });

  it('answers 409 for a resourceVersion precondition that does not match', async () => {
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'rv' } } });
    await expectStatus(core.deleteNamespacedConfigMap({ name: 'rv', namespace: ns, body: { preconditions: { resourceVersion: '1' } } }), {
      code: 409,
      reason: 'Conflict',
      details: { name: 'rv', kind: 'ConfigMap' },
    }).then((s) => expect(s.message).toMatch(/^Operation cannot be fulfilled on ConfigMap "rv": the ResourceVersion in the precondition \(1\) does not match the ResourceVersion in record \(\d+\)\. The object might have been modified$/));
  });

  it('rejects orphanDependents together with propagationPolicy (422)', async () => {
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'both' } } });
    await expectStatus(core.deleteNamespacedConfigMap({ name: 'both', namespace: ns, orphanDependents: true, propagationPolicy: 'Orphan' }), {
      code: 422,
      reason: 'Invalid',
      message: 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    });
  });
});

describe('garbage collector', () => {
  it('Background (default): the owner goes at once, its dependents right after', async () => {
    await family('bg', 3);
    await core.deleteNamespacedConfigMap({ name: 'bg', namespace: ns });
    await cluster.settle();
    expect(await names()).toEqual([]);
  });

  it('deletes a dependent created with an owner reference to an owner that does not exist', async () => {
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: 'orphaned', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: '00000000-0000-4000-8000-000000000000' }] } },
    });
    await cluster.settle();
    expect(await names()).toEqual([]);
  });

  it('keeps a dependent that still has a live owner and drops only the dead reference', async () => {
    const alive = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'alive' } } });
    const dead = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'dead' } } });
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'two-owners', ownerReferences: [configMapRef(alive), configMapRef(dead)] } } });
    await core.deleteNamespacedConfigMap({ name: 'dead', namespace: ns });
    await cluster.settle();
    const dep = await core.readNamespacedConfigMap({ name: 'two-owners', namespace: ns });
    expect(dep.metadata?.ownerReferences?.map((r) => r.name)).toEqual(['alive']);
  });

  it('Foreground: the owner waits with the foregroundDeletion finalizer until blocking dependents are gone', async () => {
    await family('fg', 2, { blockOwnerDeletion: true }, ['example.com/hold']);
    const res = wire();
    await core.deleteNamespacedConfigMap({ name: 'fg', namespace: ns, propagationPolicy: 'Foreground' }, res.options);
    expect(res.body<k8s.V1ConfigMap>().metadata?.finalizers).toEqual(['foregroundDeletion']);
    await cluster.settle();
    // The dependents are being deleted but their own finalizer holds them, so the owner stays.
    const owner = await core.readNamespacedConfigMap({ name: 'fg', namespace: ns });
    expect(owner.metadata?.deletionTimestamp).toBeDefined();
    for (const dep of ['fg-0', 'fg-1']) {
      const d = await core.readNamespacedConfigMap({ name: dep, namespace: ns });
      expect(d.metadata?.deletionTimestamp).toBeDefined();
    }
    await core.patchNamespacedConfigMap({ name: 'fg-0', namespace: ns, body: { metadata: { finalizers: null } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await cluster.settle();
    expect(await names()).toEqual(['fg', 'fg-1']);
    await core.patchNamespacedConfigMap({ name: 'fg-1', namespace: ns, body: { metadata: { finalizers: null } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await cluster.settle();
    expect(await names()).toEqual([]);
  });

  it('Foreground through an ownership cycle: the member that closes the cycle stops blocking, and both go', async () => {
    const a = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'cycle-a' } } });
    const b = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'cycle-b', ownerReferences: [configMapRef(a, { blockOwnerDeletion: true })] } } });
    await core.patchNamespacedConfigMap(
      { name: 'cycle-a', namespace: ns, body: { metadata: { ownerReferences: [configMapRef(b, { blockOwnerDeletion: true })] } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    // Watch B: the collector first unblocks its reference to A, then deletes it in the foreground.
    const seen: Array<{ type: string; blocking?: boolean; deleting: boolean }> = [];
    const { resourceVersion } = (await core.listNamespacedConfigMap({ namespace: ns })).metadata!;
    const stop = await new k8s.Watch(cluster.kubeConfig).watch(`/api/v1/namespaces/${ns}/configmaps`, { resourceVersion, fieldSelector: 'metadata.name=cycle-b' }, (type, obj: k8s.V1ConfigMap) => {
      seen.push({ type, blocking: obj.metadata?.ownerReferences?.[0]?.blockOwnerDeletion, deleting: !!obj.metadata?.deletionTimestamp });
    }, () => {});
    await core.deleteNamespacedConfigMap({ name: 'cycle-a', namespace: ns, propagationPolicy: 'Foreground' });
    await cluster.settle();
    expect(await names()).toEqual([]);
    await vi.waitFor(() => expect(seen.at(-1)?.type).toBe('DELETED'));
    stop.abort();
    expect(seen).toEqual([
      { type: 'MODIFIED', blocking: false, deleting: false },
      { type: 'MODIFIED', blocking: false, deleting: true },
      { type: 'DELETED', blocking: false, deleting: true },
    ]);
  });

  it('Foreground: a dependent that is not blocking is collected but does not hold the owner', async () => {
    await family('nb', 1, { blockOwnerDeletion: false }, ['example.com/hold']);
    await core.deleteNamespacedConfigMap({ name: 'nb', namespace: ns, propagationPolicy: 'Foreground' });
    await cluster.settle();
    // The owner is gone; the dependent is marked for deletion and waits on its own finalizer.
    expect(await names()).toEqual(['nb-0']);
    const dep = await core.readNamespacedConfigMap({ name: 'nb-0', namespace: ns });
    expect(dep.metadata?.deletionTimestamp).toBeDefined();
  });

  it('Foreground with no dependents still marks the owner; the collector then removes it', async () => {
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'lonely' } } });
    const res = wire();
    await core.deleteNamespacedConfigMap({ name: 'lonely', namespace: ns, propagationPolicy: 'Foreground' }, res.options);
    expect(res.status()).toBe(200);
    expect(res.body<k8s.V1ConfigMap>().metadata?.finalizers).toEqual(['foregroundDeletion']);
    await cluster.settle();
    expect(await names()).toEqual([]);
  });

  it('Orphan: dependents lose the owner reference and stay; the orphan finalizer is removed', async () => {
    await family('or', 2);
    const res = wire();
    await core.deleteNamespacedConfigMap({ name: 'or', namespace: ns, propagationPolicy: 'Orphan' }, res.options);
    expect(res.body<k8s.V1ConfigMap>().metadata?.finalizers).toEqual(['orphan']);
    await cluster.settle();
    expect(await names()).toEqual(['or-0', 'or-1']);
    for (const dep of ['or-0', 'or-1']) {
      expect((await core.readNamespacedConfigMap({ name: dep, namespace: ns })).metadata?.ownerReferences).toBeUndefined();
    }
  });

  it('a cluster-scoped owner collects namespaced dependents', async () => {
    const role = await rbac.createClusterRole({ body: { metadata: { name: 'owner-role' } } });
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'by-role', ownerReferences: [ownerRef(role, 'ClusterRole', 'rbac.authorization.k8s.io/v1')] } } });
    await cluster.settle();
    expect(await names()).toEqual(['by-role']);
    await rbac.deleteClusterRole({ name: 'owner-role' });
    await cluster.settle();
    expect(await names()).toEqual([]);
  });

  it('never collects a cluster-scoped dependent of a namespaced owner, and treats an owner in another namespace as absent', async () => {
    const owner = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'ns-owner' } } });
    await rbac.createClusterRole({ body: { metadata: { name: 'invalid-dependent', ownerReferences: [configMapRef(owner)] } } });
    await core.createNamespacedConfigMap({ namespace: 'kube-public', body: { metadata: { name: 'elsewhere', ownerReferences: [configMapRef(owner)] } } });
    await cluster.settle();
    expect(await names('kube-public')).toEqual([]);
    await core.deleteNamespacedConfigMap({ name: 'ns-owner', namespace: ns });
    await cluster.settle();
    expect((await rbac.readClusterRole({ name: 'invalid-dependent' })).metadata?.ownerReferences).toHaveLength(1);
  });

  it('cascades through several levels and 1,000 dependents', async () => {
    const root = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'root' } } });
    const mid = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'mid', ownerReferences: [configMapRef(root)] } } });
    await cluster.apply(Array.from({ length: 1000 }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `leaf-${i}`, namespace: ns, ownerReferences: [configMapRef(mid)] } })));
    expect(await names()).toHaveLength(1002);
    await core.deleteNamespacedConfigMap({ name: 'root', namespace: ns });
    await cluster.settle();
    expect(await names()).toEqual([]);
  });
});

describe('graceful pod deletion', () => {
  const pod = (name: string, nodeName?: string): k8s.V1Pod => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }], ...(nodeName ? { nodeName } : {}) } });

  it('deletes an unscheduled pod at once, answering the pod as marked with grace 0', async () => {
    await core.createNamespacedPod({ namespace: ns, body: pod('unscheduled') });
    const res = await core.deleteNamespacedPodWithHttpInfo({ name: 'unscheduled', namespace: ns });
    expect(res.httpStatusCode).toBe(200);
    expect(res.data.metadata?.deletionTimestamp).toBeInstanceOf(Date);
    expect(res.data.metadata?.deletionGracePeriodSeconds).toBe(0);
    await expectStatus(core.readNamespacedPod({ name: 'unscheduled', namespace: ns }), { code: 404, reason: 'NotFound' });
  });

  it('gives a scheduled pod its grace period, then the stand-in kubelet confirms the deletion', async () => {
    const created = await core.createNamespacedPod({ namespace: ns, body: pod('bound', 'node-1') });
    const seen: string[] = [];
    const watch = await new k8s.Watch(cluster.kubeConfig).watch(
      `/api/v1/namespaces/${ns}/pods`,
      { resourceVersion: created.metadata!.resourceVersion! },
      (type, obj: k8s.V1Pod) => seen.push(`${type}:${obj.metadata?.deletionGracePeriodSeconds ?? '-'}`),
      () => {},
    );
    const before = Date.now();
    const res = await core.deleteNamespacedPodWithHttpInfo({ name: 'bound', namespace: ns });
    expect(res.httpStatusCode).toBe(200);
    expect(res.data.metadata?.deletionGracePeriodSeconds).toBe(30);
    const due = res.data.metadata!.deletionTimestamp!.getTime();
    expect(due).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 30_000);
    await cluster.settle();
    await expectStatus(core.readNamespacedPod({ name: 'bound', namespace: ns }), { code: 404, reason: 'NotFound' });
    await expect.poll(() => seen).toEqual(['MODIFIED:30', 'MODIFIED:0', 'DELETED:0']);
    watch.abort();
  });

  it('uses the requested gracePeriodSeconds; 0 deletes at once', async () => {
    await core.createNamespacedPod({ namespace: ns, body: pod('short', 'node-1') });
    const res = await core.deleteNamespacedPod({ name: 'short', namespace: ns, gracePeriodSeconds: 5 });
    expect(res.metadata?.deletionGracePeriodSeconds).toBe(5);
    await core.createNamespacedPod({ namespace: ns, body: pod('now', 'node-1') });
    const now = await core.deleteNamespacedPod({ name: 'now', namespace: ns, gracePeriodSeconds: 0 });
    expect(now.metadata?.deletionGracePeriodSeconds).toBe(0);
    await expectStatus(core.readNamespacedPod({ name: 'now', namespace: ns }), { code: 404, reason: 'NotFound' });
  });
});

describe('namespace lifecycle', () => {
  it.each(['default', 'kube-system', 'kube-public'])('refuses to delete %s with 403', async (name) => {
    await expectStatus(core.deleteNamespace({ name }), {
      code: 403,
      reason: 'Forbidden',
      message: `namespaces "${name}" is forbidden: this namespace may not be deleted`,
      details: { name, kind: 'namespaces' },
    });
  });

  it('terminates a namespace: Terminating, creates refused, content deleted, then the namespace goes', async () => {
    await core.createNamespace({ body: { metadata: { name: 'doomed' } } });
    await core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'a' } } });
    await core.createNamespacedSecret({ namespace: 'doomed', body: { metadata: { name: 's' } } });
    const res = wire();
    await core.deleteNamespace({ name: 'doomed' }, res.options);
    expect(res.status()).toBe(200);
    const terminating = res.body<k8s.V1Namespace>();
    expect(terminating.status?.phase).toBe('Terminating');
    expect(terminating.spec?.finalizers).toEqual(['kubernetes']);
    expect(terminating.metadata?.deletionTimestamp).toBeDefined();
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'late' } } }), {
      code: 403,
      reason: 'Forbidden',
      message: 'configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated',
      details: { name: 'late', kind: 'configmaps', causes: [{ reason: 'NamespaceTerminating', message: 'namespace doomed is being terminated', field: 'metadata.namespace' }] },
    });
    await cluster.settle();
    await expectStatus(core.readNamespace({ name: 'doomed' }), { code: 404, reason: 'NotFound', message: 'namespaces "doomed" not found' });
    await expectStatus(core.readNamespacedSecret({ name: 's', namespace: 'doomed' }), { code: 404, reason: 'NotFound' });
  });

  it('waits on content finalizers and reports them in the status conditions', async () => {
    await core.createNamespace({ body: { metadata: { name: 'held' } } });
    await core.createNamespacedConfigMap({ namespace: 'held', body: { metadata: { name: 'pinned', finalizers: ['example.com/hold'] } } });
    await core.createNamespacedConfigMap({ namespace: 'held', body: { metadata: { name: 'free' } } });
    await core.deleteNamespace({ name: 'held' });
    await cluster.settle();
    const stuck = await core.readNamespace({ name: 'held' });
    expect(stuck.status?.phase).toBe('Terminating');
    const conditions = Object.fromEntries((stuck.status?.conditions ?? []).map((c) => [c.type, c]));
    expect(stuck.status?.conditions?.map((c) => c.type)).toEqual([
      'NamespaceDeletionDiscoveryFailure',
      'NamespaceDeletionGroupVersionParsingFailure',
      'NamespaceDeletionContentFailure',
      'NamespaceContentRemaining',
      'NamespaceFinalizersRemaining',
    ]);
    expect(conditions.NamespaceDeletionDiscoveryFailure).toMatchObject({ status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' });
    expect(conditions.NamespaceDeletionContentFailure).toMatchObject({ status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' });
    expect(conditions.NamespaceContentRemaining).toMatchObject({ status: 'True', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: configmaps. has 1 resource instances' });
    expect(conditions.NamespaceFinalizersRemaining).toMatchObject({ status: 'True', reason: 'SomeFinalizerRemain', message: 'Some finalizers are remaining: example.com/hold in 1 resource instances' });
    expect(await names('held')).toEqual(['pinned']);
    // Deleting again while content remains answers the namespace unchanged.
    const again = wire();
    await core.deleteNamespace({ name: 'held' }, again.options);
    expect(again.status()).toBe(200);
    expect(again.body<k8s.V1Namespace>().metadata?.resourceVersion).toBe(stuck.metadata?.resourceVersion);
    await core.patchNamespacedConfigMap({ name: 'pinned', namespace: 'held', body: { metadata: { finalizers: null } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await cluster.settle();
    await expectStatus(core.readNamespace({ name: 'held' }), { code: 404, reason: 'NotFound' });
  });

  it('checks a namespace delete’s uid precondition with the namespace registry’s own text', async () => {
    const created = await core.createNamespace({ body: { metadata: { name: 'pre' } } });
    await expectStatus(core.deleteNamespace({ name: 'pre', body: { preconditions: { uid: 'nope' } } }), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on namespaces "pre": Precondition failed: UID in precondition: nope, UID in object meta: ${created.metadata?.uid}`,
      details: { name: 'pre', kind: 'namespaces' },
    });
  });
});

describe('custom resources in the deletion machinery', () => {
  const widgetsCrd = exampleWidgetsCrd([{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }]);

  it('collects built-in dependents of a custom resource owner', async () => {
    await cluster.apply(widgetsCrd);
    const [owner] = await cluster.apply({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: ns } });
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: 'owned-by-widget', ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: owner!.metadata!.uid! }] } },
    });
    await cluster.settle();
    expect(await names()).toEqual(['owned-by-widget']);
    await cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi).deleteNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace: ns, plural: 'widgets', name: 'w' });
    await cluster.settle();
    expect(await names()).toEqual([]);
  });

  it('a terminating namespace deletes its custom resources and waits for their finalizers', async () => {
    await cluster.apply(widgetsCrd);
    await core.createNamespace({ body: { metadata: { name: 'crs' } } });
    await cluster.apply({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'held', namespace: 'crs', finalizers: ['example.com/hold'] } });
    await core.deleteNamespace({ name: 'crs' });
    await cluster.settle();
    const ns = await core.readNamespace({ name: 'crs' });
    expect(ns.status?.conditions?.find((c) => c.type === 'NamespaceContentRemaining')?.message).toBe('Some resources are remaining: widgets.example.com has 1 resource instances');
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    const held = (await custom.getNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace: 'crs', plural: 'widgets', name: 'held' })) as k8s.KubernetesObject;
    expect(held.metadata?.deletionTimestamp).toBeDefined();
    await custom.patchNamespacedCustomObject(
      { group: 'example.com', version: 'v1', namespace: 'crs', plural: 'widgets', name: 'held', body: { metadata: { finalizers: null } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await cluster.settle();
    await expectStatus(core.readNamespace({ name: 'crs' }), { code: 404, reason: 'NotFound' });
  });
});
