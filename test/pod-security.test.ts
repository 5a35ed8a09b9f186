// Pod Security admission as a default kube-apiserver v1.36 runs it, through client-node: namespace
// labels pick the level per mode (enforce refuses pods with 403, warn answers Warning headers, pod
// controllers only warn), every check family with the texts of pod-security-admission v0.36.2
// (policy/check_*.go), label validation on namespaces, and the warnings about existing pods when a
// namespace is labeled with a stricter enforce level (admission/admission.go).
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { captureWarnings } from './support/warnings.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
let apps: k8s.AppsV1Api;
let batch: k8s.BatchV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  batch = cluster.kubeConfig.makeApiClient(k8s.BatchV1Api);
});
afterAll(() => cluster.close());

let namespaces = 0;
/** A new namespace with these labels. */
async function namespaceWith(labels: Record<string, string>): Promise<string> {
  const name = `psa-${++namespaces}`;
  await core.createNamespace({ body: { metadata: { name, labels } } });
  return name;
}

const enforce = (level: string, version?: string) => ({ 'pod-security.kubernetes.io/enforce': level, ...(version ? { 'pod-security.kubernetes.io/enforce-version': version } : {}) });
const warn = (level: string) => ({ 'pod-security.kubernetes.io/warn': level });

/** A container the restricted level accepts. */
const restrictedContainer = (name = 'c'): k8s.V1Container => ({
  name,
  image: 'nginx',
  securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
});

const pod = (name: string, spec: Partial<k8s.V1PodSpec>, metadata: k8s.V1ObjectMeta = {}): k8s.V1Pod => ({
  metadata: { name, ...metadata },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});

/** Creates the pod and expects the PodSecurity 403 with this detail. */
async function expectRefused(namespace: string, body: k8s.V1Pod, policy: string, detail: string): Promise<void> {
  const name = body.metadata!.name!;
  await expectStatus(core.createNamespacedPod({ namespace, body }), {
    code: 403,
    reason: 'Forbidden',
    message: `pods "${name}" is forbidden: violates PodSecurity "${policy}": ${detail}`,
    details: { name, kind: 'pods' },
  });
}

