// Property-based hardening (fast-check): random and malformed requests through cluster.handle()
// and the node:http listener. Whatever comes in, every request is answered within a bounded time,
// with a Status for an error (or the real server's plain text where it sends one), the process
// survives, the store stays readable, and every watcher sees every committed write, in order.
// `npm test` runs a small budget; `npm run fuzz` (KUBEFAKE_FUZZ_RUNS) a larger one.
import http from 'node:http';
import * as k8s from '@kubernetes/client-node';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterInternals } from '../src/cluster/internals.ts';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

const RUNS = Number(process.env.KUBEFAKE_FUZZ_RUNS ?? 60);
/** How long one request may take to be answered (headers and a complete error body). */
const ANSWER_MS = 5_000;
const NS = 'fz';
const GROUP = 'fuzz.example.com';

let cluster: FakeCluster;
let listenerUrl: string;

const thingsCrd = (pattern: string, rule: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `things.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'things', singular: 'thing', kind: 'Thing' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                'x-kubernetes-preserve-unknown-fields': true,
                properties: { s: { type: 'string', maxLength: 64, pattern }, n: { type: 'integer' } },
                'x-kubernetes-validations': [{ rule }],
              },
            },
          },
        },
      },
    ],
  },
});

// ---- What the server is sent ------------------------------------------------------------------

const segment = fc.oneof(
  fc.constantFrom('api', 'apis', 'v1', GROUP, 'namespaces', NS, 'default', 'configmaps', 'things', 'pods', 'secrets', 'status', 'scale', 'watch', 'c1', 'x'),
  fc.constantFrom('', '.', '..', '%2e%2e', '%2E', '~', 'a b', '%00', '\u00e9', '%2F', ';', '*', '\\'),
  // Malformed percent-encoding: a lone `%`, a bad hex digit, bytes that are not UTF-8.
  fc.constantFrom('%', '%Z', '%ZZ', '%FF', '%C3', '%e9', '%%', 'a%2', '%C0%AF'),
  fc.string({ maxLength: 12 }),
);
const path = fc.oneof(
  fc.constantFrom(`/api/v1/namespaces/${NS}/configmaps`, `/apis/${GROUP}/v1/namespaces/${NS}/things`),
  fc.constantFrom(`/api/v1/namespaces/${NS}/configmaps/c1`, `/apis/${GROUP}/v1/namespaces/${NS}/things/t1`).map((p) => p),
  fc.array(segment, { maxLength: 8 }).map((s) => '/' + s.join('/')),
  // Paths that are no WHATWG URL of the listener's host: `GET //`, `GET /\`, `GET //host/x`.
  fc.constantFrom('//', '/\\', '//evil.example/api/v1/namespaces', '/\\evil.example', '///api'),
);
const selector = fc.oneof(
  fc.constantFrom('a=b', 'a!=b', 'a in (b,c)', 'a notin (b)', '!a', 'a', 'metadata.name=c1', 'metadata.namespace!=x', 'a=', '=b', 'a in (', ',,', 'a==b=c'),
  fc.string({ maxLength: 20 }),
);
const queryValue = fc.oneof(fc.constantFrom('true', 'false', 'maybe', '0', '1', '-5', '10', '999999999999', '99999999999999999999', '18446744073709551616', '', 'All', 'Strict', 'Warn', 'Ignore', 'Orphan', 'Foreground', 'NotOlderThan', 'Exact'), fc.string({ maxLength: 10 }), selector);
const query = fc.array(
  fc.oneof(
    fc.tuple(fc.constant('watch'), fc.oneof(fc.constantFrom('true', 'false', '1', '0', 't', 'F', 'TRUE', 'maybe', '', 'yes', '2', '%FF'), fc.string({ maxLength: 6 }))),
    fc.tuple(
    fc.constantFrom('resourceVersion', 'resourceVersionMatch', 'labelSelector', 'fieldSelector', 'limit', 'continue', 'timeoutSeconds', 'fieldManager', 'dryRun', 'fieldValidation', 'propagationPolicy', 'gracePeriodSeconds', 'sendInitialEvents', 'allowWatchBookmarks', 'force', 'pretty', 'orphanDependents', 'includeObject'),
    queryValue,
    ),
  ),
  { maxLength: 4 },
);
const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
  'application/merge-patch+json',
  'application/json-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  ';;;',
  'text/plain',
  'application/json; charset=utf-8',
);
const accept = fc.constantFrom(
  undefined,
  'application/json',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
  'application/json;as=Table;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
  '*/*',
  'text/html',
  ';;',
);
const configMapLike = fc.record(
  {
    apiVersion: fc.constantFrom('v1', 'fuzz.example.com/v1', 'bad/x/y', ''),
    kind: fc.constantFrom('ConfigMap', 'Thing', 'Status', ''),
    metadata: fc.record({ name: fc.oneof(fc.constantFrom('c1', 't1', 'toString', 'constructor', '__proto__', '..'), fc.string({ maxLength: 10 })), labels: fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }) }, { requiredKeys: [] }),
    data: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 4 }),
    spec: fc.jsonValue({ maxDepth: 3 }),
  },
  { requiredKeys: [] },
);
const yamlText = fc.oneof(
  fc.constantFrom(
    'a: &a [x, y]\nb: [*a, *a]\n',
    'metadata: &m {name: y}\ndata: {<<: *m}\n',
    'data: {x: !!binary aGk=}\nmetadata: {name: bin}\n',
    'data: {x: !!binary "%%%"}\n',
    'a: *undefined\n',
    'a: &a [*a]\n',
    '--- \n---\n',
    'key: [unclosed',
    '? complex\n: value\n',
    'data:\n  x: 2001-12-14\n  y: 0o17\n  z: 1_000\n',
    // An alias bomb (9^6 expanded), and one through merge keys.
    ['a: &a [x,x,x,x,x,x,x,x,x]', ...'bcdef'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill('*' + 'abcde'[i]).join(',')}]`)].join('\n'),
    ['m0: &m0 {a: 1, b: 2, c: 3, d: 4}', ...[1, 2, 3, 4, 5, 6].map((i) => `m${i}: &m${i} {<<: [${Array(6).fill(`*m${i - 1}`).join(',')}], x: *m${i - 1}}`)].join('\n'),
    '[' .repeat(1200) + ']'.repeat(1200),
  ),
  fc.string({ maxLength: 60 }),
);
const jsonPatch = fc.array(
  fc.record({
    op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'),
    path: fc.oneof(fc.constantFrom('/data/a', '/metadata/labels/x', '/spec', '/-', '', '/data/~1x', '/data/~2'), fc.string({ maxLength: 10 })),
    from: fc.constantFrom('/data', '/metadata', '/nope'),
    value: fc.jsonValue({ maxDepth: 2 }),
  }, { requiredKeys: ['op'] }),
  { maxLength: 4 },
);
const body = fc.oneof(
  configMapLike.map((o) => JSON.stringify(o)),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  jsonPatch.map((p) => JSON.stringify(p)),
  fc.constantFrom(1_001, 3_000, 10_001).map((levels) => `{"metadata":{"name":"deep"},"spec":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`),
  yamlText,
  fc.string({ maxLength: 40 }),
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), Buffer.from(b)])),
  fc.constant(undefined),
);
const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'PROPFIND');
/** A Host header for the listener: undefined sends its own; others are bad or foreign ones. */
const host = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 4 },
  { arbitrary: fc.constantFrom('127.0.0.1:99999', '', '[', '[::1', 'a"b', 'attacker.example', 'localhost', '127.0.0.1:0', ':80', '\u00e9', 'a b'), weight: 1 },
);
const malformed = fc.record({ method, path, query, contentType, accept, body, host });
// Well-formed writes among them, so that writes commit and the watchers have events to miss.
const name = fc.constantFrom('c1', 'c2', 't1', 't2');
const write = fc.oneof(
  fc.record({
    method: fc.constant('POST'),
    path: fc.constantFrom(`/api/v1/namespaces/${NS}/configmaps`),
    query: fc.constant([] as Array<[string, string]>),
    contentType: fc.constantFrom('application/json', 'application/yaml'),
    accept: fc.constant(undefined),
    host: fc.constant(undefined),
    body: fc.tuple(name, fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 })).map(([n, data]) => JSON.stringify({ metadata: { name: n }, data })),
  }),
  fc.record({
    method: fc.constant('POST'),
    path: fc.constant(`/apis/${GROUP}/v1/namespaces/${NS}/things`),
    query: fc.constant([] as Array<[string, string]>),
    contentType: fc.constant('application/json'),
    accept: fc.constant(undefined),
    host: fc.constant(undefined),
    body: fc.tuple(name, fc.jsonValue({ maxDepth: 3 })).map(([n, x]) => JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'Thing', metadata: { name: n }, spec: { s: 'abc', x } })),
  }),
  fc.record({
    method: fc.constantFrom('PATCH', 'DELETE'),
    path: name.map((n) => `/api/v1/namespaces/${NS}/configmaps/${n}`),
    query: fc.constant([['fieldManager', 'fuzz']] as Array<[string, string]>),
    contentType: fc.constantFrom('application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'),
    accept: fc.constant(undefined),
    host: fc.constant(undefined),
    body: fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null)), { maxKeys: 3 }).map((data) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', data })),
  }),
);
const request = fc.oneof({ arbitrary: malformed, weight: 3 }, { arbitrary: write, weight: 1 });
type Fuzzed = { method: string; path: string; query: Array<[string, string]>; contentType: string | undefined; accept: string | undefined; body: string | Uint8Array | undefined; host: string | undefined };

// ---- What must hold of every answer -----------------------------------------------------------

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not answered within ${ANSWER_MS} ms: ${what}`)), ANSWER_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function urlOf(base: string, r: Fuzzed): string {
  const qs = r.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${base}${r.path}${qs ? '?' + qs : ''}`;
}

/** Checks one answer: a Status for every error (or a known plain-text one); a stream may stay open. */
async function checkAnswer(status: number, headers: { get(name: string): string | null }, read: () => Promise<string | undefined>, what: string): Promise<void> {
  expect(status, what).toBeGreaterThanOrEqual(200);
  expect(status, what).toBeLessThan(600);
  const text = await read();
  // No request here reaches what makes the real server answer 500 (webhooks, etcd), except
  // PartialObjectMetadataList asked of one custom resource (meta.EachListItem on an Unstructured):
  // any other 500 is a crash caught.
  if (status === 500) expect(text, what).toContain('content is not a list');
  if (status < 400 || text === undefined) return;
  if (what.includes(' HEAD ') || what.startsWith('HEAD ')) return; // a HEAD answer has no body on the wire
  const type = headers.get('content-type') ?? '';
  if (type.startsWith('text/plain')) {
    // The real server's plain-text answers: http.NotFound for paths outside every API group, and
    // net/http's own 400 for a request line or Host it cannot parse (an invalid escape).
    if (status === 404) expect(text, what).toBe('404 page not found\n');
    else {
      expect(status, what).toBe(400);
      expect(text, what).toMatch(/^400 Bad Request(: [A-Za-z ]+)?$/);
    }
    return;
  }
  if (type === 'application/yaml') {
    expect(text, what).toMatch(/^kind: Status\napiVersion: v1\n/);
    expect(text, what).toContain(`code: ${status}`);
    return;
  }
  if (type === 'application/vnd.kubernetes.protobuf') return; // a Status in protobuf
  expect(type, what).toBe('application/json');
  const parsed = JSON.parse(text) as Record<string, unknown>;
  expect(parsed, what).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: status });
}

/** Reads a body for a short while: a watch stream is cancelled once it proved it was answered. */
async function readBriefly(stream: ReadableStream<Uint8Array> | null): Promise<string | undefined> {
  if (!stream) return '';
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  const deadline = Date.now() + 300;
  for (;;) {
    const next = await Promise.race([reader.read(), new Promise<'slow'>((r) => setTimeout(() => r('slow'), Math.max(0, deadline - Date.now())))]);
    if (next === 'slow') {
      await reader.cancel();
      return undefined; // a stream (a watch): answered, still open
    }
    if (next.done) break;
    chunks.push(next.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function viaHandle(r: Fuzzed): Promise<void> {
  const what = `${r.method} ${urlOf('', r)} ct=${r.contentType} accept=${r.accept}`;
  let req: Request;
  try {
    const headers = new Headers();
    if (r.contentType !== undefined) headers.set('content-type', r.contentType);
    if (r.accept !== undefined) headers.set('accept', r.accept);
    const hasBody = r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD';
    req = new Request(urlOf(cluster.url, r), { method: r.method, headers, body: hasBody ? (r.body as BodyInit) : undefined });
  } catch {
    return; // not a request a client could send (the Request constructor refused it)
  }
  const res = await withTimeout(cluster.handle(req), what);
  await checkAnswer(res.status, res.headers, () => withTimeout(readBriefly(res.body), what), what);
}

async function viaListener(r: Fuzzed): Promise<void> {
  const url = new URL(listenerUrl);
  // Percent-encoded outside printable ASCII, as clients send a request line.
  const rawPath = urlOf('', r).replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
  const what = `listener ${r.method} ${rawPath} ct=${r.contentType} accept=${r.accept} host=${JSON.stringify(r.host)}`;
  const headers: Record<string, string> = {};
  if (r.host !== undefined) headers.host = r.host;
  if (r.contentType !== undefined) headers['content-type'] = r.contentType;
  if (r.accept !== undefined) headers.accept = r.accept;
  const hasBody = r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD';
  // Framed, as any client frames a body (node:http sends an OPTIONS or DELETE body unframed otherwise).
  if (hasBody) headers['content-length'] = String(Buffer.byteLength(r.body!));
  let req: http.ClientRequest;
  // The body comes from the response, or for CONNECT (node:http hands any answer to it over as a
  // tunnel: the 'connect' event) from what followed the head on the socket.
  const answered = new Promise<{ res: http.IncomingMessage; body: NodeJS.ReadableStream; head: Buffer } | undefined>((resolve, reject) => {
    try {
      req = http.request({ host: url.hostname, port: url.port, method: r.method, path: rawPath, headers }, (res) => resolve({ res, body: res, head: Buffer.alloc(0) }));
    } catch {
      resolve(undefined); // a path or header node:http itself refuses to send
      return;
    }
    req.on('connect', (res: http.IncomingMessage, socket: import('node:net').Socket, head: Buffer) => resolve({ res, body: socket, head }));
    req.on('error', reject);
    if (hasBody) req.write(r.body);
    req.end();
  });
  const answer = await withTimeout(answered, what);
  if (!answer) return;
  const { res, body: source, head } = answer;
  const read = () =>
    new Promise<string | undefined>((resolve) => {
      const chunks: Buffer[] = [head];
      const destroy = () => (source as unknown as { destroy(): void }).destroy();
      const slow = setTimeout(() => {
        destroy();
        resolve(undefined);
      }, 300);
      source.on('data', (c: Buffer) => chunks.push(c));
      source.on('end', () => {
        clearTimeout(slow);
        destroy();
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
      source.on('error', () => {
        clearTimeout(slow);
        resolve(undefined);
      });
    });
  await checkAnswer(res.statusCode ?? 0, { get: (n) => (res.headers[n] as string | undefined) ?? null }, () => withTimeout(read(), what), what);
}

// ---- Every committed write reaches every watcher --------------------------------------------

interface Recorder {
  bucket: string;
  events: Array<{ type: string; rv: string }>;
  stop(): Promise<void>;
}

async function record(resourcePath: string, bucket: string): Promise<Recorder> {
  const res = await cluster.handle(new Request(`${cluster.url}${resourcePath}?watch=true&resourceVersion=${clusterInternals(cluster).store.revision}`));
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const events: Recorder['events'] = [];
  let buffered = '';
  const done = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffered += new TextDecoder().decode(value);
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffered.slice(0, nl)) as { type: string; object: { metadata?: { resourceVersion?: string } } };
        buffered = buffered.slice(nl + 1);
        events.push({ type: line.type, rv: line.object.metadata?.resourceVersion ?? '' });
      }
    }
  })();
  return {
    bucket,
    events,
    async stop() {
      await reader.cancel();
      await done;
    },
  };
}

function expectEveryCommitSeen(recorder: Recorder, fromRevision: number): void {
  const committed = clusterInternals(cluster)
    .store.eventsSince(fromRevision, recorder.bucket)
    .map((e) => ({ type: e.type, rv: String(e.revision) }));
  expect(recorder.events.filter((e) => e.type !== 'BOOKMARK')).toEqual(committed);
}

beforeAll(async () => {
  cluster = await createFakeCluster();
  listenerUrl = (await cluster.listen()).url;
  await cluster.apply([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }, thingsCrd('^[a-z]*$', 'true')]);
});
afterAll(() => cluster.close());

describe('random and malformed requests', () => {
  it('through cluster.handle(): each answered in time, with a Status for an error; the store stays readable; watchers miss nothing', { timeout: 600_000 }, async () => {
    const from = clusterInternals(cluster).store.revision;
    const recorders = [await record(`/api/v1/namespaces/${NS}/configmaps`, '/configmaps'), await record(`/apis/${GROUP}/v1/namespaces/${NS}/things`, `${GROUP}/things`)];
    await fc.assert(fc.asyncProperty(request, viaHandle), { numRuns: RUNS });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await core.listNamespacedConfigMap({ namespace: NS });
    await core.listConfigMapForAllNamespaces();
    await cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi).listClusterCustomObject({ group: GROUP, version: 'v1', plural: 'things' });
    await new Promise((r) => setTimeout(r, 50));
    for (const r of recorders) {
      await r.stop();
      expectEveryCommitSeen(r, from);
    }
    // Not vacuous: writes were committed and seen.
    expect(recorders[0]!.events.length + recorders[1]!.events.length).toBeGreaterThan(0);
  });

  it('through the listener: each answered in time, with a Status for an error', { timeout: 600_000 }, async () => {
    await fc.assert(fc.asyncProperty(request, viaListener), { numRuns: Math.ceil(RUNS / 2) });
    const res = await fetch(`${listenerUrl}/api/v1/namespaces/${NS}/configmaps`);
    expect(res.status).toBe(200);
  });

  it('CRD schemas with random regex patterns and CEL rules, and objects against them: answered in time', { timeout: 600_000 }, async () => {
    const patternChar = fc.constantFrom('a', 'b', '(', ')', '*', '+', '?', '|', '[', ']', '{', '}', '\\', '.', '^', '$', '1', ',', '-', 'd', 'w', 'p', 'L', '<', '>');
    const pattern = fc.oneof(fc.constantFrom('(a+)+$', '(a|a)*b', '^(\\d+)*$', '(?<x>a)', '\\p{L}+', '[', 'a{1,1000}{1,1000}'), fc.array(patternChar, { maxLength: 24 }).map((c) => c.join('')));
    const celToken = fc.constantFrom('self', '.s', '.n', 'size(', ')', ' && ', ' || ', ' == ', ' < ', '"a"', '1', '0', '.matches(', "'(a+)+$'", '.all(x, ', 'x', ' + ', ' * ', '[', ']', 'has(', '!', '?', ' : ', '.map(y, ', 'y', 'string(', 'int(', 'duration(', '"1h"', 'oldSelf', 'true', '.exists(', 'self.s.split(', '"", ', '-1', '.size()');
    const rule = fc.oneof(fc.constantFrom('self.s.size() < 10', 'self.s.matches("^(a+)+$")', "[1,2,3].all(x, [1,2,3].all(y, [1,2,3].all(z, x*y*z > 0)))", 'self.n / 0 == 1', 'has(self.s) ? self.s.startsWith("a") : true', '!'.repeat(5000) + 'true', Array(3000).fill('1').join(' + ') + ' > 0', Array(3000).fill('true').join(' || '), '('.repeat(3000) + 'true' + ')'.repeat(3000), 'self' + '.s'.repeat(400) + ' == 1'), fc.array(celToken, { minLength: 1, maxLength: 12 }).map((t) => t.join('')));
    const objectSpec = fc.record({ s: fc.oneof(fc.string({ maxLength: 40 }), fc.constant('a'.repeat(40) + '!')), n: fc.oneof(fc.integer(), fc.constant(0)) }, { requiredKeys: [] });
    const crds = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/things.${GROUP}`;
    await fc.assert(
      fc.asyncProperty(pattern, rule, objectSpec, async (p, r, spec) => {
        const current = (await (await cluster.handle(new Request(`${cluster.url}${crds}`))).json()) as { metadata: { resourceVersion: string } };
        const crd = { ...thingsCrd(p, r), metadata: { name: `things.${GROUP}`, resourceVersion: current.metadata.resourceVersion } };
        const put = await withTimeout(cluster.handle(new Request(`${cluster.url}${crds}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(crd) })), `PUT CRD ${p} ${r}`);
        await checkAnswer(put.status, put.headers, () => put.text(), `PUT CRD pattern=${p} rule=${r}`);
        const post = await withTimeout(
          cluster.handle(new Request(`${cluster.url}/apis/${GROUP}/v1/namespaces/${NS}/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'Thing', metadata: { generateName: 't-' }, spec }) })),
          `POST Thing ${JSON.stringify(spec)} against ${p} / ${r}`,
        );
        await checkAnswer(post.status, post.headers, () => post.text(), `POST Thing against pattern=${p} rule=${r}`);
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });
});
