// PodTopologyLabels (plugin/pkg/admission/podtopologylabels/admission.go, v1.36; the
// PodTopologyLabelsAdmission gate is beta and on since v1.35), mutating, on create: a pod created
// already on a node, or the Binding that puts a pod on a node (pods/binding, target kind Node),
// gets the node's topology.kubernetes.io/zone and topology.kubernetes.io/region labels,
// overwriting the pod's or Binding's own (the binding REST then copies the Binding's labels onto
// the pod). A node that does not exist contributes nothing.
import type { KubeObject } from '../apis/object.ts';
import { isPlainObject } from '../apis/object.ts';
import type { AdmissionPlugin } from '../registry/admission.ts';
import { isResource } from './forbidden.ts';
import type { AdmissionServices } from './services.ts';

/** defaultConfig.Labels. */
const TOPOLOGY_LABELS = ['topology.kubernetes.io/zone', 'topology.kubernetes.io/region'];
const NODES_BUCKET = '/nodes';

export function podTopologyLabels(services: AdmissionServices): AdmissionPlugin {
  /** topologyLabelsForNodeName. */
  const topologyLabels = (nodeName: string): Record<string, string> => {
    const labels = services.store.get(NODES_BUCKET, nodeName)?.metadata.labels ?? {};
    return Object.fromEntries(TOPOLOGY_LABELS.filter((k) => labels[k] !== undefined).map((k) => [k, labels[k]!]));
  };
  /** mergeLabels (overwriting) into the object's labels. */
  const merge = (o: KubeObject, nodeName: string) => {
    const labels = topologyLabels(nodeName);
    if (Object.keys(labels).length === 0) return;
    const meta = (o.metadata ??= {});
    meta.labels = { ...meta.labels, ...labels };
  };
  return {
    name: 'PodTopologyLabels',
    handles: (op) => op === 'CREATE',
    admit(a) {
      if (!isResource(a, '', 'pods') || !a.object) return;
      if (a.subresource === '') {
        const nodeName = isPlainObject(a.object.spec) ? a.object.spec.nodeName : undefined;
        if (typeof nodeName === 'string' && nodeName !== '') merge(a.object, nodeName);
      } else if (a.subresource === 'binding') {
        const target = isPlainObject(a.object.target) ? a.object.target : {};
        if (target.kind === 'Node' && typeof target.name === 'string') merge(a.object, target.name);
      }
    },
  };
}
