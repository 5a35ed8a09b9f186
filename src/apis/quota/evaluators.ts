// The quota evaluators of kube-apiserver v1.36: what each kind of object charges against a
// ResourceQuota, which quota resource names it answers for and which scopes it matches.
// pods, services and persistentvolumeclaims have their own (kubernetes pkg/quota/v1/evaluator/core);
// configmaps, secrets, resourcequotas and replicationcontrollers count under a legacy alias too
// (core/registry.go legacyObjectCountAliases); everything else is a plain object count
// (apiserver pkg/quota/v1/generic/evaluator.go, `count/<resource>.<group>`).
import type { KubeObject } from '../object.ts';
import { computePodQOS } from '../builtin/pod-spec.ts';
import { isPodLevelResourcesSet, podLimits, podRequests, podSpec } from './pod-resources.ts';
import { addLists, decimalQuantity, resourceList, zeroQuantity, type ResourceList } from './resource-list.ts';
import { Quantity } from '../builtin/quantity.ts';
import type { GroupResource } from '../../errors/status-error.ts';
import { isExtendedResourceName, isHugePageResourceName, isNativeResource } from '../builtin/resource-names.ts';

/** What an evaluator needs to know of a request (admission.Attributes). */
export interface QuotaRequest {
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  subresource: string;
  object: KubeObject | undefined;
  oldObject: KubeObject | undefined;
}

export interface ScopeSelector {
  scopeName: string;
  operator: string;
  values?: string[];
}

export interface QuotaEvaluator {
  readonly groupResource: GroupResource;
  /** Handles: whether this request can change usage at all. */
  handles(request: QuotaRequest): boolean;
  /** MatchingResources: of the quota's resource names, those this evaluator charges. */
  matchingResources(names: readonly string[]): string[];
  /** The scope function: whether the object is inside one scope selector. */
  matchesScope(selector: ScopeSelector, obj: KubeObject): boolean;
  /** Usage: what the object charges. `now` is for pods stuck terminating. */
  usage(obj: KubeObject, now: Date): ResourceList;
  /** Constraints: an error text when the object lacks what the quota's resources require. */
  constraints(required: readonly string[], obj: KubeObject): string | undefined;
}

/** generic.ObjectCountQuotaResourceNameFor. */
export function objectCountName(gr: GroupResource): string {
  return gr.group ? `count/${gr.resource}.${gr.group}` : `count/${gr.resource}`;
}

/** generic.GetScopeSelectorsFromQuota: spec.scopes as Exists selectors, then spec.scopeSelector's. */
export function quotaScopeSelectors(quota: KubeObject): ScopeSelector[] {
  const spec = (quota.spec ?? {}) as { scopes?: string[]; scopeSelector?: { matchExpressions?: ScopeSelector[] } };
  return [...(spec.scopes ?? []).map((scopeName) => ({ scopeName, operator: 'Exists' })), ...(spec.scopeSelector?.matchExpressions ?? [])];
}

/** generic.Matches: the quota names a resource of the evaluator's and every scope matches. */
export function quotaMatches(evaluator: QuotaEvaluator, quota: KubeObject, obj: KubeObject): boolean {
  const hard = Object.keys(((quota.status as { hard?: object } | undefined)?.hard ?? {}) as object);
  if (evaluator.matchingResources(hard).length === 0) return false;
  return quotaScopeSelectors(quota).every((s) => evaluator.matchesScope(s, obj));
}

const intersection = (input: readonly string[], known: readonly string[]): string[] => input.filter((n) => known.includes(n));

/** generic.objectCountEvaluator, with an optional legacy alias. */
export function objectCountEvaluator(gr: GroupResource, alias?: string): QuotaEvaluator {
  const names = alias ? [objectCountName(gr), alias] : [objectCountName(gr)];
  return {
    groupResource: gr,
    handles: (r) => r.subresource === '' && r.operation === 'CREATE',
    matchingResources: (input) => intersection(input, names),
    matchesScope: () => false,
    usage: () => new Map(names.map((n) => [n, decimalQuantity(1)])),
    constraints: () => undefined,
  };
}

// ---- pods (evaluator/core/pods.go) ----

const POD_RESOURCES = [
  'count/pods', 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods',
];
const POD_RESOURCE_PREFIXES = ['hugepages-', 'requests.hugepages-'];
/** The names a quota on which makes every container state them (validationSet, "a mistake"). */
const VALIDATION_SET = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];

const isExtendedResourceNameForQuota = (name: string): boolean =>
  (!isNativeResource(name) || name.startsWith('requests.deviceclass.resource.kubernetes.io/')) && name.startsWith('requests.');

