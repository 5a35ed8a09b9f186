// The security and scheduling parts of ValidatePodSpec (pkg/apis/core/validation, v1.36) through
// client-node: pod and container security contexts, sysctls, seccomp and AppArmor profiles,
// windowsOptions, hostUsers, the OS rules, node and pod (anti-)affinity, scheduling gates and
// topology spread constraints, each with the exact texts and field paths; and the same rules in a
// Deployment's template.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { expectStatus } from './support/status.ts';
import { invalidCauses as invalid, useValidationCluster } from './support/validation.ts';

const api = useValidationCluster();

const container = (extra: Partial<k8s.V1Container> = {}): k8s.V1Container => ({ name: 'app', image: 'nginx', ...extra });
const pod = (name: string, spec: Partial<k8s.V1PodSpec>) => api.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name }, spec: { containers: [container()], ...spec } } });

describe('security contexts', () => {
  it('checks the pod security context: ids, sysctls, policies and profiles', async () => {
    expect(
      await invalid(
        pod('pod-sc', {
          hostNetwork: true,
          shareProcessNamespace: true,
          hostPID: true,
          securityContext: {
            runAsUser: -1,
            fsGroup: 2147483648,
            supplementalGroups: [1, -5],
            sysctls: [{ name: 'net.core.somaxconn', value: '1024' }, { name: 'Bad_Name', value: '1' }, { name: '', value: '1' }],
            fsGroupChangePolicy: 'Sometimes',
            seccompProfile: { type: 'Localhost', localhostProfile: '../escape.json' },
            appArmorProfile: { type: 'RuntimeDefault', localhostProfile: 'p' },
            supplementalGroupsPolicy: 'Union',
          },
        }),
      ),
    ).toEqual([
      'spec.securityContext.fsGroup: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive',
      'spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive',
      'spec.securityContext.supplementalGroups[1]: Invalid value: -5: must be between 0 and 2147483647, inclusive',
      'spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled',
      "spec.securityContext.sysctls[0].name: Invalid value: \"net.core.somaxconn\": may not be specified when 'hostNetwork' is true",
      'spec.securityContext.sysctls[1].name: Invalid value: "Bad_Name": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
      'spec.securityContext.sysctls[2].name: Required value',
      'spec.securityContext.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"',
      "spec.securityContext.seccompProfile.localhostProfile: Invalid value: \"../escape.json\": must not contain '..'",
      'spec.securityContext.appArmorProfile.localhostProfile: Invalid value: "p": can only be set when AppArmor type is Localhost',
      'spec.securityContext.supplementalGroupsPolicy: Unsupported value: "Union": supported values: "Merge", "Strict"',
    ]);
  });

  it('checks a container security context, printing the context where Go prints the internal struct', async () => {
    expect(
      await invalid(
        pod('container-sc', {
          containers: [
            container({
              securityContext: {
                runAsGroup: -2,
                procMount: 'Unmasked',
                allowPrivilegeEscalation: false,
                privileged: true,
                seccompProfile: { type: 'RuntimeDefault', localhostProfile: 'x' },
                windowsOptions: { runAsUserName: 'a\\b\\c' },
              },
            }),
          ],
        }),
      ),
    ).toEqual([
      'spec.containers[0].securityContext.runAsGroup: Invalid value: -2: must be between 0 and 2147483647, inclusive',
      'spec.containers[0].securityContext.procMount: Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`',
      'spec.containers[0].securityContext.seccompProfile.localhostProfile: Invalid value: {"Type":"RuntimeDefault","LocalhostProfile":"x"}: can only be set when seccomp type is Localhost',
      'spec.containers[0].securityContext: Invalid value: {"Capabilities":null,"Privileged":true,"SELinuxOptions":null,"WindowsOptions":{"GMSACredentialSpecName":null,"GMSACredentialSpec":null,"RunAsUserName":"a\\\\b\\\\c","HostProcess":null},"RunAsUser":null,"RunAsGroup":-2,"RunAsNonRoot":null,"ReadOnlyRootFilesystem":null,"AllowPrivilegeEscalation":false,"ProcMount":"Unmasked","SeccompProfile":{"Type":"RuntimeDefault","LocalhostProfile":"x"},"AppArmorProfile":null}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
      'spec.containers[0].securityContext.windowsOptions.runAsUserName: Invalid value: "a\\\\b\\\\c": runAsUserName cannot contain more than one backslash',
    ]);
  });

  it('forbids host namespaces with hostUsers false, and Linux-only fields in a Windows pod', async () => {
    expect(await invalid(pod('userns', { hostUsers: false, hostPID: true, hostIPC: true }))).toEqual([
      'spec.HostPID: Forbidden: when `pod.Spec.HostUsers` is false',
      'spec.HostIPC: Forbidden: when `pod.Spec.HostUsers` is false',
    ]);
    expect(
      await invalid(
        pod('windows', { os: { name: 'windows' }, securityContext: { runAsUser: 1000, seLinuxOptions: { level: 's0' } }, containers: [container({ securityContext: { privileged: false } })] }),
      ),
    ).toEqual([
      'spec.securityContext.seLinuxOptions: Forbidden: cannot be set for a windows pod',
      'spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod',
      'spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod',
    ]);
    expect(await invalid(pod('linux', { os: { name: 'linux' }, securityContext: { windowsOptions: { hostProcess: false } } }))).toEqual([
      'spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod',
    ]);
    expect(await invalid(pod('plan9', { os: { name: 'plan9' } }))).toEqual(['spec.os: Unsupported value: "plan9": supported values: "linux", "windows"']);
  });

  it('accepts a privileged container and a valid restricted context', async () => {
    const created = await pod('fine-sc', {
      securityContext: { runAsNonRoot: true, runAsUser: 1000, fsGroup: 2000, seccompProfile: { type: 'RuntimeDefault' }, sysctls: [{ name: 'kernel.shm_rmid_forced', value: '1' }] },
      containers: [container({ securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }), container({ name: 'debug', securityContext: { privileged: true } })],
    });
    expect(created.spec!.securityContext!.runAsUser).toBe(1000);
  });
});

