// The status and scale subresources of built-in kinds through client-node's typed APIs: the
// workloads' Scale (apps/v1 ScaleREST), and what each kind's StatusStrategy takes from the stored
// object, with the status validations that are ported.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { warningTexts } from './support/warnings.ts';

let cluster: FakeCluster;
let apps: k8s.AppsV1Api;
let core: k8s.CoreV1Api;
let batch: k8s.BatchV1Api;

const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const strategic = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch);

beforeEach(async () => {
  cluster = await createFakeCluster();
  apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  batch = cluster.kubeConfig.makeApiClient(k8s.BatchV1Api);
});
afterEach(() => cluster.close());

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

function deployment(name = 'web'): k8s.V1Deployment {
  return { metadata: { name, labels: { team: 'a' } }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template } };
}

describe('scale of the apps/v1 workloads', () => {
  it('reads a Deployment Scale: spec and status replicas and the selector as a string', async () => {
    const created = await apps.createNamespacedDeployment({ namespace: 'default', body: deployment() });
    const scale = await apps.readNamespacedDeploymentScale({ name: 'web', namespace: 'default' });
    expect(scale.apiVersion).toBe('autoscaling/v1');
    expect(scale.kind).toBe('Scale');
    expect(scale.metadata?.name).toBe('web');
    expect(scale.metadata?.namespace).toBe('default');
    expect(scale.metadata?.uid).toBe(created.metadata?.uid);
    expect(scale.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    expect(scale.spec?.replicas).toBe(2);
    expect(scale.status).toEqual({ replicas: 0, selector: 'app=web' });
  });

  it('replaceNamespacedDeploymentScale sets spec.replicas and bumps the generation', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment() });
    const scale = await apps.readNamespacedDeploymentScale({ name: 'web', namespace: 'default' });
    const answered = await apps.replaceNamespacedDeploymentScale({ name: 'web', namespace: 'default', body: { ...scale, spec: { replicas: 5 } } });
    expect(answered.spec?.replicas).toBe(5);
    const stored = await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' });
    expect(stored.spec?.replicas).toBe(5);
    expect(stored.metadata?.generation).toBe(2);
  });

  it('patches a Scale with merge and strategic merge patches', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment() });
    expect((await apps.patchNamespacedDeploymentScale({ name: 'web', namespace: 'default', body: { spec: { replicas: 3 } } }, merge)).spec?.replicas).toBe(3);
    expect((await apps.patchNamespacedDeploymentScale({ name: 'web', namespace: 'default', body: { spec: { replicas: 4 } } }, strategic)).spec?.replicas).toBe(4);
    expect((await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' })).spec?.replicas).toBe(4);
  });

  it('validates the Scale: negative replicas are a 422 on Scale.autoscaling', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment() });
    await expectStatus(apps.patchNamespacedDeploymentScale({ name: 'web', namespace: 'default', body: { spec: { replicas: -1 } } }, merge), {
      code: 422,
      reason: 'Invalid',
      message: 'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    });
  });

  it('takes the Scale uid as a precondition, and its resourceVersion when set', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment() });
    const scale = await apps.readNamespacedDeploymentScale({ name: 'web', namespace: 'default' });
    const uid = '00000000-0000-0000-0000-000000000000';
    await expectStatus(apps.replaceNamespacedDeploymentScale({ name: 'web', namespace: 'default', body: { ...scale, metadata: { ...scale.metadata, uid } } }), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on deployments/scale.apps "web": Precondition failed: UID in precondition: ${uid}, UID in object meta: ${scale.metadata?.uid}`,
    });
    await apps.patchNamespacedDeployment({ name: 'web', namespace: 'default', body: { metadata: { labels: { b: 'c' } } } }, merge);
    await expectStatus(apps.replaceNamespacedDeploymentScale({ name: 'web', namespace: 'default', body: { ...scale, spec: { replicas: 1 } } }), {
      code: 409,
      message: 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
    });
    // Without a resourceVersion a Deployment scale is unconditional.
    const { resourceVersion: _rv, ...metadata } = scale.metadata!;
    expect((await apps.replaceNamespacedDeploymentScale({ name: 'web', namespace: 'default', body: { ...scale, metadata, spec: { replicas: 1 } } })).spec?.replicas).toBe(1);
  });

  it('serves the Scale of ReplicaSets and StatefulSets; DaemonSets have none', async () => {
    const selector = { matchLabels: { app: 'web' } };
    await apps.createNamespacedReplicaSet({ namespace: 'default', body: { metadata: { name: 'rs' }, spec: { replicas: 1, selector, template } } });
    await apps.createNamespacedStatefulSet({ namespace: 'default', body: { metadata: { name: 'sts' }, spec: { replicas: 2, selector, serviceName: 'sts', template } } });
    await apps.createNamespacedDaemonSet({ namespace: 'default', body: { metadata: { name: 'ds' }, spec: { selector, template } } });
    expect(await apps.readNamespacedReplicaSetScale({ name: 'rs', namespace: 'default' })).toMatchObject({ spec: { replicas: 1 }, status: { replicas: 0, selector: 'app=web' } });
    const sts = await apps.patchNamespacedStatefulSetScale({ name: 'sts', namespace: 'default', body: { spec: { replicas: 6 } } }, merge);
    expect(sts.spec?.replicas).toBe(6);
    expect((await apps.readNamespacedStatefulSet({ name: 'sts', namespace: 'default' })).spec?.replicas).toBe(6);
    const response = await cluster.handle(new Request(`${cluster.url}/apis/apps/v1/namespaces/default/daemonsets/ds/scale`));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ reason: 'NotFound', message: 'the server could not find the requested resource' });
  });

  it('records status and scale writers in managedFields with their subresource', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment() });
    await apps.patchNamespacedDeploymentStatus({ name: 'web', namespace: 'default', body: { status: { replicas: 1 } }, fieldManager: 'ctrl' }, merge);
    await apps.patchNamespacedDeploymentScale({ name: 'web', namespace: 'default', body: { spec: { replicas: 3 } }, fieldManager: 'hpa' }, merge);
    const managed = (await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' })).metadata?.managedFields ?? [];
    const entry = (manager: string) => managed.find((m) => m.manager === manager);
    expect(entry('ctrl')).toMatchObject({ operation: 'Update', apiVersion: 'apps/v1', subresource: 'status', fieldsV1: { 'f:status': { 'f:replicas': {} } } });
    expect(entry('hpa')).toMatchObject({ operation: 'Update', apiVersion: 'apps/v1', subresource: 'scale', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
  });

  it('is NotFound for a missing workload', async () => {
    await expectStatus(apps.readNamespacedDeploymentScale({ name: 'none', namespace: 'default' }), {
      code: 404,
      message: 'deployments.apps "none" not found',
    });
    await expectStatus(apps.patchNamespacedDeploymentScale({ name: 'none', namespace: 'default', body: { spec: { replicas: 1 } } }, merge), {
      code: 404,
      message: 'deployments.apps "none" not found',
    });
  });
});

describe('scale request options and bodies', () => {
  const scalePath = '/apis/apps/v1/namespaces/default/deployments/web/scale';
  const putScale = (body: string, query = '') =>
    cluster.handle(new Request(`${cluster.url}${scalePath}${query}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body }));

  it('rejects force on a merge patch of a Scale as ValidatePatchOptions does', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment() });
    await expectStatus(apps.patchNamespacedDeploymentScale({ name: 'web', namespace: 'default', body: { spec: { replicas: 3 } }, force: true }, merge), {
      code: 422,
      reason: 'Invalid',
      message: 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    });
    expect((await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' })).spec?.replicas).toBe(2);
  });

  it('checks a Scale PUT as UpdateOptions', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment() });
    const scale = await apps.readNamespacedDeploymentScale({ name: 'web', namespace: 'default' });
    await expectStatus(apps.replaceNamespacedDeploymentScale({ name: 'web', namespace: 'default', body: scale, fieldValidation: 'Loose' }), {
      code: 422,
      message: 'UpdateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"',
    });
  });

  it('decodes a Scale PUT strictly: duplicate fields fail under Strict and are warnings under Warn', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment() });
    const body = '{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web","name":"web"},"spec":{"replicas":4,"replicas":5}}';
    const strict = await putScale(body, '?fieldValidation=Strict');
    expect(strict.status).toBe(400);
    expect(await strict.json()).toMatchObject({
      reason: 'BadRequest',
      message: 'Scale in version "v1" cannot be handled as a Scale: strict decoding error: duplicate field "metadata.name", duplicate field "spec.replicas"',
    });
    expect((await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' })).spec?.replicas).toBe(2);

    const warned = await putScale(body);
    expect(warned.status).toBe(200);
    expect(warningTexts(warned.headers.get('warning'))).toEqual(['duplicate field "metadata.name"', 'duplicate field "spec.replicas"']);
    expect(((await warned.json()) as { spec: { replicas: number } }).spec.replicas).toBe(5);

    const ignored = await putScale(body.replace('"replicas":5', '"replicas":6'), '?fieldValidation=Ignore');
    expect(ignored.status).toBe(200);
    expect(ignored.headers.get('warning')).toBeNull();
  });

  it('answers a Scale PUT whose metadata is not an object with the json decode error', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment() });
    const res = await putScale('{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":"web","spec":{"replicas":4}}');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      kind: 'Status',
      code: 400,
      reason: 'BadRequest',
      message: 'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal string into Go struct field Scale.metadata of type v1.ObjectMeta',
    });
    // encoding/json reports the first misfit field in document order.
    const specFirst = await putScale('{"spec":[],"metadata":7}');
    expect(((await specFirst.json()) as { message: string }).message).toBe(
      'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal array into Go struct field Scale.spec of type v1.ScaleSpec',
    );
    expect((await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' })).spec?.replicas).toBe(2);
  });
});