/** podComputeUsageHelper. */
function podComputeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', decimalQuantity(1)]]);
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    const request = requests.get(name);
    if (request) {
      out.set(name, request);
      out.set(`requests.${name}`, request);
    }
    const limit = limits.get(name);
    if (limit) out.set(`limits.${name}`, limit);
  }
  for (const [name, request] of requests) {
    if (isHugePageResourceName(name)) {
      out.set(name, request);
      out.set(`requests.${name}`, request);
    }
    // schedutil.IsDRAExtendedResourceName: extended resources (example.com/gpu) and implicit
    // device-class ones; quota only knows them as requests.<name>.
    if (isExtendedResourceName(name) || name.startsWith('deviceclass.resource.kubernetes.io/')) out.set(`requests.${name}`, request);
  }
  return out;
}

export function isTerminating(pod: KubeObject): boolean {
  const ads = podSpec(pod).activeDeadlineSeconds;
  return typeof ads === 'number' && ads >= 0;
}

function usesCrossNamespacePodAffinity(pod: KubeObject): boolean {
  const affinity = podSpec(pod).affinity;
  if (!affinity) return false;
  type Term = { namespaces?: unknown[]; namespaceSelector?: unknown; podAffinityTerm?: Term };
  const cross = (t: Term | undefined) => !!t && ((t.namespaces?.length ?? 0) !== 0 || t.namespaceSelector != null);
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = affinity[kind];
    if (!a) continue;
    if ((a.requiredDuringSchedulingIgnoredDuringExecution as Term[] | undefined)?.some(cross)) return true;
    if ((a.preferredDuringSchedulingIgnoredDuringExecution as Term[] | undefined)?.some((w) => cross(w.podAffinityTerm))) return true;
  }
  return false;
}

/** podMatchesScopeFunc. */
function podMatchesScope(selector: ScopeSelector, pod: KubeObject): boolean {
  switch (selector.scopeName) {
    case 'Terminating':
      return isTerminating(pod);
    case 'NotTerminating':
      return !isTerminating(pod);
    case 'BestEffort':
      return computePodQOS(pod) === 'BestEffort';
    case 'NotBestEffort':
      return computePodQOS(pod) !== 'BestEffort';
    case 'PriorityClass': {
      const name = podSpec(pod).priorityClassName ?? '';
      // ScopedResourceSelectorRequirementsAsSelector: a label selector over {PriorityClass: name}.
      switch (selector.operator) {
        case 'Exists':
          return name !== '';
        case 'DoesNotExist':
          return name === '';
        case 'In':
          return name !== '' && (selector.values ?? []).includes(name);
        case 'NotIn':
          return name === '' || !(selector.values ?? []).includes(name);
        default:
          return false;
      }
    }
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespacePodAffinity(pod);
    default:
      return false;
  }
}

/** QuotaV1Pod: terminal pods and pods past their deletion grace are not charged compute. */
function podIsCharged(pod: KubeObject, now: Date): boolean {
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const { deletionTimestamp, deletionGracePeriodSeconds } = pod.metadata ?? {};
  if (deletionTimestamp && typeof deletionGracePeriodSeconds === 'number') {
    if (now.getTime() > Date.parse(deletionTimestamp) + deletionGracePeriodSeconds * 1000) return false;
  }
  return true;
}

/** PodUsageFunc. */
export function podUsage(pod: KubeObject, now: Date): ResourceList {
  const out: ResourceList = new Map([['count/pods', decimalQuantity(1)]]);
  if (!podIsCharged(pod, now)) return out;
  return addLists(out, podComputeUsage(podRequests(pod), podLimits(pod)));
}

interface ContainerJson {
  name?: string;
  resources?: { requests?: unknown; limits?: unknown };
}

