// Volumes on a workloads cluster (createFakeCluster({ workloads: true })), through
// @kubernetes/client-node on a frozen clock: kind's `standard` StorageClass, claims bound to
// matching PersistentVolumes by the PersistentVolume controller (phases and annotations),
// dynamic provisioning for Immediate and WaitForFirstConsumer classes, the reclaim policies,
// generic ephemeral volumes' claims, and
// the scheduler's VolumeBinding (a pod waits for its claims, with the scheduler's messages);
// `kubectl rollout status sts` and `kubectl get pvc,pv`.
import * as k8s from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
let apps: k8s.AppsV1Api;
let storage: k8s.StorageV1Api;
afterEach(() => cluster?.close());

const namespace = 'default';

async function start(): Promise<void> {
  cluster = await createFakeCluster({ deterministic: true, workloads: true, nodes: 2 });
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  storage = cluster.kubeConfig.makeApiClient(k8s.StorageV1Api);
}

const volume = (name: string, size: string, spec: Partial<k8s.V1PersistentVolumeSpec> = {}, labels?: Record<string, string>): k8s.V1PersistentVolume => ({
  metadata: { name, ...(labels ? { labels } : {}) },
  spec: { capacity: { storage: size }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', storageClassName: '', hostPath: { path: `/tmp/${name}` }, ...spec },
});
const claim = (name: string, size: string, spec: Partial<k8s.V1PersistentVolumeClaimSpec> = {}): k8s.V1PersistentVolumeClaim => ({
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } }, ...spec },
});
const podUsing = (name: string, ...claimNames: string[]): k8s.V1Pod => ({
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'busybox' }], volumes: claimNames.map((c, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: c } })) },
});
const readClaim = (name: string) => core.readNamespacedPersistentVolumeClaim({ name, namespace });
const readVolume = (name: string) => core.readPersistentVolume({ name });
const scheduled = async (name: string) => (await core.readNamespacedPod({ name, namespace })).status?.conditions?.find((c) => c.type === 'PodScheduled');
const preemption = 'preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.';

