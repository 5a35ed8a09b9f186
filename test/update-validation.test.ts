// What an update may change, as kube-apiserver v1.36's update validation answers it
// (pkg/apis/core/validation ValidatePodUpdate, ValidatePersistentVolumeClaimUpdate,
// ValidatePersistentVolumeUpdate; pkg/apis/batch/validation ValidateJobSpecUpdate), through
// client-node: the exact texts and field paths. The go-cmp diff a few messages end with is
// unstable by design upstream, so only its shape is asserted.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { expectStatus } from './support/status.ts';
import { statusCauses as causes, causeLines as lines, useValidationCluster } from './support/validation.ts';

const api = useValidationCluster();

const ns = 'default';

const POD_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

async function createPod(name: string, spec: Partial<k8s.V1PodSpec> = {}): Promise<k8s.V1Pod> {
  return api.core.createNamespacedPod({ namespace: ns, body: { metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec } } });
}
const replacePod = (pod: k8s.V1Pod) => api.core.replaceNamespacedPod({ name: pod.metadata!.name!, namespace: ns, body: pod });

describe('Pod updates (ValidatePodUpdate)', () => {
  it('let the image, tolerations added, and a lower activeDeadlineSeconds through', async () => {
    const pod = await createPod('mutable', { activeDeadlineSeconds: 100, tolerations: [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] });
    pod.spec!.containers[0]!.image = 'nginx:1.28';
    pod.spec!.activeDeadlineSeconds = 50;
    pod.spec!.tolerations = [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }, { key: 'b', operator: 'Equal', value: 'x' }];
    const updated = await replacePod(pod);
    expect(updated.spec!.containers[0]!.image).toBe('nginx:1.28');
    expect(updated.spec!.activeDeadlineSeconds).toBe(50);
    // The two given, and DefaultTolerationSeconds' not-ready and unreachable ones (it admits updates too).
    expect(updated.spec!.tolerations!.map((t) => t.key)).toEqual(['a', 'b', 'node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']);
  });

  it('refuses any other spec change with one Forbidden on spec carrying the go-cmp diff', async () => {
    const pod = await createPod('immutable');
    pod.spec!.containers[0]!.env = [{ name: 'MODE', value: 'fast' }];
    pod.spec!.hostname = 'renamed';
    const status = await expectStatus(replacePod(pod), { code: 422, reason: 'Invalid' });
    const [cause, ...rest] = causes(status);
    expect(rest).toEqual([]);
    expect(cause!.field).toBe('spec');
    expect(cause!.reason).toBe('FieldValueForbidden');
    const [first, ...diff] = cause!.message.split('\n');
    expect(first).toBe(`Forbidden: ${POD_FORBIDDEN}`);
    expect(diff[0]).toBe('  core.PodSpec{');
    expect(diff).toContain('- \tHostname: "",');
    expect(diff).toContain('+ \tHostname: "renamed",');
    expect(diff.some((l) => l.startsWith('- \tContainers: '))).toBe(true);
    expect(String(status.message)).toMatch(/^Pod "immutable" is invalid: spec: Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`/);
  });

  it('refuses adding or removing containers, and stops there', async () => {
    const pod = await createPod('containers');
    pod.spec!.containers.push({ name: 'sidecar', image: 'busybox' });
    pod.spec!.hostname = 'ignored';
    await expectStatus(replacePod(pod), { code: 422, reason: 'Invalid', message: 'Pod "containers" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers' });
  });

  it('checks activeDeadlineSeconds: never raised, never removed', async () => {
    const pod = await createPod('deadline', { activeDeadlineSeconds: 30 });
    pod.spec!.activeDeadlineSeconds = 60;
    await expectStatus(replacePod(pod), {
      code: 422,
      message: 'Pod "deadline" is invalid: spec.activeDeadlineSeconds: Invalid value: 60: must be less than or equal to previous value',
    });
    delete pod.spec!.activeDeadlineSeconds;
    await expectStatus(replacePod(pod), {
      code: 422,
      message: 'Pod "deadline" is invalid: spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value',
    });
  });

  it('refuses changing an existing toleration beyond its tolerationSeconds', async () => {
    const pod = await createPod('tolerations', { tolerations: [{ key: 'a', operator: 'Equal', value: 'x', effect: 'NoSchedule' }] });
    pod.spec!.tolerations = [{ key: 'a', operator: 'Equal', value: 'y', effect: 'NoSchedule' }];
    await expectStatus(replacePod(pod), {
      code: 422,
      message: 'Pod "tolerations" is invalid: spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
    });
  });

  it('lets scheduling gates be removed, never added', async () => {
    const pod = await createPod('gated', { schedulingGates: [{ name: 'example.com/a' }] });
    pod.spec!.schedulingGates = [{ name: 'example.com/b' }];
    const status = await expectStatus(replacePod(pod), { code: 422 });
    expect(lines(status)[0]).toBe("spec.schedulingGates[0].name: Forbidden: only deletion is allowed, but found new scheduling gate 'example.com/b'");
    pod.spec!.schedulingGates = [];
    const ungated = await replacePod(pod);
    expect(ungated.spec!.schedulingGates).toBeUndefined();
  });

  it('validates tolerations and refuses ephemeral containers and a node name with gates on create', async () => {
    const status = await expectStatus(
      createPod('bad-tolerations', {
        tolerations: [
          { operator: 'Equal', value: 'x' },
          { key: 'k', operator: 'Exists', value: 'v', effect: 'NoSchedule', tolerationSeconds: 3 },
          { key: 'k', operator: 'Less', effect: 'Sometimes' },
        ],
      }),
      { code: 422 },
    );
    expect(lines(status)).toEqual([
      'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      "spec.tolerations[1].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
      "spec.tolerations[1].operator: Invalid value: \"v\": value must be empty when `operator` is 'Exists'",
      'spec.tolerations[2].operator: Unsupported value: "Less": supported values: "Equal", "Exists"',
      'spec.tolerations[2].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ]);
    await expectStatus(createPod('gated-node', { nodeName: 'node-1', schedulingGates: [{ name: 'example.com/a' }] }), {
      code: 422,
      message: 'Pod "gated-node" is invalid: spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared',
    });
    await expectStatus(createPod('ephemeral', { ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }), {
      code: 422,
      message: 'Pod "ephemeral" is invalid: spec.ephemeralContainers: Forbidden: cannot be set on create',
    });
  });

  it('refuses an image with surrounding whitespace in a Pod', async () => {
    await expectStatus(api.core.createNamespacedPod({ namespace: ns, body: { metadata: { name: 'spaces' }, spec: { containers: [{ name: 'app', image: ' nginx ' }] } } }), {
      code: 422,
      message: 'Pod "spaces" is invalid: spec.containers[0].image: Invalid value: " nginx ": must not have leading or trailing whitespace',
    });
  });

  it('leaves labels and annotations free to change', async () => {
    const pod = await createPod('labels');
    pod.metadata!.labels = { tier: 'web' };
    const updated = await replacePod(pod);
    expect(updated.metadata!.labels).toEqual({ tier: 'web' });
  });
});

describe('Job updates (ValidateJobSpecUpdate)', () => {
  const job = (name: string, spec: Partial<k8s.V1JobSpec> = {}): k8s.V1Job => ({
    metadata: { name },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'work', image: 'busybox' }] } }, ...spec },
  });
  const replaceJob = (j: k8s.V1Job) => api.batch.replaceNamespacedJob({ name: j.metadata!.name!, namespace: ns, body: j });

  it('keeps completions, the selector, the template and the policies immutable', async () => {
    const created = await api.batch.createNamespacedJob({ namespace: ns, body: job('frozen', { completions: 2 }) });
    created.spec!.completions = 3;
    created.spec!.selector = { matchLabels: { other: 'x' } };
    created.spec!.template.spec!.containers[0]!.image = 'busybox:2';
    created.spec!.backoffLimitPerIndex = 1;
    const status = await expectStatus(replaceJob(created), { code: 422, reason: 'Invalid' });
    const byField = Object.fromEntries(causes(status).map((c) => [c.field, c]));
    expect(byField['spec.completions']!.message).toBe('Invalid value: 3: field is immutable');
    expect(byField['spec.selector']!.message).toBe('Invalid value: {"matchLabels":{"other":"x"}}: field is immutable');
    expect(byField['spec.template']!.reason).toBe('FieldValueInvalid');
    expect(byField['spec.template']!.message).toMatch(/^Invalid value: \{"metadata":\{.*"Spec":\{.*"Image":"busybox:2".*\}: field is immutable$/);
    expect(byField['spec.backoffLimitPerIndex']!.message).toBe('Invalid value: 1: field is immutable');
    const fresh = await api.batch.readNamespacedJob({ name: 'frozen', namespace: ns });
    fresh.spec!.completionMode = 'Indexed';
    await expectStatus(replaceJob(fresh), { code: 422, message: 'Job.batch "frozen" is invalid: spec.completionMode: Invalid value: "Indexed": field is immutable' });
  });

  it('lets an Indexed Job change completions only together with parallelism', async () => {
    const created = await api.batch.createNamespacedJob({ namespace: ns, body: job('elastic', { completionMode: 'Indexed', completions: 2, parallelism: 2 }) });
    created.spec!.completions = 4;
    await expectStatus(replaceJob(created), {
      code: 422,
      message: 'Job.batch "elastic" is invalid: spec.completions: Invalid value: 4: can only be modified in tandem with spec.parallelism',
    });
    created.spec!.parallelism = 4;
    const scaled = await replaceJob(created);
    expect(scaled.spec!.completions).toBe(4);
  });

  it('lets a suspended Job that never started change its scheduling directives, and nothing else of the template', async () => {
    const created = await api.batch.createNamespacedJob({ namespace: ns, body: job('suspended', { suspend: true }) });
    created.spec!.template.spec!.nodeSelector = { zone: 'a' };
    created.spec!.template.spec!.tolerations = [{ key: 'k', operator: 'Exists' }];
    created.spec!.template.metadata = { ...created.spec!.template.metadata, annotations: { note: 'x' } };
    const updated = await replaceJob(created);
    expect(updated.spec!.template.spec!.nodeSelector).toEqual({ zone: 'a' });
    updated.spec!.template.spec!.containers[0]!.image = 'busybox:2';
    const status = await expectStatus(replaceJob(updated), { code: 422 });
    expect(causes(status).map((c) => c.field)).toEqual(['spec.template']);
  });

  it('refuses a scheduling directive change on a Job that is not suspended', async () => {
    const created = await api.batch.createNamespacedJob({ namespace: ns, body: job('running') });
    created.spec!.template.spec!.nodeSelector = { zone: 'a' };
    const status = await expectStatus(replaceJob(created), { code: 422 });
    expect(causes(status).map((c) => c.field)).toEqual(['spec.template']);
  });
});

describe('PersistentVolumeClaim updates (ValidatePersistentVolumeClaimUpdate)', () => {
  const claim = (name: string, spec: Partial<k8s.V1PersistentVolumeClaimSpec> = {}): k8s.V1PersistentVolumeClaim => ({
    metadata: { name },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
  });
  const replaceClaim = (c: k8s.V1PersistentVolumeClaim) => api.core.replaceNamespacedPersistentVolumeClaim({ name: c.metadata!.name!, namespace: ns, body: c });
  const bind = (name: string, capacity: string) =>
    api.core.patchNamespacedPersistentVolumeClaimStatus(
      { name, namespace: ns, body: { status: { phase: 'Bound', capacity: { storage: capacity } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );

  it('freezes the spec of an unbound claim but for setting volumeName once and a storage class from nil', async () => {
    const created = await api.core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('unbound') });
    created.spec!.volumeName = 'pv-1';
    created.spec!.storageClassName = 'fast';
    const updated = await replaceClaim(created);
    expect(updated.spec).toMatchObject({ volumeName: 'pv-1', storageClassName: 'fast' });
    updated.spec!.resources!.requests = { storage: '2Gi' };
    updated.spec!.volumeName = 'pv-2';
    const status = await expectStatus(replaceClaim(updated), { code: 422, reason: 'Invalid' });
    const [cause, ...rest] = causes(status);
    expect(rest).toEqual([]);
    expect(cause!.field).toBe('spec');
    const [first, ...diff] = cause!.message.split('\n');
    expect(first).toBe('Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims');
    expect(diff[0]).toBe('  core.PersistentVolumeClaimSpec{');
    expect(diff).toContain('- \tVolumeName: "pv-1",');
    expect(diff).toContain('+ \tVolumeName: "pv-2",');
    // Unbound, so the request is frozen too (a bound claim's request is munged out of the diff).
    expect(diff).toContain('+ \tResources: {Requests: {"storage": "2Gi"}},');
  });

  it('lets a bound claim grow, or shrink while staying above status.capacity', async () => {
    // Growing also needs a class that allows expansion (PersistentVolumeClaimResize admission).
    await api.cluster.apply({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'expandable' }, provisioner: 'example.com/p', allowVolumeExpansion: true });
    await api.core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('bound', { storageClassName: 'expandable', resources: { requests: { storage: '5Gi' } } }) });
    await bind('bound', '2Gi');
    const current = await api.core.readNamespacedPersistentVolumeClaim({ name: 'bound', namespace: ns });
    current.spec!.resources!.requests = { storage: '10Gi' };
    const grown = await replaceClaim(current);
    expect(grown.spec!.resources!.requests).toEqual({ storage: '10Gi' });
    grown.spec!.resources!.requests = { storage: '3Gi' };
    const shrunk = await replaceClaim(grown);
    shrunk.spec!.resources!.requests = { storage: '2Gi' };
    await expectStatus(replaceClaim(shrunk), {
      code: 422,
      message: 'PersistentVolumeClaim "bound" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than status.capacity',
    });
    shrunk.spec!.resources!.requests = { storage: '3Gi' };
    shrunk.spec!.volumeMode = 'Block';
    const status = await expectStatus(replaceClaim(shrunk), { code: 422 });
    expect(lines(status).map((l) => l.split('\n')[0])).toEqual([
      'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
      'volumeMode: Invalid value: "Block": field is immutable',
    ]);
  });
});

describe('PersistentVolume updates (ValidatePersistentVolumeUpdate)', () => {
  const volume = (name: string): k8s.V1PersistentVolume => ({
    metadata: { name },
    spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/data' } },
  });

  it('keeps the source immutable and lets capacity and the reclaim policy change', async () => {
    const created = await api.core.createPersistentVolume({ body: volume('pv-source') });
    created.spec!.capacity = { storage: '2Gi' };
    created.spec!.persistentVolumeReclaimPolicy = 'Delete';
    const updated = await api.core.replacePersistentVolume({ name: 'pv-source', body: created });
    expect(updated.spec!.capacity).toEqual({ storage: '2Gi' });
    updated.spec!.hostPath = { path: '/other' };
    const status = await expectStatus(api.core.replacePersistentVolume({ name: 'pv-source', body: updated }), { code: 422, reason: 'Invalid' });
    const [cause] = causes(status);
    expect(cause!.field).toBe('spec.persistentvolumesource');
    const [first, ...diff] = cause!.message.split('\n');
    expect(first).toBe('Forbidden: spec.persistentvolumesource is immutable after creation');
    expect(diff[0]).toBe('  core.PersistentVolumeSource{');
    expect(diff).toContain('- \tHostPath: &{Path: "/data"},');
    expect(diff).toContain('+ \tHostPath: &{Path: "/other"},');
  });

  it('keeps the volume mode immutable under its Go path', async () => {
    const created = await api.core.createPersistentVolume({ body: volume('pv-mode') });
    created.spec!.volumeMode = 'Block';
    await expectStatus(api.core.replacePersistentVolume({ name: 'pv-mode', body: created }), {
      code: 422,
      message: 'PersistentVolume "pv-mode" is invalid: volumeMode: Invalid value: "Block": field is immutable',
    });
  });
});
