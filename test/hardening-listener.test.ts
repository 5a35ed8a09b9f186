// Issue 19, the request path and the listener: hostile requests sent as raw bytes over the
// listener (what no client library would send) each get the answer kube-apiserver (or Go's
// net/http in front of it) gives, the process survives, and the cluster is unharmed. The same
// defects in-process are in hardening-requests.test.ts.
import * as k8s from '@kubernetes/client-node';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { rawRequest, rawExchange, type RawTarget } from './support/raw-http.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
const statusOf = (body: string) => JSON.parse(body) as { kind: string; code: number; reason?: string; message?: string };

describe('plain http listener: every request is answered', () => {
  let cluster: FakeCluster;
  let target: RawTarget;
  beforeAll(async () => {
    cluster = await createFakeCluster();
    const { url } = await cluster.listen();
    target = { port: Number(new URL(url).port) };
  });
  afterAll(() => cluster.close());

  const alive = async () => expect((await rawRequest(target, 'GET', '/api/v1/namespaces/default')).status).toBe(200);

  it('answers TRACE and CONNECT with go-restful’s 405 Status instead of crashing the process', async () => {
    const trace = await rawRequest(target, 'TRACE', '/api/v1/namespaces');
    expect(trace.status).toBe(405);
    expect(statusOf(trace.body)).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', message: '405: Method Not Allowed', code: 405 });
    const connect = await rawExchange(target, `CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\nHost: 127.0.0.1:${target.port}`);
    expect(connect.status).toBe(405);
    expect(statusOf(connect.body).reason).toBe('MethodNotAllowed');
    await alive();
  });

  it('refuses a Host that does not name the listener (DNS rebinding) with 403, and serves a request without one', async () => {
    for (const host of ['127.0.0.1:99999', '[', 'attacker.example:' + target.port, `127.0.0.1:${target.port + 1}`]) {
      const answer = await rawRequest(target, 'GET', '/api/v1/namespaces', { host });
      expect(answer.status, host).toBe(403);
      expect(statusOf(answer.body)).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
      expect(statusOf(answer.body).message).toContain(`Host ${JSON.stringify(host)} does not name this kubefake listener`);
    }
    // An empty or absent Host is no browser's (Go's net/http accepts an empty one, and none over HTTP/1.0).
    expect((await rawRequest(target, 'GET', '/api/v1/namespaces', { host: '' })).status).toBe(200);
    expect((await rawExchange(target, 'GET /api/v1/namespaces HTTP/1.0')).status).toBe(200);
    // What net/http itself refuses while reading the request, before any handler.
    for (const [head, text] of [
      ['GET /version HTTP/1.1', '400 Bad Request: missing required Host header'],
      [`GET /version HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\nHost: attacker.example`, '400 Bad Request: too many Host headers'],
      ['GET /version HTTP/1.1\r\nHost: a"b', '400 Bad Request: malformed Host header'],
    ]) {
      const answer = await rawExchange(target, head!);
      expect(answer, head).toMatchObject({ status: 400, body: text });
      expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
    for (const host of [`localhost:${target.port}`, `LOCALHOST:${target.port}`, `[::1]:${target.port}`]) {
      expect((await rawRequest(target, 'GET', '/version', { host })).status, host).toBe(200);
    }
    await alive();
  });

  it('refuses cross-origin requests from a browser page', async () => {
    const answer = await rawRequest(target, 'POST', '/api/v1/namespaces/default/configmaps', { origin: 'http://attacker.example', 'content-type': 'text/plain' }, '{"metadata":{"name":"csrf"}}');
    expect(answer.status).toBe(403);
    expect(statusOf(answer.body).message).toBe('forbidden: cross-origin requests (Origin "http://attacker.example") are refused by this kubefake listener');
    expect(cluster.get({ kind: 'ConfigMap', namespace: 'default', name: 'csrf' })).toBeUndefined();
    expect((await rawRequest(target, 'GET', '/version', { origin: `http://127.0.0.1:${target.port}` })).status).toBe(200);
  });

  it('never normalises dot segments: DELETE …/configmaps/%2e%2e is 400 Name parameter invalid and the namespace stays', async () => {
    await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'victim' } });
    for (const [segment, name, why] of [
      ['%2e%2e', '..', "may not be '..'"],
      ['%2E%2e', '..', "may not be '..'"],
      ['..', '..', "may not be '..'"],
      ['.', '.', "may not be '.'"],
      ['%2e', '.', "may not be '.'"],
    ]) {
      const answer = await rawRequest(target, 'DELETE', `/api/v1/namespaces/victim/configmaps/${segment}`);
      expect(answer.status, segment).toBe(400);
      expect(statusOf(answer.body)).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400, message: `Name parameter invalid: "${name}": ${why}` });
    }
    // Cluster-scoped: /api/v1/namespaces/victim/%2e%2e is a subresource no route serves.
    expect((await rawRequest(target, 'DELETE', '/api/v1/namespaces/victim/%2e%2e')).status).toBe(404);
    expect(cluster.get({ kind: 'Namespace', name: 'victim' })?.status).toEqual({ phase: 'Active' });
  });

  it('answers malformed escapes as net/http does and bad query values with the parameter codec’s Status', async () => {
    const invalid = await rawRequest(target, 'GET', '/api/v1/namespaces/default/configmaps/%ZZ');
    expect(invalid).toMatchObject({ status: 400, body: '400 Bad Request' });
    expect(invalid.headers['content-type']).toBe('text/plain; charset=utf-8');
    // %FF is a valid escape to Go: a name that does not exist.
    const ff = await rawRequest(target, 'GET', '/api/v1/namespaces/default/configmaps/%FF');
    expect(ff.status).toBe(404);
    expect(statusOf(ff.body).reason).toBe('NotFound');
    const limit = await rawRequest(target, 'GET', '/api/v1/namespaces/default/configmaps?limit=abc');
    expect(limit.status).toBe(400);
    expect(statusOf(limit.body)).toMatchObject({ reason: 'BadRequest', message: 'strconv.ParseInt: parsing "abc": invalid syntax' });
    const range = await rawRequest(target, 'GET', '/api/v1/namespaces/default/configmaps?limit=99999999999999999999');
    expect(statusOf(range.body).message).toBe('strconv.ParseInt: parsing "99999999999999999999": value out of range');
    // A query pair Go cannot unescape is dropped: this is a plain list.
    const dropped = await rawRequest(target, 'GET', '/api/v1/namespaces/default/configmaps?limit=%ZZ');
    expect(dropped.status).toBe(200);
    expect(JSON.parse(dropped.body).kind).toBe('ConfigMapList');
  });

  it('reads watch=maybe as a watch, as the parameter codec does, and ends a watch with a negative timeoutSeconds at once', async () => {
    // The raw exchange reads until the server closes: it resolves only if the watch ends. Secrets:
    // default holds none (its ConfigMaps include kube-root-ca.crt, which would be sent as ADDED).
    const answer = await rawRequest(target, 'GET', '/api/v1/namespaces/default/secrets?watch=maybe&timeoutSeconds=-5');
    expect(answer.status).toBe(200);
    expect(answer.headers['transfer-encoding']).toBe('chunked');
    expect(answer.body).toBe('');
  });

  it('answers Content-Type ;;; with 415 and decodes a body sent without Content-Type as JSON, as NegotiateInputSerializer', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    const bad = await rawRequest(target, 'POST', path, { 'content-type': ';;;' }, '{"metadata":{"name":"semicolons"}}');
    expect(bad.status).toBe(415);
    expect(statusOf(bad.body)).toMatchObject({
      reason: 'UnsupportedMediaType',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    });
    expect((await rawRequest(target, 'POST', path, { 'content-type': 'application/json;;' }, '{"metadata":{"name":"semicolons"}}')).status).toBe(415);
    expect(cluster.get({ kind: 'ConfigMap', namespace: 'default', name: 'semicolons' })).toBeUndefined();
    const untyped = await rawRequest(target, 'POST', path, {}, '{"metadata":{"name":"untyped"}}');
    expect(untyped.status).toBe(201);
    expect(cluster.get({ kind: 'ConfigMap', namespace: 'default', name: 'untyped' })).toBeDefined();
  });

  it('serves a 20 KiB URL as the real server (1 MiB header limit) and answers 431 beyond it without resetting the connection', async () => {
    const selector = `app in (${Array.from({ length: 2000 }, (_, i) => `value-${i}`).join(',')})`;
    expect(selector.length).toBeGreaterThan(16 * 1024);
    const long = await rawRequest(target, 'GET', `/api/v1/namespaces/default/configmaps?labelSelector=${encodeURIComponent(selector)}`);
    expect(long.status).toBe(200);
    const huge = await rawRequest(target, 'GET', `/api/v1/namespaces?labelSelector=${'a'.repeat(1100 * 1024)}`);
    expect(huge.error).toBeUndefined();
    expect(huge).toMatchObject({ status: 431, body: '431 Request Header Fields Too Large' });
    expect(huge.headers['content-type']).toBe('text/plain; charset=utf-8');
    const garbage = await rawExchange(target, 'NOT A REQUEST');
    expect(garbage).toMatchObject({ status: 400, body: '400 Bad Request' });
    await alive();
  });

  it('refuses to serve plain http on a non-loopback address', async () => {
    await expect(cluster.listen({ host: '0.0.0.0' })).rejects.toThrow('kubefake refuses to serve plain http on 0.0.0.0');
    await expect(cluster.listen({ host: '::' })).rejects.toThrow('kubefake refuses to serve plain http on ::');
  });
});

