// TaintNodesByCondition (plugin/pkg/admission/nodetaint/admission.go, v1.36): a Node is created
// with the node.kubernetes.io/not-ready:NoSchedule taint unless it already has it (MatchTaint:
// same key and effect). On a real cluster the node lifecycle controller removes it once the node
// reports Ready; kubefake runs no such controller, so a test that wants a schedulable node
// removes the taint itself.
import type { AdmissionPlugin } from '../registry/admission.ts';
import { isResource } from './forbidden.ts';

const NOT_READY = 'node.kubernetes.io/not-ready';

export function taintNodesByCondition(): AdmissionPlugin {
  return {
    name: 'TaintNodesByCondition',
    handles: (op) => op === 'CREATE',
    admit(attributes) {
      if (!isResource(attributes, '', 'nodes') || attributes.subresource !== '' || !attributes.object) return;
      const spec = (attributes.object.spec ??= {}) as { taints?: { key?: string; effect?: string }[] };
      const taints = Array.isArray(spec.taints) ? spec.taints : [];
      if (taints.some((t) => t.key === NOT_READY && t.effect === 'NoSchedule')) return;
      spec.taints = [...taints, { key: NOT_READY, effect: 'NoSchedule' }];
    },
  };
}
