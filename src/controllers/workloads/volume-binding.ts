// The scheduler's VolumeBinding plugin (pkg/scheduler/framework/plugins/volumebinding), reduced:
// PreFilter reads the pod's claims, its generic ephemeral volumes' too (a missing, deleting or lost claim, or an unbound claim of an
// Immediate class, rules out every node); Filter asks of each node that the volumes of bound
// claims may be used there and that each unbound WaitForFirstConsumer claim has a matching
// volume there or can be provisioned there; PreBind reserves the chosen volumes (their claimRef,
// bound-by-controller) and marks the claims to provision with volume.kubernetes.io/selected-node,
// then the pod waits until the PersistentVolume controller has bound them all.
import type { KubeObject, StoredObject } from '../../apis/object.ts';
import type { ControllerContext } from '../context.ts';
import { updateObject } from './controller-support.ts';
import { ephemeralClaimName } from './ephemeral-volume.ts';
import { controllerRefOf, specOf, statusOf, type Json } from './objects.ts';
import {
  allVolumes,
  ANN_BOUND_BY_CONTROLLER,
  ANN_SELECTED_NODE,
  CLAIMS,
  claimClassOf,
  classNamed,
  findMatchingVolume,
  isClaimBound,
  isDelayBinding,
  NO_PROVISIONER,
  VOLUMES,
  volumeFitsNode,
} from './volumes.ts';

/** The pod's claims sorted as PreFilter sorts them, or the reason no node will do. */
export interface PodClaims {
  /** PreFilter's UnschedulableAndUnresolvable message. */
  failure?: string;
  bound: StoredObject[];
  /** Unbound claims of a WaitForFirstConsumer class: bound during scheduling. */
  delayed: StoredObject[];
}

/** Filter's answer for one node: its failure reasons, else how the delayed claims would bind there. */
export interface NodeVolumes {
  reasons: string[];
  /** Delayed claim → the volume it would bind to on this node. */
  matches: Array<{ claim: StoredObject; volume: StoredObject }>;
  /** Delayed claims to provision on this node. */
  provision: StoredObject[];
}

/** The field manager the scheduler writes as. */
const SCHEDULER_MANAGER = 'kube-scheduler';

const ERR_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
const ERR_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
const ERR_PV_NOT_EXIST = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';

/** The claims the pod's volumes use: persistentVolumeClaim sources and generic ephemeral volumes' claims. */
export function claimsOfPod(pod: KubeObject): Array<{ name: string; ephemeral: boolean }> {
  return ((specOf(pod).volumes as Json[] | undefined) ?? []).flatMap((v): Array<{ name: string; ephemeral: boolean }> => {
    const claimName = (v.persistentVolumeClaim as Json | undefined)?.claimName;
    if (typeof claimName === 'string') return [{ name: claimName, ephemeral: false }];
    return v.ephemeral ? [{ name: ephemeralClaimName(pod, v), ephemeral: true }] : [];
  });
}

type StoreReader = ControllerContext['store'];

/** PreFilter (podHasPVCs, GetPodVolumeClaims). */
export function podClaims(store: StoreReader, pod: KubeObject): PodClaims {
  const result: PodClaims = { bound: [], delayed: [] };
  let immediate = false;
  for (const { name, ephemeral } of claimsOfPod(pod)) {
    const claim = store.get(CLAIMS, `${pod.metadata!.namespace}/${name}`);
    if (!claim) return { ...result, failure: ephemeral ? `waiting for ephemeral volume controller to create the persistentvolumeclaim "${name}"` : `persistentvolumeclaim "${name}" not found` };
    if (statusOf(claim).phase === 'Lost') return { ...result, failure: `persistentvolumeclaim "${name}" bound to non-existent persistentvolume "${specOf(claim).volumeName ?? ''}"` };
    if (claim.metadata.deletionTimestamp) return { ...result, failure: `persistentvolumeclaim "${name}" is being deleted` };
    // ephemeral.VolumeIsForPod.
    if (ephemeral && controllerRefOf(claim)?.uid !== pod.metadata!.uid) {
      return { ...result, failure: `PVC ${claim.metadata.namespace}/${name} was not created for pod ${pod.metadata!.namespace}/${pod.metadata!.name} (pod is not owner)` };
    }
    if (isClaimBound(claim)) result.bound.push(claim);
    else if (isDelayBinding(store, claim)) result.delayed.push(claim);
    else immediate = true;
  }
  if (immediate) return { ...result, failure: 'pod has unbound immediate PersistentVolumeClaims' };
  return result;
}