describe('enforce', () => {
  it('refuses a plain pod in a restricted namespace with every violation, in check order', async () => {
    const ns = await namespaceWith(enforce('restricted'));
    await expectRefused(
      ns,
      pod('plain', {}),
      'restricted:latest',
      'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
        'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
    expect((await core.listNamespacedPod({ namespace: ns })).items).toEqual([]);
  });

  it('admits a pod that meets the level, with a projected and a configMap volume, and no warning', async () => {
    const ns = await namespaceWith(enforce('restricted'));
    const capture = captureWarnings();
    const volumes: k8s.V1Volume[] = [
      { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
      { name: 'config', configMap: { name: 'settings' } },
    ];
    const created = await core.createNamespacedPod({ namespace: ns, body: pod('fine', { containers: [restrictedContainer()], volumes }) }, capture.options);
    expect(created.metadata?.name).toBe('fine');
    expect(capture.warnings()).toEqual([]);
  });

  it('admits anything in a namespace without labels (the default policy is privileged)', async () => {
    const ns = await namespaceWith({});
    const capture = captureWarnings();
    await core.createNamespacedPod({ namespace: ns, body: pod('root', { hostNetwork: true, containers: [{ name: 'c', image: 'nginx', securityContext: { privileged: true } }] }) }, capture.options);
    expect(capture.warnings()).toEqual([]);
  });

  it('names a generated pod in the refusal', async () => {
    const ns = await namespaceWith(enforce('baseline'));
    const body: k8s.V1Pod = { metadata: { generateName: 'gen-' }, spec: { hostPID: true, containers: [{ name: 'c', image: 'nginx' }] } };
    const status = await expectStatus(core.createNamespacedPod({ namespace: ns, body }), { code: 403, reason: 'Forbidden' });
    expect(status.message).toMatch(/^pods "gen-[a-z0-9]{5}" is forbidden: violates PodSecurity "baseline:latest": host namespaces \(hostPID=true\)$/);
  });
});

describe('baseline checks', () => {
  let ns: string;
  beforeAll(async () => {
    ns = await namespaceWith(enforce('baseline'));
  });
  const container = (securityContext: k8s.V1SecurityContext, extra: Partial<k8s.V1Container> = {}): k8s.V1Container => ({ name: 'c', image: 'nginx', securityContext, ...extra });

  it.each<[string, Partial<k8s.V1PodSpec>, k8s.V1ObjectMeta, string]>([
    ['privileged', { containers: [container({ privileged: true }), { ...container({ privileged: true }), name: 'd' }] }, {}, 'privileged (containers "c", "d" must not set securityContext.privileged=true)'],
    ['host-namespaces', { hostNetwork: true, hostPID: true, hostIPC: true }, {}, 'host namespaces (hostNetwork=true, hostPID=true, hostIPC=true)'],
    ['host-path', { volumes: [{ name: 'root', hostPath: { path: '/' } }, { name: 'tmp', emptyDir: {} }] }, {}, 'hostPath volumes (volume "root")'],
    ['capabilities', { containers: [container({ capabilities: { add: ['SYS_TIME', 'NET_ADMIN', 'CHOWN'] } })] }, {}, 'non-default capabilities (container "c" must not include "NET_ADMIN", "SYS_TIME" in securityContext.capabilities.add)'],
    [
      'host-ports',
      { containers: [container({}, { ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 81, hostPort: 10000 }] })] },
      {},
      'hostPort (container "c" uses hostPorts 10000, 8080)',
    ],
    ['apparmor', { securityContext: { appArmorProfile: { type: 'Unconfined' } } }, {}, 'forbidden AppArmor profile (pod must not set AppArmor profile type to "Unconfined")'],
    [
      'selinux',
      { securityContext: { seLinuxOptions: { type: 'spc_t', user: 'root' } }, containers: [container({ seLinuxOptions: { role: 'sysadm_r' } })] },
      {},
      'seLinuxOptions (pod and container "c" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set; role may not be set)',
    ],
    ['proc-mount', { containers: [container({ procMount: 'Unmasked' })] }, {}, 'procMount (container "c" must not set securityContext.procMount to "Unmasked")'],
    ['seccomp', { securityContext: { seccompProfile: { type: 'Unconfined' } } }, {}, 'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")'],
    [
      'sysctls',
      { securityContext: { sysctls: [{ name: 'kernel.msgmax', value: '65536' }, { name: 'net.ipv4.tcp_syncookies', value: '1' }, { name: 'kernel.sem', value: '1' }] } },
      {},
      'forbidden sysctls (kernel.msgmax, kernel.sem)',
    ],
    [
      'probe-host',
      { containers: [container({}, { livenessProbe: { httpGet: { host: '10.0.0.1', port: 80 } }, readinessProbe: { tcpSocket: { host: '10.0.0.2', port: 80 } } })] },
      {},
      'probe or lifecycle host (container "c" uses probe or lifecycle hosts "10.0.0.1", "10.0.0.2")',
    ],
  ])('%s', async (name, spec, metadata, detail) => {
    await expectRefused(ns, pod(name, spec, metadata), 'baseline:latest', detail);
  });

  it('lists several violations in check order', async () => {
    await expectRefused(
      ns,
      pod('many', { hostNetwork: true, volumes: [{ name: 'root', hostPath: { path: '/' } }], containers: [container({ privileged: true })] }),
      'baseline:latest',
      'host namespaces (hostNetwork=true), hostPath volumes (volume "root"), privileged (container "c" must not set securityContext.privileged=true)',
    );
  });

  it('accepts what baseline allows: default capabilities, RuntimeDefault seccomp, allowed sysctls, procMount in a user namespace', async () => {
    const spec: Partial<k8s.V1PodSpec> = {
      hostUsers: false,
      securityContext: { seccompProfile: { type: 'RuntimeDefault' }, sysctls: [{ name: 'net.ipv4.tcp_rmem', value: '4096 87380 6291456' }], seLinuxOptions: { type: 'container_engine_t' } },
      containers: [container({ capabilities: { add: ['CHOWN', 'NET_BIND_SERVICE'] }, procMount: 'Unmasked', appArmorProfile: { type: 'RuntimeDefault' } })],
    };
    const created = await core.createNamespacedPod({ namespace: ns, body: pod('allowed', spec) });
    expect(created.metadata?.name).toBe('allowed');
  });

  it('checks at the version the namespace pins: a sysctl allowed since v1.32 is refused at v1.31', async () => {
    const pinned = await namespaceWith(enforce('baseline', 'v1.31'));
    await expectRefused(pinned, pod('rmem', { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_rmem', value: '4096 87380 6291456' }] } }), 'baseline:v1.31', 'forbidden sysctls (net.ipv4.tcp_rmem)');
  });
});

describe('restricted checks', () => {
  let ns: string;
  beforeAll(async () => {
    ns = await namespaceWith(enforce('restricted'));
  });
  const restricted = (securityContext: k8s.V1SecurityContext, name = 'c'): k8s.V1Container => {
    const base = restrictedContainer(name);
    return { ...base, securityContext: { ...base.securityContext, ...securityContext } };
  };

  it.each<[string, Partial<k8s.V1PodSpec>, string]>([
    [
      'escalation',
      { containers: [restricted({ allowPrivilegeEscalation: true }, 'a'), restricted({ allowPrivilegeEscalation: undefined }, 'b')] },
      'allowPrivilegeEscalation != false (containers "a", "b" must set securityContext.allowPrivilegeEscalation=false)',
    ],
    [
      'capabilities',
      { containers: [restricted({ capabilities: { add: ['NET_RAW', 'NET_BIND_SERVICE'] } })] },
      'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "NET_RAW" in securityContext.capabilities.add)',
    ],
    ['run-as-non-root', { securityContext: { runAsNonRoot: false } }, 'runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false)'],
    ['run-as-user', { securityContext: { runAsUser: 0 }, containers: [restricted({ runAsUser: 0 })] }, 'runAsUser=0 (pod and container "c" must not set runAsUser=0)'],
    [
      'seccomp',
      { containers: [restricted({ seccompProfile: { type: 'Unconfined' } })] },
      'seccompProfile (container "c" must not set securityContext.seccompProfile.type to "Unconfined")',
    ],
    [
      'volumes',
      {
        volumes: [
          { name: 'share', nfs: { server: 'nfs.example', path: '/' } },
          { name: 'repo', gitRepo: { repository: 'https://example.com/r.git' } },
          { name: 'root', hostPath: { path: '/' } },
          { name: 'scratch', emptyDir: {} },
        ],
      },
      'restricted volume types (volumes "share", "repo", "root" use restricted volume types "gitRepo", "hostPath", "nfs")',
    ],
    ['proc-mount', { hostUsers: false, containers: [restricted({ procMount: 'Unmasked' })] }, 'procMount (container "c" must not set securityContext.procMount to "Unmasked")'],
  ])('%s', async (name, spec, detail) => {
    await expectRefused(ns, pod(name, { containers: [restrictedContainer()], ...spec }), 'restricted:latest', detail);
  });

  it('takes the pod-level seccompProfile and runAsNonRoot for every container', async () => {
    const container: k8s.V1Container = { name: 'c', image: 'nginx', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } };
    const spec = { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'Localhost', localhostProfile: 'p.json' } }, containers: [container] };
    expect((await core.createNamespacedPod({ namespace: ns, body: pod('pod-level', spec) })).metadata?.name).toBe('pod-level');
  });

  it('lets a pod in a user namespace run as root (v1.35+), not under a v1.34 policy', async () => {
    const spec = { hostUsers: false, securityContext: { runAsNonRoot: false, runAsUser: 0 }, containers: [restrictedContainer()] };
    expect((await core.createNamespacedPod({ namespace: ns, body: pod('userns', spec) })).metadata?.name).toBe('userns');
    const pinned = await namespaceWith(enforce('restricted', 'v1.34'));
    await expectRefused(
      pinned,
      pod('userns', spec),
      'restricted:v1.34',
      'runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false), runAsUser=0 (pod must not set runAsUser=0)',
    );
  });

  it('checks init containers before containers', async () => {
    const spec = { initContainers: [{ name: 'init', image: 'busybox' }], containers: [{ name: 'app', image: 'nginx' }], securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } };
    await expectRefused(
      ns,
      pod('init', spec),
      'restricted:latest',
      'allowPrivilegeEscalation != false (containers "init", "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (containers "init", "app" must set securityContext.capabilities.drop=["ALL"])',
    );
  });
});