describe('the standard StorageClass', () => {
  it('is registered as kind registers it: the default class, local-path provisioner, WaitForFirstConsumer', async () => {
    await start();
    const standard = await storage.readStorageClass({ name: 'standard' });
    expect(standard).toMatchObject({
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'rancher.io/local-path',
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    });
    // DefaultStorageClass admission gives it to a claim created without a class.
    expect((await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('data', '1Gi') })).spec?.storageClassName).toBe('standard');
  });

  it('leaves a claim with no consumer Pending, unprovisioned', async () => {
    await start();
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('data', '1Gi') });
    await cluster.settle();
    const pending = await readClaim('data');
    expect(pending.status?.phase).toBe('Pending');
    expect(pending.spec?.volumeName).toBeUndefined();
    expect(pending.metadata?.annotations).toBeUndefined();
    expect((await core.listPersistentVolume()).items).toEqual([]);
  });

  it('provisions a volume on the node the scheduler picks for the first consumer, then binds the pod', async () => {
    await start();
    const created = await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('data', '1Gi') });
    await core.createNamespacedPod({ namespace, body: podUsing('app', 'data') });
    await cluster.settle();
    const pod = await core.readNamespacedPod({ name: 'app', namespace });
    const node = pod.spec?.nodeName;
    expect(node).toBe('kubefake-node-1');
    const bound = await readClaim('data');
    const pvName = `pvc-${created.metadata!.uid}`;
    expect(bound.spec?.volumeName).toBe(pvName);
    expect(bound.metadata?.annotations).toEqual({
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
      'volume.beta.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
      'volume.kubernetes.io/selected-node': node,
      'volume.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
    });
    expect(bound.status).toEqual({ phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } });
    // Each writer under its own name: the scheduler chose the node, the controller bound.
    expect(bound.metadata?.managedFields?.map((f) => [f.manager, f.subresource ?? '']).sort()).toEqual([
      ['kube-controller-manager', ''],
      ['kube-controller-manager', 'status'],
      ['kube-scheduler', ''],
      ['kubernetes-client-javascript', ''],
    ]);
    const pv = await readVolume(pvName);
    // The provisioner made it pre-bound; the controller only moved its phase.
    expect(pv.metadata?.managedFields?.map((f) => [f.manager, f.subresource ?? '']).sort()).toEqual([
      ['kube-controller-manager', 'status'],
      ['local-path-provisioner', ''],
    ]);
    expect(pv.metadata?.annotations).toEqual({ 'local.path.provisioner/selected-node': node, 'pv.kubernetes.io/provisioned-by': 'rancher.io/local-path' });
    expect(pv.spec).toMatchObject({
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: '1Gi' },
      claimRef: { kind: 'PersistentVolumeClaim', namespace, name: 'data', uid: created.metadata!.uid, apiVersion: 'v1' },
      hostPath: { path: `/var/local-path-provisioner/${pvName}_default_data`, type: 'DirectoryOrCreate' },
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } },
      persistentVolumeReclaimPolicy: 'Delete',
      storageClassName: 'standard',
      volumeMode: 'Filesystem',
    });
    expect(pv.status?.phase).toBe('Bound');
    // The claim goes: its volume is Released and deleted by its provisioner (reclaimPolicy Delete).
    await core.deleteNamespacedPod({ name: 'app', namespace, gracePeriodSeconds: 0 });
    await core.deleteNamespacedPersistentVolumeClaim({ name: 'data', namespace });
    await cluster.settle();
    expect((await core.listPersistentVolume()).items).toEqual([]);
  });

  it('gives each StatefulSet pod its own provisioned volume on the pod\'s node', async () => {
    await start();
    await apps.createNamespacedStatefulSet({
      namespace,
      body: {
        metadata: { name: 'web' },
        spec: {
          serviceName: 'web',
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } },
          volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
        },
      },
    });
    await cluster.settle();
    const set = await apps.readNamespacedStatefulSet({ name: 'web', namespace });
    expect(set.status).toMatchObject({ replicas: 2, readyReplicas: 2 });
    for (const ordinal of [0, 1]) {
      const pod = await core.readNamespacedPod({ name: `web-${ordinal}`, namespace });
      const bound = await readClaim(`www-web-${ordinal}`);
      expect(bound.status?.phase).toBe('Bound');
      const pv = await readVolume(bound.spec!.volumeName!);
      expect(pv.spec?.nodeAffinity?.required?.nodeSelectorTerms[0]?.matchExpressions?.[0]?.values).toEqual([pod.spec!.nodeName]);
    }
  });
});

