// The HTTP side of /openapi (src/http/openapi-response.ts), kept beside the documents it serves.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOpenAPI, openapiResponse } from './openapi-response.ts';
import type { ApiCatalog } from '../apis/catalog.ts';
import { cronTabType, testCatalog } from '../apis/openapi/test-fixtures.ts';

const BASE = 'http://kubefake.test';
beforeAll(loadOpenAPI);
const get = (catalog: ApiCatalog, url: string, headers: Record<string, string> = {}) => {
  const request = new Request(BASE + url, { headers });
  return openapiResponse(request, new URL(request.url).pathname, catalog)!;
};
const indexOf = async (catalog: ApiCatalog) => ((await get(catalog, '/openapi/v3?timeout=32s').json()) as { paths: Record<string, { serverRelativeURL: string }> }).paths;

describe('GET /openapi/v3', () => {
  it('indexes every group version and the discovery documents, each with a hash URL', async () => {
    const catalog = testCatalog(cronTabType());
    const res = get(catalog, '/openapi/v3', { accept: 'application/json, */*' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache, private');
    expect(res.headers.get('etag')).toBeNull();
    const paths = ((await res.json()) as { paths: Record<string, { serverRelativeURL: string }> }).paths;
    // Every group of the generated built-in catalogue (kube-apiserver v1.36's default set), sorted.
    expect(Object.keys(paths)).toEqual([
      'api',
      'api/v1',
      'apis',
      'apis/admissionregistration.k8s.io',
      'apis/admissionregistration.k8s.io/v1',
      'apis/apiextensions.k8s.io',
      'apis/apiextensions.k8s.io/v1',
      'apis/apiregistration.k8s.io',
      'apis/apiregistration.k8s.io/v1',
      'apis/apps',
      'apis/apps/v1',
      'apis/authentication.k8s.io',
      'apis/authentication.k8s.io/v1',
      'apis/authorization.k8s.io',
      'apis/authorization.k8s.io/v1',
      'apis/autoscaling',
      'apis/autoscaling/v1',
      'apis/autoscaling/v2',
      'apis/batch',
      'apis/batch/v1',
      'apis/certificates.k8s.io',
      'apis/certificates.k8s.io/v1',
      'apis/coordination.k8s.io',
      'apis/coordination.k8s.io/v1',
      'apis/discovery.k8s.io',
      'apis/discovery.k8s.io/v1',
      'apis/events.k8s.io',
      'apis/events.k8s.io/v1',
      'apis/flowcontrol.apiserver.k8s.io',
      'apis/flowcontrol.apiserver.k8s.io/v1',
      'apis/networking.k8s.io',
      'apis/networking.k8s.io/v1',
      'apis/node.k8s.io',
      'apis/node.k8s.io/v1',
      'apis/policy',
      'apis/policy/v1',
      'apis/rbac.authorization.k8s.io',
      'apis/rbac.authorization.k8s.io/v1',
      'apis/resource.k8s.io',
      'apis/resource.k8s.io/v1',
      'apis/scheduling.k8s.io',
      'apis/scheduling.k8s.io/v1',
      'apis/stable.example.com/v1',
      'apis/storage.k8s.io',
      'apis/storage.k8s.io/v1',
      'version',
    ]);
    for (const [key, { serverRelativeURL }] of Object.entries(paths)) expect(serverRelativeURL).toMatch(new RegExp(`^/openapi/v3/${key.replace(/\./g, '\\.')}\\?hash=[0-9A-F]{128}$`));
  });

  it('hashes each document as the upper-case hex SHA-512 of its body', async () => {
    const catalog = testCatalog();
    const url = (await indexOf(catalog))['api/v1']!.serverRelativeURL;
    const res = get(catalog, `${url}&timeout=32s`, { accept: 'application/json' });
    const body = await res.text();
    const hash = createHash('sha512').update(body).digest('hex').toUpperCase();
    expect(url).toBe(`/openapi/v3/api/v1?hash=${hash}`);
    expect(res.headers.get('etag')).toBe(`"${hash}"`);
  });

  it('is undefined outside /openapi/v2 and /openapi/v3', () => {
    const catalog = testCatalog();
    for (const path of ['/openapi', '/openapi/v2/', '/openapi/v3x', '/openapi/v1']) expect(openapiResponse(new Request(BASE + path), path, catalog)).toBeUndefined();
  });
});

describe('GET /openapi/v3/<gv>', () => {
  it('serves the current document with a matching hash as immutable for a year', async () => {
    const catalog = testCatalog();
    const url = (await indexOf(catalog))['apis/apps/v1']!.serverRelativeURL;
    const res = get(catalog, url, { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('cache-control')).toBe('public, immutable');
    expect(res.headers.get('vary')).toBe('Accept');
    const expires = Date.parse(res.headers.get('expires')!.replace(/UTC$/, 'GMT'));
    expect(expires - Date.now()).toBeGreaterThan(364 * 86_400_000);
    expect(res.headers.get('expires')).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} UTC$/);
    expect(((await res.json()) as { openapi: string }).openapi).toBe('3.0.0');
  });

  it('serves it uncached without a hash', () => {
    const res = get(testCatalog(), '/openapi/v3/api/v1');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache, private');
    expect(res.headers.get('expires')).toBeNull();
    expect(res.headers.get('etag')).toMatch(/^"[0-9A-F]{128}"$/);
  });

  it('redirects a stale hash to the current URL', async () => {
    const catalog = testCatalog();
    const current = (await indexOf(catalog))['api/v1']!.serverRelativeURL;
    const res = get(catalog, '/openapi/v3/api/v1?hash=0123ABCD&timeout=32s');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(current);
    expect(await res.text()).toBe('');
  });

  it('answers If-None-Match with the current ETag by 304', () => {
    const catalog = testCatalog();
    const etag = get(catalog, '/openapi/v3/api/v1').headers.get('etag')!;
    const res = get(catalog, '/openapi/v3/api/v1', { 'if-none-match': etag });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(etag);
    expect(res.headers.get('content-type')).toBeNull();
    expect(get(catalog, '/openapi/v3/api/v1', { 'if-none-match': '"other"' }).status).toBe(200);
  });

  it('is a bare 404 for a group version that is not served', async () => {
    const res = get(testCatalog(), '/openapi/v3/apis/stable.example.com/v1');
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
    expect(get(testCatalog(), '/openapi/v3/').status).toBe(404);
  });

  it('is 406 when only protobuf is acceptable, JSON when JSON is acceptable at all', () => {
    const catalog = testCatalog();
    expect(get(catalog, '/openapi/v3/api/v1', { accept: 'application/com.github.proto-openapi.spec.v3.v1.0+protobuf' }).status).toBe(406);
    expect(get(catalog, '/openapi/v3/api/v1', { accept: 'text/html' }).status).toBe(406);
    const both = get(catalog, '/openapi/v3/api/v1', { accept: 'application/com.github.proto-openapi.spec.v3.v1.0+protobuf, application/json;q=0.5' });
    expect(both.status).toBe(200);
    expect(both.headers.get('content-type')).toBe('application/json');
    expect(get(catalog, '/openapi/v3/api/v1', { accept: 'application/*' }).status).toBe(200);
  });

  it('follows the catalog as custom resources come and go', async () => {
    const catalog = testCatalog();
    expect((await indexOf(catalog))['apis/stable.example.com/v1']).toBeUndefined();
    const v1 = cronTabType();
    catalog.add(v1);
    const first = (await indexOf(catalog))['apis/stable.example.com/v1']!.serverRelativeURL;
    const doc = (await get(catalog, first).json()) as { components: { schemas: Record<string, unknown> } };
    expect(doc.components.schemas['com.example.stable.v1.CronTab']).toBeDefined();
    // Same content again: same hash, so clients keep their cached copy.
    expect((await indexOf(catalog))['apis/stable.example.com/v1']!.serverRelativeURL).toBe(first);

    catalog.remove('stable.example.com', 'v1', 'crontabs');
    catalog.add(cronTabType({ schema: { type: 'object', properties: { spec: { type: 'object' } } } }));
    const second = (await indexOf(catalog))['apis/stable.example.com/v1']!.serverRelativeURL;
    expect(second).not.toBe(first);
    expect(get(catalog, first).status).toBe(301);

    catalog.remove('stable.example.com', 'v1', 'crontabs');
    expect((await indexOf(catalog))['apis/stable.example.com/v1']).toBeUndefined();
    expect(get(catalog, second).status).toBe(404);
  });
});

describe('GET /openapi/v2', () => {
  it('serves swagger 2.0 JSON with definitions and kubectl-readable patch operations', async () => {
    const res = get(testCatalog(cronTabType()), '/openapi/v2?timeout=32s', { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('etag')).toMatch(/^"[0-9A-F]{128}"$/);
    const swagger = (await res.json()) as {
      swagger: string;
      paths: Record<string, Record<string, { consumes?: string[]; parameters?: { name: string; in: string; schema?: unknown }[] }>>;
      definitions: Record<string, { properties?: Record<string, unknown> }>;
    };
    expect(swagger.swagger).toBe('2.0');
    const patch = swagger.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}']!.patch!;
    expect(patch.consumes).toEqual(['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
    expect(patch.parameters![0]).toEqual({ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' } });
    expect(patch.parameters!.map((p) => p.name)).toContain('fieldValidation');
    expect(swagger.definitions['io.k8s.api.core.v1.ConfigMap']!.properties!.metadata).toEqual({
      $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      default: {},
      description: expect.any(String),
    });
    expect(JSON.stringify(swagger)).not.toContain('#/components/schemas/');
    for (const ref of JSON.stringify(swagger).matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)) expect(swagger.definitions[ref[1]!], ref[1]).toBeDefined();
  });

  it('answers the protobuf Accept kubectl sends with the gnostic Document, under the JSON ETag', async () => {
    const catalog = testCatalog();
    const json = get(catalog, '/openapi/v2');
    const res = get(catalog, '/openapi/v2?timeout=32s', { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    expect(res.headers.get('etag')).toBe(json.headers.get('etag'));
    expect(res.headers.get('vary')).toBe('Accept');
    const bytes = new Uint8Array(await res.arrayBuffer());
    // Document.swagger (field 1, length-delimited): "2.0"
    expect([...bytes.subarray(0, 5)]).toEqual([0x0a, 3, 0x32, 0x2e, 0x30]);
    const again = get(catalog, '/openapi/v2', { accept: 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf', 'if-none-match': res.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('takes the first acceptable clause in q order, and is 406 when none is', () => {
    const catalog = testCatalog();
    const preferJson = get(catalog, '/openapi/v2', { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf;q=0.5, application/json' });
    expect(preferJson.headers.get('content-type')).toBe('application/json');
    expect(get(catalog, '/openapi/v2', { accept: 'text/html' }).status).toBe(406);
  });
});
