// The `kubefake/vitest` entry: a fresh cluster per test from the fixture, options per suite, and
// the toHaveCondition / toExistInCluster matchers with useful failure messages.
import * as k8s from '@kubernetes/client-node';
import { describe } from 'vitest';
import { expect, test } from '../src/vitest.ts';
import type { FakeCluster } from '../src/index.ts';

const CRONTAB_CRD = new URL('../examples/crontab/crontab-crd.yaml', import.meta.url);
const seen: FakeCluster[] = [];

describe('the cluster fixture', () => {
  test('gives each test a ready cluster of its own', async ({ cluster }) => {
    seen.push(cluster);
    await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'mine' } } });
    expect({ kind: 'ConfigMap', name: 'mine' }).toExistInCluster(cluster);
  });

  test('starts the next test on a fresh cluster and closes the previous one', async ({ cluster }) => {
    seen.push(cluster);
    expect(seen[0]).not.toBe(cluster);
    expect({ kind: 'ConfigMap', name: 'mine' }).not.toExistInCluster(cluster);
    // The first test's cluster is closed: its host no longer answers in-process.
    await expect(seen[0]!.kubeConfig.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'default' })).rejects.toThrow();
  });
});

describe('with clusterOptions', () => {
  test.override({ clusterOptions: { deterministic: true, manifests: CRONTAB_CRD } });

  test('creates the cluster with them', async ({ cluster }) => {
    expect(cluster.clock.now().toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(cluster.get({ kind: 'CustomResourceDefinition', name: 'crontabs.stable.example.com' })).toHaveCondition('Established');
  });
});

describe('toHaveCondition', () => {
  const crd = { kind: 'CustomResourceDefinition', metadata: { name: 'x' }, status: { conditions: [{ type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have not been accepted' }] } };

  test('compares status (default True), or status, reason and message', () => {
    expect(crd).toHaveCondition('Established', 'False');
    expect(crd).toHaveCondition('Established', { reason: 'Installing' });
    expect(crd).not.toHaveCondition('Established');
    expect(crd).not.toHaveCondition('NamesAccepted', 'False');
  });

  test('says what the object has when it fails', () => {
    expect(() => expect(crd).toHaveCondition('Established')).toThrow(
      'expected CustomResourceDefinition x to have condition Established with status "True"; its conditions: Established=False (Installing: the initial names have not been accepted)',
    );
    expect(() => expect({ kind: 'Pod', metadata: { name: 'p', namespace: 'default' } }).toHaveCondition('Ready', { status: 'True', reason: 'Up' })).toThrow(
      'expected Pod default/p to have condition Ready with status "True", reason "Up"; its conditions: none',
    );
  });
});

describe('toExistInCluster', () => {
  test('takes a reference or an object and says what is missing', async ({ cluster }) => {
    const [cm] = await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'here' } });
    expect(cm).toExistInCluster(cluster);
    expect(() => expect({ kind: 'Secret', name: 'gone', namespace: 'team' }).toExistInCluster(cluster)).toThrow('expected Secret team/gone to exist in the cluster, but it does not');
    expect(() => expect(cm).not.toExistInCluster(cluster)).toThrow(/^expected ConfigMap default\/here not to exist in the cluster, but it does \(resourceVersion \d+\)$/);
  });
});
