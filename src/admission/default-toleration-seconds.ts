// DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds/admission.go, v1.36):
// a pod that tolerates neither node.kubernetes.io/not-ready nor .../unreachable with NoExecute
// (an empty key or effect tolerates every one) gets a toleration for each it lacks, for 300 s,
// on create and update of the pod itself.
import type { AdmissionPlugin } from '../registry/admission.ts';
import { isResource } from './forbidden.ts';

const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';
/** --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds. */
const DEFAULT_SECONDS = 300;

interface Toleration {
  key?: string;
  effect?: string;
}

export function defaultTolerationSeconds(): AdmissionPlugin {
  return {
    name: 'DefaultTolerationSeconds',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    admit(attributes) {
      if (!isResource(attributes, '', 'pods') || attributes.subresource !== '' || !attributes.object) return;
      const spec = (attributes.object.spec ??= {}) as { tolerations?: Toleration[] };
      const tolerations = Array.isArray(spec.tolerations) ? spec.tolerations : [];
      const tolerates = (key: string) => tolerations.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
      const added = [NOT_READY, UNREACHABLE]
        .filter((key) => !tolerates(key))
        .map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_SECONDS }));
      if (added.length) spec.tolerations = [...tolerations, ...added];
    },
  };
}
