// cluster.requests (every HTTP request, with attributes, status and bodies on demand) and
// cluster.history (every stored change, with before and after): bounded and clearable.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createFakeCluster } from '../src/index.ts';

describe('cluster.requests', () => {
  it('records verb, resource, namespace, name, subresource, user agent and status of each request', async () => {
    await using cluster = await createFakeCluster();
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' } } });
    await core.readNamespacedConfigMap({ name: 'a', namespace: 'default' });
    await core.listNamespacedConfigMap({ namespace: 'default' });
    await core.replaceNamespacedConfigMap({ name: 'a', namespace: 'default', body: { metadata: { name: 'a' }, data: { x: '1' } } });
    await core.patchNamespacedConfigMap({ name: 'a', namespace: 'default', body: [{ op: 'add', path: '/data/y', value: '2' }] }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch));
    await core.deleteNamespacedConfigMap({ name: 'a', namespace: 'default' });
    await core.deleteCollectionNamespacedSecret({ namespace: 'default' });
    await expect(apps.readNamespacedDeployment({ name: 'missing', namespace: 'default' })).rejects.toThrow();
    await core.readNamespace({ name: 'default' });
    await apps.listDeploymentForAllNamespaces();
    await cluster.handle(new Request(`${cluster.url}/apis/apps/v1/namespaces/default/deployments/web/status`));
    await cluster.handle(new Request(`${cluster.url}/version`, { headers: { 'user-agent': 'kubectl/v1.36.0 (linux/amd64)' } }));

    const rows = cluster.requests.all().map((r) => [r.verb, r.group, r.resource, r.namespace, r.name, r.subresource, r.status]);
    expect(rows).toEqual([
      ['create', '', 'configmaps', 'default', undefined, undefined, 201],
      ['get', '', 'configmaps', 'default', 'a', undefined, 200],
      ['list', '', 'configmaps', 'default', undefined, undefined, 200],
      ['update', '', 'configmaps', 'default', 'a', undefined, 200],
      ['patch', '', 'configmaps', 'default', 'a', undefined, 200],
      ['delete', '', 'configmaps', 'default', 'a', undefined, 200],
      ['deletecollection', '', 'secrets', 'default', undefined, undefined, 200],
      ['get', 'apps', 'deployments', 'default', 'missing', undefined, 404],
      // requestinfo.go: a namespace object's own name is the request's namespace (as in audit's objectRef).
      ['get', '', 'namespaces', 'default', 'default', undefined, 200],
      ['list', 'apps', 'deployments', undefined, undefined, undefined, 200],
      ['get', 'apps', 'deployments', 'default', 'web', 'status', 404],
      ['get', undefined, undefined, undefined, undefined, undefined, 200],
    ]);
    const all = cluster.requests.all();
    expect(all[0]!.userAgent).toMatch(/^kubernetes-client-javascript\//);
    expect(all.at(-1)).toMatchObject({ path: '/version', method: 'GET', isResourceRequest: false, userAgent: 'kubectl/v1.36.0 (linux/amd64)', fault: false });
    expect(all[2]!.path).toBe('/api/v1/namespaces/default/configmaps');
  });

  it('parses request and response bodies on demand', async () => {
    await using cluster = await createFakeCluster();
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' }, data: { k: 'v' } } });
    await expect(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' } } })).rejects.toThrow();
    const [created, conflict] = cluster.requests.all({ verb: 'create' });
    expect(await created!.body()).toEqual({ metadata: { name: 'a' }, data: { k: 'v' } });
    expect(await created!.responseBody()).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'a', uid: expect.any(String) } });
    expect(await conflict!.responseBody()).toMatchObject({ kind: 'Status', reason: 'AlreadyExists', code: 409 });
    // Asking twice answers the same parse.
    expect(await created!.body()).toEqual(await created!.body());
    const get = (await core.readNamespacedConfigMap({ name: 'a', namespace: 'default' }), cluster.requests.last({ verb: 'get' })!);
    expect(await get.body()).toBeUndefined();
  });

  it('answers the bodies of faulted requests, hook Responses, YAML and plain-text answers', async () => {
    await using cluster = await createFakeCluster();
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    // A fault answers before the handler reads the body: the log reads the unread stream.
    cluster.faults.add({ verb: 'create', resource: 'secrets', error: 500, times: 1 });
    await expect(core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 's' }, stringData: { k: 'v' } } })).rejects.toThrow();
    const faulted = cluster.requests.last({ resource: 'secrets' })!;
    expect(faulted).toMatchObject({ verb: 'create', status: 500, fault: true });
    expect(await faulted.body()).toEqual({ metadata: { name: 's' }, stringData: { k: 'v' } });
    expect(await faulted.responseBody()).toMatchObject({ kind: 'Status', code: 500, message: 'etcdserver: request timed out' });
    // A Response a hook made itself (not built by the handler) is copied, and its bytes answered as they were.
    cluster.faults.add((req) => (req.resource === 'pods' ? new Response(new Uint8Array([1, 2, 3]), { status: 503, headers: { 'content-type': 'application/octet-stream' } }) : undefined));
    await cluster.handle(new Request(`${cluster.url}/api/v1/namespaces/default/pods`));
    expect(await cluster.requests.last({ resource: 'pods' })!.responseBody()).toEqual(new Uint8Array([1, 2, 3]));
    // A YAML body (read by the handler) and a YAML answer; a plain-text answer.
    await cluster.handle(
      new Request(`${cluster.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', headers: { 'content-type': 'application/yaml', accept: 'application/yaml' }, body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  k: v\n' }),
    );
    const yaml = cluster.requests.last({ verb: 'create', resource: 'configmaps' })!;
    expect(await yaml.body()).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-yaml' }, data: { k: 'v' } });
    expect(await yaml.responseBody()).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'from-yaml' } });
    await cluster.handle(new Request(`${cluster.url}/no/such/path`, { method: 'POST', body: 'ignored' }));
    const notFound = cluster.requests.last()!;
    expect(notFound.status).toBe(404);
    expect(await notFound.responseBody()).toBe('404 page not found\n');
    // The handler never read this body: the log still can.
    expect(await notFound.body()).toBe('ignored');
  });

  it('filters by attributes or a predicate, and records a watch once it streams', async () => {
    await using cluster = await createFakeCluster();
    const watch = new k8s.Watch(cluster.kubeConfig);
    const started = await watch.watch('/api/v1/namespaces/default/configmaps', {}, () => undefined, () => undefined);
    await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
    await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).readNamespacedConfigMap({ name: 'a', namespace: 'default' });
    expect(cluster.requests.all({ verb: 'watch', resource: 'configmaps' })).toHaveLength(1);
    expect(cluster.requests.all({ verb: ['watch', 'get'] }).map((r) => r.verb)).toEqual(['watch', 'get']);
    expect(cluster.requests.all({ resource: 'configmaps.apps' })).toEqual([]);
    expect(cluster.requests.all((r) => r.status === 200)).toHaveLength(2);
    expect(await cluster.requests.last({ verb: 'watch' })!.responseBody()).toBeUndefined();
    started.abort();
  });

  it('keeps the newest requests up to its limit, clears, and can be turned off', async () => {
    await using cluster = await createFakeCluster({ requestLog: { limit: 3 } });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    for (const name of ['a', 'b', 'c', 'd', 'e']) await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name } } });
    expect(cluster.requests.limit).toBe(3);
    expect(await Promise.all(cluster.requests.all().map(async (r) => ((await r.body()) as { metadata: { name: string } }).metadata.name))).toEqual(['c', 'd', 'e']);
    expect([...cluster.requests]).toHaveLength(3);
    cluster.requests.clear();
    expect(cluster.requests.length).toBe(0);
    await core.readNamespace({ name: 'default' });
    expect(cluster.requests.length).toBe(1);

    await using quiet = await createFakeCluster({ requestLog: { limit: 0 } });
    await quiet.kubeConfig.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'default' });
    expect(quiet.requests.length).toBe(0);
    await expect(createFakeCluster({ requestLog: { limit: -1 } })).rejects.toThrow('kubefake: a log limit must be a non-negative integer, got -1');
  });

  it('records without bodies when told not to keep them', async () => {
    await using cluster = await createFakeCluster({ requestLog: { bodies: false } });
    await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' } } });
    const [create] = cluster.requests.all();
    expect(create).toMatchObject({ verb: 'create', status: 201 });
    expect(await create!.body()).toBeUndefined();
    expect(await create!.responseBody()).toBeUndefined();
  });
});

describe('cluster.history', () => {
  it('records each stored change with before and after, controllers and apply() included', async () => {
    await using cluster = await createFakeCluster();
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const owner = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'owner' }, data: { v: '1' } } });
    await cluster.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'dep', namespace: 'default', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! }] } });
    await core.patchNamespacedConfigMap({ name: 'owner', namespace: 'default', body: { data: { v: '2' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'default' });
    await cluster.settle(); // the garbage collector deletes the dependent

    const rows = cluster.history.all().map((c) => [c.type, c.kind, c.namespace, c.name, c.before?.data ?? null, c.after?.data ?? null]);
    expect(rows).toEqual([
      ['ADDED', 'ConfigMap', 'default', 'owner', null, { v: '1' }],
      ['ADDED', 'Secret', 'default', 'dep', null, null],
      ['MODIFIED', 'ConfigMap', 'default', 'owner', { v: '1' }, { v: '2' }],
      ['DELETED', 'ConfigMap', 'default', 'owner', { v: '2' }, null],
      ['DELETED', 'Secret', 'default', 'dep', null, null],
    ]);
    const revisions = cluster.history.all().map((c) => c.revision);
    expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
    expect(cluster.history.last({ kind: 'secrets', type: 'DELETED' })!.before!.metadata!.name).toBe('dep');
    expect(cluster.history.all({ kind: 'ConfigMap', type: 'MODIFIED' })).toHaveLength(1);
    expect(cluster.history.all((c) => c.name === 'dep')).toHaveLength(2);
  });

  it('hands out copies, is bounded, and clears', async () => {
    await using cluster = await createFakeCluster({ history: { limit: 2 } });
    for (const name of ['a', 'b', 'c']) await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
    expect(cluster.history.all().map((c) => c.name)).toEqual(['b', 'c']);
    cluster.history.all()[0]!.after!.metadata!.name = 'changed';
    expect(cluster.history.all()[0]!.name).toBe('b');
    expect(cluster.history.all()[0]!.after!.metadata!.name).toBe('b');
    cluster.history.clear();
    expect(cluster.history.length).toBe(0);
  });

  it('starts after the cluster is ready: the boot namespaces are not in it', async () => {
    await using cluster = await createFakeCluster();
    expect(cluster.history.all()).toEqual([]);
  });
});
