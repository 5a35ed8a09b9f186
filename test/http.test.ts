// Wire-level behaviour: negotiation, body limits and decoding, unknown paths, discovery.
// Raw fetch is used only where client-node cannot express the request (it goes through the same transport).
import { createHash } from 'node:crypto';
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterEach(() => cluster.close());

const raw = (path: string, init?: RequestInit) => fetch(cluster.url + path, init);

describe('content negotiation', () => {
  it('answers YAML when asked, and JSON for */*', async () => {
    const yamlRes = await raw('/api/v1/namespaces/default', { headers: { accept: 'application/yaml' } });
    expect(yamlRes.headers.get('content-type')).toBe('application/yaml');
    expect(await yamlRes.text()).toMatch(/^apiVersion: v1\nkind: Namespace\n|kind: Namespace/m);
    const anyRes = await raw('/api/v1/namespaces/default', { headers: { accept: '*/*' } });
    expect(anyRes.headers.get('content-type')).toBe('application/json');
    expect((await anyRes.json()).metadata.name).toBe('default');
  });

  it('takes JSON from a list that also offers protobuf (kubectl describe)', async () => {
    const res = await raw('/api/v1/namespaces/default/events', { headers: { accept: 'application/vnd.kubernetes.protobuf,application/json' } });
    expect(res.status).toBe(200);
    expect((await res.json()).kind).toBe('EventList');
  });

  it('answers 406 for a media type it does not serve', async () => {
    const res = await raw('/api/v1/namespaces', { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    expect(res.status).toBe(406);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'only the following media types are accepted: application/json, application/yaml',
      reason: 'NotAcceptable',
      code: 406,
    });
  });

  it('accepts YAML request bodies and a missing Content-Type as JSON', async () => {
    const res = await raw('/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  k: v\n',
    });
    expect(res.status).toBe(201);
    const stored = await core.readNamespacedConfigMap({ name: 'from-yaml', namespace: 'default' });
    expect(stored.data).toEqual({ k: 'v' });
    // A byte body makes fetch send no Content-Type at all (kubectl scale does the same).
    const bytes = new TextEncoder().encode(JSON.stringify({ metadata: { name: 'from-yaml' }, data: { k: 'w' } }));
    const put = await raw('/api/v1/namespaces/default/configmaps/from-yaml', { method: 'PUT', body: bytes });
    expect(put.status).toBe(200);
    expect((await core.readNamespacedConfigMap({ name: 'from-yaml', namespace: 'default' })).data).toEqual({ k: 'w' });
  });

  it('answers 415 for a body in a format it cannot read', async () => {
    const res = await raw('/api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(res.status).toBe(415);
    expect((await res.json()).message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    );
  });
});

describe('deletecollection', () => {
  // client-node types this answer as V1Status and drops `items`, so the body is read raw.
  it('answers the matched list as it was before deletion', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'k1', labels: { tier: 'a' } } } });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'k2', labels: { tier: 'b' } } } });
    const res = await raw('/api/v1/namespaces/default/configmaps?labelSelector=tier%3Da', { method: 'DELETE' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.kind).toBe('ConfigMapList');
    expect(body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['k1']);
    expect(body.items[0].metadata.resourceVersion).toBeTruthy();
  });
});

describe('bodies', () => {
  it('answers 413 for a body over 3 MiB', async () => {
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'big' }, data: { k: 'x'.repeat(3 * 1024 * 1024) } } }), {
      code: 413,
      reason: 'RequestEntityTooLarge',
      message: 'Request entity too large: limit is 3145728',
    });
  });

  it('answers 400 with the decoder text for malformed JSON', async () => {
    const res = await raw('/api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"metadata": {"name": "x",}}' });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.reason).toBe('BadRequest');
    expect(body.message).toBe(
      'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: invalid character \'}\' looking for beginning of object key string ({"metadata": {"name": "x",}})',
    );
  });
});

describe('paths', () => {
  it('answers plain-text 404 outside every served group', async () => {
    const res = await raw('/apis/nope.example.com/v1/things');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('404 page not found\n');
  });

  it('answers a NotFound Status for an unknown resource of a served group version', async () => {
    const res = await raw('/api/v1/widgets');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server could not find the requested resource',
      reason: 'NotFound',
      details: {},
      code: 404,
    });
  });

  it('answers 405 for a method with no route', async () => {
    const res = await raw('/api/v1/namespaces/default/configmaps/x', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(405);
    expect((await res.json()).reason).toBe('MethodNotAllowed');
  });
});