describe('affinity, scheduling gates and topology spread', () => {
  it('checks node affinity terms and pod (anti-)affinity terms', async () => {
    expect(
      await invalid(
        pod('affinity', {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'zone', operator: 'In', values: [] }, { key: 'size', operator: 'Gt', values: ['1', '2'] }, { key: 'x', operator: 'Near' }] },
                  { matchFields: [{ key: 'metadata.uid', operator: 'In', values: ['a'] }] },
                ],
              },
              preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['not a label value!'] }] } }],
            },
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } }, namespaces: ['Bad_NS'], topologyKey: '' }],
              preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 101, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname' } }],
            },
          },
        }),
      ),
    ).toEqual([
      "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'",
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[2].operator: Invalid value: "Near": not a valid selector operator',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchFields[0].key: Invalid value: "metadata.uid": not a valid field selector key',
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
      `spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespace: Invalid value: "Bad_NS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty',
      `spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must be non-empty`,
      `spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100',
    ]);
  });

  it('checks scheduling gates and topology spread constraints', async () => {
    expect(
      await invalid(
        pod('spread', {
          schedulingGates: [{ name: 'example.com/wait' }, { name: 'example.com/wait' }],
          topologySpreadConstraints: [
            { maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', minDomains: 0 },
            { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', nodeAffinityPolicy: 'Maybe' },
            { maxSkew: 1, topologyKey: '', whenUnsatisfiable: 'Later', minDomains: 2 },
          ],
        }),
      ),
    ).toEqual([
      'spec.schedulingGates[1]: Duplicate value: "example.com/wait"',
      'spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
      'spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"',
      'spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: must be greater than zero',
      'spec.topologySpreadConstraints[1].nodeAffinityPolicy: Unsupported value: "Maybe": supported values: "Honor", "Ignore"',
      'spec.topologySpreadConstraints[2].topologyKey: Required value: can not be empty',
      'spec.topologySpreadConstraints[2].whenUnsatisfiable: Unsupported value: "Later": supported values: "DoNotSchedule", "ScheduleAnyway"',
      'spec.topologySpreadConstraints[2].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not Later',
    ]);
  });

  it('applies the same rules to a Deployment template', async () => {
    const status = await expectStatus(
      api.apps.createNamespacedDeployment({
        namespace: 'default',
        body: {
          metadata: { name: 'spread' },
          spec: {
            selector: { matchLabels: { app: 'web' } },
            template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container()], topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'Never' }] } },
          },
        },
      }),
      { code: 422 },
    );
    expect(status.message).toBe(
      'Deployment.apps "spread" is invalid: spec.template.spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Never": supported values: "DoNotSchedule", "ScheduleAnyway"',
    );
  });
});