describe('static binding', () => {
  it('binds a claim to the smallest Available volume that fits, with the controller\'s annotations and phases', async () => {
    await start();
    await core.createPersistentVolume({ body: volume('big', '10Gi') });
    await core.createPersistentVolume({ body: volume('small', '2Gi') });
    await core.createPersistentVolume({ body: volume('tiny', '500Mi') });
    await cluster.settle();
    expect((await readVolume('small')).status?.phase).toBe('Available');
    const created = await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('data', '1Gi', { storageClassName: '' }) });
    await cluster.settle();
    const bound = await readClaim('data');
    expect(bound.spec?.volumeName).toBe('small');
    expect(bound.metadata?.annotations).toEqual({ 'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes' });
    expect(bound.status).toEqual({ phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '2Gi' } });
    const pv = await readVolume('small');
    expect(pv.metadata?.annotations).toEqual({ 'pv.kubernetes.io/bound-by-controller': 'yes' });
    expect(pv.spec?.claimRef).toMatchObject({ kind: 'PersistentVolumeClaim', namespace, name: 'data', uid: created.metadata!.uid, apiVersion: 'v1' });
    expect(pv.status?.phase).toBe('Bound');
    expect((await readVolume('big')).status?.phase).toBe('Available');
  });

  it('matches the claim\'s selector, access modes, class and volumeMode, and keeps it Pending when nothing matches', async () => {
    await start();
    await core.createPersistentVolume({ body: volume('plain', '5Gi') });
    await core.createPersistentVolume({ body: volume('fast', '5Gi', {}, { tier: 'fast' }) });
    await core.createPersistentVolume({ body: volume('shared', '5Gi', { accessModes: ['ReadWriteMany'] }) });
    await core.createPersistentVolume({ body: volume('block', '5Gi', { volumeMode: 'Block' }) });
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('by-label', '1Gi', { storageClassName: '', selector: { matchLabels: { tier: 'fast' } } }) });
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('many', '1Gi', { storageClassName: '', accessModes: ['ReadWriteMany'] }) });
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('raw', '1Gi', { storageClassName: '', volumeMode: 'Block' }) });
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('huge', '50Gi', { storageClassName: '' }) });
    await cluster.settle();
    expect((await readClaim('by-label')).spec?.volumeName).toBe('fast');
    expect((await readClaim('many')).spec?.volumeName).toBe('shared');
    expect((await readClaim('raw')).spec?.volumeName).toBe('block');
    const huge = await readClaim('huge');
    expect(huge.status).toEqual({ phase: 'Pending' });
    expect(huge.spec?.volumeName).toBeUndefined();
    expect((await readVolume('plain')).status?.phase).toBe('Available');
  });

  it('binds pre-bound pairs: a claim naming its volume, a volume naming its claim', async () => {
    await start();
    await core.createPersistentVolume({ body: volume('chosen', '10Gi') });
    await core.createPersistentVolume({ body: volume('reserved', '20Gi', { claimRef: { namespace, name: 'wants-reserved' } }) });
    await core.createPersistentVolume({ body: volume('other', '1Gi') });
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('names-volume', '1Gi', { storageClassName: '', volumeName: 'chosen' }) });
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('wants-reserved', '1Gi', { storageClassName: '' }) });
    await cluster.settle();
    const named = await readClaim('names-volume');
    expect(named.status?.phase).toBe('Bound');
    // The user chose the volume: no bound-by-controller on the claim; the controller set the volume's claimRef.
    expect(named.metadata?.annotations).toEqual({ 'pv.kubernetes.io/bind-completed': 'yes' });
    expect((await readVolume('chosen')).metadata?.annotations).toEqual({ 'pv.kubernetes.io/bound-by-controller': 'yes' });
    const reserved = await readClaim('wants-reserved');
    expect(reserved.spec?.volumeName).toBe('reserved');
    expect(reserved.metadata?.annotations).toEqual({ 'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes' });
    expect((await readVolume('reserved')).metadata?.annotations).toBeUndefined();
    expect((await readVolume('other')).status?.phase).toBe('Available');
  });

  it('keeps a claim naming a missing volume Pending until the volume comes', async () => {
    await start();
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('data', '1Gi', { storageClassName: '', volumeName: 'later' }) });
    await cluster.settle();
    expect((await readClaim('data')).status?.phase).toBe('Pending');
    await core.createPersistentVolume({ body: volume('later', '1Gi') });
    await cluster.settle();
    expect((await readClaim('data')).status?.phase).toBe('Bound');
    expect((await readVolume('later')).status?.phase).toBe('Bound');
  });
});

describe('a volume that does not satisfy the claim naming it', () => {
  it('leaves the claim Pending and the volume Available', async () => {
    await start();
    await core.createPersistentVolume({ body: volume('small', '1Gi') });
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('data', '5Gi', { storageClassName: '', volumeName: 'small' }) });
    await cluster.settle();
    expect((await readClaim('data')).status).toEqual({ phase: 'Pending' });
    const pv = await readVolume('small');
    expect(pv.status?.phase).toBe('Available');
    expect(pv.spec?.claimRef).toBeUndefined();
  });
});

