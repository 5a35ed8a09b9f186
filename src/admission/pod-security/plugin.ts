// The PodSecurity admission plugin as kube-apiserver v1.36 runs it by default
// (plugin/pkg/admission/security/podsecurity/admission.go around
// k8s.io/pod-security-admission/admission/admission.go, v0.36.2), with the default configuration:
// every mode privileged:latest unless a namespace's labels say otherwise, no exemptions.
//
// A validating plugin for creates and updates of pods, the pod controllers and namespaces:
// - pods: the enforce level refuses (403), the audit level annotates, the warn level warns;
// - pod controllers: their template is audited and warned about, never enforced;
// - namespaces: PSA labels must be valid; a stricter enforce level is tried on the pods already
//   there, and what they violate comes back as warnings.
import { admissionForbidden } from '../forbidden.ts';
import type { KubeObject } from '../../apis/object.ts';
import { aggregateMessages, fieldErrorMessage, type FieldError } from '../../errors/field-error.ts';
import { goQuote } from '../../errors/go-format.ts';
import { internalError, invalid } from '../../errors/status-error.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission.ts';
import type { AdmissionServices } from '../services.ts';
import {
  AUDIT_ANNOTATION_PREFIX,
  compareLevels,
  DEFAULT_POLICY,
  fullyPrivileged,
  levelVersionString,
  policyToEvaluate,
  sameLevelVersion,
  sameVersion,
  type LevelVersion,
  type Policy,
} from './api.ts';
import type { AggregateCheckResult, Evaluator } from './evaluator.ts';
import { extractTemplate, isPodController, podSpecOf, type ExtractedPodSpec } from './pod-specs.ts';
import type { ContainerView, PodSpecView } from './pod-view.ts';
import { withPodSecurityChecks, type PodSecurityChecks } from './checks-on-demand.ts';

/** What the plugin reads of the cluster (the real one: informers, and a client for a namespace the informer misses). */
export interface PodSecurityReads {
  /** The namespace, or undefined when there is none. */
  namespace(name: string): KubeObject | undefined;
  /** The pods of a namespace. */
  pods(namespace: string): KubeObject[];
}

export function podSecurityReads(services: AdmissionServices): PodSecurityReads {
  const registry = (plural: string) => {
    const type = services.catalog.find('', 'v1', plural);
    if (!type) throw new Error(`invariant: ${plural} are not served`);
    return services.registryFor(type);
  };
  return {
    namespace: (name) => registry('namespaces').peek(undefined, name),
    pods: (namespace) => {
      const pods = registry('pods');
      return services.store.list(pods.bucket, `${namespace}/`).map((e) => e.object);
    },
  };
}

/**
 * Pod subresources that never change what PSA checks. Any other (ephemeralcontainers, resize)
 * carries the pod and is evaluated.
 */
const IGNORED_POD_SUBRESOURCES = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

const labelsOf = (obj: KubeObject | undefined): Record<string, string> | undefined => obj?.metadata?.labels;