describe('listen({ tls: true })', () => {
  let cluster: FakeCluster;
  let listened: Awaited<ReturnType<FakeCluster['listen']>>;
  let target: RawTarget;
  beforeAll(async () => {
    cluster = await createFakeCluster();
    listened = await cluster.listen({ tls: true });
    target = { port: Number(new URL(listened.url).port), ca: listened.caCert };
  });
  afterAll(() => cluster.close());

  it('serves HTTPS with the generated CA and the token in the kubeconfig, to client-node', async () => {
    expect(listened.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const kc = new k8s.KubeConfig();
    kc.loadFromString(listened.kubeconfig);
    expect(kc.getCurrentCluster()).toMatchObject({ server: listened.url, skipTLSVerify: false, caData: Buffer.from(listened.caCert!).toString('base64') });
    expect(kc.getCurrentUser()?.token).toBe(listened.token);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'over-tls' } } });
    expect(cluster.get({ kind: 'ConfigMap', namespace: 'default', name: 'over-tls' })).toBeDefined();
  });

  it('answers 401 Unauthorized to a request without the bearer token, or with another', async () => {
    const unauthorized = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };
    for (const authorization of [null, 'Bearer wrong', `Basic ${listened.token}`, `Bearer ${listened.token}x`]) {
      const answer = await rawRequest(target, 'GET', '/api/v1/namespaces', { authorization });
      expect(answer.status, String(authorization)).toBe(401);
      expect(JSON.parse(answer.body)).toEqual(unauthorized);
    }
    // Before authentication nothing is served, not even a write's body is read.
    const write = await rawRequest(target, 'POST', '/api/v1/namespaces/default/configmaps', JSON_TYPE, '{"metadata":{"name":"anonymous"}}');
    expect(write.status).toBe(401);
    expect(cluster.get({ kind: 'ConfigMap', namespace: 'default', name: 'anonymous' })).toBeUndefined();
    // The bearertoken authenticator takes the scheme in any case.
    expect((await rawRequest(target, 'GET', '/version', { authorization: `bearer ${listened.token}` })).status).toBe(200);
  });

  it('accepts any Host once authenticated (the certificate and token stop rebinding), and still answers TRACE and odd hosts', async () => {
    const auth = { authorization: `Bearer ${listened.token}` };
    for (const host of ['127.0.0.1:99999', '', '[']) expect((await rawRequest(target, 'GET', '/api/v1/namespaces', { ...auth, host })).status, host).toBe(200);
    expect((await rawRequest(target, 'TRACE', '/api/v1/namespaces', auth)).status).toBe(405);
    expect((await rawRequest(target, 'DELETE', '/api/v1/namespaces/default/configmaps/%2e%2e', auth)).status).toBe(400);
  });

  it('is refused by a client that does not trust its CA', async () => {
    await expect(fetch(`${listened.url}/version`)).rejects.toThrow();
  });

  it.skipIf(!kubectlAvailable)('serves kubectl with the kubeconfig it writes', async () => {
    const kubectl = kubectlRunner(listened.kubeconfig);
    const created = await kubectl(['create', 'configmap', 'from-kubectl', '--from-literal=constructor=c', '--from-literal=toString=t']);
    expect(created).toMatchObject({ code: 0, stdout: 'configmap/from-kubectl created\n' });
    const got = await kubectl(['get', 'configmap', 'from-kubectl', '-o', 'jsonpath={.data}']);
    expect(JSON.parse(got.stdout)).toEqual({ constructor: 'c', toString: 't' });
    const refused = await kubectl(['get', 'namespaces', '--token', 'not-the-token']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
  });

  it('binds every interface only with TLS, with a certificate for the loopback names', async () => {
    const wide = await createFakeCluster();
    try {
      const { url, caCert, token } = await wide.listen({ host: '0.0.0.0', tls: true });
      // Advertised on loopback, which the certificate names like every local address.
      expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(caCert).toContain('-----BEGIN CERTIFICATE-----');
      const port = Number(new URL(url).port);
      const answer = await rawRequest({ port, ca: caCert }, 'GET', '/version', { authorization: `Bearer ${token}` });
      expect(answer.status).toBe(200);
    } finally {
      await wide.close();
    }
  });
});

