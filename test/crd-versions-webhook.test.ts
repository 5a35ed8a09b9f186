// Webhook conversion through the real client, with the versions page's example: v1beta1 stores
// `hostPort: "localhost:1234"`, v1 serves `host: "localhost", port: "1234"`, and a conversion
// webhook (a service reference, answered in-process by cluster.serveWebhook) splits and joins them.
import * as k8s from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster, type KubeObject, type WebhookHandler } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let custom: k8s.CustomObjectsApi;
beforeEach(async () => {
  cluster = await createFakeCluster();
  custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
});
afterEach(() => cluster.close());

const G = 'example.com';
const SERVICE = { namespace: 'default', name: 'example-conversion-webhook-server', path: '/crdconvert' };
const SERVICE_URL = 'https://example-conversion-webhook-server.default.svc:443/crdconvert?timeout=30s';
type Obj = KubeObject & Record<string, unknown>;

/** The page's CRD with webhook conversion; `clientConfig` and review versions can be swapped. */
function webhookCrd(clientConfig: Record<string, unknown> = { service: SERVICE }, conversionReviewVersions = ['v1', 'v1beta1']) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `crontabs.${G}` },
    spec: {
      group: G,
      versions: [
        { name: 'v1beta1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { hostPort: { type: 'string' } } } } },
        { name: 'v1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', properties: { host: { type: 'string' }, port: { type: 'string' } } } } },
      ],
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions, clientConfig } },
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
    },
  };
}

/** The example converter: v1beta1 hostPort <-> v1 host and port. */
function convertCronTab(obj: Obj, desiredAPIVersion: string): Obj {
  const { hostPort, host, port, ...rest } = obj;
  if (desiredAPIVersion === `${G}/v1`) {
    const [h, p] = String(hostPort ?? '').split(':');
    return { ...rest, apiVersion: desiredAPIVersion, host: h, port: p };
  }
  return { ...rest, apiVersion: desiredAPIVersion, hostPort: `${host}:${port}` };
}

interface Review {
  apiVersion: string;
  kind: string;
  request: { uid: string; desiredAPIVersion: string; objects: Obj[] };
}

/** A well-behaved webhook, recording every review it gets; `tweak` may spoil the response. */
function converter(tweak: (response: Record<string, unknown>, review: Review) => void = () => undefined) {
  const reviews: Review[] = [];
  const requests: Request[] = [];
  const handler: WebhookHandler = (review: Review, request: Request) => {
    reviews.push(review);
    requests.push(request);
    const response: Record<string, unknown> = {
      uid: review.request.uid,
      result: { status: 'Success' },
      convertedObjects: review.request.objects.map((o) => convertCronTab(o, review.request.desiredAPIVersion)),
    };
    tweak(response, review);
    return { apiVersion: review.apiVersion, kind: 'ConversionReview', response };
  };
  return { handler, reviews, requests };
}

const at = (version: string) => ({ group: G, version, namespace: 'default', plural: 'crontabs' });
const beta = (name: string, hostPort: string) => ({ apiVersion: `${G}/v1beta1`, kind: 'CronTab', metadata: { name }, hostPort });
const v1 = (name: string, host: string, port: string) => ({ apiVersion: `${G}/v1`, kind: 'CronTab', metadata: { name }, host, port });
const stored = (name: string) => cluster.history.last({ kind: `crontabs.${G}`, name })?.after as Obj | undefined;

/** Installs the CRD and one object stored at v1beta1 while the webhook answers normally. */
async function withStoredObject(hook = converter()) {
  cluster.serveWebhook(SERVICE, hook.handler);
  await cluster.apply(webhookCrd());
  await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: beta('local-crontab', 'localhost:1234') });
  hook.reviews.length = 0;
  return hook;
}