describe('warn', () => {
  it('admits the pod and answers the violations as a Warning', async () => {
    const ns = await namespaceWith(warn('restricted'));
    const capture = captureWarnings();
    await core.createNamespacedPod({ namespace: ns, body: pod('warned', { containers: [{ ...restrictedContainer(), securityContext: { ...restrictedContainer().securityContext, runAsNonRoot: undefined } }] }) }, capture.options);
    expect(capture.warnings()).toEqual(['would violate PodSecurity "restricted:latest": runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true)']);
    expect((await core.readNamespacedPod({ name: 'warned', namespace: ns })).metadata?.name).toBe('warned');
  });

  it('warns at the warn level and enforces the enforce level', async () => {
    const ns = await namespaceWith({ ...enforce('baseline'), ...warn('restricted') });
    const capture = captureWarnings();
    await core.createNamespacedPod({ namespace: ns, body: pod('both', { containers: [restrictedContainer()], securityContext: { runAsUser: 0 } }) }, capture.options);
    expect(capture.warnings()).toEqual(['would violate PodSecurity "restricted:latest": runAsUser=0 (pod must not set runAsUser=0)']);
    // A refused request carries no warning.
    const refused = captureWarnings();
    await expectStatus(core.createNamespacedPod({ namespace: ns, body: pod('refused', { hostIPC: true }) }, refused.options), { code: 403 });
    expect(refused.warnings()).toEqual([]);
  });

  it("comes after the pod strategy's own warnings, as validating admission runs after BeforeCreate", async () => {
    const ns = await namespaceWith(warn('baseline'));
    const capture = captureWarnings();
    await core.createNamespacedPod({ namespace: ns, body: pod('web.v1', { hostIPC: true }) }, capture.options);
    expect(capture.warnings()).toEqual([
      "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
      'would violate PodSecurity "baseline:latest": host namespaces (hostIPC=true)',
    ]);
  });

  it('also warns on a dry run', async () => {
    const ns = await namespaceWith(warn('baseline'));
    const capture = captureWarnings();
    await core.createNamespacedPod({ namespace: ns, body: pod('dry', { hostPID: true }), dryRun: 'All' }, capture.options);
    expect(capture.warnings()).toEqual(['would violate PodSecurity "baseline:latest": host namespaces (hostPID=true)']);
  });
});

