// ValidateHorizontalPodAutoscaler / ...Update (pkg/apis/autoscaling/validation/validation.go,
// v1.36), on the autoscaling/v2 shape (an autoscaling/v1 object is converted first, as the real
// server validates the internal version): minReplicas at least 1 (HPAScaleToZero is off by
// default; 0 stays allowed on update when the stored object has it), maxReplicas, the
// scaleTargetRef, each metric (exactly its type's source, targets), and the behavior's rules.
// Not ported: the HPAConfigurableTolerance `tolerance` checks.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { isDNS1123Label, isPathSegmentName } from '../../validation/names.ts';
import type { KubeObject } from '../object.ts';
import { Quantity } from './quantity.ts';
import { asObject, goString } from './shared.ts';

type Json = Record<string, unknown>;
const int = (v: unknown): number => (typeof v === 'number' ? v : 0);
const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const SOURCE_FIELDS: Record<string, string> = { Object: 'object', Pods: 'pods', Resource: 'resource', External: 'external', ContainerResource: 'containerResource' };
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];
const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;

export function validateHorizontalPodAutoscaler(hpa: KubeObject): FieldError[] {
  return validateSpec(asObject(hpa.spec) ?? {}, 1);
}

export function validateHorizontalPodAutoscalerUpdate(hpa: KubeObject, old: KubeObject): FieldError[] {
  return validateSpec(asObject(hpa.spec) ?? {}, asObject(old.spec)?.minReplicas === 0 ? 0 : 1);
}

function validateSpec(spec: Json, minReplicasLowerBound: number): FieldError[] {
  const errs: FieldError[] = [];
  const minReplicas = typeof spec.minReplicas === 'number' ? spec.minReplicas : undefined;
  const maxReplicas = int(spec.maxReplicas);
  if (minReplicas !== undefined && minReplicas < minReplicasLowerBound) {
    errs.push(fieldError.invalid('spec.minReplicas', minReplicas, `must be greater than or equal to ${minReplicasLowerBound}`));
  }
  if (maxReplicas < 1) errs.push(fieldError.invalid('spec.maxReplicas', maxReplicas, 'must be greater than 0'));
  if (minReplicas !== undefined && maxReplicas < minReplicas) errs.push(fieldError.invalid('spec.maxReplicas', maxReplicas, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateCrossVersionObjectReference(asObject(spec.scaleTargetRef) ?? {}, 'spec.scaleTargetRef'));
  errs.push(...validateMetrics(Array.isArray(spec.metrics) ? spec.metrics : [], minReplicas));
  const behavior = asObject(spec.behavior);
  if (behavior) {
    for (const key of ['scaleUp', 'scaleDown'] as const) {
      const rules = asObject(behavior[key]);
      if (rules) errs.push(...validateScalingRules(rules, `spec.behavior.${key}`));
    }
  }
  return errs;
}

function validateCrossVersionObjectReference(ref: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['kind', 'name'] as const) {
    const value = goString(ref[key]);
    if (value === '') errs.push(fieldError.required(`${path}.${key}`));
    else errs.push(...isPathSegmentName(value).map((m) => fieldError.invalid(`${path}.${key}`, value, m)));
  }
  return errs;
}

function validateMetrics(metrics: unknown[], minReplicas: number | undefined): FieldError[] {
  const errs: FieldError[] = [];
  let objectOrExternal = false;
  metrics.forEach((m, i) => {
    const metric = asObject(m) ?? {};
    errs.push(...validateMetricSpec(metric, `spec.metrics[${i}]`));
    if (metric.type === 'Object' || metric.type === 'External') objectOrExternal = true;
  });
  if (minReplicas === 0 && !objectOrExternal) errs.push(fieldError.forbidden('spec.metrics', 'must specify at least one Object or External metric to support scaling to zero replicas'));
  return errs;
}

function validateMetricSpec(metric: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = goString(metric.type);
  if (type === '') errs.push(fieldError.required(`${path}.type`, 'must specify a metric source type'));
  if (!METRIC_SOURCE_TYPES.includes(type)) errs.push(fieldError.notSupported(`${path}.type`, type, METRIC_SOURCE_TYPES));
  // Only the first source present (in Go's order) is validated; the others are reported below.
  const present = ['object', 'external', 'pods', 'resource', 'containerResource'].filter((k) => asObject(metric[k]));
  const first = present[0];
  if (first) errs.push(...validateSource(first, asObject(metric[first])!, `${path}.${first}`));
  const expected = SOURCE_FIELDS[type];
  if (expected) {
    if (!asObject(metric[expected])) errs.push(fieldError.required(`${path}.${expected}`, 'must populate information for the given metric source'));
  } else errs.push(fieldError.notSupported(`${path}.type`, type, METRIC_SOURCE_TYPES));
  if (present.length !== 1) {
    // Go ranges over a set (map order); sorted here.
    for (const k of present.filter((k) => k !== expected).sort()) errs.push(fieldError.forbidden(`${path}.${k}`, 'must populate the given metric source only'));
  }
  return errs;
}

