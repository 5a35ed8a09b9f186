// autoscaling/v2 and autoscaling/v1 HorizontalPodAutoscaler: one storage (the group's preferred
// version, v2, which the storage version hash also names), served at both versions. Discovery data
// from the generated catalogue; strategy from pkg/registry/autoscaling/horizontalpodautoscaler/
// strategy.go (status reset on create, kept on update; spec kept on /status); defaults from
// pkg/apis/autoscaling/{v1,v2}/defaults.go; the v1 <-> v2 conversion from
// pkg/apis/autoscaling/v1/conversion.go: targetCPUUtilizationPercentage is the CPU Utilization
// metric, currentCPUUtilizationPercentage its current value, and v2 conditions travel in the
// `autoscaling.alpha.kubernetes.io/conditions` annotation. Not converted yet: v2 metrics other
// than CPU utilization and `behavior` (the real conversion keeps them in the
// `autoscaling.alpha.kubernetes.io/metrics` / `…/behavior` annotations), which a v1 write drops.
import type { KubeObject } from '../object.ts';
import { isPlainObject } from '../object.ts';
import type { ResourceType } from '../resource-type.ts';
import type { StorageCodec } from '../storage-codec.ts';
import { validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerUpdate } from './autoscaling-validation.ts';
import { keepFromStored } from './status-strategies.ts';
import { arrAt, builtin, child, composeStrategy, defaulting, getIn, type JsonObject, objAt, setDefault, statusSubresource } from './shared.ts';

const GROUP = 'autoscaling';
const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
const hpa = { kind: 'HorizontalPodAutoscaler', plural: 'horizontalpodautoscalers', namespaced: true, allowUnconditionalUpdate: true, allowCreateOnUpdate: false, returnDeletedObject: false } as const;

export function autoscalingResourceTypes(): ResourceType[] {
  const v2 = builtin(GROUP, 'v2', {
    ...hpa,
    subresources: ['status'],
    strategy: composeStrategy(defaulting(defaultV2), statusSubresource(() => ({ desiredReplicas: 0 })), {
      validate: validateHorizontalPodAutoscaler,
      validateUpdate: validateHorizontalPodAutoscalerUpdate,
    }),
    statusStrategy: composeStrategy(defaulting(defaultV2), keepFromStored('spec')),
  });
  const v1 = builtin(GROUP, 'v1', {
    ...hpa,
    subresources: ['status'],
    strategy: composeStrategy(defaulting(defaultV1), statusSubresource(() => ({ currentReplicas: 0, desiredReplicas: 0 })), {
      // Validation runs on the internal (v2) shape, with its field paths.
      validate: (obj) => validateHorizontalPodAutoscaler(v1ToV2(obj)),
      validateUpdate: (obj, old) => validateHorizontalPodAutoscalerUpdate(v1ToV2(obj), v1ToV2(old)),
    }),
    statusStrategy: composeStrategy(defaulting(defaultV1), keepFromStored('spec')),
  });
  v1.codec = v1Codec;
  return [v2, v1];
}

/** SetDefaults_HorizontalPodAutoscaler (v2): minReplicas 1, an 80% CPU Utilization metric when none. */
function defaultV2(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  setDefault(spec, 'minReplicas', 1);
  if (!(arrAt(spec, 'metrics') ?? []).length) spec.metrics = [cpuMetric(80)];
  const status = objAt(obj, 'status');
  if (status) setDefault(status, 'desiredReplicas', 0);
}

/** SetDefaults_HorizontalPodAutoscaler (v1): minReplicas 1. */
function defaultV1(obj: KubeObject): void {
  setDefault(child(obj, 'spec'), 'minReplicas', 1);
  const status = objAt(obj, 'status');
  if (status) {
    setDefault(status, 'currentReplicas', 0);
    setDefault(status, 'desiredReplicas', 0);
  }
}

const cpuMetric = (utilization: number): JsonObject => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } } });

const isCpu = (m: unknown) => getIn(m, ['type']) === 'Resource' && getIn(m, ['resource', 'name']) === 'cpu';

/** Stored at v2; served at v1 through this codec. */
const v1Codec: StorageCodec = {
  encode: (obj) => v1ToV2(obj),
  decode: (objs) => objs.map((o) => (o.apiVersion === `${GROUP}/v1` ? o : v2ToV1(o))),
};

function v1ToV2(obj: KubeObject): KubeObject {
  const out = structuredClone(obj);
  out.apiVersion = `${GROUP}/v2`;
  const spec = child(out, 'spec');
  const target = spec.targetCPUUtilizationPercentage;
  delete spec.targetCPUUtilizationPercentage;
  if (typeof target === 'number') spec.metrics = [cpuMetric(target)];
  const status = objAt(out, 'status');
  if (status) {
    const current = status.currentCPUUtilizationPercentage;
    delete status.currentCPUUtilizationPercentage;
    if (typeof current === 'number') status.currentMetrics = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: current } } }];
    if (status.currentReplicas === 0) delete status.currentReplicas;
  }
  const annotations = out.metadata?.annotations;
  if (annotations && CONDITIONS_ANNOTATION in annotations) {
    try {
      const conditions = JSON.parse(annotations[CONDITIONS_ANNOTATION]!) as unknown;
      if (Array.isArray(conditions) && conditions.length) child(out, 'status').conditions = conditions;
    } catch {
      // The real conversion ignores an annotation it cannot parse.
    }
    delete annotations[CONDITIONS_ANNOTATION];
    if (Object.keys(annotations).length === 0) delete out.metadata!.annotations;
  }
  defaultV2(out);
  return out;
}

function v2ToV1(obj: KubeObject): KubeObject {
  const out = structuredClone(obj);
  out.apiVersion = `${GROUP}/v1`;
  const spec = child(out, 'spec');
  const cpu = (arrAt(spec, 'metrics') ?? []).find((m) => isCpu(m) && getIn(m, ['resource', 'target', 'type']) === 'Utilization');
  delete spec.metrics;
  delete spec.behavior;
  const target = getIn(cpu, ['resource', 'target', 'averageUtilization']);
  if (typeof target === 'number') spec.targetCPUUtilizationPercentage = target;
  const status = objAt(out, 'status');
  if (status) {
    const current = (arrAt(status, 'currentMetrics') ?? []).find(isCpu);
    delete status.currentMetrics;
    const utilization = getIn(current, ['resource', 'current', 'averageUtilization']);
    if (typeof utilization === 'number') status.currentCPUUtilizationPercentage = utilization;
    const conditions = arrAt(status, 'conditions');
    delete status.conditions;
    if (conditions?.length) {
      const m = out.metadata ?? (out.metadata = {});
      m.annotations = { ...(m.annotations ?? {}), [CONDITIONS_ANNOTATION]: JSON.stringify(conditions.map(conditionFields)) };
    }
    setDefault(status, 'currentReplicas', 0);
    setDefault(status, 'desiredReplicas', 0);
  }
  return out;
}

/** HorizontalPodAutoscalerCondition in Go field order. */
function conditionFields(c: unknown): JsonObject {
  const src = isPlainObject(c) ? c : {};
  const out: JsonObject = {};
  for (const k of ['type', 'status', 'lastTransitionTime', 'reason', 'message']) if (src[k] !== undefined && src[k] !== '') out[k] = src[k];
  return out;
}
