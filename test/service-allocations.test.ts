// What a Service holds in the ClusterIP and NodePort allocators, through client-node: only what a
// committed write stored, and only until the Service is gone. The Service REST allocates in
// BeginCreate/BeginUpdate and its FinishFunc keeps or hands back the transaction once the store's
// write succeeded or failed (pkg/registry/core/service/storage/storage.go beginCreate/beginUpdate,
// alloc.go); a dry run allocates with the dry-run allocators and keeps nothing (alloc.go allocIPs,
// ipallocator DryRun, portallocator/operation.go), read at the newest kubernetes/kubernetes
// versions the index holds (it has no v1.36 tag).
//
// A leak shows as "provided port/IP is already allocated" when a later Service asks for the
// address a refused or dry-run request had taken; a release that came too early shows as a second
// Service being given an address the first still holds.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { causeLines } from './support/validation.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;

const URL_VALIDATE = 'https://hooks.example.com/validate-services';
const URL_MUTATE = 'https://hooks.example.com/mutate-services';
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Review = { apiVersion: string; kind: string; request: any };
const answer = (review: Review, allowed: boolean) => ({
  apiVersion: review.apiVersion,
  kind: 'AdmissionReview',
  response: { uid: review.request.uid, allowed, ...(allowed ? {} : { status: { code: 403, reason: 'Forbidden', message: 'not today' } }) },
});
const labelled = (review: Review, label: string) => review.request.object?.metadata?.labels?.[label] === 'yes';

beforeAll(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const rules = [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['services'] }];
  const hook = (name: string, url: string) => ({ name, clientConfig: { url }, rules, sideEffects: 'None', admissionReviewVersions: ['v1'] });
  await cluster.apply([
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'deny-services' }, webhooks: [hook('deny.example.com', URL_VALIDATE)] },
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'deny-services-early' }, webhooks: [hook('early.example.com', URL_MUTATE)] },
  ]);
  // Refuses a Service labelled deny=yes (validating: after the strategy allocated) or
  // deny-early=yes (mutating: kubefake runs PrepareForCreate before mutating admission).
  cluster.serveWebhook(URL_VALIDATE, (review: Review) => answer(review, !labelled(review, 'deny')));
  cluster.serveWebhook(URL_MUTATE, (review: Review) => answer(review, !labelled(review, 'deny-early')));
});
afterAll(() => cluster.close());

const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const svc = (name: string, spec: k8s.V1ServiceSpec, labels?: Record<string, string>): k8s.V1Service => ({ metadata: { name, ...(labels ? { labels } : {}) }, spec });
const create = (name: string, spec: k8s.V1ServiceSpec, labels?: Record<string, string>, namespace = 'default') =>
  core.createNamespacedService({ namespace, body: svc(name, spec, labels) });
const dryCreate = (name: string, spec: k8s.V1ServiceSpec) => core.createNamespacedService({ namespace: 'default', body: svc(name, spec), dryRun: 'All' });
const patch = (name: string, body: Record<string, unknown>, dryRun?: string) => core.patchNamespacedService({ name, namespace: 'default', body, dryRun }, merge);
const read = (name: string) => core.readNamespacedService({ name, namespace: 'default' });
const deny = { deny: 'yes' };
const denied = (request: Promise<unknown>) => expectStatus(request, { code: 403, reason: 'Forbidden' });
const nodePort = (port: number, extra: Partial<k8s.V1ServicePort> = {}): k8s.V1ServiceSpec => ({ type: 'NodePort', ports: [{ port: 80, nodePort: port, ...extra }] });
const nodePortsOf = (s: k8s.V1Service) => (s.spec?.ports ?? []).map((p) => p.nodePort);

/** A fresh Service that must get exactly this port (and IP): proof nothing else holds them. */
async function takes(name: string, port: number, clusterIP?: string): Promise<void> {
  const created = await create(name, { ...nodePort(port), ...(clusterIP ? { clusterIP } : {}) });
  expect(nodePortsOf(created)).toEqual([port]);
  if (clusterIP) expect(created.spec?.clusterIP).toBe(clusterIP);
}

/** A fresh Service asking for this port is refused: something still holds it. */
async function portHeld(name: string, port: number): Promise<void> {
  const status = await expectStatus(create(name, nodePort(port)), { code: 422, reason: 'Invalid' });
  expect(causeLines(status)).toEqual([`spec.ports[0].nodePort: Invalid value: ${port}: provided port is already allocated`]);
}

