// The ServiceAccount admission plugin (plugin/pkg/admission/serviceaccount/admission.go) on pod
// creates, through client-node: the default ServiceAccount, the projected token volume and its
// mounts, the 403 for a ServiceAccount that does not exist, automount opt-outs, imagePullSecrets,
// mirror pods and enforce-mountable-secrets.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterAll(() => cluster.close());

const MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const TOKEN_SOURCE = {
  defaultMode: 420,
  sources: [
    { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
    { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
    { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
  ],
};
const pod = (name: string, spec: Partial<k8s.V1PodSpec> = {}, metadata: k8s.V1ObjectMeta = {}): k8s.V1Pod => ({
  metadata: { name, ...metadata },
  spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
});

describe('the ServiceAccount admission plugin', () => {
  it('runs a pod that names no ServiceAccount as default, with the projected token volume mounted in every container', async () => {
    const created = await core.createNamespacedPod({
      namespace: 'default',
      body: pod('web', { initContainers: [{ name: 'init', image: 'busybox' }], containers: [{ name: 'app', image: 'nginx' }, { name: 'side', image: 'envoy', volumeMounts: [{ name: 'data', mountPath: '/data' }] }], volumes: [{ name: 'data', emptyDir: {} }] }),
    });
    const spec = created.spec!;
    expect(spec.serviceAccountName).toBe('default');
    expect(spec.serviceAccount).toBe('default');
    const volumeName = spec.volumes![1]!.name;
    expect(volumeName).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(spec.volumes).toEqual([{ name: 'data', emptyDir: {} }, { name: volumeName, projected: TOKEN_SOURCE }]);
    const mount = { name: volumeName, readOnly: true, mountPath: MOUNT_PATH };
    expect(spec.initContainers![0]!.volumeMounts).toEqual([mount]);
    expect(spec.containers[0]!.volumeMounts).toEqual([mount]);
    expect(spec.containers[1]!.volumeMounts).toEqual([{ name: 'data', mountPath: '/data' }, mount]);
  });

  it('admits a pod created right after its namespace, without waiting', async () => {
    await core.createNamespace({ body: { metadata: { name: 'fresh' } } });
    const created = await core.createNamespacedPod({ namespace: 'fresh', body: pod('first') });
    expect(created.spec?.serviceAccountName).toBe('default');
    const direct = await cluster.apply([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh-too' } },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'first', namespace: 'fresh-too' }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
    ]);
    expect((direct[1]!.spec as k8s.V1PodSpec).serviceAccountName).toBe('default');
  });

  it('refuses a pod naming a ServiceAccount that does not exist (403)', async () => {
    await expectStatus(core.createNamespacedPod({ namespace: 'default', body: pod('lost', { serviceAccountName: 'builder' }) }), {
      code: 403,
      reason: 'Forbidden',
      message: 'pods "lost" is forbidden: error looking up service account default/builder: serviceaccount "builder" not found',
      details: { name: 'lost', kind: 'pods' },
    });
    await expectStatus(core.createNamespacedPod({ namespace: 'default', body: { metadata: { generateName: 'lost-' }, spec: { serviceAccountName: 'builder', containers: [{ name: 'app', image: 'nginx' }] } } }), {
      code: 403,
      message: 'pods "lost-" is forbidden: error looking up service account default/builder: serviceaccount "builder" not found',
    });
  });

  it('admits a pod naming an existing ServiceAccount and copies its imagePullSecrets when the pod has none', async () => {
    await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'puller' }, imagePullSecrets: [{ name: 'registry' }] } });
    const created = await core.createNamespacedPod({ namespace: 'default', body: pod('pulling', { serviceAccountName: 'puller' }) });
    expect(created.spec?.serviceAccountName).toBe('puller');
    expect(created.spec?.imagePullSecrets).toEqual([{ name: 'registry' }]);
    const own = await core.createNamespacedPod({ namespace: 'default', body: pod('own-secret', { serviceAccountName: 'puller', imagePullSecrets: [{ name: 'mine' }] }) });
    expect(own.spec?.imagePullSecrets).toEqual([{ name: 'mine' }]);
  });

  it('mounts nothing when the pod or its ServiceAccount turns automounting off; the pod\'s choice wins', async () => {
    const off = await core.createNamespacedPod({ namespace: 'default', body: pod('no-token', { automountServiceAccountToken: false }) });
    expect(off.spec?.volumes).toBeUndefined();
    expect(off.spec?.containers[0]!.volumeMounts).toBeUndefined();
    await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'quiet' }, automountServiceAccountToken: false } });
    const quiet = await core.createNamespacedPod({ namespace: 'default', body: pod('quiet', { serviceAccountName: 'quiet' }) });
    expect(quiet.spec?.volumes).toBeUndefined();
    const overridden = await core.createNamespacedPod({ namespace: 'default', body: pod('loud', { serviceAccountName: 'quiet', automountServiceAccountToken: true }) });
    expect(overridden.spec?.volumes?.map((v) => v.name)).toEqual([expect.stringMatching(/^kube-api-access-/)]);
  });

  it('leaves a container that already mounts something at the token path alone, and reuses a kube-api-access volume', async () => {
    const created = await core.createNamespacedPod({
      namespace: 'default',
      body: pod('custom', {
        containers: [{ name: 'app', image: 'nginx', volumeMounts: [{ name: 'kube-api-access-mine', mountPath: '/elsewhere' }] }, { name: 'own', image: 'nginx', volumeMounts: [{ name: 'tok', mountPath: MOUNT_PATH }] }],
        volumes: [{ name: 'tok', emptyDir: {} }, { name: 'kube-api-access-mine', emptyDir: {} }],
      }),
    });
    expect(created.spec?.volumes).toEqual([{ name: 'tok', emptyDir: {} }, { name: 'kube-api-access-mine', emptyDir: {} }]);
    expect(created.spec?.containers[0]!.volumeMounts).toEqual([{ name: 'kube-api-access-mine', mountPath: '/elsewhere' }, { name: 'kube-api-access-mine', readOnly: true, mountPath: MOUNT_PATH }]);
    expect(created.spec?.containers[1]!.volumeMounts).toEqual([{ name: 'tok', mountPath: MOUNT_PATH }]);
  });

  it('does not touch a pod on update', async () => {
    const created = await core.readNamespacedPod({ name: 'no-token', namespace: 'default' });
    const updated = await core.replaceNamespacedPod({ name: 'no-token', namespace: 'default', body: { ...created, metadata: { ...created.metadata, labels: { a: 'b' } } } });
    expect(updated.spec?.volumes).toBeUndefined();
  });

  it('refuses mirror pods that reference ServiceAccounts, secrets or token projections', async () => {
    const mirror = { 'kubernetes.io/config.mirror': 'hash' };
    await expectStatus(core.createNamespacedPod({ namespace: 'default', body: pod('m1', { serviceAccountName: 'default' }, { annotations: mirror }) }), {
      code: 403,
      message: 'pods "m1" is forbidden: a mirror pod may not reference service accounts',
    });
    await expectStatus(core.createNamespacedPod({ namespace: 'default', body: pod('m2', { volumes: [{ name: 's', secret: { secretName: 'x' } }] }, { annotations: mirror }) }), {
      code: 403,
      message: 'pods "m2" is forbidden: a mirror pod may not reference secrets',
    });
    await expectStatus(
      core.createNamespacedPod({ namespace: 'default', body: pod('m3', { volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }] }, { annotations: mirror }) }),
      { code: 403, message: 'pods "m3" is forbidden: a mirror pod may not use ServiceAccountToken volume projections' },
    );
    // The refusal comes from the mutating phase, before validation and name generation.
    await expectStatus(core.createNamespacedPod({ namespace: 'default', body: { metadata: { generateName: 'm-', annotations: mirror }, spec: { serviceAccountName: 'default', containers: [] } } }), {
      code: 403,
      message: 'pods "m-" is forbidden: a mirror pod may not reference service accounts',
    });
    const plain = await core.createNamespacedPod({ namespace: 'default', body: pod('m4', {}, { annotations: mirror }) });
    expect(plain.spec?.serviceAccountName).toBeUndefined();
    expect(plain.spec?.volumes).toBeUndefined();
  });

  it('limits the secrets a pod references when its ServiceAccount enforces mountable secrets', async () => {
    await core.createNamespacedServiceAccount({
      namespace: 'default',
      body: { metadata: { name: 'strict', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } }, secrets: [{ name: 'allowed' }] },
    });
    const strict = (name: string, spec: Partial<k8s.V1PodSpec>) => core.createNamespacedPod({ namespace: 'default', body: pod(name, { serviceAccountName: 'strict', ...spec }) });
    await expectStatus(strict('s1', { volumes: [{ name: 'v', secret: { secretName: 'other' } }] }), {
      code: 403,
      message: 'pods "s1" is forbidden: volume with secret.secretName="other" is not allowed because service account strict does not reference that secret',
    });
    await expectStatus(strict('s2', { containers: [{ name: 'app', image: 'nginx', env: [{ name: 'PW', valueFrom: { secretKeyRef: { name: 'other', key: 'pw' } } }] }] }), {
      code: 403,
      message: 'pods "s2" is forbidden: container app with envVar PW referencing secret.secretName="other" is not allowed because service account strict does not reference that secret',
    });
    await expectStatus(strict('s3', { initContainers: [{ name: 'init', image: 'busybox', envFrom: [{ secretRef: { name: 'other' } }] }] }), {
      code: 403,
      message: 'pods "s3" is forbidden: init container init with envFrom referencing secret.secretName="other" is not allowed because service account strict does not reference that secret',
    });
    await expectStatus(strict('s4', { imagePullSecrets: [{ name: 'allowed' }] }), {
      code: 403,
      message: 'pods "s4" is forbidden: imagePullSecrets[0].name="allowed" is not allowed because service account strict does not reference that imagePullSecret',
    });
    const ok = await strict('s5', { volumes: [{ name: 'v', secret: { secretName: 'allowed' } }] });
    expect(ok.spec?.serviceAccountName).toBe('strict');
  });
});

describe('in a deterministic cluster', () => {
  it('names the token volume from the cluster\'s seeded random source, the same on every run', async () => {
    const volumeNames = async () => {
      await using c = await createFakeCluster({ deterministic: true, seed: 7 });
      const created = await c.kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespacedPod({ namespace: 'default', body: pod('p') });
      return created.spec?.volumes?.map((v) => v.name);
    };
    const first = await volumeNames();
    expect(first).toEqual([expect.stringMatching(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/)]);
    expect(await volumeNames()).toEqual(first);
  });

  it('snapshots the volume name with a numbered placeholder when normalising', async () => {
    await using c = await createFakeCluster();
    await c.kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespacedPod({ namespace: 'default', body: pod('p') });
    const [snap] = c.snapshot({ kinds: ['Pod'] });
    const spec = snap!.spec as k8s.V1PodSpec;
    expect(spec.volumes?.[0]?.name).toBe('kube-api-access-<suffix-1>');
    expect(spec.containers[0]!.volumeMounts?.[0]?.name).toBe('kube-api-access-<suffix-1>');
  });
});
