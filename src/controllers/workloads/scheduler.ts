// A scheduler that binds pending pods to nodes (the default-scheduler's filters, reduced): ready
// and schedulable nodes, taints (NoSchedule/NoExecute) the pod does not tolerate, nodeSelector and
// required node affinity, and room for the pod's cpu, memory and pod count. Among the nodes that
// fit it takes the one with the fewest pods (then by name), so placement is deterministic. It
// binds through pods/binding's code path; a pod that fits nowhere gets PodScheduled=False with the
// FitError text (pkg/scheduler/framework/types.go) and is retried when nodes or pods change. Pods
// with PersistentVolumeClaims go through VolumeBinding (volume-binding.ts) too, and are retried
// when claims, volumes or classes change.
import type { KubeObject, StoredObject } from '../../apis/object.ts';
import { StatusError } from '../../errors/status-error.ts';
import { formatTimestamp } from '../../go/time.ts';
import { bindPod } from '../../registry/subresources/pod-binding.ts';
import type { StoreEvent } from '../../storage/versioned-store.ts';
import { splitKey } from '../context.ts';
import { schedulerRecorder, type SeriesRecorder } from '../events/event-broadcaster.ts';
import { QueueController } from '../queue-controller.ts';
import { findCondition, isTerminal, labelsOf, specOf, statusOf, type Json } from './objects.ts';
import { termMatches } from './node-selector.ts';
import { podRequests, quantityValue, type Requests } from './resources.ts';
import { nodeVolumes, podClaims, reserveVolumes, type NodeVolumes } from './volume-binding.ts';
import { CLAIMS, CLASSES, VOLUMES } from './volumes.ts';
import { SCHEDULER_MANAGER } from './component-managers.ts';
import { patchStatusAs } from './controller-support.ts';
import { deepEqual } from '../../util/deep-equal.ts';

const PODS = '/pods';
const NODES = '/nodes';
export const DEFAULT_SCHEDULER = 'default-scheduler';

interface Taint {
  key?: string;
  value?: string;
  effect?: string;
}
interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}

/** v1helper.ToleratesTaint. */
function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (!t.key && t.operator !== 'Exists') return false;
  if (t.operator === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
}

interface NodeUsage extends Requests {
  pods: number;
}

export type Failure = { reason: string; resolvable: boolean };

export class Scheduler extends QueueController {
  readonly name = 'scheduler';
  /** What bound, running pods use on each node, by pod key. */
  private readonly usageByPod = new Map<string, { node: string; requests: Requests }>();
  private readonly usageByNode = new Map<string, NodeUsage>();
  /** Pods that fitted nowhere: tried again when something changes. */
  private readonly unschedulable = new Set<string>();
  /** Pods whose delayed claims are being bound for the node chosen (PreBind waiting). */
  private readonly waitingForVolumes = new Set<string>();
  private events: SeriesRecorder | undefined;

  /** The events.k8s.io recorder of the default profile (schedule_one.go records through it). */
  private get recorder(): SeriesRecorder {
    return (this.events ??= schedulerRecorder(this.ctx, DEFAULT_SCHEDULER));
  }

  protected observe(event: StoreEvent): void {
    if (event.bucket === NODES) {
      this.retryUnschedulable();
      return;
    }
    // Claims, volumes and classes change what VolumeBinding answers (its queueing hints).
    if (event.bucket === CLAIMS || event.bucket === VOLUMES || event.bucket === CLASSES) {
      for (const key of this.waitingForVolumes) this.queue.add(key);
      this.retryUnschedulable();
      return;
    }
    if (event.bucket !== PODS) return;
    const pod = event.object;
    const nodeName = specOf(pod).nodeName as string | undefined;
    const holds = event.type !== 'DELETED' && !!nodeName && !isTerminal(pod);
    if (holds) this.account(event.key, nodeName!, pod);
    else if (this.release(event.key)) this.retryUnschedulable();
    if (event.type === 'DELETED') {
      this.unschedulable.delete(event.key);
      this.waitingForVolumes.delete(event.key);
      return;
    }
    // An unschedulable pod waits for a change that may help (isPodUpdated in the scheduling
    // queue): not its own status write, which would only repeat the attempt and its event.
    if (this.unschedulable.has(event.key) && event.previous && !podChangedBesidesStatus(event.previous, pod)) return;
    if (this.wantsScheduling(pod)) this.queue.add(event.key);
  }

  private wantsScheduling(pod: StoredObject): boolean {
    const spec = specOf(pod);
    if (spec.nodeName || pod.metadata.deletionTimestamp || isTerminal(pod)) return false;
    if (((spec.schedulingGates as unknown[] | undefined) ?? []).length > 0) return false;
    return (spec.schedulerName ?? DEFAULT_SCHEDULER) === DEFAULT_SCHEDULER;
  }

