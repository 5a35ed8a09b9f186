// The remaining ValidatePodSpec rule families of kube-apiserver v1.36 through client-node, each
// with Go's texts and field paths (pkg/apis/core/validation/validation.go, the v1.36 default
// gates): matchLabelKeys/mismatchLabelKeys (and their merge into the selectors on Pod create,
// pkg/registry/core/pod/strategy.go), seLinuxChangePolicy, host-port conflicts, pod-level
// resources (with their defaults) and the immutable QoS class of pods/status.
import type * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { expectStatus } from './support/status.ts';
import { invalidCauses, useValidationCluster } from './support/validation.ts';

const api = useValidationCluster();
const ns = 'default';
const container = (extra: Partial<k8s.V1Container> = {}): k8s.V1Container => ({ name: 'app', image: 'nginx', ...extra });
const pod = (name: string, spec: Partial<k8s.V1PodSpec>, labels: Record<string, string> = { app: 'web' }) =>
  api.core.createNamespacedPod({ namespace: ns, body: { metadata: { name, labels }, spec: { containers: [container()], ...spec } } });
const deployment = (name: string, spec: Partial<k8s.V1PodSpec>) =>
  api.apps.createNamespacedDeployment({
    namespace: ns,
    body: { metadata: { name }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container()], ...spec } } } },
  });
const spread = (extra: Partial<k8s.V1TopologySpreadConstraint>): k8s.V1TopologySpreadConstraint => ({ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', ...extra });
const AFFINITY = 'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution';
const ANTI = 'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm';
const NAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('matchLabelKeys and mismatchLabelKeys', () => {
  it('merges the keys the pod has labels for into the selectors on create', async () => {
    const created = await pod(
      'label-keys',
      {
        affinity: {
          podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { tier: 'db' } }, matchLabelKeys: ['version', 'missing'], mismatchLabelKeys: ['app'], topologyKey: 'zone' }] },
          podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, podAffinityTerm: { labelSelector: {}, matchLabelKeys: ['app'], topologyKey: 'zone' } }] },
        },
        topologySpreadConstraints: [spread({ labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['version'] })],
      },
      { app: 'web', version: 'v1' },
    );
    const term = created.spec!.affinity!.podAffinity!.requiredDuringSchedulingIgnoredDuringExecution![0]!;
    expect(term.labelSelector).toEqual({
      matchLabels: { tier: 'db' },
      matchExpressions: [
        { key: 'version', operator: 'In', values: ['v1'] },
        { key: 'app', operator: 'NotIn', values: ['web'] },
      ],
    });
    expect(term.matchLabelKeys).toEqual(['version', 'missing']);
    expect(created.spec!.affinity!.podAntiAffinity!.preferredDuringSchedulingIgnoredDuringExecution![0]!.podAffinityTerm.labelSelector).toEqual({
      matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }],
    });
    expect(created.spec!.topologySpreadConstraints![0]!.labelSelector).toEqual({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'version', operator: 'In', values: ['v1'] }] });
  });

  it('refuses bad keys, keys without a selector, and keys the selector already holds', async () => {
    expect(
      await invalidCauses(
        pod('label-keys-bad', {
          affinity: {
            podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ matchLabelKeys: ['app'], topologyKey: 'zone' }] },
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                { weight: 1, podAffinityTerm: { labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['app', 'Bad Key'], mismatchLabelKeys: ['Bad Key'], topologyKey: 'zone' } },
              ],
            },
          },
          topologySpreadConstraints: [spread({ labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['app'] }), spread({ topologyKey: 'node', matchLabelKeys: ['app'] })],
        }),
      ),
    ).toEqual([
      `${AFFINITY}[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set`,
      `${ANTI}.matchLabelKeys[1]: Invalid value: "Bad Key": ${NAME_MSG}`,
      `${ANTI}.mismatchLabelKeys[0]: Invalid value: "Bad Key": ${NAME_MSG}`,
      `${ANTI}[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector`,
      `${ANTI}.matchLabelKeys[1]: Invalid value: "Bad Key": exists in both matchLabelKeys and mismatchLabelKeys`,
      'spec.topologySpreadConstraints[0][0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector',
      'spec.topologySpreadConstraints[1].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set',
    ]);
  });

  it('leaves a template unmerged, and checks it all the same', async () => {
    const created = await deployment('label-keys-template', {
      affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['app'], topologyKey: 'zone' }] } },
    });
    expect(created.spec!.template.spec!.affinity!.podAffinity!.requiredDuringSchedulingIgnoredDuringExecution![0]!.labelSelector).toEqual({ matchLabels: { app: 'web' } });
    expect(
      await invalidCauses(
        deployment('label-keys-template-bad', {
          affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: {}, matchLabelKeys: ['app'], mismatchLabelKeys: ['app'], topologyKey: 'zone' }] } },
        }),
      ),
    ).toEqual(['spec.template.spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and mismatchLabelKeys']);
  });
});