/** v1helper.MatchTopologySelectorTerms: no terms admit every node. */
function topologyAllows(storageClass: Json, node: KubeObject): boolean {
  const terms = (storageClass.allowedTopologies as Json[] | undefined) ?? [];
  if (terms.length === 0) return true;
  const labels = node.metadata?.labels ?? {};
  return terms.some((term) => ((term.matchLabelExpressions as Json[] | undefined) ?? []).every((e) => ((e.values as string[] | undefined) ?? []).includes(labels[String(e.key)] ?? '\u0000')));
}

/** Filter (FindPodVolumes) on one node. */
export function nodeVolumes(store: StoreReader, claims: PodClaims, node: KubeObject): NodeVolumes {
  const result: NodeVolumes = { reasons: [], matches: [], provision: [] };
  for (const claim of claims.bound) {
    const volume = store.get(VOLUMES, String(specOf(claim).volumeName));
    if (!volume) {
      if (!result.reasons.includes(ERR_PV_NOT_EXIST)) result.reasons.push(ERR_PV_NOT_EXIST);
    } else if (!volumeFitsNode(volume, node) && !result.reasons.includes(ERR_NODE_CONFLICT)) result.reasons.push(ERR_NODE_CONFLICT);
  }
  if (claims.delayed.length === 0) return result;
  let available = allVolumes(store);
  let unsatisfied = false;
  for (const claim of claims.delayed) {
    const volume = findMatchingVolume(claim, available, node, true);
    if (volume) {
      result.matches.push({ claim, volume });
      available = available.filter((v) => v !== volume);
      continue;
    }
    // checkVolumeProvisions: a class that provisions, for this node's topology.
    const storageClass = classNamed(store, claimClassOf(claim)) as (StoredObject & Json) | undefined;
    if (!storageClass || storageClass.provisioner === NO_PROVISIONER || !topologyAllows(storageClass, node)) unsatisfied = true;
    else result.provision.push(claim);
  }
  if (unsatisfied) result.reasons.push(ERR_BIND_CONFLICT);
  return result;
}

/**
 * PreBind's API updates (bindAPIUpdate): each matched volume reserved for its claim (claimRef,
 * bound-by-controller), each claim to provision annotated with the chosen node. The PV
 * controller completes the binding.
 */
export async function reserveVolumes(ctx: ControllerContext, nodeName: string, plan: NodeVolumes): Promise<void> {
  const volumes = ctx.catalog.find('', 'v1', 'persistentvolumes')!;
  const claims = ctx.catalog.find('', 'v1', 'persistentvolumeclaims')!;
  for (const { claim, volume } of plan.matches) {
    await updateObject(ctx, volumes, undefined, volume.metadata.name!, volume.metadata.uid!, (obj) => {
      const spec = specOf(obj);
      if (spec.claimRef) return false;
      spec.claimRef = { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, uid: claim.metadata.uid, apiVersion: 'v1', resourceVersion: claim.metadata.resourceVersion };
      obj.metadata!.annotations = { ...(obj.metadata?.annotations ?? {}), [ANN_BOUND_BY_CONTROLLER]: 'yes' };
      return true;
    }, SCHEDULER_MANAGER);
  }
  for (const claim of plan.provision) {
    await updateObject(ctx, claims, claim.metadata.namespace, claim.metadata.name!, claim.metadata.uid!, (obj) => {
      if (obj.metadata?.annotations?.[ANN_SELECTED_NODE] === nodeName) return false;
      obj.metadata!.annotations = { ...(obj.metadata?.annotations ?? {}), [ANN_SELECTED_NODE]: nodeName };
      return true;
    }, SCHEDULER_MANAGER);
  }
}
