// pods/resize (pkg/registry/core/pod/strategy.go podResizeStrategy, v1.36; InPlacePodVerticalScaling
// is GA): the update keeps the stored pod but for each container's resources and resizePolicy
// (init containers too, for sidecars), then ValidatePodResize
// (pkg/apis/core/validation/validation.go) checks that the pod may be resized and that only cpu
// and memory requests and limits changed, keeping the QoS class. Not ported: the node-support
// check (no kubelet reports container resources here, so no pod has running containers).
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { isPlainObject, type KubeObject } from '../object.ts';
import type { Strategy } from '../resource-type.ts';
import { semanticEqual } from './shared.ts';
import { resetObjectMetaForStatus } from './status-strategies.ts';
import { validatePodSpec, validateContainersOnlyForPod } from './pod-validation.ts';
import { computePodQOS } from './pod-spec.ts';
import { Quantity } from './quantity.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (isPlainObject(v) ? v : {});
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);

const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const CPU_MEMORY = ['cpu', 'memory'];

/** dropNonResizeUpdatesForContainers: the stored containers with the new resources and resize policies. */
function mergeResizable(containers: Json[], old: Json[]): Json[] {
  if (containers.length === 0) return containers;
  const merged = structuredClone(old);
  for (let i = 0; i < containers.length; i++) {
    // A reordered or renamed container is left for validation to refuse.
    if (merged[i]?.name !== containers[i]!.name) return containers;
    for (const key of ['resources', 'resizePolicy'] as const) {
      if (containers[i]![key] === undefined) delete merged[i]![key];
      else merged[i]![key] = containers[i]![key];
    }
  }
  return merged;
}

/** PrepareForUpdate: dropNonResizeUpdates, then updatePodGeneration. */
function prepareResize(pod: KubeObject, old: KubeObject): void {
  const spec = obj(pod.spec);
  const oldSpec = obj(old.spec);
  const containers = list(spec.containers);
  const initContainers = list(spec.initContainers);
  if (containers.length !== list(oldSpec.containers).length || initContainers.length !== list(oldSpec.initContainers).length) return;
  const next: Json = structuredClone(oldSpec);
  next.containers = mergeResizable(containers, list(oldSpec.containers));
  if (initContainers.length > 0) next.initContainers = mergeResizable(initContainers, list(oldSpec.initContainers));
  pod.spec = next;
  pod.status = structuredClone(old.status);
  resetObjectMetaForStatus(pod, old);
  if (!semanticEqual(pod.spec, old.spec)) pod.metadata!.generation = (typeof old.metadata?.generation === 'number' ? old.metadata.generation : 0) + 1;
}

const hasEntries = (v: unknown): boolean => Object.keys(obj(v)).length > 0;
const isRestartable = (c: Json): boolean => c.restartPolicy === 'Always';