describe('discovery', () => {
  it('serves the legacy documents client-node reads', async () => {
    const core1 = await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).getAPIResources();
    const cm = core1.resources.find((r) => r.name === 'configmaps');
    expect(cm).toMatchObject({ name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap', shortNames: ['cm'] });
    expect(cm?.verbs).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    const groups = await cluster.kubeConfig.makeApiClient(k8s.ApisApi).getAPIVersions();
    expect(groups.groups.map((g) => g.name)).toEqual(
      expect.arrayContaining(['apps', 'batch', 'coordination.k8s.io', 'rbac.authorization.k8s.io', 'events.k8s.io', 'apiextensions.k8s.io']),
    );
    const apps = await cluster.kubeConfig.makeApiClient(k8s.AppsV1Api).getAPIResources();
    const names = apps.resources.map((r) => r.name);
    expect(names.indexOf('deployments')).toBeLessThan(names.indexOf('deployments/status'));
  });

  it('lets KubernetesObjectApi resolve kinds through discovery', async () => {
    const client = k8s.KubernetesObjectApi.makeApiClient(cluster.kubeConfig);
    const created = await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ko', namespace: 'default' }, data: { a: 'b' } } as k8s.KubernetesObject);
    expect(created.metadata?.uid).toBeTruthy();
    const read = await client.read({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ko', namespace: 'default' } });
    expect((read as k8s.V1ConfigMap).data).toEqual({ a: 'b' });
    const crb = await client.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' }, rules: [] } as k8s.KubernetesObject);
    expect(crb.metadata?.name).toBe('reader');
  });

  it('serves aggregated discovery with its exact content type, an ETag and 304', async () => {
    const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
    const res = await raw('/apis', { headers: { accept } });
    expect(res.headers.get('content-type')).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    const etag = res.headers.get('etag');
    // aggregated/etag.go: %X of the SHA-512 of json.Marshal(document), which is the body without
    // the serializer's trailing newline.
    expect(etag).toMatch(/^"[0-9A-F]{128}"$/);
    expect(res.headers.get('cache-control')).toBe('public');
    const text = await res.text();
    expect(text.endsWith('}\n')).toBe(true);
    expect(etag).toBe(`"${createHash('sha512').update(text.slice(0, -1)).digest('hex').toUpperCase()}"`);
    const body = JSON.parse(text);
    const apps = body.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'apps');
    const deployments = apps.versions[0].resources.find((r: { resource: string }) => r.resource === 'deployments');
    // A built-in answers its own group version's kind with group and version empty (aggregated_v2.json).
    expect(deployments).toMatchObject({ responseKind: { group: '', version: '', kind: 'Deployment' }, scope: 'Namespaced', singularResource: 'deployment' });
    expect(deployments.subresources).toEqual([
      { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
      { subresource: 'status', responseKind: { group: '', version: '', kind: 'Deployment' }, verbs: ['get', 'patch', 'update'] },
    ]);
    const again = await raw('/apis', { headers: { accept, 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    const coreDoc = await (await raw('/api', { headers: { accept } })).json();
    expect(coreDoc.items).toHaveLength(1);
    expect(coreDoc.items[0].metadata).toEqual({});
  });
});

describe('GET with resourceVersion (not exposed by client-node read calls)', () => {
  it('serves the current object for 0 and for an RV already reached, and 400 for a malformed one', async () => {
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'rv' } } });
    for (const rv of ['0', created.metadata!.resourceVersion!]) {
      const res = await raw(`/api/v1/namespaces/default/configmaps/rv?resourceVersion=${rv}`);
      expect(res.status).toBe(200);
      expect((await res.json()).metadata.uid).toBe(created.metadata?.uid);
    }
    const bad = await raw('/api/v1/namespaces/default/configmaps/rv?resourceVersion=abc');
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax');
  });
});

describe('JSON bytes as the Go encoder writes them', () => {
  it('escapes <, > and & (and U+2028/2029) in strings and ends the body with a newline', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'html' }, data: { tag: '<a href="x">&amp;</a>', ls: '\u2028\u2029' } } });
    const text = await (await raw('/api/v1/namespaces/default/configmaps/html')).text();
    expect(text).toContain('"tag":"\\u003ca href=\\"x\\"\\u003e\\u0026amp;\\u003c/a\\u003e"');
    expect(text).toContain('"ls":"\\u2028\\u2029"');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.indexOf('\n')).toBe(text.length - 1);
  });

  it('writes a Status error the same way', async () => {
    const res = await raw('/api/v1/namespaces/default/configmaps/%3Cnone%3E');
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).toContain('configmaps \\"\\u003cnone\\u003e\\" not found');
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('escapes inside watch events too, one event per line', async () => {
    const ac = new AbortController();
    const res = await raw('/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=metadata.name%3Dwatched', { signal: ac.signal });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'watched' }, data: { k: 'a<b' } } });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('\n')) text += new TextDecoder().decode((await reader.read()).value);
    ac.abort();
    expect(text).toMatch(/^\{"type":"ADDED","object":\{.*"k":"a\\u003cb".*\}\}\n$/);
  });
});