describe('conversion through the webhook', () => {
  it('converts a stored v1beta1 object for a v1 read with a v1 ConversionReview (the page example)', async () => {
    const hook = await withStoredObject();
    const read = (await custom.getNamespacedCustomObject({ ...at('v1'), name: 'local-crontab' })) as Obj;
    expect(read).toMatchObject({ apiVersion: `${G}/v1`, kind: 'CronTab', host: 'localhost', port: '1234' });
    expect(read).not.toHaveProperty('hostPort');
    expect(hook.reviews).toHaveLength(1);
    const [review] = hook.reviews;
    expect(review).toMatchObject({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { desiredAPIVersion: `${G}/v1` } });
    expect(review!.request.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(review!.request.objects).toEqual([expect.objectContaining({ apiVersion: `${G}/v1beta1`, kind: 'CronTab', hostPort: 'localhost:1234', metadata: expect.objectContaining({ name: 'local-crontab', namespace: 'default' }) })]);
    const request = hook.requests.at(-1)!;
    expect(request.method).toBe('POST');
    // The apiserver posts to …svc:443/…; a WHATWG Request drops the default port from its url.
    expect(request.url).toBe(SERVICE_URL.replace(':443', ''));
    expect(request.headers.get('content-type')).toBe('application/json');
  });

  it('does not call the webhook for a read at the version the object is stored at', async () => {
    const hook = await withStoredObject();
    expect(await custom.getNamespacedCustomObject({ ...at('v1beta1'), name: 'local-crontab' })).toMatchObject({ hostPort: 'localhost:1234' });
    expect(hook.reviews).toHaveLength(0);
  });

  it('stores a v1 write at v1beta1 and answers it at v1: one call each way', async () => {
    const hook = await withStoredObject();
    const created = (await custom.createNamespacedCustomObject({ ...at('v1'), body: v1('remote-crontab', 'example.com', '2345') })) as Obj;
    expect(created).toMatchObject({ apiVersion: `${G}/v1`, host: 'example.com', port: '2345' });
    expect(stored('remote-crontab')).toMatchObject({ apiVersion: `${G}/v1beta1`, hostPort: 'example.com:2345' });
    expect(stored('remote-crontab')).not.toHaveProperty('host');
    expect(hook.reviews.map((r) => r.request.desiredAPIVersion)).toEqual([`${G}/v1beta1`, `${G}/v1`]);
  });

  it('updates at v1 against the stored object converted to v1', async () => {
    await withStoredObject();
    const current = (await custom.getNamespacedCustomObject({ ...at('v1'), name: 'local-crontab' })) as Obj;
    const updated = (await custom.replaceNamespacedCustomObject({ ...at('v1'), name: 'local-crontab', body: { ...current, port: '4321' } })) as Obj;
    expect(updated).toMatchObject({ apiVersion: `${G}/v1`, host: 'localhost', port: '4321', metadata: { generation: 2 } });
    expect(stored('local-crontab')).toMatchObject({ apiVersion: `${G}/v1beta1`, hostPort: 'localhost:4321' });
    // A stale resourceVersion is still the optimistic-lock 409.
    await expectStatus(custom.replaceNamespacedCustomObject({ ...at('v1'), name: 'local-crontab', body: current }), { code: 409, reason: 'Conflict' });
  });

  it('converts a list in one ConversionReview, keeping the order', async () => {
    const hook = await withStoredObject();
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: beta('b', 'b.example:2') });
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: beta('c', 'c.example:3') });
    hook.reviews.length = 0;
    const list = (await custom.listNamespacedCustomObject({ ...at('v1') })) as { apiVersion: string; items: Obj[] };
    expect(list.apiVersion).toBe(`${G}/v1`);
    expect(list.items.map((o) => [o.metadata?.name, o.apiVersion, o.host, o.port])).toEqual([
      ['b', `${G}/v1`, 'b.example', '2'],
      ['c', `${G}/v1`, 'c.example', '3'],
      ['local-crontab', `${G}/v1`, 'localhost', '1234'],
    ]);
    expect(hook.reviews).toHaveLength(1);
    expect(hook.reviews[0]!.request.objects.map((o) => o.metadata?.name)).toEqual(['b', 'c', 'local-crontab']);
  });

  it('converts watch events one review per event, in order, writes through v1beta1 seen at v1', async () => {
    const hook = await withStoredObject();
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: beta('second', 'second.example:2') });
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: beta('third', 'third.example:3') });
    hook.reviews.length = 0;
    const events: Array<[string, string | undefined, unknown, unknown]> = [];
    const watch = await new k8s.Watch(cluster.kubeConfig).watch(
      `/apis/${G}/v1/namespaces/default/crontabs`,
      {},
      (type, obj: Obj) => events.push([type, obj.metadata?.name, obj.host, obj.port]),
      () => undefined,
    );
    await expect.poll(() => events.length).toBe(3);
    // The initial state is three events: three reviews of one object each, as the watch encoder
    // converts event by event.
    expect(hook.reviews.map((r) => r.request.objects.map((o) => o.metadata?.name))).toEqual([['local-crontab'], ['second'], ['third']]);
    await custom.patchNamespacedCustomObject({ ...at('v1beta1'), name: 'second', body: { hostPort: 'moved.example:3' } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await custom.deleteNamespacedCustomObject({ ...at('v1beta1'), name: 'local-crontab' });
    await expect.poll(() => events.length).toBe(5);
    watch.abort();
    expect(events).toEqual([
      ['ADDED', 'local-crontab', 'localhost', '1234'],
      ['ADDED', 'second', 'second.example', '2'],
      ['ADDED', 'third', 'third.example', '3'],
      ['MODIFIED', 'second', 'moved.example', '3'],
      ['DELETED', 'local-crontab', 'localhost', '1234'],
    ]);
    expect(hook.reviews.map((r) => r.request.objects.length)).toEqual([1, 1, 1, 1, 1]);
  });

  it('sends a v1beta1 ConversionReview when the CRD asks for it first, and skips the uid check for it', async () => {
    const hook = converter((response) => (response.uid = 'not-the-request-uid'));
    cluster.serveWebhook(SERVICE, hook.handler);
    await cluster.apply(webhookCrd({ service: SERVICE }, ['v1beta1', 'v1']));
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: beta('local-crontab', 'localhost:1234') });
    expect(await custom.getNamespacedCustomObject({ ...at('v1'), name: 'local-crontab' })).toMatchObject({ host: 'localhost', port: '1234' });
    expect(hook.reviews.map((r) => r.apiVersion)).toEqual(['apiextensions.k8s.io/v1beta1']);
  });

  it('keeps labels and annotations the webhook sets and ignores its other metadata changes', async () => {
    await withStoredObject(
      converter((response) => {
        for (const o of response.convertedObjects as Obj[]) {
          o.metadata = { ...o.metadata, labels: { converted: 'true' }, annotations: { note: 'by webhook' }, generation: 99, finalizers: ['x/y'] };
        }
      }),
    );
    const read = (await custom.getNamespacedCustomObject({ ...at('v1'), name: 'local-crontab' })) as Obj;
    expect(read.metadata?.labels).toEqual({ converted: 'true' });
    expect(read.metadata?.annotations).toEqual({ note: 'by webhook' });
    expect(read.metadata?.generation).toBe(1);
    expect(read.metadata?.finalizers).toBeUndefined();
  });

  it('reaches a webhook registered under its URL', async () => {
    const hook = converter();
    cluster.serveWebhook('https://my-webhook.example.com:9443/my-webhook-path', hook.handler);
    await cluster.apply(webhookCrd({ url: 'https://my-webhook.example.com:9443/my-webhook-path' }));
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: beta('local-crontab', 'localhost:1234') });
    expect(await custom.getNamespacedCustomObject({ ...at('v1'), name: 'local-crontab' })).toMatchObject({ host: 'localhost', port: '1234' });
    expect(hook.requests.at(-1)!.url).toBe('https://my-webhook.example.com:9443/my-webhook-path?timeout=30s');
  });

  it('stops answering once the handler is unregistered', async () => {
    const hook = converter();
    const unregister = cluster.serveWebhook(SERVICE, hook.handler);
    await cluster.apply(webhookCrd());
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: beta('local-crontab', 'localhost:1234') });
    unregister();
    await expectStatus(custom.getNamespacedCustomObject({ ...at('v1'), name: 'local-crontab' }), {
      code: 500,
      message: `conversion webhook for ${G}/v1beta1, Kind=CronTab failed: Post "${SERVICE_URL}": services "example-conversion-webhook-server" not found`,
    });
  });
});