/** podEvaluator.Constraints: with cpu/memory quota'd, every container states them (unless pod-level). */
function podConstraints(required: readonly string[], pod: KubeObject): string | undefined {
  if (isPodLevelResourcesSet(pod)) return undefined;
  const requiredSet = new Set(required.filter((n) => VALIDATION_SET.includes(n)));
  const missing = new Map<string, Set<string>>();
  const spec = podSpec(pod) as { containers?: ContainerJson[]; initContainers?: ContainerJson[] };
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
    const have = new Set(podComputeUsage(resourceList(c.resources?.requests), resourceList(c.resources?.limits)).keys());
    for (const name of requiredSet) {
      if (have.has(name)) continue;
      if (!missing.has(name)) missing.set(name, new Set());
      missing.get(name)!.add(c.name ?? '');
    }
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()].sort().map((name) => `${name} for: ${[...missing.get(name)!].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

export const podEvaluator: QuotaEvaluator = {
  groupResource: { group: '', resource: 'pods' },
  handles(r) {
    if (r.subresource === 'resize') return r.operation === 'UPDATE';
    if (r.subresource !== '') return false;
    if (r.operation === 'UPDATE' && r.object && r.oldObject && isTerminating(r.object) !== isTerminating(r.oldObject)) return true;
    return r.operation === 'CREATE';
  },
  matchingResources(input) {
    const out = intersection(input, POD_RESOURCES);
    for (const name of input) {
      if (POD_RESOURCE_PREFIXES.some((p) => name.startsWith(p))) out.push(name);
      if (isExtendedResourceNameForQuota(name)) out.push(name);
    }
    return out;
  },
  matchesScope: podMatchesScope,
  usage: podUsage,
  constraints: podConstraints,
};

// ---- services (evaluator/core/services.go) ----

const SERVICE_RESOURCES = ['count/services', 'services', 'services.nodeports', 'services.loadbalancers'];

export const serviceEvaluator: QuotaEvaluator = {
  groupResource: { group: '', resource: 'services' },
  handles: (r) => r.subresource === '' && (r.operation === 'CREATE' || r.operation === 'UPDATE'),
  matchingResources: (input) => intersection(input, SERVICE_RESOURCES),
  matchesScope: () => false,
  usage(svc) {
    const spec = (svc.spec ?? {}) as { type?: string; ports?: { nodePort?: number }[]; allocateLoadBalancerNodePorts?: boolean };
    const ports = spec.ports?.length ?? 0;
    const out: ResourceList = new Map([
      ['count/services', decimalQuantity(1)],
      ['services', decimalQuantity(1)],
      ['services.loadbalancers', zeroQuantity()],
      ['services.nodeports', zeroQuantity()],
    ]);
    if (spec.type === 'NodePort') out.set('services.nodeports', decimalQuantity(ports));
    if (spec.type === 'LoadBalancer') {
      // With node ports suppressed, only ports that name one explicitly are counted.
      const nodePorts = spec.allocateLoadBalancerNodePorts === false ? (spec.ports ?? []).filter((p) => p.nodePort).length : ports;
      out.set('services.nodeports', decimalQuantity(nodePorts));
      out.set('services.loadbalancers', decimalQuantity(1));
    }
    return out;
  },
  constraints: () => undefined,
};

// ---- persistentvolumeclaims (evaluator/core/persistent_volume_claims.go) ----

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';
const PVC_RESOURCES = ['persistentvolumeclaims', 'count/persistentvolumeclaims', 'requests.storage'];

/** storagehelpers.GetPersistentVolumeClaimClass: the beta annotation, else spec.storageClassName. */
export function claimClass(pvc: KubeObject): string {
  const beta = pvc.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'];
  if (beta !== undefined) return beta;
  return ((pvc.spec as { storageClassName?: string } | undefined)?.storageClassName) ?? '';
}

export const pvcEvaluator: QuotaEvaluator = {
  groupResource: { group: '', resource: 'persistentvolumeclaims' },
  handles: (r) => r.subresource === '' && (r.operation === 'CREATE' || r.operation === 'UPDATE'),
  matchingResources(input) {
    return input.filter((name) => {
      if (PVC_RESOURCES.includes(name)) return true;
      const i = name.indexOf(STORAGE_CLASS_SUFFIX);
      return i > 0 && ['persistentvolumeclaims', 'requests.storage'].includes(name.slice(i + STORAGE_CLASS_SUFFIX.length));
    });
  },
  matchesScope: () => false,
  usage(pvc) {
    const out: ResourceList = new Map([
      ['persistentvolumeclaims', decimalQuantity(1)],
      ['count/persistentvolumeclaims', decimalQuantity(1)],
    ]);
    const cls = claimClass(pvc);
    if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, decimalQuantity(1));
    // getStorageUsage: the larger of the request and what the resizer allocated.
    let storage: Quantity | undefined = resourceList((pvc.spec as { resources?: { requests?: unknown } } | undefined)?.resources?.requests).get('storage');
    const allocated = resourceList((pvc.status as { allocatedResources?: unknown } | undefined)?.allocatedResources).get('storage');
    if (allocated && (!storage || allocated.cmp(storage) > 0)) storage = allocated;
    if (storage) {
      out.set('requests.storage', storage);
      if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
    }
    return out;
  },
  constraints: () => undefined,
};

/** The legacy object-count aliases (core/registry.go). */
const LEGACY_ALIASES: Record<string, string> = {
  configmaps: 'configmaps',
  resourcequotas: 'resourcequotas',
  replicationcontrollers: 'replicationcontrollers',
  secrets: 'secrets',
};

/** The evaluator of a group resource: a special one, a legacy alias, or a plain object count. */
export function evaluatorFor(gr: GroupResource): QuotaEvaluator {
  if (gr.group === '') {
    if (gr.resource === 'pods') return podEvaluator;
    if (gr.resource === 'services') return serviceEvaluator;
    if (gr.resource === 'persistentvolumeclaims') return pvcEvaluator;
    const alias = LEGACY_ALIASES[gr.resource];
    if (alias) return objectCountEvaluator(gr, alias);
  }
  return objectCountEvaluator(gr);
}

/** Resources quota admission never evaluates (resourcequota install DefaultIgnoredResources). */
export const IGNORED_RESOURCES = new Set(['events']);