describe('Table output of subresources', () => {
  it('prints the age of a Deployment /status on the cluster clock', async () => {
    await using fake = await createFakeCluster({ deterministic: true });
    await fake.kubeConfig.makeApiClient(k8s.AppsV1Api).createNamespacedDeployment({ namespace: 'default', body: deployment() });
    fake.clock.advance(90 * 60_000);
    const res = await fake.handle(
      new Request(`${fake.url}/apis/apps/v1/namespaces/default/deployments/web/status`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }),
    );
    expect(res.status).toBe(200);
    const table = (await res.json()) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    const age = table.columnDefinitions.findIndex((c) => c.name === 'Age');
    expect(table.rows[0]!.cells[0]).toBe('web');
    expect(table.rows[0]!.cells[age]).toBe('90m');
  });
});

describe('status of built-in kinds', () => {
  it('Deployment: a status write keeps spec and labels, takes annotations, leaves generation', async () => {
    const created = await apps.createNamespacedDeployment({ namespace: 'default', body: deployment() });
    const body: k8s.V1Deployment = {
      ...created,
      metadata: { ...created.metadata, labels: { team: 'b' }, annotations: { note: 'x' } },
      spec: { ...created.spec!, replicas: 9 },
      status: { replicas: 2, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1 },
    };
    const updated = await apps.replaceNamespacedDeploymentStatus({ name: 'web', namespace: 'default', body });
    expect(updated.spec?.replicas).toBe(2);
    expect(updated.metadata?.labels).toEqual({ team: 'a' });
    expect(updated.metadata?.annotations).toEqual({ note: 'x' });
    expect(updated.metadata?.generation).toBe(1);
    expect(updated.status).toMatchObject({ replicas: 2, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1 });
    // A main-resource write cannot touch the status.
    const patched = await apps.patchNamespacedDeployment({ name: 'web', namespace: 'default', body: { status: { replicas: 7 } } }, merge);
    expect(patched.status?.replicas).toBe(2);
  });

  it('Deployment: status counts are validated', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment() });
    await expectStatus(apps.patchNamespacedDeploymentStatus({ name: 'web', namespace: 'default', body: { status: { replicas: 1, readyReplicas: 3 } } }, merge), {
      code: 422,
      reason: 'Invalid',
      message: 'Deployment.apps "web" is invalid: status.readyReplicas: Invalid value: 3: cannot be greater than status.replicas',
    });
    await expectStatus(apps.patchNamespacedDeploymentStatus({ name: 'web', namespace: 'default', body: { status: { replicas: -1 } } }, merge), {
      code: 422,
      // Go compares the zero counts with the negative replicas too.
      message:
        'Deployment.apps "web" is invalid: [status.replicas: Invalid value: -1: must be greater than or equal to 0, ' +
        'status.updatedReplicas: Invalid value: 0: cannot be greater than status.replicas, ' +
        'status.readyReplicas: Invalid value: 0: cannot be greater than status.replicas, ' +
        'status.availableReplicas: Invalid value: 0: cannot be greater than status.replicas]',
    });
  });

  it('StatefulSet: collisionCount cannot go down', async () => {
    const selector = { matchLabels: { app: 'web' } };
    await apps.createNamespacedStatefulSet({ namespace: 'default', body: { metadata: { name: 'sts' }, spec: { selector, serviceName: 'sts', template } } });
    await apps.patchNamespacedStatefulSetStatus({ name: 'sts', namespace: 'default', body: { status: { collisionCount: 2 } } }, merge);
    await expectStatus(apps.patchNamespacedStatefulSetStatus({ name: 'sts', namespace: 'default', body: { status: { collisionCount: 1 } } }, merge), {
      code: 422,
      message: 'StatefulSet.apps "sts" is invalid: status.collisionCount: Invalid value: 1: cannot be decremented',
    });
  });

  it('DaemonSet: the template generation annotation stays with the spec', async () => {
    const selector = { matchLabels: { app: 'web' } };
    await apps.createNamespacedDaemonSet({ namespace: 'default', body: { metadata: { name: 'ds' }, spec: { selector, template } } });
    const patched = await apps.patchNamespacedDaemonSetStatus(
      { name: 'ds', namespace: 'default', body: { metadata: { annotations: { 'deprecated.daemonset.template.generation': '7' } }, status: { numberReady: 1 } } },
      merge,
    );
    expect(patched.metadata?.annotations?.['deprecated.daemonset.template.generation']).toBe('1');
    expect(patched.status?.numberReady).toBe(1);
    expect(patched.metadata?.generation).toBe(1);
  });

  it('Pod: status writes keep the spec and owner references', async () => {
    const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: '11111111-1111-1111-1111-111111111111' };
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'p', ownerReferences: [owner] }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
    const patched = await core.patchNamespacedPodStatus(
      { name: 'p', namespace: 'default', body: { metadata: { ownerReferences: null }, spec: { nodeName: 'n1' }, status: { phase: 'Running' } } },
      merge,
    );
    expect(patched.status?.phase).toBe('Running');
    expect(patched.spec?.nodeName).toBeUndefined();
    expect(patched.metadata?.ownerReferences).toEqual([owner]);
    expect(patched.status?.qosClass).toBe('BestEffort');
  });

  it('Namespace: the phase must agree with deletionTimestamp', async () => {
    await core.createNamespace({ body: { metadata: { name: 'team' } } });
    await expectStatus(core.patchNamespaceStatus({ name: 'team', body: { status: { phase: 'Terminating' } } }, merge), {
      code: 422,
      reason: 'Invalid',
      message: 'Namespace "team" is invalid: status.Phase: Invalid value: "Terminating": may only be \'Active\' if `deletionTimestamp` is empty',
    });
    const ns = await core.readNamespaceStatus({ name: 'team' });
    const updated = await core.replaceNamespaceStatus({ name: 'team', body: { ...ns, spec: { finalizers: [] }, status: { phase: 'Active', conditions: [] } } });
    expect(updated.spec?.finalizers).toEqual(['kubernetes']);
  });

  it('Node, Service, Job and CronJob: status writes keep the spec', async () => {
    await core.createNode({ body: { metadata: { name: 'n1' }, spec: { podCIDR: '10.0.0.0/24' } } });
    const node = await core.patchNodeStatus({ name: 'n1', body: { spec: { unschedulable: true }, status: { capacity: { cpu: '4' } } } }, merge);
    expect(node.spec?.unschedulable).toBeUndefined();
    expect(node.status?.capacity).toEqual({ cpu: '4' });
    expect(node.status?.allocatable).toEqual({ cpu: '4' });

    await core.createNamespacedService({ namespace: 'default', body: { metadata: { name: 'svc' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } } });
    const svc = await core.patchNamespacedServiceStatus(
      { name: 'svc', namespace: 'default', body: { spec: { type: 'ClusterIP' }, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } } },
      merge,
    );
    expect(svc.spec?.type).toBe('LoadBalancer');
    expect(svc.status?.loadBalancer?.ingress).toEqual([{ ip: '1.2.3.4' }]);

    const jobTemplate = { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } };
    await batch.createNamespacedJob({ namespace: 'default', body: { metadata: { name: 'j' }, spec: { template: jobTemplate } } });
    const job = await batch.patchNamespacedJobStatus({ name: 'j', namespace: 'default', body: { spec: { parallelism: 5 }, status: { active: 1 } } }, merge);
    expect(job.spec?.parallelism).toBe(1);
    expect(job.status?.active).toBe(1);
    await expectStatus(batch.patchNamespacedJobStatus({ name: 'j', namespace: 'default', body: { status: { failed: -1 } } }, merge), {
      code: 422,
      // ValidateJobStatusUpdate: the counter's own rule, then RejectDecreasingFailedCounter.
      message: 'Job.batch "j" is invalid: [status.failed: Invalid value: -1: must be greater than or equal to 0, status.failed: Invalid value: -1: cannot decrease the failed counter]',
    });

    await batch.createNamespacedCronJob({ namespace: 'default', body: { metadata: { name: 'cj' }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: jobTemplate } } } } });
    const cj = await batch.patchNamespacedCronJobStatus({ name: 'cj', namespace: 'default', body: { spec: { schedule: '0 * * * *' }, status: { lastScheduleTime: new Date('2024-01-01T00:00:00Z') } } }, merge);
    expect(cj.spec?.schedule).toBe('* * * * *');
    expect(cj.status?.lastScheduleTime?.toISOString()).toBe('2024-01-01T00:00:00.000Z');
  });

  it('kinds without a status subresource have no /status path', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cm' } } });
    const response = await cluster.handle(new Request(`${cluster.url}/api/v1/namespaces/default/configmaps/cm/status`));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ reason: 'NotFound', message: 'the server could not find the requested resource' });
  });

  it('answers DELETE on a built-in /status with go-restful\'s 405', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment() });
    const response = await cluster.handle(new Request(`${cluster.url}/apis/apps/v1/namespaces/default/deployments/web/status`, { method: 'DELETE' }));
    expect(response.status).toBe(405);
  });
});