function validateSource(kind: string, src: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const target = asObject(src.target) ?? {};
  const has = (k: string) => target[k] !== undefined && target[k] !== null;
  switch (kind) {
    case 'object':
      errs.push(...validateCrossVersionObjectReference(asObject(src.describedObject) ?? {}, `${path}.describedObject`));
      errs.push(...validateMetricIdentifier(asObject(src.metric) ?? {}, `${path}.metric`));
      errs.push(...validateMetricTarget(target, `${path}.target`));
      if (!has('value') && !has('averageValue')) errs.push(fieldError.required(`${path}.target.averageValue`, 'must set either a target value or averageValue'));
      break;
    case 'external':
      errs.push(...validateMetricIdentifier(asObject(src.metric) ?? {}, `${path}.metric`));
      errs.push(...validateMetricTarget(target, `${path}.target`));
      if (!has('value') && !has('averageValue')) errs.push(fieldError.required(`${path}.target.averageValue`, 'must set either a target value for metric or a per-pod target'));
      if (has('value') && has('averageValue')) errs.push(fieldError.forbidden(`${path}.target.value`, 'may not set both a target value for metric and a per-pod target'));
      break;
    case 'pods':
      errs.push(...validateMetricIdentifier(asObject(src.metric) ?? {}, `${path}.metric`));
      errs.push(...validateMetricTarget(target, `${path}.target`));
      if (!has('averageValue')) errs.push(fieldError.required(`${path}.target.averageValue`, 'must specify a positive target averageValue'));
      break;
    default: {
      // resource and containerResource
      const name = goString(src.name);
      if (name === '') errs.push(fieldError.required(`${path}.name`, 'must specify a resource name'));
      if (kind === 'containerResource') {
        const container = goString(src.container);
        if (container === '') errs.push(fieldError.required(`${path}.container`, 'must specify a container'));
        else errs.push(...isDNS1123Label(container).map((m) => fieldError.invalid(`${path}.container`, container, m)));
      }
      errs.push(...validateMetricTarget(target, `${path}.target`));
      if (!has('averageUtilization') && !has('averageValue')) errs.push(fieldError.required(`${path}.target.averageUtilization`, 'must set either a target raw value or a target utilization'));
      if (has('averageUtilization') && has('averageValue')) errs.push(fieldError.forbidden(`${path}.target.averageValue`, 'may not set both a target raw value and a target utilization'));
    }
  }
  return errs;
}

function validateMetricTarget(target: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = goString(target.type);
  if (type === '') errs.push(fieldError.required(`${path}.type`, 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') errs.push(fieldError.invalid(`${path}.type`, type, 'must be either Utilization, Value, or AverageValue'));
  for (const key of ['value', 'averageValue'] as const) {
    if (target[key] === undefined || target[key] === null) continue;
    const q = Quantity.parse(String(target[key]));
    // Go prints the *Quantity as JSON: its canonical string.
    if (q instanceof Quantity && q.sign() !== 1) errs.push(fieldError.invalid(`${path}.${key}`, q.toString(), 'must be positive'));
  }
  if (typeof target.averageUtilization === 'number' && target.averageUtilization < 1) errs.push(fieldError.invalid(`${path}.averageUtilization`, target.averageUtilization, 'must be greater than 0'));
  return errs;
}

function validateMetricIdentifier(id: Json, path: string): FieldError[] {
  const name = goString(id.name);
  if (name === '') return [fieldError.required(`${path}.name`, 'must specify a metric name')];
  return isPathSegmentName(name).map((m) => fieldError.invalid(`${path}.name`, name, m));
}

function validateScalingRules(rules: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (typeof window === 'number' && window < 0) errs.push(fieldError.invalid(`${path}.stabilizationWindowSeconds`, window, 'must be greater than or equal to zero'));
  if (typeof window === 'number' && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    errs.push(fieldError.invalid(`${path}.stabilizationWindowSeconds`, window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  }
  if (typeof rules.selectPolicy === 'string' && !SELECT_POLICIES.includes(rules.selectPolicy)) errs.push(fieldError.notSupported(`${path}.selectPolicy`, rules.selectPolicy, SELECT_POLICIES));
  const policies = Array.isArray(rules.policies) ? rules.policies : [];
  if (policies.length === 0) errs.push(fieldError.required(`${path}.policies`, 'must specify at least one Policy'));
  policies.forEach((p, i) => {
    const policy = asObject(p) ?? {};
    const at = `${path}.policies[${i}]`;
    if (policy.type !== 'Pods' && policy.type !== 'Percent') errs.push(fieldError.notSupported(`${at}.type`, goString(policy.type), POLICY_TYPES));
    if (int(policy.value) <= 0) errs.push(fieldError.invalid(`${at}.value`, int(policy.value), 'must be greater than zero'));
    if (int(policy.periodSeconds) <= 0) errs.push(fieldError.invalid(`${at}.periodSeconds`, int(policy.periodSeconds), 'must be greater than zero'));
    if (int(policy.periodSeconds) > MAX_PERIOD_SECONDS) errs.push(fieldError.invalid(`${at}.periodSeconds`, int(policy.periodSeconds), `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  });
  return errs;
}
