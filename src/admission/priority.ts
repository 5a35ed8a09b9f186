// Priority (plugin/pkg/admission/priority/admission.go, v1.36). Mutating, for pods: a created pod
// gets spec.priority (and spec.preemptionPolicy) from its priorityClassName, or from the global
// default class (whose name it then takes), or 0 and PreemptLowerPriority when there is none; a
// class that does not exist, or a priority/preemptionPolicy the pod states that differs from the
// class's, is a 403. An update keeps the stored priority when the body drops it. Validating, for
// PriorityClasses: only one may be globalDefault.
// With it, the two classes the apiserver bootstraps (scheduling's PostStartHook
// `scheduling/bootstrap-system-priority-classes`, pkg/apis/scheduling SystemPriorityClasses).
import type { KubeObject } from '../apis/object.ts';
import { storageKeyOf } from '../apis/resource-type.ts';
import type { AdmissionPlugin } from '../registry/admission.ts';
import type { GenericRegistry } from '../registry/generic-registry.ts';
import { admissionForbidden, isResource } from './forbidden.ts';
import type { AdmissionServices } from './services.ts';

const PRIORITY_CLASSES = storageKeyOf({ group: 'scheduling.k8s.io', plural: 'priorityclasses' });
/** scheduling.DefaultPriorityWhenNoDefaultClassExists. */
const DEFAULT_PRIORITY = 0;
const PREEMPT_LOWER_PRIORITY = 'PreemptLowerPriority';

/** scheduling.SystemPriorityClasses(): what every cluster starts with. */
export const SYSTEM_PRIORITY_CLASSES = [
  {
    name: 'system-node-critical',
    value: 2000001000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    name: 'system-cluster-critical',
    value: 2000000000,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

/** The bootstrap hook: creates the system classes (with SetDefaults_PriorityClass's preemptionPolicy). */
export async function bootstrapSystemPriorityClasses(registry: GenericRegistry): Promise<void> {
  for (const { name, value, description } of SYSTEM_PRIORITY_CLASSES) {
    await registry.create(undefined, {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name },
      value,
      description,
      preemptionPolicy: PREEMPT_LOWER_PRIORITY,
    });
  }
}

interface PriorityClass {
  metadata: { name?: string };
  value?: number;
  globalDefault?: boolean;
  preemptionPolicy?: string;
}

interface PodSpec {
  priorityClassName?: string;
  priority?: number;
  preemptionPolicy?: string;
}

export function priority(services: AdmissionServices): AdmissionPlugin {
  const classes = (): PriorityClass[] => services.store.list(PRIORITY_CLASSES, '').map((e) => e.object as unknown as PriorityClass);
  /** getDefaultPriorityClass: of several defaults (a race), the lowest value. */
  const defaultClass = (): PriorityClass | undefined =>
    classes()
      .filter((pc) => pc.globalDefault)
      .reduce<PriorityClass | undefined>((best, pc) => (!best || (best.value ?? 0) > (pc.value ?? 0) ? pc : best), undefined);
  // A class stored without preemptionPolicy was stored before kubefake defaulted it; the real
  // apiserver always has it (SetDefaults_PriorityClass).
  const policyOf = (pc: PriorityClass) => pc.preemptionPolicy ?? PREEMPT_LOWER_PRIORITY;

  return {
    name: 'Priority',
    handles: (op) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE',
    admit(attributes) {
      if (attributes.subresource !== '' || !isResource(attributes, '', 'pods') || !attributes.object) return;
      const spec = (attributes.object.spec ??= {}) as PodSpec;
      if (attributes.operation === 'UPDATE') {
        const old = (attributes.oldObject?.spec ?? {}) as PodSpec;
        if (spec.priority === undefined && old.priority !== undefined) spec.priority = old.priority;
        if (spec.preemptionPolicy === undefined && old.preemptionPolicy !== undefined) spec.preemptionPolicy = old.preemptionPolicy;
        return;
      }
      if (attributes.operation !== 'CREATE') return;
      let value: number;
      let policy: string | undefined;
      if (!spec.priorityClassName) {
        const def = defaultClass();
        value = def ? (def.value ?? 0) : DEFAULT_PRIORITY;
        policy = def ? policyOf(def) : PREEMPT_LOWER_PRIORITY;
        // Set only when there is a name: a delete would leave the stored pod's spec a slow dictionary object.
        const name = def?.metadata.name ?? '';
        if (name) spec.priorityClassName = name;
        else delete spec.priorityClassName;
      } else {
        const pc = classes().find((c) => c.metadata.name === spec.priorityClassName);
        if (!pc) throw admissionForbidden(attributes, `no PriorityClass with name ${spec.priorityClassName} was found`);
        value = pc.value ?? 0;
        policy = policyOf(pc);
      }
      if (spec.priority !== undefined && spec.priority !== value) {
        throw admissionForbidden(
          attributes,
          `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`,
        );
      }
      spec.priority = value;
      if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== policy) {
        throw admissionForbidden(
          attributes,
          `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
        );
      }
      spec.preemptionPolicy = policy;
    },
    validate(attributes) {
      if (attributes.subresource !== '' || !isResource(attributes, 'scheduling.k8s.io', 'priorityclasses')) return;
      if (attributes.operation !== 'CREATE' && attributes.operation !== 'UPDATE') return;
      const pc = attributes.object as (KubeObject & PriorityClass) | undefined;
      if (!pc?.globalDefault) return;
      const existing = defaultClass();
      if (existing && (attributes.operation === 'CREATE' || existing.metadata.name !== pc.metadata?.name)) {
        throw admissionForbidden(attributes, `PriorityClass ${existing.metadata.name} is already marked as default. Only one default can exist`);
      }
    },
  };
}