describe('pod controllers', () => {
  const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx', securityContext: { privileged: true } }] } };
  const expected = [
    'would violate PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), ' +
      'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
      'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
      'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
      'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  ];
  const selector = { matchLabels: { app: 'web' } };
  const writers: [string, (ns: string, options: k8s.ConfigurationOptions) => Promise<unknown>][] = [
    ['Deployment', (namespace, o) => apps.createNamespacedDeployment({ namespace, body: { metadata: { name: 'web' }, spec: { selector, template } } }, o)],
    ['ReplicaSet', (namespace, o) => apps.createNamespacedReplicaSet({ namespace, body: { metadata: { name: 'web' }, spec: { selector, template } } }, o)],
    ['StatefulSet', (namespace, o) => apps.createNamespacedStatefulSet({ namespace, body: { metadata: { name: 'web' }, spec: { selector, serviceName: 'web', template } } }, o)],
    ['DaemonSet', (namespace, o) => apps.createNamespacedDaemonSet({ namespace, body: { metadata: { name: 'web' }, spec: { selector, template } } }, o)],
    ['Job', (namespace, o) => batch.createNamespacedJob({ namespace, body: { metadata: { name: 'web' }, spec: { template: { ...template, spec: { ...template.spec, restartPolicy: 'Never' } } } } }, o)],
    [
      'CronJob',
      (namespace, o) =>
        batch.createNamespacedCronJob({ namespace, body: { metadata: { name: 'web' }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { ...template, spec: { ...template.spec, restartPolicy: 'Never' } } } } } } }, o),
    ],
    ['ReplicationController', (namespace, o) => core.createNamespacedReplicationController({ namespace, body: { metadata: { name: 'web' }, spec: { template } } }, o)],
    ['PodTemplate', (namespace, o) => core.createNamespacedPodTemplate({ namespace, body: { metadata: { name: 'web' }, template } }, o)],
  ];

  it.each(writers)('%s: its template is warned about under enforce, never refused', async (_kind, write) => {
    const ns = await namespaceWith(enforce('restricted'));
    const capture = captureWarnings();
    await write(ns, capture.options);
    expect(capture.warnings()).toEqual(expected);
  });

  it('no warning when warn and audit are privileged, whatever enforce says', async () => {
    const ns = await namespaceWith({ ...enforce('restricted'), ...warn('privileged') });
    const capture = captureWarnings();
    await apps.createNamespacedDeployment({ namespace: ns, body: { metadata: { name: 'web' }, spec: { selector, template } } }, capture.options);
    expect(capture.warnings()).toEqual([]);
  });

  it('no warning on a scale subresource write', async () => {
    const ns = await namespaceWith(warn('restricted'));
    const created = captureWarnings();
    await apps.createNamespacedDeployment({ namespace: ns, body: { metadata: { name: 'web' }, spec: { selector, template } } }, created.options);
    expect(created.warnings()).toEqual(expected);
    const capture = captureWarnings();
    await apps.patchNamespacedDeploymentScale({ name: 'web', namespace: ns, body: { spec: { replicas: 3 } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch, capture.options));
    expect(capture.warnings()).toEqual([]);
  });
});