/** validateContainerResize: requests and limits may not be removed; memory limits only grow unless the container restarts. */
function containerResize(resources: Json, oldResources: Json, resizePolicy: Json[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const removed = (now: unknown, before: unknown) => Object.keys(obj(before)).some((k) => !(k in obj(now)));
  if (removed(resources.requests, oldResources.requests)) errs.push(fieldError.forbidden(`${path}.requests`, 'resource requests cannot be removed'));
  if (removed(resources.limits, oldResources.limits)) errs.push(fieldError.forbidden(`${path}.limits`, 'resource limits cannot be removed'));
  const memoryPolicy = resizePolicy.find((p) => p.resourceName === 'memory')?.restartPolicy;
  if (memoryPolicy === undefined || memoryPolicy === 'NotRequired' || memoryPolicy === '') {
    const limit = obj(resources.limits).memory;
    const oldLimit = obj(oldResources.limits).memory;
    if (limit !== undefined && oldLimit !== undefined) {
      const q = Quantity.parse(String(limit));
      const oldQ = Quantity.parse(String(oldLimit));
      if (q instanceof Quantity && oldQ instanceof Quantity && q.cmp(oldQ) < 0) {
        errs.push(fieldError.forbidden(`${path}.limits[memory]`, 'memory limits cannot be decreased unless resizePolicy is RestartContainer'));
      }
    } else if (limit !== undefined) {
      errs.push(fieldError.forbidden(`${path}.limits[memory]`, 'memory limits cannot be added unless resizePolicy is RestartContainer'));
    }
  }
  return errs;
}

/** dropCPUMemoryResourcesFromContainer: the container with the old cpu and memory quantities. */
function withOldCpuMemory(c: Json, old: Json): Json {
  const out = structuredClone(c);
  const merge = (now: unknown, before: unknown): Json | undefined => {
    if (before === undefined) return undefined;
    const result: Json = { ...obj(now) };
    for (const k of CPU_MEMORY) delete result[k];
    for (const k of CPU_MEMORY) if (obj(before)[k] !== undefined) result[k] = obj(before)[k];
    return result;
  };
  const resources = obj(out.resources);
  const oldResources = obj(old.resources);
  const limits = merge(resources.limits, oldResources.limits);
  const requests = merge(resources.requests, oldResources.requests);
  out.resources = { ...(limits ? { limits } : {}), ...(requests ? { requests } : {}) };
  return out;
}

/** ValidatePodResize, after the pod has been validated as a pod. */
function validateResize(pod: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [...validatePodSpec(pod.spec, 'spec'), ...validateContainersOnlyForPod(pod.spec)];
  const spec = obj(pod.spec);
  const oldSpec = obj(old.spec);
  const podLevel = (s: Json) => hasEntries(obj(s.resources).requests) || hasEntries(obj(s.resources).limits);
  if (podLevel(oldSpec) || podLevel(spec)) return [fieldError.forbidden('', 'pods with pod-level resources cannot be resized')];
  if (old.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return [fieldError.forbidden('', 'static pods cannot be resized')];
  if (obj(oldSpec.os).name === 'windows') return [fieldError.forbidden('', 'windows pods cannot be resized')];
  const oldQOS = (obj(old.status).qosClass as string | undefined) || computePodQOS(old);
  if (oldQOS !== computePodQOS(pod)) errs.push(fieldError.invalid('spec', obj(pod.status).qosClass ?? '', 'Pod QOS Class may not change as a result of resizing'));

  const containers = list(spec.containers);
  const oldContainers = list(oldSpec.containers);
  const initContainers = list(spec.initContainers);
  const oldInitContainers = list(oldSpec.initContainers);
  oldInitContainers.forEach((c, i) => {
    if (!isRestartable(c) || !initContainers[i]) return;
    errs.push(...containerResize(obj(initContainers[i]!.resources), obj(c.resources), list(initContainers[i]!.resizePolicy), `spec.initContainers[${i}].resources`));
  });
  oldContainers.forEach((c, i) => {
    if (!containers[i]) return;
    errs.push(...containerResize(obj(containers[i]!.resources), obj(c.resources), list(containers[i]!.resizePolicy), `spec.containers[${i}].resources`));
  });

  const munged: Json = structuredClone(spec);
  munged.containers = containers.map((c, i) => {
    const merged = oldContainers[i] ? withOldCpuMemory(c, oldContainers[i]!) : c;
    if (oldContainers[i] && !semanticEqual(merged, oldContainers[i])) errs.push(fieldError.forbidden('spec', 'only cpu and memory resources are mutable'));
    return merged;
  });
  if (initContainers.length > 0) {
    munged.initContainers = initContainers.map((c, i) => {
      const before = oldInitContainers[i];
      if (!before) return c;
      if (isRestartable(c)) {
        const merged = withOldCpuMemory(c, before);
        if (!semanticEqual(merged, before)) errs.push(fieldError.forbidden('spec', 'only cpu and memory resources for sidecar containers are mutable'));
        return merged;
      }
      if (!semanticEqual(c, before)) errs.push(fieldError.forbidden('spec', 'resources for non-sidecar init containers are immutable'));
      return c;
    });
  }
  if (errs.length > 0) return errs;
  if (!semanticEqual(munged, oldSpec)) errs.push(fieldError.forbidden('spec', 'only cpu and memory resources are mutable'));
  return errs;
}

export const podResizeStrategy: Strategy = { prepareForUpdate: prepareResize, validateUpdate: validateResize };
