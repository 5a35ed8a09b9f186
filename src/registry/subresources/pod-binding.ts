// pods/binding: what a scheduler writes to put a pod on a node (pkg/registry/core/pod/storage/
// storage.go BindingREST.Create and setPodNodeNameAndMetadata): the Binding goes through admission
// (CREATE of pods/binding, kind Binding; PodTopologyLabels adds the node's topology labels to it),
// then a storage-level update sets spec.nodeName, merges the Binding's annotations and labels
// (labels overwrite, as with PodTopologyLabelsAdmission on), clears status.nominatedNodeName and
// marks the pod PodScheduled, past the pod strategy (its generation does not move).
import type { KubeObject } from '../../apis/object.ts';
import { isDryRun, type WriteOptions } from '../../apis/options.ts';
import { badRequest, conflict, notFound, StatusError } from '../../errors/status-error.ts';
import { formatTimestamp } from '../../go/time.ts';
import type { GenericRegistry } from '../generic-registry.ts';
import { createSubresourceTypeOf } from './create-subresource-type.ts';

const PODS = { group: '', resource: 'pods' };
const BINDINGS = { group: '', resource: 'pods/binding' };

interface Binding {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; uid?: string; resourceVersion?: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  target?: { kind?: string; name?: string };
}

/** The type admission is asked about for pods/binding: the pods resource, kind Binding. */
const BINDING_KIND = { group: '', version: 'v1', kind: 'Binding' };

/** validation.ValidatePodBinding; BindingREST returns its aggregate as a plain error (a 500 with its text). */
function validateBinding(binding: Binding): void {
  const errors: string[] = [];
  const kind = binding.target?.kind ?? '';
  if (kind !== '' && kind !== 'Node') errors.push(`target.kind: Unsupported value: ${JSON.stringify(kind)}: supported values: "Node", "<empty>"`);
  if (!binding.target?.name) errors.push('target.name: Required value');
  if (errors.length > 0) throw new StatusError({ message: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`, code: 500 });
}

/**
 * BindingREST.Create: admits the Binding, binds the pod, answers the Status it returns (written
 * with 201). `options` are the request's CreateOptions (dry run, user).
 */
export async function bindPod(registry: GenericRegistry, namespace: string | undefined, name: string, binding: Binding, now: Date, options: WriteOptions = {}): Promise<Record<string, unknown>> {
  // The mutating phase sees the Binding as decoded (create.go: its kind set), the validating one
  // after BindingREST's checks. Admission changes it in place.
  binding.apiVersion = 'v1';
  binding.kind = 'Binding';
  await registry.admitSubresourceCreate(createSubresourceTypeOf(registry.type, 'binding', BINDING_KIND), BINDING_KIND, namespace, name, binding as KubeObject, options, () => {
    if (binding.metadata?.name !== name) throw badRequest('name in URL does not match name in Binding object');
    validateBinding(binding);
  });
  const existing = registry.peek(namespace, name);
  if (!existing) throw notFound(PODS, name);
  const { uid, resourceVersion } = binding.metadata!;
  // storage.Preconditions of the Binding's uid and resourceVersion (InterpretUpdateError: 409).
  if (uid && existing.metadata.uid !== uid) {
    throw conflict(PODS, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${existing.metadata.uid}`);
  }
  if (resourceVersion && existing.metadata.resourceVersion !== resourceVersion) {
    throw conflict(PODS, name, `Precondition failed: ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${existing.metadata.resourceVersion}`);
  }
  const spec = (existing.spec ?? {}) as { nodeName?: string; schedulingGates?: unknown[] };
  // Plain errors of the update function become a Conflict on pods/binding.
  if (existing.metadata.deletionTimestamp) throw conflict(BINDINGS, name, `pod ${name} is being deleted, cannot be assigned to a host`);
  if (spec.nodeName) throw conflict(BINDINGS, name, `pod ${name} is already assigned to node ${JSON.stringify(spec.nodeName)}`);
  if (spec.schedulingGates?.length) throw conflict(BINDINGS, name, `pod ${name} has non-empty .spec.schedulingGates`);
  if (!isDryRun(options.dryRun)) {
    registry.systemUpdate(namespace, name, (pod) => {
      assign(pod, binding, now);
      return true;
    });
  }
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' };
}

function assign(pod: KubeObject, binding: Binding, now: Date): void {
  (pod.spec as Record<string, unknown>).nodeName = binding.target!.name;
  if (binding.metadata?.annotations && Object.keys(binding.metadata.annotations).length > 0) {
    pod.metadata!.annotations = { ...pod.metadata!.annotations, ...binding.metadata.annotations };
  }
  // copyLabelsWithOverwriting (PodTopologyLabelsAdmission, on by default since v1.35).
  if (binding.metadata?.labels && Object.keys(binding.metadata.labels).length > 0) {
    pod.metadata!.labels = { ...pod.metadata!.labels, ...binding.metadata.labels };
  }
  const status = (pod.status ??= {}) as { conditions?: Array<Record<string, unknown>>; nominatedNodeName?: string };
  // ClearingNominatedNodeNameAfterBinding (beta, on since v1.35): the nomination is spent.
  delete status.nominatedNodeName;
  // podutil.UpdatePodCondition: the transition time moves only when the status changes.
  const conditions = (status.conditions ??= []);
  const scheduled = conditions.find((c) => c.type === 'PodScheduled');
  if (!scheduled) conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: formatTimestamp(now) });
  else if (scheduled.status !== 'True') {
    Object.assign(scheduled, { status: 'True', lastTransitionTime: formatTimestamp(now) });
    delete scheduled.reason;
    delete scheduled.message;
  }
}
