// Issue 19, the request path in-process: the defects of hardening-listener.test.ts through
// cluster.handle() and client-node over cluster.kubeConfig. Every request resolves to an answer
// (never a rejected promise), with the Status (or net/http's plain text) the real server sends.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { InProcessDispatcher } from '../src/transport/in-process-dispatcher.ts';
import { expectStatus } from './support/status.ts';

const statusOf = async (response: Response) => {
  expect(response.headers.get('content-type')).toBe('application/json');
  return (await response.json()) as { kind: string; code: number; reason?: string; message?: string };
};

describe('in-process requests: every request is answered', () => {
  let cluster: FakeCluster;
  let core: k8s.CoreV1Api;
  const send = (method: string, path: string, init: RequestInit = {}) => cluster.handle(new Request(cluster.url + path, { method, ...init }));

  beforeAll(async () => {
    cluster = await createFakeCluster();
    core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'victim' } });
  });
  afterAll(() => cluster.close());

  it('refuses names that are dot segments once decoded (..%2F, %2e%2e%2f), which WHATWG parsing leaves in the path', async () => {
    for (const segment of ['..%2F', '%2e%2e%2f', '%2E%2E%2F']) {
      const response = await send('DELETE', `/api/v1/namespaces/victim/configmaps/${segment}`);
      expect(response.status, segment).toBe(400);
      expect(await statusOf(response)).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: `Name parameter invalid: "..": may not be '..'` });
    }
    const percent = await send('GET', '/api/v1/namespaces/victim/configmaps/a%25b');
    expect((await statusOf(percent)).message).toBe(`Name parameter invalid: "a%b": may not contain '%'`);
    // Through client-node too: the name is escaped into one path segment the server decodes.
    await expectStatus(core.readNamespacedConfigMap({ namespace: 'victim', name: '../' }), { code: 400, reason: 'BadRequest', message: `Name parameter invalid: "..": may not be '..'` });
    await expectStatus(core.deleteNamespace({ name: '%2e%2e' }), { code: 400, reason: 'BadRequest', message: `Name parameter invalid: "%2e%2e": may not contain '%'` });
    expect(cluster.get({ kind: 'Namespace', name: 'victim' })?.status).toEqual({ phase: 'Active' });
  });

  it('sees the request-target undici sends over the in-process dispatcher, so a literal `..` never addresses another object', async () => {
    // undici's own request() sends a path as given (fetch would have resolved the dot segments first).
    const dispatcher = new InProcessDispatcher(cluster.url, (request) => cluster.handle(request));
    try {
      for (const path of ['/api/v1/namespaces/victim/configmaps/..', '/api/v1/namespaces/victim/configmaps/%2e%2e']) {
        const answer = await dispatcher.request({ origin: cluster.url, path, method: 'DELETE' });
        expect(answer.statusCode, path).toBe(400);
        expect(((await answer.body.json()) as { message: string }).message, path).toBe(`Name parameter invalid: "..": may not be '..'`);
      }
    } finally {
      await dispatcher.close();
    }
    expect(cluster.get({ kind: 'Namespace', name: 'victim' })?.status).toEqual({ phase: 'Active' });
  });

  it('answers an invalid escape with net/http’s plain 400 instead of rejecting, and logs the request', async () => {
    cluster.requests.clear();
    const response = await send('GET', '/api/v1/namespaces/default/configmaps/%ZZ');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('400 Bad Request');
    expect(cluster.requests.all().map((r) => [r.verb, r.path, r.status])).toEqual([['get', '/api/v1/namespaces/default/configmaps/%ZZ', 400]]);
    // %FF is valid to Go's net/url: a name that is not there.
    const ff = await send('GET', '/api/v1/namespaces/default/configmaps/%FF');
    expect(ff.status).toBe(404);
    expect((await statusOf(ff)).reason).toBe('NotFound');
  });

  it('decodes query values as the parameter codec: strconv errors are 400s, booleans are lenient', async () => {
    await expectStatus(core.listNamespacedConfigMap({ namespace: 'default', limit: Number.NaN }), { code: 400, reason: 'BadRequest', message: 'strconv.ParseInt: parsing "NaN": invalid syntax' });
    const limit = await send('GET', '/api/v1/namespaces/default/configmaps?limit=abc');
    expect(await statusOf(limit)).toMatchObject({ code: 400, reason: 'BadRequest', message: 'strconv.ParseInt: parsing "abc": invalid syntax' });
    const timeout = await send('GET', '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1.5');
    expect((await statusOf(timeout)).message).toBe('strconv.ParseInt: parsing "1.5": invalid syntax');
    const grace = await send('DELETE', '/api/v1/namespaces/default/configmaps/absent?gracePeriodSeconds=-9223372036854775809');
    expect((await statusOf(grace)).message).toBe('strconv.ParseInt: parsing "-9223372036854775809": value out of range');
    // Convert_Slice_string_To_bool: only 0 and false are false.
    const list = await send('GET', '/api/v1/namespaces/default/configmaps?watch=FALSE');
    expect((await list.json()).kind).toBe('ConfigMapList');
  });

  it('ends a watch with a negative timeoutSeconds as it starts; watch=maybe is a watch', async () => {
    // Secrets: default holds none (its ConfigMaps include kube-root-ca.crt, sent as ADDED first).
    const response = await send('GET', '/api/v1/namespaces/default/secrets?watch=maybe&timeoutSeconds=-5');
    expect(response.status).toBe(200);
    // The stream ends by itself: text() resolves (a watch left open would time the test out).
    expect(await response.text()).toBe('');
    const watch = await send('GET', '/api/v1/namespaces/default/secrets?watch=maybe&timeoutSeconds=1');
    const reader = watch.body!.getReader();
    await cluster.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'seen', namespace: 'default' } });
    let text = '';
    while (!text.includes('\n')) text += new TextDecoder().decode((await reader.read()).value);
    expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'seen' } } });
    await reader.cancel();
  });

  it('answers an unparsable Content-Type with 415 and reads a missing one as JSON', async () => {
    const body = '{"metadata":{"name":"typed"}}';
    for (const contentType of [';;;', 'application/json;;', 'application/json; charset', '/json', 'application/json; a=1; a=2']) {
      const response = await send('POST', '/api/v1/namespaces/default/configmaps', { headers: { 'content-type': contentType }, body });
      expect(response.status, contentType).toBe(415);
      expect((await statusOf(response)).reason).toBe('UnsupportedMediaType');
    }
    for (const contentType of [';;;', 'application/merge-patch+json;;']) {
      const patch = await send('PATCH', '/api/v1/namespaces/default/configmaps/typed', { headers: { 'content-type': contentType }, body: '{}' });
      expect(patch.status, contentType).toBe(415);
    }
    expect(cluster.get({ kind: 'ConfigMap', namespace: 'default', name: 'typed' })).toBeUndefined();
    // A trailing semicolon and parameters are fine; no Content-Type at all is the first served type, JSON.
    expect((await send('POST', '/api/v1/namespaces/default/configmaps', { headers: { 'content-type': 'Application/JSON; charset="utf-8";' }, body })).status).toBe(201);
    const untyped = await send('POST', '/api/v1/namespaces/default/configmaps', { body: new Blob(['{"metadata":{"name":"untyped"}}']) });
    expect(untyped.status).toBe(201);
  });

  it('keeps ConfigMap keys named like Object.prototype members through create, label selectors and every patch type', async () => {
    const keys = { toString: 'a', constructor: 'b', hasOwnProperty: 'c', valueOf: 'd' };
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'proto', labels: { constructor: 'x' } }, data: keys } });
    expect(created.data).toEqual(keys);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'unlabelled' } } });
    const labelled = await core.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'constructor' });
    expect(labelled.items.map((c) => c.metadata?.name)).toEqual(['proto']);
    const unlabelled = await core.listNamespacedConfigMap({ namespace: 'default', labelSelector: '!toString' });
    expect(unlabelled.items.map((c) => c.metadata?.name)).toContain('unlabelled');

    // `__proto__` needs raw JSON: an object literal cannot hold it as an own key.
    const dataOf = async (response: Response) => Object.entries(((await response.json()) as { data: object }).data);
    const patch = (type: string, body: string, query = '') =>
      send('PATCH', `/api/v1/namespaces/default/configmaps/unlabelled${query}`, { headers: { 'content-type': `application/${type}` }, body });
    expect(await dataOf(await patch('merge-patch+json', '{"data":{"__proto__":"m","constructor":"m"}}'))).toEqual([
      ['__proto__', 'm'],
      ['constructor', 'm'],
    ]);
    expect(await dataOf(await patch('strategic-merge-patch+json', '{"data":{"__proto__":"s","toString":"s"}}'))).toEqual([
      ['__proto__', 's'],
      ['constructor', 'm'],
      ['toString', 's'],
    ]);
    expect(await dataOf(await patch('json-patch+json', '[{"op":"remove","path":"/data/__proto__"},{"op":"add","path":"/data/valueOf","value":"j"}]'))).toEqual([
      ['constructor', 'm'],
      ['toString', 's'],
      ['valueOf', 'j'],
    ]);
    const applied = await send('PATCH', '/api/v1/namespaces/default/configmaps/applied?fieldManager=test', {
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"applied"},"data":{"__proto__":"p","constructor":"c"}}',
    });
    expect(applied.status).toBe(201);
    expect(await dataOf(applied)).toEqual([
      ['__proto__', 'p'],
      ['constructor', 'c'],
    ]);
    const withBinary = await send('POST', '/api/v1/namespaces/default/configmaps', {
      headers: { 'content-type': 'application/json' },
      body: '{"metadata":{"name":"binary"},"data":{"toString":"t"},"binaryData":{"constructor":"Yg=="}}',
    });
    expect(withBinary.status).toBe(201);
  });
});