describe('namespaces', () => {
  const invalidLevel = {
    field: 'metadata.labels[pod-security.kubernetes.io/enforce]',
    message: 'Invalid value: "strict": must be one of privileged, baseline, restricted',
  };

  it('refuses invalid labels on create with 422 Invalid', async () => {
    await expectStatus(core.createNamespace({ body: { metadata: { name: 'bad-labels', labels: { 'pod-security.kubernetes.io/enforce': 'strict', 'pod-security.kubernetes.io/warn-version': 'v2.0' } } } }), {
      code: 422,
      reason: 'Invalid',
      message:
        'Namespace "bad-labels" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, ' +
        'metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "v2.0": must be "latest" or "v1.x"]',
      details: {
        name: 'bad-labels',
        kind: 'Namespace',
        causes: [
          { reason: 'FieldValueInvalid', ...invalidLevel },
          { reason: 'FieldValueInvalid', field: 'metadata.labels[pod-security.kubernetes.io/warn-version]', message: 'Invalid value: "v2.0": must be "latest" or "v1.x"' },
        ],
      },
    });
  });

  it('refuses an update that makes a label invalid', async () => {
    const ns = await namespaceWith({});
    await expectStatus(core.patchNamespace({ name: ns, body: { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'strict' } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch)), {
      code: 422,
      reason: 'Invalid',
      message: `Namespace "${ns}" is invalid: ${invalidLevel.field}: ${invalidLevel.message}`,
    });
  });

  it('answers which existing pods violate a new enforce level, grouped by violation', async () => {
    const ns = await namespaceWith({});
    const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-uid', controller: true };
    await core.createNamespacedPod({ namespace: ns, body: pod('b-host', { hostNetwork: true }) });
    await core.createNamespacedPod({ namespace: ns, body: pod('a-host', { hostNetwork: true }, { ownerReferences: [owner] }) });
    await core.createNamespacedPod({ namespace: ns, body: pod('c-host', { hostNetwork: true }, { ownerReferences: [owner] }) });
    await core.createNamespacedPod({ namespace: ns, body: pod('priv', { containers: [{ name: 'c', image: 'nginx', securityContext: { privileged: true } }] }) });
    await core.createNamespacedPod({ namespace: ns, body: pod('fine', {}) });
    const capture = captureWarnings();
    await core.patchNamespace({ name: ns, body: { metadata: { labels: enforce('baseline') } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch, capture.options));
    expect(capture.warnings()).toEqual([
      `existing pods in namespace "${ns}" violate the new PodSecurity enforce level "baseline:latest"`,
      'a-host (and 2 other pods): host namespaces',
      'priv: privileged',
    ]);
    // Relaxing the level, or labeling again with the same one, checks nothing.
    const again = captureWarnings();
    await core.patchNamespace({ name: ns, body: { metadata: { labels: { ...enforce('baseline'), team: 'a' } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch, again.options));
    expect(again.warnings()).toEqual([]);
    await core.patchNamespace({ name: ns, body: { metadata: { labels: enforce('privileged') } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch, again.options));
    expect(again.warnings()).toEqual([]);
    // The pods stay: the new level applies to what is written next.
    expect((await core.listNamespacedPod({ namespace: ns })).items).toHaveLength(5);
  });

  it('says nothing when labeling a namespace at create, or when its pods comply', async () => {
    const capture = captureWarnings();
    await core.createNamespace({ body: { metadata: { name: 'psa-created-restricted', labels: enforce('restricted') } } }, capture.options);
    expect(capture.warnings()).toEqual([]);
    const ns = await namespaceWith({});
    await core.createNamespacedPod({ namespace: ns, body: pod('fine', { containers: [restrictedContainer()] }) });
    await core.patchNamespace({ name: ns, body: { metadata: { labels: enforce('restricted') } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch, capture.options));
    expect(capture.warnings()).toEqual([]);
  });
});

describe('pod updates', () => {
  it('re-evaluates an update only when an image or the containers change', async () => {
    const ns = await namespaceWith({});
    await core.createNamespacedPod({ namespace: ns, body: pod('old', { hostPID: true }) });
    await core.patchNamespace({ name: ns, body: { metadata: { labels: enforce('baseline') } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
    // Labels and annotations: not significant, admitted though the pod violates the level.
    const relabeled = await core.patchNamespacedPod({ name: 'old', namespace: ns, body: { metadata: { labels: { touched: 'yes' } } } }, merge);
    expect(relabeled.metadata?.labels).toEqual({ touched: 'yes' });
    // A new image: evaluated, and refused.
    await expectStatus(core.patchNamespacedPod({ name: 'old', namespace: ns, body: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } }, merge), {
      code: 403,
      reason: 'Forbidden',
      message: 'pods "old" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID=true)',
    });
    // Status writes are never evaluated.
    const current = await core.readNamespacedPod({ name: 'old', namespace: ns });
    await core.replaceNamespacedPodStatus({ name: 'old', namespace: ns, body: { ...current, status: { ...current.status, phase: 'Running' } } });
  });
});