describe('reclaiming', () => {
  const bindAndRelease = async (pv: k8s.V1PersistentVolume) => {
    await core.createPersistentVolume({ body: pv });
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('data', '1Gi', { storageClassName: '' }) });
    await cluster.settle();
    expect((await readClaim('data')).status?.phase).toBe('Bound');
    await core.deleteNamespacedPersistentVolumeClaim({ name: 'data', namespace });
    await cluster.settle();
  };

  it('Retain: the volume is Released and keeps its claimRef', async () => {
    await start();
    await bindAndRelease(volume('kept', '1Gi'));
    const pv = await readVolume('kept');
    expect(pv.status?.phase).toBe('Released');
    expect(pv.spec?.claimRef?.name).toBe('data');
    // A new claim of the same name does not get a Released volume back.
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('data', '1Gi', { storageClassName: '' }) });
    await cluster.settle();
    expect((await readClaim('data')).status?.phase).toBe('Pending');
  });

  it('Delete: a hostPath volume under /tmp is deleted', async () => {
    await start();
    await bindAndRelease(volume('scratch', '1Gi', { persistentVolumeReclaimPolicy: 'Delete' }));
    await expect(readVolume('scratch')).rejects.toMatchObject({ code: 404 });
  });

  it('Delete: the hostPath deleter refuses other paths and the volume goes Failed', async () => {
    await start();
    await bindAndRelease(volume('data-dir', '1Gi', { persistentVolumeReclaimPolicy: 'Delete', hostPath: { path: '/data/pv' } }));
    const pv = await readVolume('data-dir');
    expect(pv.status).toMatchObject({ phase: 'Failed', message: 'host_path deleter only supports /tmp/.+ but received provided /data/pv' });
  });

  it('Delete: a volume no plugin can delete goes Failed', async () => {
    await start();
    await bindAndRelease(volume('nfs', '1Gi', { persistentVolumeReclaimPolicy: 'Delete', hostPath: undefined, nfs: { server: 'nfs.example.com', path: '/exports' } }));
    const pv = await readVolume('nfs');
    expect(pv.status).toMatchObject({ phase: 'Failed', message: 'error getting deleter volume plugin for volume "nfs": no deletable volume plugin matched' });
  });

  it('a bound claim whose volume is deleted is Lost', async () => {
    await start();
    await core.createPersistentVolume({ body: volume('gone', '1Gi') });
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('data', '1Gi', { storageClassName: '' }) });
    await cluster.settle();
    // A bound volume is held by pv-protection; taken off by hand (kubectl patch), the delete goes through.
    await core.deletePersistentVolume({ name: 'gone' });
    await cluster.settle();
    expect((await readVolume('gone')).metadata?.finalizers).toEqual(['kubernetes.io/pv-protection']);
    await core.patchPersistentVolume({ name: 'gone', body: [{ op: 'remove', path: '/metadata/finalizers' }] }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch));
    await cluster.settle();
    expect((await readClaim('data')).status).toEqual({ phase: 'Lost' });
    // And a pod using it cannot be scheduled.
    await core.createNamespacedPod({ namespace, body: podUsing('app', 'data') });
    await cluster.settle();
    expect((await scheduled('app'))?.message).toBe(`0/2 nodes are available: persistentvolumeclaim "data" bound to non-existent persistentvolume "gone". ${preemption}`);
  });
});

describe('provisioning by class', () => {
  it('an Immediate class of kubefake\'s provisioner provisions at once, reachable from every node', async () => {
    await start();
    await storage.createStorageClass({ body: { metadata: { name: 'now' }, provisioner: 'rancher.io/local-path', volumeBindingMode: 'Immediate', reclaimPolicy: 'Retain' } });
    const created = await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('data', '3Gi', { storageClassName: 'now' }) });
    await cluster.settle();
    const bound = await readClaim('data');
    expect(bound.status?.phase).toBe('Bound');
    const pv = await readVolume(`pvc-${created.metadata!.uid}`);
    expect(pv.spec?.nodeAffinity).toBeUndefined();
    expect(pv.spec?.persistentVolumeReclaimPolicy).toBe('Retain');
    expect(pv.metadata?.annotations).toEqual({ 'pv.kubernetes.io/provisioned-by': 'rancher.io/local-path' });
  });

  it('another external provisioner is asked for (the claim is annotated) and never answers', async () => {
    await start();
    await storage.createStorageClass({ body: { metadata: { name: 'ebs' }, provisioner: 'ebs.csi.aws.com' } });
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('data', '1Gi', { storageClassName: 'ebs' }) });
    await cluster.settle();
    const pending = await readClaim('data');
    expect(pending.status).toEqual({ phase: 'Pending' });
    expect(pending.metadata?.annotations).toEqual({ 'volume.beta.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com', 'volume.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com' });
    expect((await core.listPersistentVolume()).items).toEqual([]);
  });
});

