// HorizontalPodAutoscaler served at autoscaling/v2 and autoscaling/v1 from one storage, converted
// as pkg/apis/autoscaling/v1/conversion.go does, through client-node's typed clients.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

let cluster: FakeCluster;
let v1: k8s.AutoscalingV1Api;
let v2: k8s.AutoscalingV2Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  v1 = cluster.kubeConfig.makeApiClient(k8s.AutoscalingV1Api);
  v2 = cluster.kubeConfig.makeApiClient(k8s.AutoscalingV2Api);
});
afterEach(() => cluster.close());

const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const namespace = 'default';

describe('HorizontalPodAutoscaler across autoscaling/v1 and v2', () => {
  it('reads a v1 CPU target as the v2 Utilization metric, with both versions defaults', async () => {
    const created = await v1.createNamespacedHorizontalPodAutoscaler({ namespace, body: { metadata: { name: 'h1' }, spec: { scaleTargetRef: target, maxReplicas: 3, targetCPUUtilizationPercentage: 50 } } });
    expect(created.spec).toEqual({ scaleTargetRef: target, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 50 });
    expect(created.status).toEqual({ currentReplicas: 0, desiredReplicas: 0 });
    const read = await v2.readNamespacedHorizontalPodAutoscaler({ name: 'h1', namespace });
    expect(read.apiVersion).toBe('autoscaling/v2');
    expect(read.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]);
    expect(read.status).toEqual({ desiredReplicas: 0 });
  });

  it('reads a v2 object at v1, and defaults a missing target to 80% CPU at both', async () => {
    await v2.createNamespacedHorizontalPodAutoscaler({ namespace, body: { metadata: { name: 'h2' }, spec: { scaleTargetRef: target, maxReplicas: 5 } } });
    const asV2 = await v2.readNamespacedHorizontalPodAutoscaler({ name: 'h2', namespace });
    expect(asV2.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
    const asV1 = await v1.readNamespacedHorizontalPodAutoscaler({ name: 'h2', namespace });
    expect(asV1.apiVersion).toBe('autoscaling/v1');
    expect(asV1.spec).toEqual({ scaleTargetRef: target, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 80 });
    const list = await v1.listNamespacedHorizontalPodAutoscaler({ namespace });
    expect(list.items.map((i) => [i.apiVersion ?? list.apiVersion, i.spec?.targetCPUUtilizationPercentage])).toEqual([['autoscaling/v1', 80]]);
  });

  it('carries v2 status conditions to v1 in the conditions annotation', async () => {
    await v2.createNamespacedHorizontalPodAutoscaler({ namespace, body: { metadata: { name: 'h3' }, spec: { scaleTargetRef: target, maxReplicas: 2 } } });
    const current = await v2.readNamespacedHorizontalPodAutoscaler({ name: 'h3', namespace });
    const when = new Date('2026-01-02T03:04:05Z');
    await v2.replaceNamespacedHorizontalPodAutoscalerStatus({
      name: 'h3',
      namespace,
      body: { ...current, status: { desiredReplicas: 2, currentReplicas: 1, conditions: [{ type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', lastTransitionTime: when }] } },
    });
    const asV1 = await v1.readNamespacedHorizontalPodAutoscaler({ name: 'h3', namespace });
    expect(asV1.status).toEqual({ currentReplicas: 1, desiredReplicas: 2 });
    const conditions = JSON.parse(asV1.metadata!.annotations!['autoscaling.alpha.kubernetes.io/conditions']!) as Record<string, string>[];
    // Go field order: type, status, lastTransitionTime, reason, message (empty ones omitted).
    expect(conditions.map((c) => Object.keys(c))).toEqual([['type', 'status', 'lastTransitionTime', 'reason']]);
    expect(conditions[0]).toMatchObject({ type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale' });
    expect(new Date(conditions[0]!.lastTransitionTime!)).toEqual(when);
    // Back at v2 the conditions are status again, and the annotation is not shown.
    const asV2 = await v2.readNamespacedHorizontalPodAutoscaler({ name: 'h3', namespace });
    expect(asV2.status?.conditions?.map((c) => c.type)).toEqual(['AbleToScale']);
    expect(asV2.metadata?.annotations).toBeUndefined();
  });
});
