// Behaviours kubectl's own legacy command tests (kubernetes/kubernetes test/cmd/*.sh) rely on,
// each found by running those scripts against `kubefake serve` and checked here through kubectl.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubectlAvailable, useKubectlCluster } from './support/kubectl.ts';
import { expectStatus } from './support/status.ts';

describe.skipIf(!kubectlAvailable)('kubectl legacy command tests against kubefake', () => {
  const k = useKubectlCluster();

  // test/cmd/core.sh run_pod_tests "replace of a cluster scoped resource can succeed": the manifest
  // says resourceVersion "0", which store.go Update parses to 0 and treats as unconditional.
  it('replaces a node whose manifest says resourceVersion "0", unconditionally', async () => {
    expect((await k.kubectl(['create', '-f', '-'], JSON.stringify({ kind: 'Node', apiVersion: 'v1', metadata: { name: 'node-v1-test' } }))).code).toBe(0);
    const manifest = JSON.stringify({ kind: 'Node', apiVersion: 'v1', metadata: { name: 'node-v1-test', annotations: { a: 'b' }, resourceVersion: '0' } });
    const dry = await k.kubectl(['replace', '--dry-run=server', '-f', '-'], manifest);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.trim()).toBe('node/node-v1-test replaced (server dry run)');
    expect((await k.core.readNode({ name: 'node-v1-test' })).metadata?.annotations?.a).toBeUndefined();
    const r = await k.kubectl(['replace', '-f', '-'], manifest);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('node/node-v1-test replaced');
    const node = await k.core.readNode({ name: 'node-v1-test' });
    expect(node.metadata?.annotations?.a).toBe('b');
    expect(node.metadata?.resourceVersion).not.toBe('0');
  });

  it('still refuses resourceVersion "0" where the strategy needs a condition (a Lease: 422)', async () => {
    const coord = k.cluster.kubeConfig.makeApiClient(k8s.CoordinationV1Api);
    await coord.createNamespacedLease({ namespace: 'default', body: { metadata: { name: 'lock' }, spec: { holderIdentity: 'a' } } });
    await expectStatus(coord.replaceNamespacedLease({ name: 'lock', namespace: 'default', body: { metadata: { name: 'lock', resourceVersion: '0' }, spec: { holderIdentity: 'b' } } }), {
      code: 422,
      reason: 'Invalid',
      message: 'leases.coordination.k8s.io "lock" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
    });
    const r = await k.kubectl(['get', 'lease', 'lock', '-o', 'jsonpath={.spec.holderIdentity}']);
    expect(r.stdout).toBe('a');
  });
});