describe('scheduling pods with claims', () => {
  it('keeps a pod whose immediate claim is unbound Pending with the scheduler\'s message, until the claim binds', async () => {
    await start();
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('data', '1Gi', { storageClassName: '' }) });
    await core.createNamespacedPod({ namespace, body: podUsing('app', 'data') });
    await cluster.settle();
    const condition = await scheduled('app');
    expect(condition).toMatchObject({ status: 'False', reason: 'Unschedulable', message: `0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. ${preemption}` });
    await core.createPersistentVolume({ body: volume('later', '1Gi') });
    await cluster.settle();
    expect((await core.readNamespacedPod({ name: 'app', namespace })).spec?.nodeName).toBeDefined();
    expect((await scheduled('app'))?.status).toBe('True');
  });

  it('keeps a pod whose claim is missing Pending until the claim exists', async () => {
    await start();
    await core.createNamespacedPod({ namespace, body: podUsing('app', 'data') });
    await cluster.settle();
    expect((await scheduled('app'))?.message).toBe(`0/2 nodes are available: persistentvolumeclaim "data" not found. ${preemption}`);
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('data', '1Gi') });
    await cluster.settle();
    expect((await scheduled('app'))?.status).toBe('True');
    expect((await readClaim('data')).status?.phase).toBe('Bound');
  });

  it('puts a pod where its bound volume may be used, and nowhere when no node may use it', async () => {
    await start();
    const pinned = (node: string) => ({ nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } } });
    await core.createPersistentVolume({ body: volume('on-2', '1Gi', pinned('kubefake-node-2'), { for: 'a' }) });
    await core.createPersistentVolume({ body: volume('on-9', '1Gi', pinned('kubefake-node-9'), { for: 'b' }) });
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('a', '1Gi', { storageClassName: '', selector: { matchLabels: { for: 'a' } } }) });
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('b', '1Gi', { storageClassName: '', selector: { matchLabels: { for: 'b' } } }) });
    await cluster.settle();
    await core.createNamespacedPod({ namespace, body: podUsing('on-a', 'a') });
    await core.createNamespacedPod({ namespace, body: podUsing('on-b', 'b') });
    await cluster.settle();
    expect((await core.readNamespacedPod({ name: 'on-a', namespace })).spec?.nodeName).toBe('kubefake-node-2');
    expect((await scheduled('on-b'))?.message).toBe(`0/2 nodes are available: 2 node(s) had volume node affinity conflict. ${preemption}`);
  });

  it('binds local volumes of a no-provisioner WaitForFirstConsumer class on the node that has one', async () => {
    await start();
    await storage.createStorageClass({ body: { metadata: { name: 'local' }, provisioner: 'kubernetes.io/no-provisioner', volumeBindingMode: 'WaitForFirstConsumer' } });
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('data', '1Gi', { storageClassName: 'local' }) });
    await core.createNamespacedPod({ namespace, body: podUsing('app', 'data') });
    await cluster.settle();
    expect((await scheduled('app'))?.message).toBe(`0/2 nodes are available: 2 node(s) didn't find available persistent volumes to bind. ${preemption}`);
    const onNode2 = { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['kubefake-node-2'] }] }] } } };
    await core.createPersistentVolume({ body: volume('local-2', '1Gi', { storageClassName: 'local', hostPath: undefined, local: { path: '/mnt/disk' }, ...onNode2 }) });
    await cluster.settle();
    expect((await core.readNamespacedPod({ name: 'app', namespace })).spec?.nodeName).toBe('kubefake-node-2');
    const bound = await readClaim('data');
    expect(bound.spec?.volumeName).toBe('local-2');
    // The scheduler reserved the volume (claimRef, bound-by-controller); the controller completed the claim.
    expect((await readVolume('local-2')).metadata?.annotations).toEqual({ 'pv.kubernetes.io/bound-by-controller': 'yes' });
    expect(bound.metadata?.annotations).toEqual({ 'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes' });
  });
});

