// events.k8s.io/v1 and core v1 Events are one storage (the storage factory cohabits them), so
// clients of either API see the other's events, converted as pkg/apis/events/v1/conversion.go
// does. Through client-node's EventsV1Api and CoreV1Api.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
let events: k8s.EventsV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  events = cluster.kubeConfig.makeApiClient(k8s.EventsV1Api);
});
afterEach(() => cluster.close());

const namespace = 'default';
const regarding = { kind: 'Pod', name: 'web-0', namespace, apiVersion: 'v1' };

describe('events.k8s.io/v1 and core v1 Events', () => {
  it('an Event created through events.k8s.io is a core Event with the core field names', async () => {
    const created = await events.createNamespacedEvent({
      namespace,
      body: { metadata: { name: 'e1' }, eventTime: new k8s.V1MicroTime('2026-01-02T03:04:05.123456Z'), reportingController: 'example.com/ctl', reportingInstance: 'ctl-1', action: 'Pulled', reason: 'Pulled', type: 'Normal', regarding, note: 'pulled the image' },
    });
    expect(created).toMatchObject({ apiVersion: 'events.k8s.io/v1', regarding, note: 'pulled the image', reportingController: 'example.com/ctl' });
    const asCore = await core.readNamespacedEvent({ name: 'e1', namespace });
    expect(asCore).toMatchObject({ apiVersion: 'v1', involvedObject: regarding, message: 'pulled the image', reportingComponent: 'example.com/ctl', reportingInstance: 'ctl-1', reason: 'Pulled' });
    expect(asCore.metadata?.uid).toBe(created.metadata?.uid);
    expect((await core.listNamespacedEvent({ namespace })).items.map((e) => e.metadata?.name)).toEqual(['e1']);
  });

  it('a core Event reads back through events.k8s.io, and field selectors use the events.k8s.io labels', async () => {
    await core.createNamespacedEvent({
      namespace,
      body: { metadata: { name: 'e2' }, involvedObject: regarding, reason: 'Started', message: 'started', type: 'Normal', source: { component: 'kubelet' }, count: 3 },
    });
    const asEvents = await events.readNamespacedEvent({ name: 'e2', namespace });
    expect(asEvents).toMatchObject({ apiVersion: 'events.k8s.io/v1', regarding, note: 'started', deprecatedSource: { component: 'kubelet' }, deprecatedCount: 3 });
    expect((await events.listNamespacedEvent({ namespace, fieldSelector: 'regarding.name=web-0,source=kubelet' })).items.map((e) => e.metadata?.name)).toEqual(['e2']);
    expect((await events.listNamespacedEvent({ namespace, fieldSelector: 'regarding.name=other' })).items).toEqual([]);
  });

  it('deleting through one API removes the Event from both', async () => {
    await core.createNamespacedEvent({ namespace, body: { metadata: { name: 'e3' }, involvedObject: regarding, reason: 'R', message: 'm', type: 'Normal' } });
    await events.deleteNamespacedEvent({ name: 'e3', namespace });
    expect((await core.listNamespacedEvent({ namespace })).items).toEqual([]);
  });
});