async function ipHeld(name: string, ip: string): Promise<void> {
  const status = await expectStatus(create(name, { clusterIP: ip, ports: [{ port: 80 }] }), { code: 422, reason: 'Invalid' });
  expect(causeLines(status)).toEqual([`spec.clusterIPs: Invalid value: ["${ip}"]: failed to allocate IP ${ip}: provided IP is already allocated`]);
}

const nextIP = (ip: string) => {
  const n = ip.split('.').reduce((acc, p) => acc * 256 + Number(p), 0) + 1;
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
};

describe('dry-run Service writes', () => {
  it('a dry-run create answers the requested addresses and keeps none of them', async () => {
    const spec: k8s.V1ServiceSpec = {
      type: 'LoadBalancer',
      clusterIP: '10.96.70.1',
      externalTrafficPolicy: 'Local',
      healthCheckNodePort: 30702,
      ports: [{ port: 80, nodePort: 30700 }],
    };
    const answered = await dryCreate('dry-lb', spec);
    expect([answered.spec?.clusterIP, nodePortsOf(answered), answered.spec?.healthCheckNodePort]).toEqual(['10.96.70.1', [30700], 30702]);
    await expectStatus(read('dry-lb'), { code: 404 });
    const real = await create('real-lb', spec);
    expect([real.spec?.clusterIP, nodePortsOf(real), real.spec?.healthCheckNodePort]).toEqual(['10.96.70.1', [30700], 30702]);
  });

  it('a dry-run create with addresses to choose answers placeholders, as the dry-run allocators do, and takes none', async () => {
    // The next addresses the counting allocators hand out follow the last ones given.
    const probe = await create('dry-probe', { type: 'NodePort', ports: [{ port: 80 }] });
    const [port] = nodePortsOf(probe) as [number];
    const ip = probe.spec!.clusterIP!;
    const answered = await dryCreate('dry-auto', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] });
    // ipallocator's dry-run AllocateNext answers the range's network address; the port
    // operation's dry-run AllocateNext counts up from 32768 (portallocator/operation.go).
    expect([answered.spec?.clusterIP, answered.spec?.clusterIPs, nodePortsOf(answered), answered.spec?.healthCheckNodePort]).toEqual([
      '10.96.0.0',
      ['10.96.0.0'],
      [32769, 32770],
      32771,
    ]);
    await takes('dry-auto-next', port + 1, nextIP(ip));
  });

  it('a dry-run create still refuses a taken nodePort, and lets a taken clusterIP through as the dry-run IP allocator does', async () => {
    await create('dry-holder', { ...nodePort(30703), clusterIP: '10.96.70.3' });
    const status = await expectStatus(dryCreate('dry-taken-port', nodePort(30703)), { code: 422, reason: 'Invalid' });
    expect(causeLines(status)).toEqual(['spec.ports[0].nodePort: Invalid value: 30703: provided port is already allocated']);
    // The dry-run IP allocator checks the range only (ipallocator.go allocateService with dryRun).
    expect((await dryCreate('dry-taken-ip', { clusterIP: '10.96.70.3', ports: [{ port: 80 }] })).spec?.clusterIP).toBe('10.96.70.3');
    await ipHeld('dry-taken-ip-real', '10.96.70.3');
  });

  it('a dry-run update neither takes new addresses nor frees old ones', async () => {
    await create('dry-upd', nodePort(30705));
    // NodePort -> ClusterIP would release 30705: not in a dry run.
    const toClusterIP = await patch('dry-upd', { spec: { type: 'ClusterIP' } }, 'All');
    expect(toClusterIP.spec?.type).toBe('ClusterIP');
    await portHeld('dry-upd-held', 30705);
    expect(nodePortsOf(await read('dry-upd'))).toEqual([30705]);
    // A new nodePort answered by a dry-run update stays free.
    expect(nodePortsOf(await patch('dry-upd', { spec: { ports: [{ port: 80, nodePort: 30706 }] } }, 'All'))).toEqual([30706]);
    await takes('dry-upd-free', 30706);
    // -> ExternalName would release the clusterIP: not in a dry run.
    const ip = (await read('dry-upd')).spec!.clusterIP!;
    await patch('dry-upd', { spec: { type: 'ExternalName', externalName: 'db.example.com' } }, 'All');
    await ipHeld('dry-upd-ip', ip);
  });
});