export function podSecurityPlugin(reads: PodSecurityReads, defaults: Policy = DEFAULT_POLICY): AdmissionPlugin {
  // The checks load on the first write that is evaluated (a namespace or pod with a policy to check).
  const state: { evaluator?: Evaluator } = {};

  function validateNamespace(attrs: AdmissionAttributes): void | Promise<void> {
    if (attrs.subresource) return;
    const { policy: newPolicy, errors: newErrors } = policyToEvaluate(labelsOf(attrs.object), defaults);
    const refuse = () => invalid({ group: '', kind: 'Namespace' }, attrs.name, newErrors);
    if (attrs.operation === 'CREATE') {
      if (newErrors.length) throw refuse();
      return;
    }
    const { policy: oldPolicy, errors: oldErrors } = policyToEvaluate(labelsOf(attrs.oldObject), defaults);
    // Invalid labels are refused on update only when they changed.
    if (newErrors.length && (!oldErrors.length || !sameErrors(newErrors, oldErrors))) throw refuse();
    // The pods are tried only when the enforce level became stricter (or changed version) and is not privileged.
    if (sameLevelVersion(newPolicy.enforce, oldPolicy.enforce)) return;
    if (newPolicy.enforce.level === 'privileged') return;
    if (sameVersion(newPolicy.enforce.version, oldPolicy.enforce.version) && compareLevels(newPolicy.enforce.level, oldPolicy.enforce.level) < 1) return;
    return withPodSecurityChecks(state, (checks, evaluator) => {
      attrs.warnings.push(...checks.namespacePods.evaluatePodsInNamespace(evaluator, attrs.name, newPolicy.enforce, reads.pods(attrs.name)));
    });
  }

  function validatePod(attrs: AdmissionAttributes): void | Promise<void> {
    if (IGNORED_POD_SUBRESOURCES.has(attrs.subresource)) return;
    const namespaceName = attrs.namespace ?? '';
    const namespace = reads.namespace(namespaceName);
    if (!namespace) {
      const message = `failed to lookup namespace ${goQuote(namespaceName)}`;
      annotate(attrs, { error: `Internal error occurred: ${message}: namespaces ${goQuote(namespaceName)} not found` });
      throw internalError(message);
    }
    const { policy, errors } = policyToEvaluate(labelsOf(namespace), defaults);
    if (!errors.length && fullyPrivileged(policy)) {
      annotate(attrs, { 'enforce-policy': 'privileged:latest' });
      return;
    }
    if (attrs.operation === 'UPDATE' && attrs.oldObject && !isSignificantPodUpdate(attrs.object ?? {}, attrs.oldObject)) return;
    return withPodSecurityChecks(state, (checks, evaluator) => evaluatePod(checks, evaluator, attrs, policy, errors, podSpecOf(attrs.object ?? {}), true));
  }

  function validatePodController(attrs: AdmissionAttributes): void | Promise<void> {
    if (attrs.subresource) return;
    const namespaceName = attrs.namespace ?? '';
    const namespace = reads.namespace(namespaceName);
    if (!namespace) {
      annotate(attrs, { error: `failed to lookup namespace ${goQuote(namespaceName)}: namespaces ${goQuote(namespaceName)} not found` });
      return;
    }
    const { policy, errors } = policyToEvaluate(labelsOf(namespace), defaults);
    if (!errors.length && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return;
    const template = extractTemplate(attrs.type.group, attrs.type.plural, attrs.object ?? {});
    if (!template) return;
    return withPodSecurityChecks(state, (checks, evaluator) => evaluatePod(checks, evaluator, attrs, policy, errors, template, false));
  }

  /** EvaluatePod: enforce (pods only), then audit, then warn unless refused, each level evaluated once. */
  function evaluatePod(checks: PodSecurityChecks, evaluator: Evaluator, attrs: AdmissionAttributes, policy: Policy, policyErrors: FieldError[], pod: ExtractedPodSpec, enforce: boolean): void {
    const annotations: Record<string, string> = {};
    if (policyErrors.length) annotations.error = `Failed to parse policy: ${aggregateMessages(policyErrors.map(fieldErrorMessage))}`;
    const cached = new Map<string, AggregateCheckResult>();
    const evaluate = (lv: LevelVersion) => {
      const key = levelVersionString(lv);
      let result = cached.get(key);
      if (!result) cached.set(key, (result = evaluator.evaluate(lv, pod.metadata, pod.spec)));
      return result;
    };
    let refusal: Error | undefined;
    if (enforce) {
      annotations['enforce-policy'] = levelVersionString(policy.enforce);
      const result = evaluate(policy.enforce);
      if (!result.allowed) {
        // admission.NewForbidden: named as the request names it, else as the object does (a generated name).
        refusal = admissionForbidden(attrs, `violates PodSecurity ${goQuote(levelVersionString(policy.enforce))}: ${checks.evaluator.forbiddenDetail(result)}`);
      }
    }
    const audit = evaluate(policy.audit);
    if (!audit.allowed) annotations['audit-violations'] = `would violate PodSecurity ${goQuote(levelVersionString(policy.audit))}: ${checks.evaluator.forbiddenDetail(audit)}`;
    // No warnings on a request that is refused anyway.
    if (!refusal) {
      const warn = evaluate(policy.warn);
      if (!warn.allowed) attrs.warnings.push(`would violate PodSecurity ${goQuote(levelVersionString(policy.warn))}: ${checks.evaluator.forbiddenDetail(warn)}`);
    }
    annotate(attrs, annotations);
    if (refusal) throw refusal;
  }

  return {
    name: 'PodSecurity',
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    validate(attrs) {
      const { group, plural } = attrs.type;
      if (group === '' && plural === 'namespaces') return validateNamespace(attrs);
      if (group === '' && plural === 'pods') return validatePod(attrs);
      if (isPodController(group, plural)) return validatePodController(attrs);
    },
  };
}

/** The plugin's audit annotations go under `pod-security.kubernetes.io/`. */
function annotate(attrs: AdmissionAttributes, annotations: Record<string, string>): void {
  for (const [key, value] of Object.entries(annotations)) attrs.auditAnnotations[AUDIT_ANNOTATION_PREFIX + key] = value;
}

function sameErrors(a: readonly FieldError[], b: readonly FieldError[]): boolean {
  return a.length === b.length && a.every((e, i) => fieldErrorMessage(e) === fieldErrorMessage(b[i]!));
}

/**
 * isSignificantPodUpdate: only a change of what a check could see re-evaluates an update; for a
 * pod that is a change in the number of containers or init containers, a container's image, or
 * an ephemeral container added or changed (the fields a pod update may change at all).
 */
export function isSignificantPodUpdate(pod: KubeObject, oldPod: KubeObject): boolean {
  const spec = podSpecOf(pod).spec;
  const oldSpec = podSpecOf(oldPod).spec;
  const list = (s: PodSpecView, key: 'containers' | 'initContainers' | 'ephemeralContainers'): ContainerView[] => s[key] ?? [];
  for (const key of ['containers', 'initContainers'] as const) {
    const now = list(spec, key);
    const before = list(oldSpec, key);
    if (now.length !== before.length) return true;
    if (now.some((c, i) => (c.image ?? '') !== (before[i]!.image ?? ''))) return true;
  }
  const oldEphemeral = list(oldSpec, 'ephemeralContainers');
  for (const c of list(spec, 'ephemeralContainers')) {
    const old = oldEphemeral.find((o) => (o.name ?? '') === (c.name ?? ''));
    if (!old || (old.image ?? '') !== (c.image ?? '')) return true;
  }
  return false;
}