describe.skipIf(!kubectlAvailable)('kubectl over the plain listener', () => {
  it('keeps ConfigMap keys named like Object.prototype members', async () => {
    const cluster = await createFakeCluster();
    try {
      const { kubeconfig } = await cluster.listen();
      const dir = mkdtempSync(join(tmpdir(), 'kubefake-proto-'));
      writeFileSync(join(dir, 'cm.json'), '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"proto"},"data":{"__proto__":"p","constructor":"c","hasOwnProperty":"h"}}');
      const kubectl = kubectlRunner(kubeconfig);
      expect((await kubectl(['apply', '--server-side', '-f', join(dir, 'cm.json')])).code).toBe(0);
      expect((await kubectl(['patch', 'configmap', 'proto', '--type', 'merge', '-p', '{"data":{"toString":"t","valueOf":null}}'])).code).toBe(0);
      const got = await kubectl(['get', 'configmap', 'proto', '-o', 'jsonpath={.data}']);
      // Entries, as an object literal cannot hold an own `__proto__` key.
      expect(Object.entries(JSON.parse(got.stdout) as object)).toEqual([
        ['__proto__', 'p'],
        ['constructor', 'c'],
        ['hasOwnProperty', 'h'],
        ['toString', 't'],
      ]);
    } finally {
      await cluster.close();
    }
  });
});
