// A pod's aggregate requests and limits (k8s.io/component-helpers/resource/helpers.go PodRequests,
// PodLimits, v0.36): containers summed, init containers as the maximum of each step (restartable
// "sidecar" init containers add up and stay), pod-level cpu, memory and hugepages-* overriding
// the aggregate (PodLevelResources is on by default in v1.36; IsSupportedPodLevelResource takes
// the hugepages prefix too), the RuntimeClass overhead added.
// Not modelled: status.containerStatuses[].resources / allocatedResources (UseStatusResources),
// which only a kubelet writes.
import type { KubeObject } from '../object.ts';
import { addInto, maxInto, resourceList, type ResourceList } from './resource-list.ts';
import { isSupportedPodLevelResource } from '../builtin/resource-names.ts';

interface ContainerJson {
  name?: string;
  restartPolicy?: string;
  resources?: { requests?: unknown; limits?: unknown };
}

export interface PodSpecJson {
  containers?: ContainerJson[];
  initContainers?: ContainerJson[];
  overhead?: unknown;
  resources?: { requests?: unknown; limits?: unknown };
  activeDeadlineSeconds?: number;
  priorityClassName?: string;
  affinity?: Record<string, Record<string, unknown[] | undefined> | undefined>;
}

export const podSpec = (pod: KubeObject): PodSpecJson => (pod.spec ?? {}) as PodSpecJson;
const list = (c: ContainerJson, which: 'requests' | 'limits'): ResourceList => resourceList(c.resources?.[which]);

/** AggregateContainerRequests / AggregateContainerLimits: the containers' own, without pod-level resources. */
export function aggregate(spec: PodSpecJson, which: 'requests' | 'limits'): ResourceList {
  const out: ResourceList = new Map();
  for (const c of spec.containers ?? []) addInto(out, list(c, which));
  const restartable: ResourceList = new Map();
  const initMax: ResourceList = new Map();
  for (const c of spec.initContainers ?? []) {
    let step: ResourceList;
    if (c.restartPolicy === 'Always') {
      addInto(out, list(c, which));
      addInto(restartable, list(c, which));
      step = restartable;
    } else {
      step = new Map();
      addInto(step, list(c, which));
      addInto(step, restartable);
    }
    maxInto(initMax, step);
  }
  maxInto(out, initMax);
  return out;
}

function overridePodLevel(out: ResourceList, spec: PodSpecJson, which: 'requests' | 'limits'): void {
  for (const [name, q] of resourceList(spec.resources?.[which])) if (isSupportedPodLevelResource(name)) out.set(name, q);
}

/** PodRequests with the pod-level resources and the overhead. */
export function podRequests(pod: KubeObject): ResourceList {
  const spec = podSpec(pod);
  const out = aggregate(spec, 'requests');
  overridePodLevel(out, spec, 'requests');
  addInto(out, resourceList(spec.overhead));
  return out;
}

/** PodLimits: the overhead is added only to the limits that are set. */
export function podLimits(pod: KubeObject): ResourceList {
  const spec = podSpec(pod);
  const out = aggregate(spec, 'limits');
  overridePodLevel(out, spec, 'limits');
  for (const [name, q] of resourceList(spec.overhead)) out.get(name)?.add(q);
  return out;
}

/** LimitRanger's own podRequests/podLimits: the same without the overhead (limitranger/admission.go). */
export function podRequestsWithoutOverhead(pod: KubeObject): ResourceList {
  const spec = podSpec(pod);
  const out = aggregate(spec, 'requests');
  overridePodLevel(out, spec, 'requests');
  return out;
}

export function podLimitsWithoutOverhead(pod: KubeObject): ResourceList {
  const spec = podSpec(pod);
  const out = aggregate(spec, 'limits');
  overridePodLevel(out, spec, 'limits');
  return out;
}

/** IsPodLevelResourcesSet: pod-level requests or limits name cpu, memory or hugepages. */
export function isPodLevelResourcesSet(pod: KubeObject): boolean {
  const spec = podSpec(pod);
  return [...resourceList(spec.resources?.requests).keys(), ...resourceList(spec.resources?.limits).keys()].some(isSupportedPodLevelResource);
}