describe('seLinuxChangePolicy', () => {
  it('allows only Recursive while SELinuxMount is off', async () => {
    const created = await pod('selinux-ok', { securityContext: { seLinuxChangePolicy: 'Recursive' } });
    expect(created.spec!.securityContext!.seLinuxChangePolicy).toBe('Recursive');
    expect(await invalidCauses(pod('selinux-mount', { securityContext: { seLinuxChangePolicy: 'MountOption' } }))).toEqual([
      'spec.securityContext.seLinuxChangePolicy: Unsupported value: "MountOption": supported values: "Recursive"',
    ]);
  });
});

describe('host ports', () => {
  it('refuses one protocol/hostIP/hostPort twice across the app containers, and within one init container; with hostNetwork, a hostPort other than the containerPort', async () => {
    expect(
      await invalidCauses(
        pod('ports', {
          containers: [container({ ports: [{ containerPort: 80, hostPort: 8080 }] }), container({ name: 'side', ports: [{ containerPort: 81, hostPort: 8080 }, { containerPort: 82, hostPort: 8080, protocol: 'UDP' }] })],
          initContainers: [container({ name: 'init1', ports: [{ containerPort: 80, hostPort: 8080 }] }), container({ name: 'init2', ports: [{ containerPort: 80, hostPort: 9090 }, { containerPort: 81, hostPort: 9090, hostIP: '' }] })],
        }),
      ),
    ).toEqual(['spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"', 'spec.initContainers[0].ports[1].hostPort: Duplicate value: "TCP//9090"']);
    expect(
      await invalidCauses(pod('ports-host-network', { hostNetwork: true, containers: [container({ ports: [{ containerPort: 80 }, { containerPort: 81, hostPort: 8081 }] })] })),
    ).toEqual(['spec.containers[0].ports[1].hostPort: Invalid value: 8081: must match `containerPort` when `hostNetwork` is true']);
    const hostNetwork = await pod('ports-host-network-ok', { hostNetwork: true, containers: [container({ ports: [{ containerPort: 80 }] })] });
    expect(hostNetwork.spec!.containers[0]!.ports).toEqual([{ containerPort: 80, hostPort: 80, protocol: 'TCP' }]);
    const created = await pod('ports-ok', { containers: [container({ ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 80, hostPort: 8080, protocol: 'UDP' }, { containerPort: 81, hostPort: 8080, hostIP: '10.0.0.1' }] })] });
    expect(created.spec!.containers[0]!.ports).toHaveLength(3);
  });
});

