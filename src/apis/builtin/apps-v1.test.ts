import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../object.ts';
import { create, typesFor, update } from './test-helpers.ts';

const type = typesFor();
const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } };

describe('Deployment', () => {
  const deployments = type('apps', 'deployments');
  const deployment = () => ({ metadata: { name: 'web', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'web' } }, template }, status: { replicas: 3 } });

  it('applies SetDefaults_Deployment and the pod template defaults', () => {
    const { obj } = create(deployments, deployment());
    expect(obj.spec).toMatchObject({
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      template: { spec: { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', terminationGracePeriodSeconds: 30, securityContext: {} } },
    });
    // SetDefaults_Pod's extras stay off templates.
    expect((obj.spec as { template: { spec: Record<string, unknown> } }).template.spec.enableServiceLinks).toBeUndefined();
  });

  it('clears status on create and starts generation at 1', () => {
    const { obj } = create(deployments, deployment());
    expect(obj.status).toEqual({});
    expect(obj.metadata?.generation).toBe(1);
  });

  it('keeps status on update and bumps generation on spec or annotation changes', () => {
    const old: KubeObject = { ...create(deployments, deployment()).obj, status: { replicas: 1 } };
    const labelsOnly = update(deployments, { ...structuredClone(old), metadata: { ...old.metadata, labels: { x: 'y' } }, status: {} }, old);
    expect(labelsOnly.obj.metadata?.generation).toBe(1);
    expect(labelsOnly.obj.status).toEqual({ replicas: 1 });
    const annotated = update(deployments, { ...structuredClone(old), metadata: { ...old.metadata, annotations: { a: 'b' } } }, old);
    expect(annotated.obj.metadata?.generation).toBe(2);
    const scaled = structuredClone(old);
    (scaled.spec as Record<string, unknown>).replicas = 5;
    expect(update(deployments, scaled, old).obj.metadata?.generation).toBe(2);
  });
});

describe('StatefulSet, DaemonSet, ReplicaSet', () => {
  it('defaults a StatefulSet and its claim templates', () => {
    const { obj } = create(type('apps', 'statefulsets'), {
      metadata: { name: 'db' },
      spec: { serviceName: 'db', selector: { matchLabels: { app: 'web' } }, template, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: {} }] },
    });
    expect(obj.spec).toMatchObject({
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      replicas: 1,
      revisionHistoryLimit: 10,
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } }],
    });
    expect(obj.status).toEqual({ replicas: 0, availableReplicas: 0 });
  });

  it('leaves an explicit OnDelete StatefulSet strategy alone', () => {
    const { obj } = create(type('apps', 'statefulsets'), { metadata: { name: 'db' }, spec: { updateStrategy: { type: 'OnDelete' }, template } });
    expect((obj.spec as Record<string, unknown>).updateStrategy).toEqual({ type: 'OnDelete' });
  });

  it('tracks a DaemonSet template generation in its annotation', () => {
    const daemonsets = type('apps', 'daemonsets');
    const { obj } = create(daemonsets, { metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'web' } }, template } });
    expect(obj.metadata?.annotations).toEqual({ 'deprecated.daemonset.template.generation': '1' });
    expect(obj.spec).toMatchObject({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, revisionHistoryLimit: 10 });
    expect(obj.status).toEqual({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
    const sent = structuredClone(obj);
    sent.metadata!.annotations = { 'deprecated.daemonset.template.generation': '7' };
    expect(update(daemonsets, sent, obj).obj.metadata?.annotations).toEqual({ 'deprecated.daemonset.template.generation': '1' });
    const changed = structuredClone(obj);
    (changed.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels.v = '2';
    const next = update(daemonsets, changed, obj).obj;
    expect(next.metadata?.annotations?.['deprecated.daemonset.template.generation']).toBe('2');
    expect(next.metadata?.generation).toBe(2);
  });

  it('defaults ReplicaSet replicas', () => {
    const { obj } = create(type('apps', 'replicasets'), { metadata: { name: 'rs' }, spec: { template } });
    expect((obj.spec as Record<string, unknown>).replicas).toBe(1);
    expect(obj.status).toEqual({ replicas: 0 });
  });
});