describe('Service creates refused after allocation', () => {
  it('hands back what a create refused by a validating webhook had taken', async () => {
    await denied(create('hook-denied', { ...nodePort(30710), clusterIP: '10.96.70.10' }, deny));
    await takes('hook-denied-free', 30710, '10.96.70.10');
  });

  it('hands back the addresses it chose for a refused create', async () => {
    const probe = await create('hook-probe', { type: 'NodePort', ports: [{ port: 80 }] });
    const [port] = nodePortsOf(probe) as [number];
    await denied(create('hook-denied-auto', { type: 'NodePort', ports: [{ port: 80 }] }, deny));
    await takes('hook-denied-auto-free', port + 1, nextIP(probe.spec!.clusterIP!));
  });

  it('hands back what a create refused by mutating admission had taken', async () => {
    await denied(create('early-denied', { ...nodePort(30711), clusterIP: '10.96.70.11' }, { 'deny-early': 'yes' }));
    await takes('early-denied-free', 30711, '10.96.70.11');
  });

  it('hands back what a create refused by quota had taken', async () => {
    await core.createNamespace({ body: { metadata: { name: 'svc-quota' } } });
    await core.createNamespacedResourceQuota({ namespace: 'svc-quota', body: { metadata: { name: 'q' }, spec: { hard: { 'services.nodeports': '0' } } } });
    await cluster.waitFor({ kind: 'ResourceQuota', namespace: 'svc-quota', name: 'q' }, (q) => (q?.status as { hard?: object } | undefined)?.hard !== undefined);
    await denied(create('quota-denied', { ...nodePort(30712), clusterIP: '10.96.70.12' }, undefined, 'svc-quota'));
    await takes('quota-denied-free', 30712, '10.96.70.12');
  });

  it('hands back what a create of an existing name had taken', async () => {
    await create('exists', { ports: [{ port: 80 }] });
    await expectStatus(create('exists', { ...nodePort(30713), clusterIP: '10.96.70.13' }), { code: 409, reason: 'AlreadyExists' });
    await takes('exists-free', 30713, '10.96.70.13');
  });
});

describe('generateName Services', () => {
  const generated = (spec: k8s.V1ServiceSpec, labels?: Record<string, string>) =>
    core.createNamespacedService({ namespace: 'default', body: { metadata: { generateName: 'gen-', ...(labels ? { labels } : {}) }, spec } });

  it('refuses a taken nodePort as a named create does, and keeps nothing', async () => {
    await create('gen-holder', nodePort(30780));
    const status = await expectStatus(generated({ ...nodePort(30780), clusterIP: '10.96.70.80' }), { code: 422, reason: 'Invalid' });
    expect(causeLines(status)).toEqual(['spec.ports[0].nodePort: Invalid value: 30780: provided port is already allocated']);
    await takes('gen-free-ip', 30781, '10.96.70.80');
  });

  it('holds what a stored one took, and hands back what a refused one took', async () => {
    const stored = await generated({ ...nodePort(30782), clusterIP: '10.96.70.82' });
    expect(stored.metadata?.name).toMatch(/^gen-/);
    await portHeld('gen-held', 30782);
    await ipHeld('gen-held-ip', '10.96.70.82');
    await denied(generated({ ...nodePort(30783), clusterIP: '10.96.70.83' }, deny));
    await takes('gen-denied-free', 30783, '10.96.70.83');
  });
});