describe('pod-level resources', () => {
  it('defaults the requests from the limits or the containers, and keeps what is consistent', async () => {
    const fromLimits = await pod('pod-level-limits', { resources: { limits: { cpu: '1', memory: '256Mi' } } });
    expect(fromLimits.spec!.resources).toEqual({ limits: { cpu: '1', memory: '256Mi' }, requests: { cpu: '1', memory: '256Mi' } });
    const fromContainers = await pod('pod-level-containers', {
      resources: { limits: { cpu: '2', memory: '1Gi' } },
      containers: [container({ resources: { requests: { cpu: '300m' } } }), container({ name: 'side', resources: { requests: { cpu: '200m' } } })],
    });
    expect(fromContainers.spec!.resources).toEqual({ limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } });
    expect(fromContainers.status!.qosClass).toBe('Burstable');
  });

  it('refuses claims, names other than cpu, memory and hugepages, and requests above the limits', async () => {
    expect(
      await invalidCauses(
        pod('pod-level-names', { resources: { requests: { 'ephemeral-storage': '1Gi', cpu: '2' }, limits: { cpu: '1' }, claims: [{ name: 'gpu' }] } as k8s.V1ResourceRequirements }),
      ),
    ).toEqual([
      'spec.resources.claims: Forbidden: claims cannot be set for Resources at pod-level',
      'spec.resources.requests[ephemeral-storage]: Unsupported value: "ephemeral-storage": supported values: "cpu", "hugepages-", "memory"',
      'spec.resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
      'spec.resources.claims[0]: Not found: "gpu": must be one of the names in pod.spec.resourceClaims which is empty',
    ]);
  });

  it('refuses pod requests below the containers and container limits above the pod', async () => {
    expect(
      await invalidCauses(
        pod('pod-level-consistency', {
          resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { memory: '1Gi' } },
          containers: [container({ resources: { requests: { cpu: '400m' }, limits: { memory: '2Gi' } } })],
          initContainers: [container({ name: 'init', resources: { requests: { cpu: '1' } } })],
        }),
      ),
    ).toEqual([
      'spec.resources.requests[cpu]: Invalid value: "500m": must be greater than or equal to aggregate container requests of 1',
      'spec.resources.requests[memory]: Invalid value: "1Gi": must be greater than or equal to aggregate container requests of 2Gi',
      'spec.resources.containers[0][memory].limits: Invalid value: "2Gi": must be less than or equal to pod limits of 1Gi',
    ]);
    expect(
      await invalidCauses(
        pod('pod-level-hugepages', {
          resources: { limits: { 'hugepages-2Mi': '2Mi', memory: '1Gi' } },
          containers: [container({ resources: { limits: { 'hugepages-2Mi': '4Mi', memory: '100Mi' } } })],
        }),
      ),
    ).toEqual([
      'spec.resources.requests[hugepages-2Mi]: Invalid value: "2Mi": must be greater than or equal to aggregate container requests of 4Mi',
      'spec.resources.limits[hugepages-2Mi]: Invalid value: "2Mi": must be greater than or equal to aggregate container limits of 4Mi',
      'spec.resources.containers[0][hugepages-2Mi].limits: Invalid value: "4Mi": must be less than or equal to pod limits of 2Mi',
    ]);
    // Only what the pod itself requests is compared: the containers' ephemeral storage is theirs.
    const created = await pod('pod-level-partial', { resources: { requests: { cpu: '1' } }, containers: [container({ resources: { requests: { cpu: '500m', 'ephemeral-storage': '1Gi' } } })] });
    expect(created.spec!.resources).toEqual({ requests: { cpu: '1' } });
  });
});

describe('the QoS class', () => {
  it('may not change through pods/status', async () => {
    const created = await pod('qos-status', {});
    expect(created.status!.qosClass).toBe('BestEffort');
    await expectStatus(
      api.core.replaceNamespacedPodStatus({ name: 'qos-status', namespace: ns, body: { ...created, status: { ...created.status, qosClass: 'Guaranteed' } } }),
      { code: 422, reason: 'Invalid', message: 'Pod "qos-status" is invalid: status.qosClass: Invalid value: "Guaranteed": field is immutable' },
    );
    const kept = await api.core.replaceNamespacedPodStatus({ name: 'qos-status', namespace: ns, body: { ...created, status: { ...created.status, qosClass: undefined, phase: 'Running' } } });
    expect(kept.status).toMatchObject({ qosClass: 'BestEffort', phase: 'Running' });
  });
});
