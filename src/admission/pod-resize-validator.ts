// PodResizeValidator (plugin/pkg/admission/podresize/admission.go, v1.36; active while
// InPlacePodVerticalScaling is, which is GA), validating, on updates of pods/resize: a resize of a
// pod on a node (one that changes the spec, so the generation moved) is refused when the node does
// not exist, when the pod's cpu or memory request exceeds the node's status.allocatable, or when
// the node is not labelled kubernetes.io/os=linux. The last two carry a cause (NodeCapacity,
// UnsupportedPlatform) a client can branch on.
import type { Quantity } from '../apis/builtin/quantity.ts';
import type { KubeObject } from '../apis/object.ts';
import { isPlainObject } from '../apis/object.ts';
import { deepCopyQuantity, milliValue, resourceList, value, zeroQuantity } from '../apis/quota/resource-list.ts';
import type { StatusError } from '../errors/status-error.ts';
import type { AdmissionPlugin } from '../registry/admission.ts';
import { admissionForbidden, isResource } from './forbidden.ts';
import type { AdmissionServices } from './services.ts';

const NODES_BUCKET = '/nodes';
/** corev1.LabelOSStable. */
const OS_LABEL = 'kubernetes.io/os';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (isPlainObject(v) ? v : {});
const containers = (spec: Json, key: string): Json[] => (Array.isArray(spec[key]) ? (spec[key] as unknown[]).map(obj) : []);

/**
 * pkg/api/v1/resource GetResourceRequestQuantity: the containers' requests summed, raised to the
 * largest init container's, plus the overhead when not zero.
 */
function requestQuantity(pod: KubeObject, name: string): Quantity {
  const spec = obj(pod.spec);
  const request = (c: Json) => resourceList(obj(c.resources).requests).get(name);
  let total = zeroQuantity();
  for (const c of containers(spec, 'containers')) {
    const q = request(c);
    if (q) total.add(q);
  }
  for (const c of containers(spec, 'initContainers')) {
    const q = request(c);
    if (q && total.cmp(q) < 0) total = deepCopyQuantity(q);
  }
  const overhead = resourceList(spec.overhead).get(name);
  if (overhead && !total.isZero()) total.add(overhead);
  return total;
}

export function podResizeValidator(services: AdmissionServices): AdmissionPlugin {
  return {
    name: 'PodResizeValidator',
    handles: (op) => op === 'UPDATE',
    validate(a) {
      if (!isResource(a, '', 'pods') || a.subresource !== 'resize' || !a.object || !a.oldObject) return;
      const nodeName = obj(a.object.spec).nodeName;
      if (typeof nodeName !== 'string' || nodeName === '') return;
      if (a.oldObject.metadata?.generation === a.object.metadata?.generation) return;
      const node = services.store.get(NODES_BUCKET, nodeName);
      if (!node) throw admissionForbidden(a, `node ${JSON.stringify(nodeName)} not found`);
      // validateNodeAllocatable.
      const allocatable = resourceList(obj(node.status).allocatable);
      const cpu = milliValue(requestQuantity(a.object, 'cpu'));
      const cpuAllocatable = milliValue(allocatable.get('cpu') ?? zeroQuantity());
      const memory = value(requestQuantity(a.object, 'memory'));
      const memoryAllocatable = value(allocatable.get('memory') ?? zeroQuantity());
      const short: string[] = [];
      if (cpu > cpuAllocatable) short.push(`cpu, requested: ${cpu}, allocatable: ${cpuAllocatable}`);
      if (memory > memoryAllocatable) short.push(`memory, requested: ${memory}, allocatable: ${memoryAllocatable}`);
      if (short.length > 0) throw withCause(admissionForbidden(a, `Node didn't have enough allocatable resources: ${short.join('; ')}`), 'NodeCapacity');
      // validateLinuxNode.
      const os = node.metadata.labels?.[OS_LABEL];
      if (os !== 'linux') throw withCause(admissionForbidden(a, `pod resize is only supported on linux nodes, node ${JSON.stringify(node.metadata.name)} is ${JSON.stringify(os ?? '')}`), 'UnsupportedPlatform');
    },
  };
}

/** The Forbidden with a cause of the given type (StatusCause.Type, `reason` on the wire) and no message. */
function withCause(err: StatusError, type: string): StatusError {
  const details = (err.status.details ??= {});
  details.causes = [...(details.causes ?? []), { reason: type }];
  return err;
}