describe('Service updates', () => {
  it('a refused update hands back the nodePort it took and keeps the old one', async () => {
    await create('upd-port', nodePort(30720));
    await denied(patch('upd-port', { metadata: { labels: deny }, spec: { ports: [{ port: 80, nodePort: 30721 }] } }));
    await takes('upd-port-new-free', 30721);
    await portHeld('upd-port-old-held', 30720);
    // Committed, the change frees the old port.
    expect(nodePortsOf(await patch('upd-port', { spec: { ports: [{ port: 80, nodePort: 30722 }] } }))).toEqual([30722]);
    await takes('upd-port-old-free', 30720);
    await portHeld('upd-port-now-held', 30722);
  });

  it('ClusterIP -> NodePort: a refused change takes no port, a committed one holds it', async () => {
    await create('to-np', { ports: [{ port: 80 }] });
    await denied(patch('to-np', { metadata: { labels: deny }, spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30725 }] } }));
    await takes('to-np-free', 30725);
    await patch('to-np', { spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30726 }] } });
    await portHeld('to-np-held', 30726);
  });

  it('NodePort -> ClusterIP: a refused change keeps the port, a committed one frees it', async () => {
    await create('to-cip', nodePort(30730));
    const toClusterIP = { spec: { type: 'ClusterIP' } };
    await denied(patch('to-cip', { metadata: { labels: deny }, ...toClusterIP }));
    await portHeld('to-cip-held', 30730);
    expect(nodePortsOf(await patch('to-cip', toClusterIP))).toEqual([undefined]);
    await takes('to-cip-free', 30730);
  });

  it('-> ExternalName: a refused change keeps the clusterIP and port, a committed one frees them', async () => {
    await create('to-en', { ...nodePort(30735), clusterIP: '10.96.70.35' });
    const toExternalName = { spec: { type: 'ExternalName', externalName: 'db.example.com' } };
    await denied(patch('to-en', { metadata: { labels: deny }, ...toExternalName }));
    await ipHeld('to-en-ip-held', '10.96.70.35');
    await portHeld('to-en-port-held', 30735);
    const external = await patch('to-en', toExternalName);
    expect([external.spec?.type, external.spec?.clusterIP]).toEqual(['ExternalName', undefined]);
    await takes('to-en-free', 30735, '10.96.70.35');
  });

  it('ExternalName -> ClusterIP: a refused change takes no clusterIP', async () => {
    await create('from-en', { type: 'ExternalName', externalName: 'db.example.com' });
    await denied(patch('from-en', { metadata: { labels: deny }, spec: { type: 'ClusterIP', externalName: null, clusterIP: '10.96.70.40', ports: [{ port: 80 }] } }));
    await takes('from-en-free', 30740, '10.96.70.40');
  });

  it('a health-check nodePort is kept by a refused change and freed by a committed one', async () => {
    await create('hc', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 30745, ports: [{ port: 80, nodePort: 30746 }] });
    await denied(patch('hc', { metadata: { labels: deny }, spec: { externalTrafficPolicy: 'Cluster' } }));
    await portHeld('hc-held', 30745);
    expect((await patch('hc', { spec: { externalTrafficPolicy: 'Cluster' } })).spec?.healthCheckNodePort).toBeUndefined();
    await takes('hc-free', 30745);
  });
});

describe('a requested health-check nodePort that is taken', () => {
  const taken = (port: number) => ({ code: 500, reason: 'InternalError', message: `Internal error occurred: failed to allocate requested HealthCheck NodePort ${port}: provided port is already allocated` });

  it('refuses the create with the allocator error, and the Service that holds the port keeps it', async () => {
    await create('hc-owner', nodePort(30765));
    const lb = (name: string): k8s.V1ServiceSpec => ({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 30765, ports: [{ port: 80, nodePort: 30766 }] });
    await expectStatus(create('hc-thief', lb('hc-thief')), taken(30765));
    await expectStatus(core.createNamespacedService({ namespace: 'default', body: svc('hc-thief-dry', lb('hc-thief-dry')), dryRun: 'All' }), taken(30765));
    await expectStatus(read('hc-thief'), { code: 404 });
    await takes('hc-thief-port-free', 30766);
    await portHeld('hc-owner-held', 30765);
  });

  it('refuses an update to externalTrafficPolicy Local the same way', async () => {
    await create('hc-owner-2', nodePort(30767));
    await create('hc-upd', { type: 'LoadBalancer', ports: [{ port: 80, nodePort: 30768 }] });
    await expectStatus(patch('hc-upd', { spec: { externalTrafficPolicy: 'Local', healthCheckNodePort: 30767 } }), taken(30767));
    expect((await read('hc-upd')).spec?.externalTrafficPolicy).toBe('Cluster');
    await portHeld('hc-owner-2-held', 30767);
  });
});

