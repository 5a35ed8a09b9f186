// PodTopologyLabels (on by default in v1.36) through client-node: a pod bound to a node through
// pods/binding, or created already on one, carries the node's topology.kubernetes.io/zone and
// region labels (the node's value wins); pods/binding now runs the admission chain, so an
// admission policy on pods/binding can refuse a binding.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  await core.createNode({
    body: { metadata: { name: 'node-a', labels: { 'topology.kubernetes.io/zone': 'eu-1a', 'topology.kubernetes.io/region': 'eu-1', 'kubernetes.io/hostname': 'node-a', 'node.example/tier': 'gold' } } },
  });
});
afterEach(() => cluster.close());

const ns = 'default';
const pod = (name: string, labels: Record<string, string> = {}, nodeName?: string) =>
  core.createNamespacedPod({ namespace: ns, body: { metadata: { name, labels }, spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'nginx' }] } } });
const bind = (name: string, node: string, labels?: Record<string, string>) =>
  core.createNamespacedPodBinding({ name, namespace: ns, body: { metadata: { name, ...(labels ? { labels } : {}) }, target: { kind: 'Node', name: node } } });
const labelsOf = async (name: string) => (await core.readNamespacedPod({ name, namespace: ns })).metadata?.labels;

describe('PodTopologyLabels', () => {
  it('a binding copies the node’s zone and region onto the pod, with the Binding’s own labels, the node’s values winning', async () => {
    await pod('web', { app: 'web', 'topology.kubernetes.io/zone': 'mine' });
    await bind('web', 'node-a', { 'scheduler.example/pass': '2', 'topology.kubernetes.io/region': 'elsewhere' });
    expect(await labelsOf('web')).toEqual({
      app: 'web',
      'scheduler.example/pass': '2',
      'topology.kubernetes.io/zone': 'eu-1a',
      'topology.kubernetes.io/region': 'eu-1',
    });
  });

  it('a pod created on a node gets the labels too; a node that does not exist gives none', async () => {
    const created = await pod('direct', { 'topology.kubernetes.io/zone': 'mine' }, 'node-a');
    expect(created.metadata?.labels).toEqual({ 'topology.kubernetes.io/zone': 'eu-1a', 'topology.kubernetes.io/region': 'eu-1' });
    expect((await pod('nowhere', { app: 'x' }, 'node-missing')).metadata?.labels).toEqual({ app: 'x' });
    await pod('late', { app: 'y' });
    await bind('late', 'node-missing');
    expect(await labelsOf('late')).toEqual({ app: 'y' });
  });
});

describe('admission of pods/binding', () => {
  it('a ValidatingAdmissionPolicy on pods/binding sees the Binding and can refuse it', async () => {
    await cluster.apply([
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'no-node-b' },
        spec: {
          matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods/binding'] }] },
          validations: [{ expression: "object.kind == 'Binding' && object.target.name != 'node-b'", message: 'not on node-b' }],
        },
      },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'no-node-b' }, spec: { policyName: 'no-node-b', validationActions: ['Deny'] } },
    ]);
    await pod('p');
    await expectStatus(bind('p', 'node-b'), {
      code: 422,
      reason: 'Invalid',
      message: 'pods "p" is forbidden: ValidatingAdmissionPolicy \'no-node-b\' with binding \'no-node-b\' denied request: not on node-b',
    });
    expect((await core.readNamespacedPod({ name: 'p', namespace: ns })).spec?.nodeName).toBeUndefined();
    await bind('p', 'node-a');
    expect((await core.readNamespacedPod({ name: 'p', namespace: ns })).spec?.nodeName).toBe('node-a');
  });
});
