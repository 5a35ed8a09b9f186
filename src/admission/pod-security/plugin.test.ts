// The PodSecurity plugin on admission attributes: what the wire cannot show (audit annotations)
// and the paths a fresh cluster cannot reach (labels invalid before the plugin ran, a namespace
// gone), against admission.go's answers.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../apis/object.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import { StatusError } from '../../errors/status-error.ts';
import type { AdmissionAttributes } from '../../registry/admission.ts';
import { NAMESPACE_MAX_PODS_TO_CHECK } from './namespace-pods.ts';
import { isSignificantPodUpdate, podSecurityPlugin, type PodSecurityReads } from './plugin.ts';

const namespace = (name: string, labels: Record<string, string> = {}): KubeObject => ({ metadata: { name, labels } });

function readsOf(namespaces: KubeObject[], pods: KubeObject[] = []): PodSecurityReads {
  return {
    namespace: (name) => namespaces.find((n) => n.metadata?.name === name),
    pods: (ns) => pods.filter((p) => p.metadata?.namespace === ns),
  };
}

function attributes(resource: { group: string; plural: string }, operation: 'CREATE' | 'UPDATE', object: KubeObject, oldObject?: KubeObject, subresource = ''): AdmissionAttributes {
  return {
    operation,
    type: resource as ResourceType,
    subresource,
    namespace: object.metadata?.namespace,
    name: object.metadata?.name ?? '',
    object,
    oldObject,
    options: {},
    dryRun: false,
    userInfo: undefined,
    warnings: [],
    auditAnnotations: {},
  };
}

const PODS = { group: '', plural: 'pods' };
const NAMESPACES = { group: '', plural: 'namespaces' };
const DEPLOYMENTS = { group: 'apps', plural: 'deployments' };

const hostPidPod = (name = 'p', ns = 'ns'): KubeObject => ({ metadata: { name, namespace: ns }, spec: { hostPID: true, containers: [{ name: 'c', image: 'nginx' }] } });

