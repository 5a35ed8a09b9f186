// Pod resource requests as the scheduler counts them (k8s.io/component-helpers/resource
// PodRequests, reduced): the sum over containers, at least each init container's, plus overhead.
import { parseQuantity } from '../../apis/builtin/quantity.ts';
import type { KubeObject } from '../../apis/object.ts';
import type { Json } from './objects.ts';

export interface Requests {
  /** Millicores. */
  cpu: number;
  /** Bytes. */
  memory: number;
}

/** A quantity in the given unit (1000 for millicores); 0 when missing or unparsable. */
export function quantityValue(v: unknown, unit = 1): number {
  const q = parseQuantity(v);
  return q ? (Number(q.num) * unit) / Number(q.den) : 0;
}

function containerRequests(container: Json): Requests {
  const resources = (container.resources ?? {}) as Json;
  // Requests default to limits (defaulting does this on create; here for objects stored otherwise).
  const requests = { ...((resources.limits ?? {}) as Json), ...((resources.requests ?? {}) as Json) };
  return { cpu: quantityValue(requests.cpu, 1000), memory: quantityValue(requests.memory) };
}

export function podRequests(pod: KubeObject): Requests {
  const spec = (pod.spec ?? {}) as Json;
  const sum: Requests = { cpu: 0, memory: 0 };
  for (const c of (spec.containers as Json[] | undefined) ?? []) {
    const r = containerRequests(c);
    sum.cpu += r.cpu;
    sum.memory += r.memory;
  }
  for (const c of (spec.initContainers as Json[] | undefined) ?? []) {
    const r = containerRequests(c);
    sum.cpu = Math.max(sum.cpu, r.cpu);
    sum.memory = Math.max(sum.memory, r.memory);
  }
  const overhead = (spec.overhead ?? {}) as Json;
  sum.cpu += quantityValue(overhead.cpu, 1000);
  sum.memory += quantityValue(overhead.memory);
  return sum;
}
