// The Events the simulated control plane records (createFakeCluster({ workloads: true })), read
// through @kubernetes/client-node as a test would: the controllers' texts of kube-controller-manager
// v1.36, the scheduler's events.k8s.io events, the kubelet's container events, repeats aggregated
// as client-go's correlator does, all on the cluster clock and byte-identical from run to run.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { serve } from './support/serve.ts';

let cluster: FakeCluster;
afterEach(() => cluster?.close());

const ns = 'default';
const container = (image = 'nginx') => [{ name: 'app', image }];

async function start(nodes = 1, seed?: number) {
  cluster = await createFakeCluster({ deterministic: true, workloads: true, nodes, ...(seed === undefined ? {} : { seed }) });
  const kc = cluster.kubeConfig;
  return { core: kc.makeApiClient(k8s.CoreV1Api), apps: kc.makeApiClient(k8s.AppsV1Api), batch: kc.makeApiClient(k8s.BatchV1Api), events: kc.makeApiClient(k8s.EventsV1Api) };
}

/** The core Events about one object, in the order they were first recorded (their names carry the instant). */
async function eventsAbout(core: k8s.CoreV1Api, name: string, namespace = ns): Promise<k8s.CoreV1Event[]> {
  return (await core.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.name=${name}` })).items;
}

const summary = (events: k8s.CoreV1Event[]) => events.map((e) => `${e.type} ${e.reason} ${e.involvedObject.fieldPath ?? '-'}: ${e.message}`);

async function createDeployment(apps: k8s.AppsV1Api, name: string, replicas: number, image = 'nginx') {
  await apps.createNamespacedDeployment({
    namespace: ns,
    body: { metadata: { name }, spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: container(image) } } } },
  });
  await cluster.settle();
}

describe('a Deployment rolled out records what a cluster records', () => {
  it('deployment-controller, replicaset-controller, the scheduler and the kubelet, each with its texts and source', async () => {
    const { core, apps } = await start(2);
    cluster.kubelet.on({ selector: 'app=web' }, { startAfter: 3_000 });
    await createDeployment(apps, 'web', 2);
    cluster.clock.advance(3_000);
    await cluster.settle();
    const [rs] = (await apps.listNamespacedReplicaSet({ namespace: ns })).items;
    const pods = (await core.listNamespacedPod({ namespace: ns })).items.map((p) => p.metadata!.name!);

    const scaling = await eventsAbout(core, 'web');
    expect(summary(scaling)).toEqual([`Normal ScalingReplicaSet -: Scaled up replica set ${rs!.metadata!.name} from 0 to 2`]);
    expect(scaling[0]).toMatchObject({
      involvedObject: { kind: 'Deployment', namespace: ns, name: 'web', apiVersion: 'apps/v1' },
      source: { component: 'deployment-controller' },
      reportingComponent: 'deployment-controller',
      reportingInstance: '',
      count: 1,
    });
    expect(scaling[0]!.metadata!.name).toMatch(/^web\.[0-9a-f]{16}$/);
    expect(scaling[0]!.firstTimestamp).toEqual(new Date('2025-01-01T00:00:00Z'));

    const created = await eventsAbout(core, rs!.metadata!.name!);
    expect(created.map((e) => e.message).sort()).toEqual(pods.map((p) => `Created pod: ${p}`).sort());
    expect(created.every((e) => e.reason === 'SuccessfulCreate' && e.source?.component === 'replicaset-controller' && e.involvedObject.uid === rs!.metadata!.uid)).toBe(true);

    const pod = (await core.readNamespacedPod({ name: pods[0]!, namespace: ns }));
    const node = pod.spec!.nodeName!;
    const about = await eventsAbout(core, pods[0]!);
    expect(summary(about)).toEqual([
      `Normal Scheduled -: Successfully assigned default/${pods[0]} to ${node}`,
      'Normal Pulling spec.containers{app}: Pulling image "nginx"',
      expect.stringMatching(/^Normal Pulled spec\.containers\{app\}: Successfully pulled image "nginx" in 3s \(3s including waiting\)\. Image size: \d+ bytes\.$/),
      'Normal Created spec.containers{app}: Container created',
      'Normal Started spec.containers{app}: Container started',
    ]);
    // The scheduler writes through events.k8s.io: eventTime, action and the reporting fields, no legacy count or source.
    expect(about[0]).toMatchObject({ action: 'Binding', reportingComponent: 'default-scheduler', reportingInstance: 'default-scheduler-kubefake-control-plane', involvedObject: { kind: 'Pod', name: pods[0], uid: pod.metadata!.uid } });
    expect(about[0]!.count).toBeUndefined();
    expect(about[0]!.eventTime).toMatch(/^2025-01-01T00:00:00\.\d{6}Z$/);
    // The kubelet's: the node as source host and reporting instance, stamped when each happened.
    expect(about[1]).toMatchObject({ source: { component: 'kubelet', host: node }, reportingComponent: 'kubelet', reportingInstance: node, firstTimestamp: new Date('2025-01-01T00:00:00Z') });
    expect(about[4]).toMatchObject({ firstTimestamp: new Date('2025-01-01T00:00:03Z'), lastTimestamp: new Date('2025-01-01T00:00:03Z'), count: 1 });
  });

  it('scaling down records the scale and the deleted pod; a second pod of a tagged image on the node finds it present', async () => {
    const { core, apps } = await start(1);
    // A tagged image is pulled IfNotPresent (an untagged one Always, so every pod pulls it).
    await createDeployment(apps, 'web', 2, 'nginx:1.27');
    const [rs] = (await apps.listNamespacedReplicaSet({ namespace: ns })).items;
    const pods = (await core.listNamespacedPod({ namespace: ns })).items.map((p) => p.metadata!.name!);
    const pulled = (await Promise.all(pods.map((p) => eventsAbout(core, p)))).map((events) => events.find((e) => e.reason === 'Pulled')!.message);
    expect(pulled.filter((m) => m === 'Container image "nginx:1.27" already present on machine and can be accessed by the pod')).toHaveLength(1);
    expect(pulled.filter((m) => m?.startsWith('Successfully pulled image "nginx:1.27" in 0s (0s including waiting). Image size: '))).toHaveLength(1);

    await apps.patchNamespacedDeploymentScale({ name: 'web', namespace: ns, body: { spec: { replicas: 1 } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await cluster.settle();
    expect(summary(await eventsAbout(core, 'web')).at(-1)).toBe(`Normal ScalingReplicaSet -: Scaled down replica set ${rs!.metadata!.name} from 2 to 1`);
    const deleted = (await eventsAbout(core, rs!.metadata!.name!)).filter((e) => e.reason === 'SuccessfulDelete');
    expect(deleted).toHaveLength(1);
    expect(pods.map((p) => `Deleted pod: ${p}`)).toContain(deleted[0]!.message);
    // The kubelet stops the deleted pod's container.
    const victim = deleted[0]!.message!.slice('Deleted pod: '.length);
    expect(summary(await eventsAbout(core, victim)).at(-1)).toBe('Normal Killing spec.containers{app}: Stopping container app');
  });
});

describe('repeated events are aggregated as the correlator does', () => {
  it('a crash-looping pod has one BackOff event whose count and lastTimestamp rise', async () => {
    const { core } = await start();
    cluster.kubelet.on({ name: 'crashy' }, { crashLoop: true, runFor: 1_000 });
    await core.createNamespacedPod({ namespace: ns, body: { metadata: { name: 'crashy' }, spec: { containers: container('busybox:1.36') } } });
    await cluster.settle();
    // Runs end at 1 s (restarted at once), 2 s (back-off 10 s), 13 s (back-off 20 s).
    cluster.clock.advance(14_000);
    await cluster.settle();
    const backOff = (await eventsAbout(core, 'crashy')).filter((e) => e.reason === 'BackOff');
    const uid = (await core.readNamespacedPod({ name: 'crashy', namespace: ns })).metadata!.uid;
    expect(backOff).toHaveLength(1);
    expect(backOff[0]).toMatchObject({ type: 'Warning', count: 2, message: `Back-off restarting failed container app in pod crashy_default(${uid})`, firstTimestamp: new Date('2025-01-01T00:00:02Z'), lastTimestamp: new Date('2025-01-01T00:00:13Z') });

    cluster.clock.advance(60_000);
    await cluster.settle();
    const later = (await eventsAbout(core, 'crashy')).filter((e) => e.reason === 'BackOff');
    expect(later).toHaveLength(1);
    expect(later[0]!.metadata!.uid).toBe(backOff[0]!.metadata!.uid);
    expect(later[0]).toMatchObject({ count: 3, firstTimestamp: new Date('2025-01-01T00:00:02Z'), lastTimestamp: new Date('2025-01-01T00:00:34Z') });
    // Every start of the container is the same Started event, counted.
    const started = (await eventsAbout(core, 'crashy')).filter((e) => e.reason === 'Started');
    expect(started).toHaveLength(1);
    // Starts at 0, 1, 12, 33 and 74 s (back-offs of 0, 10, 20 and 40 s).
    expect(started[0]!.count).toBe(5);
  });

  it('a readiness probe that keeps failing is one Unhealthy event counted every periodSeconds', async () => {
    const { core } = await start();
    cluster.kubelet.on({ name: 'sick' }, { ready: false });
    const probe = { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 5, periodSeconds: 10 };
    await core.createNamespacedPod({ namespace: ns, body: { metadata: { name: 'sick' }, spec: { containers: [{ name: 'app', image: 'nginx', readinessProbe: probe }] } } });
    await cluster.settle();
    expect((await eventsAbout(core, 'sick')).some((e) => e.reason === 'Unhealthy')).toBe(false);
    cluster.clock.advance(30_000);
    await cluster.settle();
    const ip = (await core.readNamespacedPod({ name: 'sick', namespace: ns })).status!.podIP;
    const unhealthy = (await eventsAbout(core, 'sick')).filter((e) => e.reason === 'Unhealthy');
    expect(unhealthy).toHaveLength(1);
    expect(unhealthy[0]).toMatchObject({
      type: 'Warning',
      count: 3,
      message: `Readiness probe failed: Get "http://${ip}:8080/healthz": dial tcp ${ip}:8080: connect: connection refused`,
      involvedObject: { fieldPath: 'spec.containers{app}' },
      firstTimestamp: new Date('2025-01-01T00:00:05Z'),
      lastTimestamp: new Date('2025-01-01T00:00:25Z'),
    });
  });

  it('a pod that fits nowhere: FailedScheduling through events.k8s.io, repeats of one attempt on an unchanged pod become its series', async () => {
    const { core, events } = await start();
    for (const name of ['a', 'b', 'c']) await core.createNamespacedPod({ namespace: ns, body: { metadata: { name }, spec: { containers: container() } } });
    await core.createNamespacedPod({ namespace: ns, body: { metadata: { name: 'big' }, spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '100' } } }] } } });
    await cluster.settle();
    const message = '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.';
    const first = (await events.listNamespacedEvent({ namespace: ns, fieldSelector: 'regarding.name=big' })).items;
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ type: 'Warning', reason: 'FailedScheduling', action: 'Scheduling', note: message, reportingController: 'default-scheduler', regarding: { kind: 'Pod', name: 'big' } });
    expect(first[0]!.series).toBeUndefined();
    // Each freed pod retries: the first retry sees the pod its failure updated (PodScheduled=False,
    // a new resourceVersion: another event); the next sees that same pod again: a series.
    for (const name of ['a', 'b']) {
      await core.deleteNamespacedPod({ name, namespace: ns, gracePeriodSeconds: 0 });
      await cluster.settle();
    }
    const all = (await events.listNamespacedEvent({ namespace: ns, fieldSelector: 'regarding.name=big' })).items;
    expect(all).toHaveLength(2);
    expect(all[1]!.regarding?.resourceVersion).not.toBe(all[0]!.regarding?.resourceVersion);
    expect(all[1]!.series).toMatchObject({ count: 2 });
    expect(all[1]!.series!.lastObservedTime).toMatch(/^2025-01-01T00:00:00\.\d{6}Z$/);
    // Later counts are kept by the recorder and written once the series has been quiet for 6 minutes.
    await core.deleteNamespacedPod({ name: 'c', namespace: ns, gracePeriodSeconds: 0 });
    await cluster.settle();
    const readSeries = async () => (await events.readNamespacedEvent({ name: all[1]!.metadata!.name!, namespace: ns })).series;
    expect(await readSeries()).toMatchObject({ count: 2 });
    cluster.clock.advance(6 * 60_000);
    await cluster.settle();
    expect(await readSeries()).toMatchObject({ count: 3 });
  });
});

describe('the other controllers', () => {
  it('Job: pods created, then Completed; a failing job ends with BackoffLimitExceeded', async () => {
    const { core, batch } = await start();
    const job = (name: string, backoffLimit?: number) => ({ metadata: { name }, spec: { backoffLimit, template: { spec: { restartPolicy: 'Never', containers: container('busybox') } } } });
    await batch.createNamespacedJob({ namespace: ns, body: job('ok') });
    await cluster.settle();
    const [pod] = (await core.listNamespacedPod({ namespace: ns, labelSelector: 'job-name=ok' })).items;
    expect(summary(await eventsAbout(core, 'ok'))).toEqual([`Normal SuccessfulCreate -: Created pod: ${pod!.metadata!.name}`, 'Normal Completed -: Job completed']);
    expect((await eventsAbout(core, 'ok'))[0]!.source).toEqual({ component: 'job-controller' });

    cluster.kubelet.on({ selector: 'job-name=bad' }, { exitCode: 1 });
    await batch.createNamespacedJob({ namespace: ns, body: job('bad', 0) });
    await cluster.settle();
    expect(summary(await eventsAbout(core, 'bad')).at(-1)).toBe('Warning BackoffLimitExceeded -: Job has reached the specified backoff limit');
  });

  it('Job suspended and resumed: its running pod deleted, Suspended and Resumed', async () => {
    const { core, batch } = await start();
    cluster.kubelet.on({ selector: 'job-name=long' }, { runFor: 3_600_000, stopAfter: 0 });
    await batch.createNamespacedJob({ namespace: ns, body: { metadata: { name: 'long' }, spec: { template: { spec: { restartPolicy: 'Never', containers: container('busybox') } } } } });
    await cluster.settle();
    const [pod] = (await core.listNamespacedPod({ namespace: ns, labelSelector: 'job-name=long' })).items;
    const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
    await batch.patchNamespacedJob({ name: 'long', namespace: ns, body: { spec: { suspend: true } } }, merge);
    await cluster.settle();
    await batch.patchNamespacedJob({ name: 'long', namespace: ns, body: { spec: { suspend: false } } }, merge);
    await cluster.settle();
    // syncJob: manageJob's creates and deletes come first, then the suspension's event.
    const replacement = (await core.listNamespacedPod({ namespace: ns, labelSelector: 'job-name=long' })).items.find((p) => p.metadata!.name !== pod!.metadata!.name)!;
    expect(summary(await eventsAbout(core, 'long'))).toEqual([
      `Normal SuccessfulCreate -: Created pod: ${pod!.metadata!.name}`,
      `Normal SuccessfulDelete -: Deleted pod: ${pod!.metadata!.name}`,
      'Normal Suspended -: Job suspended',
      `Normal SuccessfulCreate -: Created pod: ${replacement.metadata!.name}`,
      'Normal Resumed -: Job resumed',
    ]);
  });

  it('CronJob with concurrencyPolicy Forbid: a schedule that finds its job running is JobAlreadyActive', async () => {
    const { core, batch } = await start();
    cluster.kubelet.on({}, { runFor: 3_600_000 });
    await batch.createNamespacedCronJob({
      namespace: ns,
      body: { metadata: { name: 'slow' }, spec: { schedule: '*/10 * * * *', concurrencyPolicy: 'Forbid', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: container('busybox') } } } } } },
    });
    for (let i = 0; i < 2; i++) {
      cluster.clock.advance(10 * 60_000);
      await cluster.settle();
    }
    expect(summary(await eventsAbout(core, 'slow')).at(-1)).toBe('Normal JobAlreadyActive -: Not starting job because prior execution is running and concurrency policy is Forbid');
  });

  it('CronJob: the job it creates, the completion it sees, the old job it deletes', async () => {
    const { core, batch } = await start();
    await batch.createNamespacedCronJob({
      namespace: ns,
      body: { metadata: { name: 'report' }, spec: { schedule: '*/10 * * * *', successfulJobsHistoryLimit: 1, jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: container('busybox') } } } } } },
    });
    for (let i = 0; i < 2; i++) {
      cluster.clock.advance(10 * 60_000);
      await cluster.settle();
    }
    const first = `report-${Date.UTC(2025, 0, 1, 0, 10) / 60_000}`;
    const second = `report-${Date.UTC(2025, 0, 1, 0, 20) / 60_000}`;
    expect(summary(await eventsAbout(core, 'report'))).toEqual([
      `Normal SuccessfulCreate -: Created job ${first}`,
      `Normal SawCompletedJob -: Saw completed job: ${first}, condition: Complete`,
      `Normal SuccessfulCreate -: Created job ${second}`,
      `Normal SawCompletedJob -: Saw completed job: ${second}, condition: Complete`,
      `Normal SuccessfulDelete -: Deleted job ${first}`,
    ]);
    expect((await eventsAbout(core, 'report'))[0]!.source).toEqual({ component: 'cronjob-controller' });
  });

  it('StatefulSet: its claims and pods, in stateful_pod_control.go words', async () => {
    const { core, apps } = await start();
    await apps.createNamespacedStatefulSet({
      namespace: ns,
      body: {
        metadata: { name: 'db' },
        spec: {
          replicas: 2,
          serviceName: 'db',
          selector: { matchLabels: { app: 'db' } },
          template: { metadata: { labels: { app: 'db' } }, spec: { containers: container() } },
          volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
        },
      },
    });
    await cluster.settle();
    expect(summary(await eventsAbout(core, 'db'))).toEqual([
      'Normal SuccessfulCreate -: create Claim data-db-0 Pod db-0 in StatefulSet db success',
      'Normal SuccessfulCreate -: create Pod db-0 in StatefulSet db successful',
      'Normal SuccessfulCreate -: create Claim data-db-1 Pod db-1 in StatefulSet db success',
      'Normal SuccessfulCreate -: create Pod db-1 in StatefulSet db successful',
    ]);
    expect((await eventsAbout(core, 'db'))[0]!.source).toEqual({ component: 'statefulset-controller' });
  });

  it('PodDisruptionBudget selecting no pods: NoPods from controllermanager, counted', async () => {
    const { core } = await start();
    const policy = cluster.kubeConfig.makeApiClient(k8s.PolicyV1Api);
    await policy.createNamespacedPodDisruptionBudget({ namespace: ns, body: { metadata: { name: 'budget' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'none' } } } } });
    await cluster.settle();
    const events = await eventsAbout(core, 'budget');
    expect(summary(events)).toEqual(['Normal NoPods -: No matching pods found']);
    expect(events[0]).toMatchObject({ source: { component: 'controllermanager' }, involvedObject: { kind: 'PodDisruptionBudget', apiVersion: 'policy/v1' } });
    // Its own status write syncs it again, as the budget informer's update does.
    expect(events[0]!.count).toBe(2);
  });

  it('DaemonSet: a pod per node', async () => {
    const { core, apps } = await start(2);
    await apps.createNamespacedDaemonSet({
      namespace: ns,
      body: { metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: container() } } } },
    });
    await cluster.settle();
    const pods = (await core.listNamespacedPod({ namespace: ns })).items.map((p) => `Created pod: ${p.metadata!.name}`);
    const events = await eventsAbout(core, 'agent');
    expect(events.map((e) => e.message).sort()).toEqual(pods.sort());
    expect(events.every((e) => e.reason === 'SuccessfulCreate' && e.source?.component === 'daemonset-controller')).toBe(true);
  });
});

describe('events and the rest of the cluster', () => {
  it('the same test records byte-identical Events on every run', async () => {
    const run = async () => {
      const { core, apps } = await start(2, 7);
      cluster.kubelet.on({ name: 'crashy' }, { crashLoop: true, runFor: 500 });
      await createDeployment(apps, 'web', 3);
      await core.createNamespacedPod({ namespace: ns, body: { metadata: { name: 'crashy' }, spec: { containers: container('busybox') } } });
      cluster.clock.advance(60_000);
      await cluster.settle();
      const text = JSON.stringify(await core.listNamespacedEvent({ namespace: ns }));
      await cluster.close();
      return text;
    };
    const first = await run();
    expect(JSON.parse(first).items.length).toBeGreaterThan(20);
    expect(await run()).toBe(first);
  });

  it('snapshots leave the cluster’s own Events out, as its other writes; includeBootstrap shows them', async () => {
    const { core, apps } = await start();
    await createDeployment(apps, 'web', 1);
    expect((await core.listNamespacedEvent({ namespace: ns })).items.length).toBeGreaterThan(0);
    expect(cluster.snapshot({ kinds: ['Event'] })).toEqual([]);
    expect(cluster.snapshot().some((o) => o.kind === 'Deployment')).toBe(true);
    expect(cluster.snapshot({ kinds: ['Event'], includeBootstrap: true }).length).toBe((await core.listNamespacedEvent({ namespace: ns })).items.length);
    // An Event a test writes is the test's, and shows.
    await core.createNamespacedEvent({ namespace: ns, body: { metadata: { name: 'mine' }, involvedObject: { kind: 'Pod', name: 'x', namespace: ns }, reason: 'Mine', message: 'm', type: 'Normal' } });
    expect(cluster.snapshot({ kinds: ['Event'] }).map((e) => e.metadata?.name)).toEqual(['mine']);
  });

  it('an Event the server refuses is dropped; the controllers carry on', async () => {
    const { core, apps } = await start();
    const admission = cluster.kubeConfig.makeApiClient(k8s.AdmissionregistrationV1Api);
    await admission.createValidatingAdmissionPolicy({
      body: {
        metadata: { name: 'no-events' },
        spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: [{ apiGroups: ['', 'events.k8s.io'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['events'] }] }, validations: [{ expression: 'false', message: 'no events here' }] },
      },
    });
    await admission.createValidatingAdmissionPolicyBinding({ body: { metadata: { name: 'no-events' }, spec: { policyName: 'no-events', validationActions: ['Deny'] } } });
    await cluster.settle();
    await createDeployment(apps, 'web', 2);
    const web = await apps.readNamespacedDeployment({ name: 'web', namespace: ns });
    expect(web.status?.availableReplicas).toBe(2);
    expect((await core.listNamespacedEvent({ namespace: ns })).items).toEqual([]);
  });

  it('a cluster without workloads records no Events', async () => {
    cluster = await createFakeCluster({ deterministic: true });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedPod({ namespace: ns, body: { metadata: { name: 'p' }, spec: { containers: container() } } });
    await cluster.settle();
    expect((await core.listNamespacedEvent({ namespace: ns })).items).toEqual([]);
  });
});

describe.skipIf(!kubectlAvailable)('kubectl against kubefake serve --workloads', () => {
  it('describe pod and deployment show their Events; get events lists them', async () => {
    const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kubefake-events-')), 'config');
    const run = serve(['serve', '--workloads', '--kubeconfig', kubeconfig]);
    await run.ready;
    try {
      await expect.poll(() => run.output().stdout).toContain('Stop it with Ctrl-C.');
      const kubectl = kubectlRunner(readFileSync(kubeconfig, 'utf8'));
      expect(await kubectl(['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=2'])).toMatchObject({ code: 0 });
      expect(await kubectl(['rollout', 'status', 'deployment/web', '--timeout=30s'])).toMatchObject({ code: 0 });
      const pod = (await kubectl(['get', 'pods', '-o', 'jsonpath={.items[0].metadata.name}'])).stdout;
      // The kubelet records Started right after the status that made the pod Ready.
      await expect
        .poll(async () => (await kubectl(['describe', 'pod', pod])).stdout, { timeout: 10_000 })
        .toMatch(/Normal\s+Started\s+\S+\s+kubelet\s+(spec\.containers\{nginx\}: )?Container started/);
      const described = (await kubectl(['describe', 'pod', pod])).stdout;
      const events = described.slice(described.indexOf('Events:'));
      expect(events).toMatch(/^Events:\n\s+Type\s+Reason\s+Age\s+From\s+Message\n/);
      expect(events).toMatch(new RegExp(`Normal\\s+Scheduled\\s+\\S+\\s+default-scheduler\\s+Successfully assigned default/${pod} to kubefake-node-1`));
      expect(events).toMatch(/Normal\s+Created\s+\S+\s+kubelet\s+(spec\.containers\{nginx\}: )?Container created/);

      const deployment = (await kubectl(['describe', 'deployment', 'web'])).stdout;
      expect(deployment).toMatch(/Normal\s+ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled up replica set web-\w+ from 0 to 2/);

      const listed = await kubectl(['get', 'events']);
      expect(listed.code).toBe(0);
      expect(listed.stdout.split('\n')[0]).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/);
      expect(listed.stdout).toMatch(/Normal\s+ScalingReplicaSet\s+deployment\/web\s+Scaled up replica set web-\w+ from 0 to 2/);
      expect(listed.stdout).toMatch(new RegExp(`Normal\\s+Scheduled\\s+pod/${pod}\\s+Successfully assigned default/${pod} to kubefake-node-1`));
      const selected = await kubectl(['get', 'events', '--field-selector', `involvedObject.name=${pod},reason=Pulled`, '-o', 'jsonpath={.items[*].reason}']);
      expect(selected.stdout).toBe('Pulled');
    } finally {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    }
  }, 90_000);
});
