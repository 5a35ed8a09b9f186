// The checks by level and version, on pod specs the API cannot carry to them unchanged (the
// deprecated annotations a real pod strategy would copy into fields) or at old policy versions;
// texts from pod-security-admission v0.36.2 policy/check_*.go.
import { describe, expect, it } from 'vitest';
import { LATEST, v1, type Level, type Version } from './api.ts';
import { Evaluator, forbiddenDetail, forbiddenReason } from './evaluator.ts';
import type { PodMetadataView, PodSpecView } from './pod-view.ts';

const evaluator = new Evaluator();
const detail = (level: Level, version: Version, spec: PodSpecView, metadata: PodMetadataView = {}) => forbiddenDetail(evaluator.evaluate({ level, version }, metadata, spec));

const compliant = {
  name: 'c',
  securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
};

describe('Evaluator', () => {
  it('the newest version any check names is v1.35; latest and later versions run its checks', () => {
    expect(evaluator.maxMinor).toBe(35);
    const spec: PodSpecView = { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_rmem' }] }, containers: [{ name: 'c' }] };
    expect(detail('baseline', v1(40), spec)).toBe('');
    expect(detail('baseline', v1(31), spec)).toBe('forbidden sysctls (net.ipv4.tcp_rmem)');
  });

  it('privileged runs no check', () => {
    expect(evaluator.evaluatePod({ level: 'privileged', version: LATEST }, {}, { hostPID: true })).toEqual([]);
  });

  it('restricted at v1.0: no allowPrivilegeEscalation (v1.8), capabilities (v1.22), seccomp field (v1.19) or runAsUser (v1.23) checks', () => {
    const spec: PodSpecView = { securityContext: { runAsUser: 0 }, containers: [{ name: 'c' }] };
    expect(detail('restricted', v1(0), spec)).toBe('runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true)');
    expect(detail('restricted', v1(8), spec)).toBe(
      'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true)',
    );
  });

  it('seccomp before v1.19 reads the alpha annotations', () => {
    const metadata = { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined', 'container.seccomp.security.alpha.kubernetes.io/c': 'docker/default', 'container.seccomp.security.alpha.kubernetes.io/d': 'x' } };
    const spec: PodSpecView = { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [{ name: 'c' }, { name: 'd' }] };
    expect(detail('baseline', v1(18), spec, metadata)).toBe(
      'seccompProfile (forbidden annotations container.seccomp.security.alpha.kubernetes.io/d="x", seccomp.security.alpha.kubernetes.io/pod="unconfined")',
    );
    expect(detail('baseline', v1(19), spec, metadata)).toBe('seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")');
  });

  it('AppArmor: profile types and the deprecated annotations', () => {
    const metadata = { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined', 'container.apparmor.security.beta.kubernetes.io/d': 'localhost/p' } };
    const spec: PodSpecView = { containers: [{ name: 'c', securityContext: { appArmorProfile: { type: 'Unconfined' } } }, { name: 'd' }] };
    expect(detail('baseline', LATEST, spec, metadata)).toBe(
      'forbidden AppArmor profiles (container "c" and annotation must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/c="unconfined"")',
    );
  });

  it('windows hostProcess, and Windows pods passing the restricted checks that do not apply to them (v1.25+)', () => {
    const spec: PodSpecView = {
      os: { name: 'windows' },
      securityContext: { runAsNonRoot: true, windowsOptions: { hostProcess: true } },
      containers: [{ name: 'c', securityContext: { windowsOptions: { hostProcess: true } } }],
    };
    expect(detail('restricted', LATEST, spec)).toBe('hostProcess (pod and container "c" must not set securityContext.windowsOptions.hostProcess=true)');
    expect(detail('restricted', v1(24), spec)).toBe(
      'hostProcess (pod and container "c" must not set securityContext.windowsOptions.hostProcess=true), ' +
        'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
        'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
  });

  it('lifecycle hosts count, each host once, containers sorted', () => {
    const spec: PodSpecView = {
      containers: [
        { name: 'z', lifecycle: { preStop: { httpGet: { host: 'h1' } }, postStart: { tcpSocket: { host: 'h1' } } } },
        { name: 'a', startupProbe: { tcpSocket: { host: 'h0' } } },
      ],
    };
    expect(detail('baseline', LATEST, spec)).toBe('probe or lifecycle host (containers "a", "z" use probe or lifecycle hosts "h0", "h1")');
    expect(detail('baseline', v1(33), spec)).toBe('');
  });

  it('restricted overrides: hostPath reads as a restricted volume type, capabilities as unrestricted, procMount stays strict in user namespaces', () => {
    const spec: PodSpecView = {
      hostUsers: false,
      volumes: [{ name: 'h', hostPath: { path: '/' } }, { name: 'x' }],
      containers: [{ ...compliant, securityContext: { ...compliant.securityContext, capabilities: { add: ['SYS_ADMIN'], drop: ['ALL'] }, procMount: 'Unmasked' } }],
    };
    expect(detail('baseline', LATEST, spec)).toBe('non-default capabilities (container "c" must not include "SYS_ADMIN" in securityContext.capabilities.add), hostPath volumes (volume "h")');
    expect(detail('restricted', LATEST, spec)).toBe(
      'unrestricted capabilities (container "c" must not include "SYS_ADMIN" in securityContext.capabilities.add), ' +
        'procMount (container "c" must not set securityContext.procMount to "Unmasked"), ' +
        'restricted volume types (volumes "h", "x" use restricted volume types "hostPath", "unknown")',
    );
  });

  it('the short form lists the reasons only', () => {
    const result = evaluator.evaluate({ level: 'baseline', version: LATEST }, {}, { hostIPC: true, containers: [{ name: 'c', ports: [{ hostPort: 1 }] }] });
    expect(forbiddenReason(result)).toBe('host namespaces, hostPort');
    expect(forbiddenDetail(result)).toBe('host namespaces (hostIPC=true), hostPort (container "c" uses hostPort 1)');
  });
});
