// namespaces/finalize as FinalizeREST serves it (namespaceFinalizeStrategy): spec.finalizers and
// metadata change, status does not, each finalizer name is checked; through client-node's
// replaceNamespaceFinalize.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterAll(() => cluster.close());

describe('namespaces/finalize', () => {
  it('sets spec.finalizers and metadata, and keeps the stored status', async () => {
    const ns = await core.createNamespace({ body: { metadata: { name: 'held' } } });
    expect(ns.spec?.finalizers).toEqual(['kubernetes']);
    const out = await core.replaceNamespaceFinalize({
      name: 'held',
      body: { ...ns, metadata: { ...ns.metadata, labels: { ...ns.metadata?.labels, team: 'a' } }, spec: { finalizers: ['kubernetes', 'example.com/hold'] }, status: { phase: 'Terminating' } },
    });
    expect(out.spec?.finalizers).toEqual(['kubernetes', 'example.com/hold']);
    expect(out.metadata?.labels?.team).toBe('a');
    expect(out.status?.phase).toBe('Active');
  });

  it('refuses finalizer names that are neither standard nor qualified', async () => {
    const ns = await core.readNamespace({ name: 'held' });
    await expectStatus(core.replaceNamespaceFinalize({ name: 'held', body: { ...ns, spec: { finalizers: ['kubernetes', 'hold'] } } }), {
      code: 422,
      reason: 'Invalid',
      message: 'Namespace "held" is invalid: spec.finalizers[1]: Invalid value: "hold": name is neither a standard finalizer name nor is it fully qualified',
    });
  });

  it('is PUT only', async () => {
    const res = await fetch(`${cluster.url}/api/v1/namespaces/held/finalize`);
    expect(res.status).toBe(405);
  });

  it('completes the deletion of a terminating namespace when it empties the finalizers', async () => {
    await core.createNamespace({ body: { metadata: { name: 'stuck' } } });
    const held = await core.readNamespace({ name: 'stuck' });
    await core.replaceNamespaceFinalize({ name: 'stuck', body: { ...held, spec: { finalizers: ['kubernetes', 'example.com/hold'] } } });
    await core.deleteNamespace({ name: 'stuck' });
    await cluster.waitFor({ kind: 'Namespace', name: 'stuck' }, (ns) => (ns?.spec as { finalizers?: string[] } | undefined)?.finalizers?.length === 1);
    const terminating = await core.readNamespace({ name: 'stuck' });
    expect(terminating.status?.phase).toBe('Terminating');
    await core.replaceNamespaceFinalize({ name: 'stuck', body: { ...terminating, spec: { finalizers: [] } } });
    await expectStatus(core.readNamespace({ name: 'stuck' }), { code: 404, reason: 'NotFound' });
  });
});
