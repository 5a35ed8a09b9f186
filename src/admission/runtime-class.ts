// RuntimeClass (plugin/pkg/admission/runtimeclass/admission.go, v1.36), on pod creation.
// Mutating: a pod naming a RuntimeClass takes its overhead.podFixed as spec.overhead, its
// scheduling.nodeSelector merged into spec.nodeSelector (a conflicting key is a 403) and its
// scheduling.tolerations merged into spec.tolerations (tolerations.MergeTolerations: a toleration
// another one covers is dropped). Validating: a pod's overhead must be its RuntimeClass's. A
// RuntimeClass that does not exist is a 403.
import type { KubeObject } from '../apis/object.ts';
import { storageKeyOf } from '../apis/resource-type.ts';
import { listsEqual, resourceList } from '../apis/quota/resource-list.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../registry/admission.ts';
import { admissionForbidden, isResource } from './forbidden.ts';
import type { AdmissionServices } from './services.ts';

const RUNTIME_CLASSES = storageKeyOf({ group: 'node.k8s.io', plural: 'runtimeclasses' });

interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

interface RuntimeClass {
  overhead?: { podFixed?: Record<string, string> };
  scheduling?: { nodeSelector?: Record<string, string>; tolerations?: Toleration[] };
}

interface PodSpec {
  runtimeClassName?: string;
  overhead?: Record<string, string>;
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
}

const sameToleration = (a: Toleration, b: Toleration): boolean =>
  (a.key ?? '') === (b.key ?? '') &&
  (a.operator ?? '') === (b.operator ?? '') &&
  (a.value ?? '') === (b.value ?? '') &&
  (a.effect ?? '') === (b.effect ?? '') &&
  a.tolerationSeconds === b.tolerationSeconds;

/** isSuperset (pkg/util/tolerations): whether ss tolerates everything t does. */
function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (sameToleration(ss, t)) return true;
  if ((t.key ?? '') !== (ss.key ?? '') && ((ss.key ?? '') !== '' || ss.operator !== 'Exists')) return false;
  if ((t.effect ?? '') !== (ss.effect ?? '') && (ss.effect ?? '') !== '') return false;
  if (ss.effect === 'NoExecute' && ss.tolerationSeconds !== undefined) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  switch (ss.operator ?? '') {
    case 'Equal':
    case '':
      return t.operator === 'Equal' && (t.value ?? '') === (ss.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** tolerations.MergeTolerations: both lists, without a toleration another one covers (the first of equals kept). */
export function mergeTolerations(first: Toleration[], second: Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => isSuperset(m, t))) return;
    if (all.slice(i + 1).some((t2) => !sameToleration(t, t2) && isSuperset(t2, t))) return;
    merged.push(t);
  });
  return merged;
}

export function runtimeClass(services: AdmissionServices): AdmissionPlugin {
  /** prepareObjects: the pod's RuntimeClass, undefined when it names none. */
  const classOf = (attributes: AdmissionAttributes): RuntimeClass | undefined => {
    const name = (attributes.object!.spec as PodSpec | undefined)?.runtimeClassName;
    if (name === undefined || name === null) return undefined;
    const rc = services.store.get(RUNTIME_CLASSES, name);
    if (!rc) throw admissionForbidden(attributes, `pod rejected: RuntimeClass ${JSON.stringify(name)} not found`);
    return rc as unknown as RuntimeClass;
  };
  const applies = (attributes: AdmissionAttributes) => attributes.subresource === '' && isResource(attributes, '', 'pods') && !!attributes.object;
  const overheadDiffers = (rc: RuntimeClass, spec: PodSpec) => !listsEqual(resourceList(rc.overhead?.podFixed), resourceList(spec.overhead));

  return {
    name: 'RuntimeClass',
    handles: (op) => op === 'CREATE',
    admit(attributes) {
      if (!applies(attributes)) return;
      const rc = classOf(attributes);
      if (!rc) return;
      const pod: KubeObject = attributes.object!;
      const spec = (pod.spec ??= {}) as PodSpec;
      if (rc.overhead?.podFixed) {
        if (spec.overhead && Object.keys(spec.overhead).length > 0 && overheadDiffers(rc, spec)) {
          throw admissionForbidden(attributes, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
        }
        spec.overhead = { ...rc.overhead.podFixed };
      }
      if (rc.scheduling) {
        const selector = rc.scheduling.nodeSelector ?? {};
        if (!spec.nodeSelector) {
          if (rc.scheduling.nodeSelector) spec.nodeSelector = { ...selector };
        } else {
          for (const [key, value] of Object.entries(selector)) {
            const podValue = spec.nodeSelector[key];
            if (podValue !== undefined && podValue !== value) {
              throw admissionForbidden(attributes, `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${podValue}`);
            }
            spec.nodeSelector[key] = value;
          }
        }
        const merged = mergeTolerations(spec.tolerations ?? [], rc.scheduling.tolerations ?? []);
        if (merged.length) spec.tolerations = merged;
      }
    },
    validate(attributes) {
      if (!applies(attributes)) return;
      const rc = classOf(attributes);
      const spec = (attributes.object!.spec ?? {}) as PodSpec;
      if (!spec.overhead || Object.keys(spec.overhead).length === 0) return;
      if (!rc?.overhead?.podFixed) throw admissionForbidden(attributes, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
      if (overheadDiffers(rc, spec)) throw admissionForbidden(attributes, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
    },
  };
}
