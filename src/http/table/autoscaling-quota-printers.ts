// printHorizontalPodAutoscaler (with formatHPAMetrics), printScale and printResourceQuota
// (pkg/printers/internalversion/printers.go, v1.36). The Go printer sees the internal (v2-shaped)
// HPA; an autoscaling/v1 object is read the way its conversion maps it: targetCPUUtilizationPercentage
// is a CPU Utilization metric, currentCPUUtilizationPercentage its current value.
import type { KubeObject } from '../../apis/object.ts';
import { PRINTER_DOCS } from '../../generated/printer-docs.generated.ts';
import { arr, byteCompare, num, obj, str } from './format.ts';
import { AGE, ageOf, NAME, nameOf, row, type BuiltinPrinter } from './printer-parts.ts';
import { column } from './table-types.ts';

type Json = Record<string, unknown>;
const doc = (key: string): string => PRINTER_DOCS[key] ?? '';
const MAX_METRICS = 2;

/** Quantity.String() of a stored (canonical) quantity; the zero Quantity prints "0". */
const quantity = (v: unknown): string => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : '0');

/** The spec and current metrics as the internal type holds them. */
function metricsOf(o: KubeObject): { specs: Json[]; statuses: Json[] } {
  const spec = obj(o.spec);
  const status = obj(o.status);
  if (o.apiVersion !== 'autoscaling/v1') return { specs: arr(spec.metrics).map(obj), statuses: arr(status.currentMetrics).map(obj) };
  const target = spec.targetCPUUtilizationPercentage;
  const current = status.currentCPUUtilizationPercentage;
  return {
    specs: typeof target === 'number' ? [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: target } } }] : [],
    statuses: typeof current === 'number' ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: current } } }] : [],
  };
}

/** One metric's "current/target" text, as formatHPAMetrics writes it for its source type. */
function formatMetric(spec: Json, status: Json | undefined): string {
  const unknown = '<unknown>';
  const valueOrAverage = (source: 'external' | 'object') => {
    const target = obj(obj(spec[source]).target);
    const current = status?.[source] == null ? undefined : obj(obj(status[source]).current);
    if (target.averageValue != null) return `${current?.averageValue != null ? quantity(current.averageValue) : unknown}/${quantity(target.averageValue)} (avg)`;
    return `${current ? quantity(current.value) : unknown}/${quantity(target.value)}`;
  };
  const resource = (source: 'resource' | 'containerResource') => {
    const metric = obj(spec[source]);
    const target = obj(metric.target);
    const current = status?.[source] == null ? undefined : obj(obj(status[source]).current);
    if (target.averageValue != null) return `${str(metric.name)}: ${current ? quantity(current.averageValue) : unknown}/${quantity(target.averageValue)}`;
    const now = typeof current?.averageUtilization === 'number' ? `${current.averageUtilization}%` : unknown;
    const goal = typeof target.averageUtilization === 'number' ? `${target.averageUtilization}%` : '<auto>';
    return `${str(metric.name)}: ${now}/${goal}`;
  };
  switch (spec.type) {
    case 'External':
      return valueOrAverage('external');
    case 'Pods': {
      const current = status?.pods == null ? unknown : quantity(obj(obj(status.pods).current).averageValue);
      return `${current}/${quantity(obj(obj(spec.pods).target).averageValue)}`;
    }
    case 'Object':
      return valueOrAverage('object');
    case 'Resource':
      return resource('resource');
    case 'ContainerResource':
      return resource('containerResource');
    default:
      return '<unknown type>';
  }
}

/** formatHPAMetrics: the first two metrics, then `+ N more...`; `<none>` without metrics. */
function formatHPAMetrics(o: KubeObject): string {
  const { specs, statuses } = metricsOf(o);
  if (specs.length === 0) return '<none>';
  const list = specs.map((s, i) => formatMetric(s, statuses[i]));
  if (list.length > MAX_METRICS) return `${list.slice(0, MAX_METRICS).join(', ')} + ${list.length - MAX_METRICS} more...`;
  return list.join(', ');
}

export const horizontalPodAutoscalers: BuiltinPrinter = {
  columns: [
    NAME,
    column('Reference', 'string', doc('horizontalPodAutoscalerSpec.scaleTargetRef')),
    column('Targets', 'string', doc('horizontalPodAutoscalerSpec.metrics')),
    column('MinPods', 'string', doc('horizontalPodAutoscalerSpec.minReplicas')),
    column('MaxPods', 'string', doc('horizontalPodAutoscalerSpec.maxReplicas')),
    column('Replicas', 'string', doc('horizontalPodAutoscalerStatus.currentReplicas')),
    AGE,
  ],
  print(o, now) {
    const spec = obj(o.spec);
    const ref = obj(spec.scaleTargetRef);
    const minPods = typeof spec.minReplicas === 'number' ? String(spec.minReplicas) : '<unset>';
    return row(nameOf(o), `${str(ref.kind)}/${str(ref.name)}`, formatHPAMetrics(o), minPods, num(spec.maxReplicas), num(obj(o.status).currentReplicas), ageOf(o, now));
  },
};

/**
 * printScale: the table of a scale subresource (`kubectl get deploy web --subresource=scale`); every
 * ScaleREST's ConvertToTable hands the autoscaling/v1 Scale to its resource's printers.
 */
export const scales: BuiltinPrinter = {
  columns: [NAME, column('Desired', 'integer', doc('scaleSpec.replicas')), column('Available', 'integer', doc('scaleStatus.replicas')), AGE],
  print: (o, now) => row(nameOf(o), num(obj(o.spec).replicas), num(obj(o.status).replicas), ageOf(o, now)),
};

export const resourceQuotas: BuiltinPrinter = {
  columns: [
    NAME,
    column('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    column('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
    AGE,
  ],
  print(o, now) {
    const status = obj(o.status);
    const hard = obj(status.hard);
    const used = obj(status.used);
    const requests: string[] = [];
    const limits: string[] = [];
    // SortableResourceNames: by name; a `limits.*` resource goes to the Limit column.
    for (const name of Object.keys(hard).sort(byteCompare)) {
      const pieces = name.split('.');
      (pieces.length > 1 && pieces[0] === 'limits' ? limits : requests).push(`${name}: ${quantity(used[name])}/${quantity(hard[name])}`);
    }
    return row(nameOf(o), requests.join(', '), limits.join(', '), ageOf(o, now));
  },
};