describe('Service deletion', () => {
  it('frees the addresses of a deleted Service', async () => {
    await create('del', { ...nodePort(30750), clusterIP: '10.96.70.50' });
    await core.deleteNamespacedService({ name: 'del', namespace: 'default' });
    await takes('del-free', 30750, '10.96.70.50');
  });

  it('a dry-run delete frees nothing', async () => {
    await create('del-dry', { ...nodePort(30751), clusterIP: '10.96.70.51' });
    await core.deleteNamespacedService({ name: 'del-dry', namespace: 'default', dryRun: 'All' });
    await portHeld('del-dry-port', 30751);
    await ipHeld('del-dry-ip', '10.96.70.51');
  });

  it('frees the addresses of Services a deletecollection removes', async () => {
    await create('col-a', { ...nodePort(30752), clusterIP: '10.96.70.52' }, { set: 'col' });
    await create('col-b', { ...nodePort(30753), clusterIP: '10.96.70.53' }, { set: 'col' });
    await core.deleteCollectionNamespacedService({ namespace: 'default', labelSelector: 'set=col' });
    await takes('col-a-free', 30752, '10.96.70.52');
    await takes('col-b-free', 30753, '10.96.70.53');
  });

  it('frees the addresses once the last finalizer goes, including ports the finalizing update asked for', async () => {
    await core.createNamespacedService({ namespace: 'default', body: { metadata: { name: 'fin', finalizers: ['example.com/hold'] }, spec: { ...nodePort(30755), clusterIP: '10.96.70.55' } } });
    await core.deleteNamespacedService({ name: 'fin', namespace: 'default' });
    await portHeld('fin-held', 30755);
    await patch('fin', { metadata: { finalizers: null }, spec: { ports: [{ port: 80, nodePort: 30756 }] } });
    await expectStatus(read('fin'), { code: 404 });
    await takes('fin-free', 30755, '10.96.70.55');
    await takes('fin-new-free', 30756);
  });

  it('frees the addresses of the Services of a deleted namespace', async () => {
    await core.createNamespace({ body: { metadata: { name: 'svc-gone' } } });
    await create('in-ns', { ...nodePort(30754), clusterIP: '10.96.70.54' }, undefined, 'svc-gone');
    await core.deleteNamespace({ name: 'svc-gone' });
    await cluster.waitFor({ kind: 'Namespace', name: 'svc-gone' }, (ns) => ns === undefined);
    await takes('in-ns-free', 30754, '10.96.70.54');
  });
});

describe('an exhausted nodePort range', () => {
  it('hands back what a create took before the nodePorts ran out', async () => {
    // A cluster of its own: this test takes every port of 30000-32767.
    const own = await createFakeCluster();
    try {
      const api = own.kubeConfig.makeApiClient(k8s.CoreV1Api);
      const withPorts = (name: string, count: number, extra: k8s.V1ServiceSpec = {}) =>
        api.createNamespacedService({
          namespace: 'default',
          body: svc(name, { type: 'NodePort', ports: Array.from({ length: count }, (_, i) => ({ name: `p${i}`, port: 1000 + i })), ...extra }),
        });
      // 2768 ports: 27 Services of 100 take 2700; the 28th gets 68 of its 100 and is refused.
      for (let i = 0; i < 27; i++) await withPorts(`fill-${i}`, 100);
      await expectStatus(withPorts('too-many', 100, { clusterIP: '10.96.70.60' }), { code: 500, reason: 'InternalError', message: 'Internal error occurred: failed to allocate a nodePort: range is full' });
      // Its clusterIP and the 68 ports it had taken are free again; then the range is full.
      expect((await api.createNamespacedService({ namespace: 'default', body: svc('ip-free', { clusterIP: '10.96.70.60', ports: [{ port: 80 }] }) })).spec?.clusterIP).toBe('10.96.70.60');
      expect(new Set(nodePortsOf(await withPorts('the-rest', 68))).size).toBe(68);
      await expectStatus(withPorts('none-left', 1), { code: 500, message: 'Internal error occurred: failed to allocate a nodePort: range is full' });
      // A LoadBalancer without nodePorts still needs a health-check nodePort for externalTrafficPolicy Local.
      await expectStatus(
        api.createNamespacedService({
          namespace: 'default',
          body: svc('lb-local', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, externalTrafficPolicy: 'Local', ports: [{ port: 80 }] }),
        }),
        { code: 500, message: 'Internal error occurred: failed to allocate a HealthCheck NodePort 0: range is full' },
      );
      // A deleted Service's ports can be taken again.
      await api.deleteNamespacedService({ name: 'fill-0', namespace: 'default' });
      expect(new Set(nodePortsOf(await withPorts('after-delete', 100))).size).toBe(100);
    } finally {
      await own.close();
    }
  });
});
