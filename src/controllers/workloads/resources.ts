// Pod resource requests as the scheduler counts them: cpu (millicores) and memory (bytes) of
// component-helpers' PodRequests, which src/apis/quota/pod-resources.ts ports (sidecars,
// pod-level resources and overhead included).
import { parseQuantity, type Rational } from '../../apis/builtin/quantity.ts';
import type { KubeObject } from '../../apis/object.ts';
import { podRequests as podResourceRequests } from '../../apis/quota/pod-resources.ts';

export interface Requests {
  /** Millicores. */
  cpu: number;
  /** Bytes. */
  memory: number;
}

const inUnit = (q: Rational | undefined, unit: number): number => (q ? (Number(q.num) * unit) / Number(q.den) : 0);

/** A quantity in the given unit (1000 for millicores); 0 when missing or unparsable. */
export function quantityValue(v: unknown, unit = 1): number {
  return inUnit(parseQuantity(v), unit);
}

export function podRequests(pod: KubeObject): Requests {
  const list = podResourceRequests(pod);
  return { cpu: inUnit(list.get('cpu')?.toRational(), 1000), memory: inUnit(list.get('memory')?.toRational(), 1) };
}
