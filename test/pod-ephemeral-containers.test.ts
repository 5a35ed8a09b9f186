// pods/ephemeralcontainers as kube-apiserver v1.36 serves it (podEphemeralContainersStrategy and
// ValidatePodEphemeralContainersUpdate): listed in discovery, get/patch/update through client-node;
// only spec.ephemeralContainers of the request is kept, the generation moves, an ephemeral
// container is validated as one (the fields it may not set, a unique name, an existing target),
// existing ones may be neither removed nor changed, static pods are refused, and a Pod may not be
// created with one. `kubectl debug --attach=false` adds one.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubectlAvailable, useKubectlCluster } from './support/kubectl.ts';
import { expectStatus } from './support/status.ts';
import { invalidCauses, useValidationCluster } from './support/validation.ts';

const api = useValidationCluster();
const ns = 'default';
const strategic = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch);
const createPod = (name: string, annotations?: Record<string, string>) =>
  api.core.createNamespacedPod({ namespace: ns, body: { metadata: { name, labels: { app: 'a' }, annotations }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } });
const addEphemeral = (name: string, containers: k8s.V1EphemeralContainer[]) =>
  api.core.patchNamespacedPodEphemeralcontainers({ name, namespace: ns, body: { spec: { ephemeralContainers: containers } } }, strategic);
const debugger_ = (extra: Partial<k8s.V1EphemeralContainer> = {}): k8s.V1EphemeralContainer => ({ name: 'debugger', image: 'busybox', ...extra });

describe('pods/ephemeralcontainers', () => {
  it('is listed in discovery with get, patch and update', async () => {
    const resources = await api.core.getAPIResources();
    expect(resources.resources.find((r) => r.name === 'pods/ephemeralcontainers')).toMatchObject({ kind: 'Pod', namespaced: true, verbs: ['get', 'patch', 'update'] });
  });

  it('adds an ephemeral container, defaulted, and keeps everything else of the request out', async () => {
    const created = await createPod('debug-me');
    const patched = await api.core.patchNamespacedPodEphemeralcontainers(
      { name: 'debug-me', namespace: ns, body: { metadata: { labels: { app: 'b' } }, spec: { containers: [{ name: 'app', image: 'ignored' }], ephemeralContainers: [debugger_({ targetContainerName: 'app' })] } } },
      strategic,
    );
    expect(patched.spec!.ephemeralContainers).toEqual([
      { name: 'debugger', image: 'busybox', targetContainerName: 'app', imagePullPolicy: 'Always', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' },
    ]);
    expect(patched.spec!.containers[0]!.image).toBe('nginx');
    expect(patched.metadata!.labels).toEqual({ app: 'a' });
    expect(patched.metadata!.generation).toBe(created.metadata!.generation! + 1);
    const read = await api.core.readNamespacedPodEphemeralcontainers({ name: 'debug-me', namespace: ns });
    expect(read.spec!.ephemeralContainers!.map((c) => c.name)).toEqual(['debugger']);
    // A second one through update (PUT) of the whole pod.
    read.spec!.ephemeralContainers!.push(debugger_({ name: 'second' }));
    const replaced = await api.core.replaceNamespacedPodEphemeralcontainers({ name: 'debug-me', namespace: ns, body: read });
    expect(replaced.spec!.ephemeralContainers!.map((c) => c.name)).toEqual(['debugger', 'second']);
  });

  it('refuses the fields an ephemeral container may not set, a taken name, a missing target and a subPath', async () => {
    await createPod('bad-debug');
    expect(
      await invalidCauses(
        addEphemeral('bad-debug', [
          debugger_({
            name: 'app',
            targetContainerName: 'nope',
            ports: [{ containerPort: 80 }],
            resources: { limits: { cpu: '1' } },
            readinessProbe: { exec: { command: ['true'] } },
            lifecycle: { preStop: { exec: { command: ['true'] } } },
            volumeMounts: [{ name: 'data', mountPath: '/data', subPath: 'x' }],
          }),
        ]),
      ),
    ).toEqual([
      'spec.ephemeralContainers[0].volumeMounts[0].name: Not found: "data"',
      'spec.ephemeralContainers[0].name: Duplicate value: "app"',
      'spec.ephemeralContainers[0].targetContainerName: Not found: "nope"',
      'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container',
    ]);
  });

  it('refuses removing or changing an existing ephemeral container', async () => {
    await createPod('keep-debug');
    await addEphemeral('keep-debug', [debugger_()]);
    const pod = await api.core.readNamespacedPodEphemeralcontainers({ name: 'keep-debug', namespace: ns });
    await expectStatus(api.core.replaceNamespacedPodEphemeralcontainers({ name: 'keep-debug', namespace: ns, body: { ...pod, spec: { ...pod.spec!, ephemeralContainers: [] } } }), {
      code: 422,
      reason: 'Invalid',
      message: 'Pod "keep-debug" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "debugger" may not be removed\n',
    });
    const changed = { ...pod, spec: { ...pod.spec!, ephemeralContainers: [{ ...pod.spec!.ephemeralContainers![0]!, image: 'alpine' }] } };
    const status = await expectStatus(api.core.replaceNamespacedPodEphemeralcontainers({ name: 'keep-debug', namespace: ns, body: changed }), { code: 422, reason: 'Invalid' });
    expect(status.message).toMatch(/^Pod "keep-debug" is invalid: spec\.ephemeralContainers: Forbidden: existing ephemeral containers "debugger" may not be changed\n/);
    expect(status.message).toContain('- \tImage: "busybox",\n+ \tImage: "alpine",');
  });

  it('refuses static pods, and ephemeral containers on create', async () => {
    // A mirror pod (the kubelet's copy of a static pod) is bound to its node.
    await api.core.createNamespacedPod({
      namespace: ns,
      body: { metadata: { name: 'static-bound', annotations: { 'kubernetes.io/config.mirror': 'abc' } }, spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }] } },
    });
    await expectStatus(addEphemeral('static-bound', [debugger_()]), {
      code: 422,
      reason: 'Invalid',
      message: 'Pod "static-bound" is invalid: : Forbidden: static pods do not support ephemeral containers',
    });
    await expectStatus(
      api.core.createNamespacedPod({ namespace: ns, body: { metadata: { name: 'born-debugged' }, spec: { containers: [{ name: 'app', image: 'nginx' }], ephemeralContainers: [debugger_()] } } }),
      { code: 422, reason: 'Invalid', message: 'Pod "born-debugged" is invalid: spec.ephemeralContainers: Forbidden: cannot be set on create' },
    );
  });
});

describe.runIf(kubectlAvailable)('kubectl debug', () => {
  const k = useKubectlCluster();
  it('adds an ephemeral container with --attach=false', async () => {
    expect((await k.kubectl(['run', 'web', '--image=nginx'])).code).toBe(0);
    const debug = await k.kubectl(['debug', 'web', '--image=busybox', '--attach=false', '--target=web']);
    expect(debug.code, debug.stderr).toBe(0);
    expect(debug.stdout + debug.stderr).toMatch(/Defaulting debug container name to debugger-[a-z0-9]{5}\./);
    const pod = await k.core.readNamespacedPod({ name: 'web', namespace: 'default' });
    expect(pod.spec!.ephemeralContainers).toHaveLength(1);
    expect(pod.spec!.ephemeralContainers![0]).toMatchObject({ image: 'busybox', targetContainerName: 'web' });
  });
});