async function refusal(call: () => void | Promise<void>): Promise<StatusError> {
  try {
    await call();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('audit annotations', () => {
  it('a privileged namespace: enforce-policy privileged:latest, nothing else', async () => {
    const plugin = podSecurityPlugin(readsOf([namespace('ns')]));
    const attrs = attributes(PODS, 'CREATE', hostPidPod());
    await plugin.validate!(attrs);
    expect(attrs.auditAnnotations).toEqual({ 'pod-security.kubernetes.io/enforce-policy': 'privileged:latest' });
    expect(attrs.warnings).toEqual([]);
  });

  it('the audit level: audit-violations, beside the enforced policy', async () => {
    const plugin = podSecurityPlugin(readsOf([namespace('ns', { 'pod-security.kubernetes.io/audit': 'baseline', 'pod-security.kubernetes.io/audit-version': 'v1.30' })]));
    const attrs = attributes(PODS, 'CREATE', hostPidPod());
    await plugin.validate!(attrs);
    expect(attrs.auditAnnotations).toEqual({
      'pod-security.kubernetes.io/enforce-policy': 'privileged:latest',
      'pod-security.kubernetes.io/audit-violations': 'would violate PodSecurity "baseline:v1.30": host namespaces (hostPID=true)',
    });
    expect(attrs.warnings).toEqual([]);
  });

  it('a refused pod is still audited', async () => {
    const plugin = podSecurityPlugin(readsOf([namespace('ns', { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/audit': 'baseline' })]));
    const attrs = attributes(PODS, 'CREATE', hostPidPod());
    const err = await refusal(() => plugin.validate!(attrs));
    expect(err.status.code).toBe(403);
    expect(attrs.auditAnnotations).toEqual({
      'pod-security.kubernetes.io/enforce-policy': 'baseline:latest',
      'pod-security.kubernetes.io/audit-violations': 'would violate PodSecurity "baseline:latest": host namespaces (hostPID=true)',
    });
  });

  it('a pod controller: audit-violations only (no enforced policy)', async () => {
    const plugin = podSecurityPlugin(readsOf([namespace('ns', { 'pod-security.kubernetes.io/audit': 'baseline', 'pod-security.kubernetes.io/enforce': 'baseline' })]));
    const deployment: KubeObject = { metadata: { name: 'd', namespace: 'ns' }, spec: { template: { spec: { hostIPC: true, containers: [{ name: 'c', image: 'nginx' }] } } } };
    const attrs = attributes(DEPLOYMENTS, 'CREATE', deployment);
    await plugin.validate!(attrs);
    expect(attrs.auditAnnotations).toEqual({ 'pod-security.kubernetes.io/audit-violations': 'would violate PodSecurity "baseline:latest": host namespaces (hostIPC=true)' });
    expect(attrs.warnings).toEqual(['would violate PodSecurity "baseline:latest": host namespaces (hostIPC=true)']);
  });

  it('labels that do not parse: an error annotation, the enforce level read as restricted, warn and audit failing open', async () => {
    const plugin = podSecurityPlugin(readsOf([namespace('ns', { 'pod-security.kubernetes.io/enforce': 'strict', 'pod-security.kubernetes.io/warn': 'loud' })]));
    const attrs = attributes(PODS, 'CREATE', hostPidPod());
    const err = await refusal(() => plugin.validate!(attrs));
    expect(err.status.message).toMatch(/^pods "p" is forbidden: violates PodSecurity "restricted:latest": host namespaces \(hostPID=true\), allowPrivilegeEscalation != false/);
    expect(attrs.auditAnnotations).toEqual({
      'pod-security.kubernetes.io/error':
        'Failed to parse policy: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, ' +
        'metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "loud": must be one of privileged, baseline, restricted]',
      'pod-security.kubernetes.io/enforce-policy': 'restricted:latest',
    });
  });

  it('a pod whose namespace cannot be found: 500, with the error annotated', async () => {
    const plugin = podSecurityPlugin(readsOf([]));
    const attrs = attributes(PODS, 'CREATE', hostPidPod('p', 'gone'));
    const err = await refusal(() => plugin.validate!(attrs));
    expect(err.status).toMatchObject({ code: 500, reason: 'InternalError', message: 'Internal error occurred: failed to lookup namespace "gone"' });
    expect(attrs.auditAnnotations).toEqual({ 'pod-security.kubernetes.io/error': 'Internal error occurred: failed to lookup namespace "gone": namespaces "gone" not found' });
  });
});

describe('namespaces', () => {
  it('admits an update that leaves invalid labels as they were, refuses one that changes them', async () => {
    const plugin = podSecurityPlugin(readsOf([]));
    const old = namespace('ns', { 'pod-security.kubernetes.io/enforce': 'strict' });
    await plugin.validate!(attributes(NAMESPACES, 'UPDATE', namespace('ns', { 'pod-security.kubernetes.io/enforce': 'strict', team: 'a' }), old));
    const err = await refusal(() => plugin.validate!(attributes(NAMESPACES, 'UPDATE', namespace('ns', { 'pod-security.kubernetes.io/enforce': 'stricter' }), old)));
    expect(err.status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'Namespace "ns" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "stricter": must be one of privileged, baseline, restricted',
    });
  });

  it('checks the pods again when only the version of the enforce level changes, not when the level relaxes', async () => {
    const pods = [{ metadata: { name: 'p', namespace: 'ns' }, spec: { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_rmem' }] }, containers: [] } }];
    const plugin = podSecurityPlugin(readsOf([], pods));
    const at = (version: string, level = 'baseline') => namespace('ns', { 'pod-security.kubernetes.io/enforce': level, 'pod-security.kubernetes.io/enforce-version': version });
    const toOlder = attributes(NAMESPACES, 'UPDATE', at('v1.31'), at('latest'));
    await plugin.validate!(toOlder);
    expect(toOlder.warnings).toEqual(['existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:v1.31"', 'p: forbidden sysctls']);
    const relaxed = attributes(NAMESPACES, 'UPDATE', at('v1.31'), at('v1.31', 'restricted'));
    await plugin.validate!(relaxed);
    expect(relaxed.warnings).toEqual([]);
  });

  it('checks at most 3000 pods, one per controller first', async () => {
    const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u', controller: true };
    const pods: KubeObject[] = [];
    for (let i = 0; i < NAMESPACE_MAX_PODS_TO_CHECK + 1; i++) {
      pods.push({ metadata: { name: `r${String(i).padStart(4, '0')}`, namespace: 'ns', ownerReferences: [owner] }, spec: { hostPID: true, containers: [] } });
    }
    pods.push({ metadata: { name: 'z-alone', namespace: 'ns' }, spec: { containers: [{ name: 'c', securityContext: { privileged: true } }] } });
    const attrs = attributes(NAMESPACES, 'UPDATE', namespace('ns', { 'pod-security.kubernetes.io/enforce': 'baseline' }), namespace('ns'));
    await podSecurityPlugin(readsOf([], pods)).validate!(attrs);
    expect(attrs.warnings).toEqual([
      'new PodSecurity enforce level only checked against the first 3000 of 3002 existing pods',
      'existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"',
      'r0000 (and 2998 other pods): host namespaces',
      'z-alone: privileged',
    ]);
  });
});

describe('pods', () => {
  it('skips the subresources that cannot change the spec, evaluates any other', async () => {
    const plugin = podSecurityPlugin(readsOf([namespace('ns', { 'pod-security.kubernetes.io/enforce': 'baseline' })]));
    for (const subresource of ['status', 'binding', 'eviction']) await plugin.validate!(attributes(PODS, 'UPDATE', hostPidPod(), hostPidPod(), subresource));
    const withEphemeral: KubeObject = { ...hostPidPod(), spec: { hostPID: true, containers: [{ name: 'c', image: 'nginx' }], ephemeralContainers: [{ name: 'debug', image: 'busybox' }] } };
    const err = await refusal(() => plugin.validate!(attributes(PODS, 'UPDATE', withEphemeral, hostPidPod(), 'ephemeralcontainers')));
    expect(err.status.message).toBe('pods "p" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID=true)');
  });

  it('isSignificantPodUpdate: images, container counts, ephemeral containers added or changed', () => {
    const spec = (extra: Record<string, unknown> = {}) => ({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'a' }], ...extra } });
    expect(isSignificantPodUpdate(spec({ activeDeadlineSeconds: 5 }), spec())).toBe(false);
    expect(isSignificantPodUpdate({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'b' }] } }, spec())).toBe(true);
    expect(isSignificantPodUpdate(spec({ initContainers: [{ name: 'i', image: 'a' }] }), spec())).toBe(true);
    const debug = (image: string) => spec({ ephemeralContainers: [{ name: 'd', image }] });
    expect(isSignificantPodUpdate(debug('x'), spec())).toBe(true);
    expect(isSignificantPodUpdate(debug('x'), debug('x'))).toBe(false);
    expect(isSignificantPodUpdate(debug('y'), debug('x'))).toBe(true);
  });
});