  private account(key: string, node: string, pod: KubeObject): void {
    if (this.usageByPod.get(key)?.node === node) return;
    this.release(key);
    const requests = podRequests(pod);
    this.usageByPod.set(key, { node, requests });
    const usage = this.usageOf(node);
    usage.cpu += requests.cpu;
    usage.memory += requests.memory;
    usage.pods++;
  }

  private release(key: string): boolean {
    const held = this.usageByPod.get(key);
    if (!held) return false;
    this.usageByPod.delete(key);
    const usage = this.usageOf(held.node);
    usage.cpu -= held.requests.cpu;
    usage.memory -= held.requests.memory;
    usage.pods--;
    return true;
  }

  private usageOf(node: string): NodeUsage {
    let usage = this.usageByNode.get(node);
    if (!usage) this.usageByNode.set(node, (usage = { cpu: 0, memory: 0, pods: 0 }));
    return usage;
  }

  private retryUnschedulable(): void {
    for (const key of this.unschedulable) this.queue.add(key);
    this.unschedulable.clear();
  }

  protected async sync(key: string): Promise<void> {
    const pod = this.ctx.store.get(PODS, key);
    if (!pod || !this.wantsScheduling(pod)) return;
    const claims = podClaims(this.ctx.store, pod);
    // PreBind is waiting for the PersistentVolume controller to bind the claims it prepared.
    if (this.waitingForVolumes.has(key)) {
      if (!claims.failure && claims.delayed.length > 0) return;
      this.waitingForVolumes.delete(key);
    }
    const nodes = this.ctx.store.list(NODES, '').map((e) => e.object);
    const requests = podRequests(pod);
    const failures: Failure[][] = [];
    let best: { node: KubeObject; pods: number; volumes: NodeVolumes | undefined } | undefined;
    if (!claims.failure) {
      for (const node of nodes) {
        const failure = this.filter(pod, node, requests);
        if (failure) {
          failures.push([failure]);
          continue;
        }
        // VolumeBinding, after the filters above (its reasons are UnschedulableAndUnresolvable).
        const volumes = claims.bound.length || claims.delayed.length ? nodeVolumes(this.ctx.store, claims, node) : undefined;
        if (volumes?.reasons.length) {
          failures.push(volumes.reasons.map((reason) => ({ reason, resolvable: false })));
          continue;
        }
        const pods = this.usageOf(node.metadata.name!).pods;
        if (!best || pods < best.pods) best = { node, pods, volumes };
      }
    }
    const type = this.ctx.catalog.find('', 'v1', 'pods')!;
    const { namespace, name } = splitKey(type, key);
    const registry = this.ctx.registryFor(type);
    if (best && claims.delayed.length > 0) return this.preBind(key, best.node.metadata!.name!, best.volumes!);
    if (best) {
      try {
        await bindPod(registry, namespace, name, { metadata: { name, uid: pod.metadata.uid }, target: { kind: 'Node', name: best.node.metadata!.name! } }, this.ctx.clock.now());
        // bindingCycle: recorded about the assumed pod (as the scheduler's cache had it) once bound.
        this.recorder.event(pod, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${namespace}/${name} to ${best.node.metadata!.name!}`);
      } catch (err) {
        // Bound or deleted meanwhile: the pod's own event says what to do next.
        if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
      }
      return;
    }
    this.unschedulable.add(key);
    const message = fitErrorMessage(nodes.length, failures, claims.failure);
    // handleSchedulingFailure: every failed attempt is recorded; repeats become the event's series.
    this.recorder.event(pod, 'Warning', 'FailedScheduling', 'Scheduling', message);
    const now = formatTimestamp(this.ctx.clock.now());
    // handleSchedulingFailure's util.PatchPodStatus: a patch of pods/status as kube-scheduler.
    patchStatusAs(
      this.ctx,
      type,
      SCHEDULER_MANAGER,
      namespace,
      name,
      (p) => {
        const status = statusOf(p);
        const conditions = ((status.conditions as Json[] | undefined) ??= []);
        const existing = findCondition(p, 'PodScheduled');
        if (existing?.status === 'False' && existing.reason === 'Unschedulable' && existing.message === message) return false;
        const condition = { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: existing?.status === 'False' ? existing.lastTransitionTime : now, reason: 'Unschedulable', message };
        const at = conditions.findIndex((c) => c.type === 'PodScheduled');
        if (at >= 0) conditions[at] = condition;
        else conditions.push(condition);
        p.status = status;
        return true;
      },
      pod.metadata.uid,
    );
  }

  /** PreBind: reserve the volumes, have the claims provisioned on the node, and wait for their binding. */
  private async preBind(key: string, node: string, volumes: NodeVolumes): Promise<void> {
    this.waitingForVolumes.add(key);
    try {
      await reserveVolumes(this.ctx, node, volumes);
    } catch (err) {
      this.waitingForVolumes.delete(key);
      throw err;
    }
  }

  /** The first filter the node fails, in the default plugins' order; undefined when the pod fits. */
  private filter(pod: KubeObject, node: KubeObject, requests: Requests): Failure | undefined {
    const placement = placementFailure(specOf(pod), node);
    if (placement) return placement;
    // NodeResourcesFit
    const allocatable = (statusOf(node).allocatable ?? {}) as Json;
    const usage = this.usageOf(node.metadata!.name!);
    if (usage.pods + 1 > quantityValue(allocatable.pods)) return { reason: 'Too many pods', resolvable: true };
    if (requests.cpu > 0 && usage.cpu + requests.cpu > quantityValue(allocatable.cpu, 1000)) return { reason: 'Insufficient cpu', resolvable: true };
    if (requests.memory > 0 && usage.memory + requests.memory > quantityValue(allocatable.memory)) return { reason: 'Insufficient memory', resolvable: true };
    return undefined;
  }
}

/** isPodUpdated: the pod differs in more than its status and write bookkeeping. */
function podChangedBesidesStatus(before: KubeObject, after: KubeObject): boolean {
  const strip = (p: KubeObject) => ({ ...p, status: undefined, metadata: { ...p.metadata, resourceVersion: undefined, generation: undefined, managedFields: undefined } });
  return !deepEqual(strip(before), strip(after));
}

/**
 * The filters about where a pod may go, in the default plugins' order (NodeUnschedulable,
 * NodeAffinity with nodeSelector, TaintToleration); undefined when the node is one it may use.
 */
export function placementFailure(spec: Json, node: KubeObject): Failure | undefined {
  const nodeSpec = specOf(node);
  const tolerations = (spec.tolerations as Toleration[] | undefined) ?? [];
  if (nodeSpec.unschedulable === true && !tolerations.some((t) => tolerates(t, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }))) {
    return { reason: 'node(s) were unschedulable', resolvable: false };
  }
  const nodeSelector = (spec.nodeSelector ?? {}) as Record<string, string>;
  const labels = labelsOf(node);
  const required = ((((spec.affinity as Json | undefined)?.nodeAffinity as Json | undefined)?.requiredDuringSchedulingIgnoredDuringExecution as Json | undefined)?.nodeSelectorTerms ?? undefined) as Json[] | undefined;
  if (Object.entries(nodeSelector).some(([k, v]) => labels[k] !== v) || (required && !required.some((term) => termMatches(term, node)))) {
    return { reason: "node(s) didn't match Pod's node affinity/selector", resolvable: false };
  }
  const taints = (nodeSpec.taints as Taint[] | undefined) ?? [];
  if (taints.some((taint) => (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') && !tolerations.some((t) => tolerates(t, taint)))) {
    return { reason: 'node(s) had untolerated taint(s)', resolvable: false };
  }
  return undefined;
}

/**
 * FitError.Error(): the node count, then PreFilter's message when a PreFilter plugin ruled out
 * every node, else each reason with how many nodes gave it (sorted); then the preemption summary
 * the default PostFilter adds (nodes whose failure is unresolvable counted apart).
 */
export function fitErrorMessage(nodeCount: number, nodeFailures: readonly (readonly Failure[])[], preFilterMessage?: string): string {
  if (nodeCount === 0) return 'no nodes available to schedule pods';
  const counts = new Map<string, number>();
  for (const f of nodeFailures.flat()) counts.set(f.reason, (counts.get(f.reason) ?? 0) + 1);
  const reasons = preFilterMessage ?? [...counts].map(([reason, n]) => `${n} ${reason}`).sort().join(', ');
  // A PreFilter failure is UnschedulableAndUnresolvable for every node.
  const unresolvable = preFilterMessage !== undefined ? nodeCount : nodeFailures.filter((f) => !f[0]?.resolvable).length;
  const resolvable = preFilterMessage !== undefined ? 0 : nodeFailures.length - unresolvable;
  const preemption = [
    ...(unresolvable ? [`${unresolvable} Preemption is not helpful for scheduling`] : []),
    ...(resolvable ? [`${resolvable} No preemption victims found for incoming pod`] : []),
  ].sort();
  return `0/${nodeCount} nodes are available: ${reasons}. preemption: 0/${nodeCount} nodes are available: ${preemption.join(', ')}.`;
}
