import * as k8s from '@kubernetes/client-node';
import { expect, test } from 'vitest';
import { createFakeCluster } from 'kubefake';

test('a Deployment becomes Available, a pod crash-loops (and its Events say so), a CronJob fires on the clock', async () => {
  await using cluster = await createFakeCluster({ deterministic: true, workloads: true, nodes: 2 });
  const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const batch = cluster.kubeConfig.makeApiClient(k8s.BatchV1Api);

  // Pods labelled app=web take 5 s (of the cluster clock) to start and print a line.
  cluster.kubelet.on({ selector: 'app=web' }, { startAfter: 5_000, logs: 'listening on :80\n' });
  await apps.createNamespacedDeployment({
    namespace: 'default',
    body: {
      metadata: { name: 'web' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
    },
  });
  await cluster.settle();
  expect((await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' })).status?.availableReplicas).toBeUndefined();
  cluster.clock.advance(5_000);
  await cluster.settle();
  const web = await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' });
  expect(web.status?.availableReplicas).toBe(3);
  expect(web.status?.conditions?.find((c) => c.type === 'Available')?.status).toBe('True');
  const [pod] = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' })).items;
  expect(pod!.status?.phase).toBe('Running');
  expect(await core.readNamespacedPodLog({ name: pod!.metadata!.name!, namespace: 'default' })).toBe('listening on :80\n');

  // A pod that exits with 1 after a second, and is restarted with the kubelet's back-off.
  cluster.kubelet.on({ name: 'crashy' }, { crashLoop: true, runFor: 1_000 });
  await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'crashy' }, spec: { containers: [{ name: 'app', image: 'busybox' }] } } });
  await cluster.settle();
  cluster.clock.advance(2_000);
  await cluster.settle();
  const crashy = (await core.readNamespacedPod({ name: 'crashy', namespace: 'default' })).status!.containerStatuses![0]!;
  expect(crashy.state?.waiting?.reason).toBe('CrashLoopBackOff');
  expect(crashy.restartCount).toBe(1);
  // What the kubelet recorded about it, as `kubectl describe pod crashy` lists it.
  const backOff = (await core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=crashy,reason=BackOff' })).items;
  expect(backOff[0]?.message).toMatch(/^Back-off restarting failed container app in pod crashy_default\(/);

  // A CronJob fires each time the clock passes a schedule; its Jobs run their pods to completion.
  await batch.createNamespacedCronJob({
    namespace: 'default',
    body: { metadata: { name: 'report' }, spec: { schedule: '*/10 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'run', image: 'busybox' }] } } } } } },
  });
  for (let i = 0; i < 3; i++) {
    cluster.clock.advance(10 * 60_000);
    await cluster.settle();
  }
  const jobs = (await batch.listNamespacedJob({ namespace: 'default' })).items;
  expect(jobs).toHaveLength(3);
  expect(jobs.every((job) => job.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True'))).toBe(true);
});