describe('webhook failures', () => {
  const GVK = `${G}/v1beta1, Kind=CronTab`;
  const failsWith = async (hook: ReturnType<typeof converter>, message: string) => {
    await withStoredObject(hook);
    await expectStatus(custom.getNamespacedCustomObject({ ...at('v1'), name: 'local-crontab' }), { code: 500, message });
  };

  it('refuses a response whose uid is not the request uid', async () => {
    const hook = converter((response) => (response.uid = 'wrong'));
    await withStoredObject(hook);
    const status = await expectStatus(custom.getNamespacedCustomObject({ ...at('v1'), name: 'local-crontab' }), { code: 500 });
    expect(status.reason).toBeUndefined();
    expect(status.message).toBe(`conversion webhook for ${GVK} failed: expected response.uid="${hook.reviews.at(-1)!.request.uid}", got "wrong"`);
  });

  it('surfaces a Failed result with its message, or the status when there is none', async () => {
    await failsWith(converter((response) => (response.result = { status: 'Failed', message: 'cannot convert hostPort' })), `conversion webhook for ${GVK} failed: cannot convert hostPort`);
  });

  it('reports a Failed result without a message', async () => {
    await failsWith(converter((response) => (response.result = { status: 'Failed' })), `conversion webhook for ${GVK} failed: response.result.status was 'Failed', not 'Success'`);
  });

  it('refuses a wrong number of converted objects', async () => {
    await failsWith(converter((response) => (response.convertedObjects = [])), `conversion webhook for ${GVK} returned 0 objects, expected 1`);
  });

  it('refuses an object not at the desired apiVersion', async () => {
    await failsWith(
      converter((response) => ((response.convertedObjects as Obj[])[0]!.apiVersion = `${G}/v1beta1`)),
      `conversion webhook for ${GVK} returned invalid object at index 0: invalid groupVersion (expected ${G}/v1, received ${G}/v1beta1)`,
    );
  });

  it('refuses a changed name, namespace or uid', async () => {
    await failsWith(
      converter((response) => ((response.convertedObjects as Obj[])[0]!.metadata!.name = 'renamed')),
      `conversion webhook for ${GVK} returned invalid object: must have the same name: local-crontab != renamed`,
    );
  });

  it('refuses invalid labels', async () => {
    await failsWith(
      converter((response) => ((response.convertedObjects as Obj[])[0]!.metadata!.labels = { 'bad key!': 'x' })),
      `conversion webhook for ${GVK} returned invalid metadata: metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
  });

  it('uses the list texts for a batch: the index of the bad object', async () => {
    const hook = converter((response, review) => {
      if (review.request.objects.length > 1) (response.convertedObjects as Obj[])[1]!.kind = 'Other';
    });
    await withStoredObject(hook);
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: beta('second', 'b:2') });
    await expectStatus(custom.listNamespacedCustomObject({ ...at('v1') }), {
      code: 500,
      message: `conversion webhook for ${GVK} returned invalid converted object at index 1: invalid kind (expected CronTab, received Other)`,
    });
  });

  it('answers a webhook that throws as a failing server', async () => {
    const hook = converter();
    await withStoredObject(hook);
    cluster.serveWebhook(SERVICE, () => {
      throw new Error('boom');
    });
    await expectStatus(custom.getNamespacedCustomObject({ ...at('v1'), name: 'local-crontab' }), {
      code: 500,
      message: `conversion webhook for ${GVK} failed: an error on the server ("boom") has prevented the request from succeeding`,
    });
  });

  it('reads a non-200 answer as the client does: a Status body wins, else the generic text', async () => {
    await withStoredObject();
    cluster.serveWebhook(SERVICE, () => new Response('unavailable', { status: 503, headers: { 'content-type': 'text/plain' } }));
    await expectStatus(custom.getNamespacedCustomObject({ ...at('v1'), name: 'local-crontab' }), {
      code: 500,
      message: `conversion webhook for ${GVK} failed: the server is currently unable to handle the request`,
    });
    cluster.serveWebhook(SERVICE, () => Response.json({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'webhook says no', code: 400 }, { status: 400 }));
    await expectStatus(custom.getNamespacedCustomObject({ ...at('v1'), name: 'local-crontab' }), { code: 500, message: `conversion webhook for ${GVK} failed: webhook says no` });
  });

  it('fails a write whose conversion fails, storing nothing', async () => {
    await withStoredObject();
    cluster.serveWebhook(SERVICE, converter((response) => (response.result = { status: 'Failed', message: 'no' })).handler);
    await expectStatus(custom.createNamespacedCustomObject({ ...at('v1'), body: v1('new', 'h', '1') }), { code: 500, message: `conversion webhook for ${G}/v1, Kind=CronTab failed: no` });
    expect(cluster.history.last({ kind: `crontabs.${G}`, name: 'new' })).toBeUndefined();
  });

  it('ends a watch whose event cannot be converted, without an event', async () => {
    await withStoredObject();
    const events: Array<[string, unknown]> = [];
    let done!: (err: unknown) => void;
    const ended = new Promise((r) => (done = r));
    const list = (await custom.listNamespacedCustomObject({ ...at('v1') })) as { metadata: { resourceVersion: string } };
    const path = `/apis/${G}/v1/namespaces/default/crontabs`;
    await new k8s.Watch(cluster.kubeConfig).watch(path, { resourceVersion: list.metadata.resourceVersion }, (type, obj: Obj) => events.push([type, obj.message ?? obj.metadata?.name]), done);
    cluster.serveWebhook(SERVICE, converter((response) => (response.result = { status: 'Failed', message: 'broken' })).handler);
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: beta('late', 'l:1') });
    await ended;
    // watch.go: an encode (conversion) error ends the stream; no ERROR event is written.
    expect(events).toEqual([]);
  });

  it('uses the list texts for a LIST of exactly one item', async () => {
    await withStoredObject(converter((response) => ((response.convertedObjects as Obj[])[0]!.kind = 'Other')));
    await expectStatus(custom.listNamespacedCustomObject({ ...at('v1') }), {
      code: 500,
      message: `conversion webhook for ${GVK} returned invalid converted object at index 0: invalid kind (expected CronTab, received Other)`,
    });
    // A get of the same object is a single object: the single-object texts.
    await expectStatus(custom.getNamespacedCustomObject({ ...at('v1'), name: 'local-crontab' }), {
      code: 500,
      message: `conversion webhook for ${GVK} returned invalid object at index 0: invalid kind (expected CronTab, received Other)`,
    });
  });

  it('times out a webhook that does not answer', async () => {
    await cluster.close();
    cluster = await createFakeCluster({ webhooks: { timeoutMs: 50 } });
    custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    await withStoredObject();
    cluster.serveWebhook(SERVICE, () => new Promise(() => undefined));
    await expectStatus(custom.getNamespacedCustomObject({ ...at('v1'), name: 'local-crontab' }), {
      code: 500,
      message: `conversion webhook for ${GVK} failed: Post "https://example-conversion-webhook-server.default.svc:443/crdconvert?timeout=50ms": context deadline exceeded`,
    });
  });
});

describe('over real HTTPS', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });
  const tls = (file: string) => readFileSync(new URL(`./support/webhook-tls/${file}`, import.meta.url));

  it('posts to a clientConfig.url no handler serves, trusting its caBundle', async () => {
    const reviews: Review[] = [];
    server = createServer({ key: tls('key.pem'), cert: tls('cert.pem') }, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const review = JSON.parse(body) as Review;
        reviews.push(review);
        const convertedObjects = review.request.objects.map((o) => convertCronTab(o, review.request.desiredAPIVersion));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: review.request.uid, result: { status: 'Success' }, convertedObjects } }));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await cluster.apply(webhookCrd({ url: `https://127.0.0.1:${port}/convert`, caBundle: tls('cert.pem').toString('base64') }));
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: beta('local-crontab', 'localhost:1234') });
    expect(await custom.getNamespacedCustomObject({ ...at('v1'), name: 'local-crontab' })).toMatchObject({ host: 'localhost', port: '1234' });
    expect(reviews).toHaveLength(1);
  });

  it('fails as Go does when nothing listens at the URL', async () => {
    // A port that was just free: bind, read it, release.
    server = createServer({ key: tls('key.pem'), cert: tls('cert.pem') });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    await cluster.apply(webhookCrd({ url: `https://127.0.0.1:${port}/convert` }));
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: beta('local-crontab', 'localhost:1234') });
    await expectStatus(custom.getNamespacedCustomObject({ ...at('v1'), name: 'local-crontab' }), {
      code: 500,
      message: `conversion webhook for ${G}/v1beta1, Kind=CronTab failed: Post "https://127.0.0.1:${port}/convert?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    });
  });

  it('refuses a serving certificate the caBundle does not vouch for', async () => {
    server = createServer({ key: tls('key.pem'), cert: tls('cert.pem') }, (_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await cluster.apply(webhookCrd({ url: `https://127.0.0.1:${port}/convert` }));
    await custom.createNamespacedCustomObject({ ...at('v1beta1'), body: beta('local-crontab', 'localhost:1234') });
    await expectStatus(custom.getNamespacedCustomObject({ ...at('v1'), name: 'local-crontab' }), {
      code: 500,
      message: `conversion webhook for ${G}/v1beta1, Kind=CronTab failed: Post "https://127.0.0.1:${port}/convert?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    });
  });
});