describe('generic ephemeral volumes', () => {
  const withEphemeral = (name: string): k8s.V1Pod => ({
    metadata: { name },
    spec: {
      containers: [{ name: 'app', image: 'busybox' }],
      volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { metadata: { labels: { type: 'scratch' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } }],
    },
  });

  it('get a claim <pod>-<volume> the pod controls, bound before the pod is, and gone with the pod', async () => {
    await start();
    const pod = await core.createNamespacedPod({ namespace, body: withEphemeral('app') });
    await cluster.settle();
    const scratch = await readClaim('app-scratch');
    expect(scratch.metadata?.labels).toEqual({ type: 'scratch' });
    expect(scratch.metadata?.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Pod', name: 'app', uid: pod.metadata!.uid, controller: true, blockOwnerDeletion: true }]);
    expect(scratch.status?.phase).toBe('Bound');
    expect((await core.readNamespacedPod({ name: 'app', namespace })).status?.phase).toBe('Running');
    await core.deleteNamespacedPod({ name: 'app', namespace, gracePeriodSeconds: 0 });
    await cluster.settle();
    expect((await core.listNamespacedPersistentVolumeClaim({ namespace })).items).toEqual([]);
    expect((await core.listPersistentVolume()).items).toEqual([]);
  });

  it('keep a pod Pending when a claim of that name belongs to someone else', async () => {
    await start();
    await core.createNamespacedPersistentVolumeClaim({ namespace, body: claim('app-scratch', '1Gi') });
    await core.createNamespacedPod({ namespace, body: withEphemeral('app') });
    await cluster.settle();
    expect((await scheduled('app'))?.message).toBe(`0/2 nodes are available: PVC default/app-scratch was not created for pod default/app (pod is not owner). ${preemption}`);
    expect((await readClaim('app-scratch')).metadata?.ownerReferences).toBeUndefined();
  });
});

describe.skipIf(!kubectlAvailable)('kubectl', () => {
  const manifest = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  serviceName: web
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers: [{name: nginx, image: nginx}]
  volumeClaimTemplates:
  - metadata: {name: www}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
`;

  it('rollout status sts/web returns once the claims are bound and the pods ready; get pvc,pv show the bindings', async () => {
    await start();
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    cluster.kubelet.on({ selector: { app: 'web' } }, { startAfter: 1000 });
    expect(await kubectl(['apply', '-f', '-'], manifest)).toMatchObject({ code: 0, stdout: 'statefulset.apps/web created\n' });
    const status = kubectl(['rollout', 'status', 'sts/web', '--timeout=30s']);
    for (let i = 0; i < 2; i++) {
      await cluster.settle();
      cluster.clock.advance(1000);
    }
    await cluster.settle();
    const result = await status;
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.trim().split('\n').at(-1)).toBe('partitioned roll out complete: 2 new pods have been updated...');
    const claims = await kubectl(['get', 'pvc', '--no-headers', '-o', 'custom-columns=NAME:.metadata.name,STATUS:.status.phase,VOLUME:.spec.volumeName,CAPACITY:.status.capacity.storage,CLASS:.spec.storageClassName']);
    const uids = Object.fromEntries((await core.listNamespacedPersistentVolumeClaim({ namespace })).items.map((c) => [c.metadata!.name!, c.metadata!.uid!]));
    expect(claims.stdout.trim().split('\n').map((line) => line.split(/\s+/))).toEqual([
      ['www-web-0', 'Bound', `pvc-${uids['www-web-0']}`, '1Gi', 'standard'],
      ['www-web-1', 'Bound', `pvc-${uids['www-web-1']}`, '1Gi', 'standard'],
    ]);
    const volumes = await kubectl(['get', 'pv', '--no-headers', '-o', 'custom-columns=STATUS:.status.phase,CLAIM:.spec.claimRef.name,RECLAIM:.spec.persistentVolumeReclaimPolicy']);
    expect(volumes.stdout.trim().split('\n').map((line) => line.split(/\s+/)).sort()).toEqual([
      ['Bound', 'www-web-0', 'Delete'],
      ['Bound', 'www-web-1', 'Delete'],
    ]);
    const table = await kubectl(['get', 'pvc', 'www-web-0']);
    expect(table.stdout.split('\n')[0]!.split(/\s{2,}/)).toEqual(['NAME', 'STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'AGE']);
    expect(table.stdout.split('\n')[1]!.split(/\s+/).slice(0, 6)).toEqual(['www-web-0', 'Bound', `pvc-${uids['www-web-0']}`, '1Gi', 'RWO', 'standard']);
  }, 60_000);
});
