// A stand-in for the kubelets of the cluster's nodes: it runs the pods bound to them on the
// cluster clock. A pod is accepted (Pending, ContainerCreating, hostIP and startTime), its
// containers start (Running, podIP) and become ready, run to completion, or crash and restart with
// the kubelet's back-off, as programmed per pod (kubelet-behavior.ts). A pod deleted gracefully is
// confirmed (deleted with grace 0) once its containers stop: by default when the grace period runs
// out. Status is written as the kubelet's status manager does, past the pod strategy.
import type { KubeObject } from '../../apis/object.ts';
import { badRequest, StatusError } from '../../errors/status-error.ts';
import type { ExecResult, KubeletConnection, PodLogOptions } from '../../registry/subresources/pod-connect.ts';
import type { StoreEvent } from '../../storage/versioned-store.ts';
import type { ControllerContext } from '../context.ts';
import { splitKey } from '../context.ts';
import { QueueController } from '../queue-controller.ts';
import { KubeletRules, type PodBehavior } from './kubelet-behavior.ts';
import { KubeletEvents, newEventCursor, type EventCursor } from './kubelet-events.ts';
import { lifeAt, type LifeStage } from './pod-lifecycle.ts';
import { podStatusAt } from './pod-status.ts';
import { specOf, stableJson, statusOf } from './objects.ts';
import type { ClockTimers } from './timers.ts';

const PODS = '/pods';

/** A node this kubelet runs: its address and the pod address range it hands out. */
export interface KubeletNode {
  hostIP: string;
  /** The first three octets of the node's /24 pod range (`10.244.0`). */
  podNet: string;
}

interface PodRecord {
  uid: string;
  node: string;
  behavior: PodBehavior;
  acceptedAt: number;
  podIP?: string;
  /** When the kubelet first saw the pod's deletionTimestamp. */
  deletionSeenAt?: number;
  /** The times a wake-up is already scheduled for. */
  wakeups: Set<number>;
  /** The resourceVersion of the kubelet's last status write and the stage it wrote. */
  written?: { resourceVersion: string; stage: string };
  /** What the kubelet has recorded as Events about the pod. */
  events: EventCursor;
}

/** What distinguishes one written status from the next on the kubelet's side. */
function stageSignature(life: LifeStage, generation: number | undefined): string {
  const ready = life.stage === 'running' ? life.ready : false;
  const restarts = 'restarts' in life ? life.restarts : 0;
  return `${life.stage}/${restarts}/${ready}/${generation}`;
}

export class Kubelet extends QueueController implements KubeletConnection {
  readonly name = 'kubelet';
  readonly rules = new KubeletRules();
  private readonly records = new Map<string, PodRecord>();
  private readonly nodes: ReadonlyMap<string, KubeletNode>;
  private readonly timers: ClockTimers;
  private readonly usedIPs = new Map<string, Set<number>>();
  private readonly events: KubeletEvents;

  constructor(ctx: ControllerContext, onError: (err: unknown, key: string) => void, nodes: ReadonlyMap<string, KubeletNode>, timers: ClockTimers) {
    super(ctx, onError);
    this.nodes = nodes;
    this.timers = timers;
    this.events = new KubeletEvents(ctx);
  }

  servesNode(name: string): boolean {
    return this.nodes.has(name);
  }

  protected observe(event: StoreEvent): void {
    if (event.bucket !== PODS) return;
    if (event.type === 'DELETED') {
      this.forget(event.object.metadata.uid!);
      return;
    }
    const node = specOf(event.object).nodeName as string | undefined;
    if (!node || !this.nodes.has(node)) return;
    // Its own status write needs no second look.
    if (this.records.get(event.object.metadata.uid!)?.written?.resourceVersion === event.object.metadata.resourceVersion && !event.object.metadata.deletionTimestamp) return;
    this.queue.add(event.key);
  }

  private forget(uid: string): void {
    const record = this.records.get(uid);
    if (!record) return;
    this.records.delete(uid);
    if (record.podIP) this.usedIPs.get(record.node)?.delete(Number(record.podIP.slice(record.podIP.lastIndexOf('.') + 1)));
  }

  private wakeAt(record: PodRecord, key: string, at: number): void {
    if (record.wakeups.has(at)) return;
    record.wakeups.add(at);
    this.timers.at(at, () => {
      record.wakeups.delete(at);
      this.queue.add(key);
    });
  }

  private recordOf(pod: KubeObject): PodRecord {
    const uid = pod.metadata!.uid!;
    let record = this.records.get(uid);
    if (!record) {
      record = { uid, node: specOf(pod).nodeName as string, behavior: this.rules.behaviorOf(pod), acceptedAt: this.ctx.clock.now().getTime(), wakeups: new Set(), events: newEventCursor() };
      this.records.set(uid, record);
    }
    return record;
  }

  protected async sync(key: string): Promise<void> {
    const pod = this.ctx.store.get(PODS, key);
    if (!pod) return;
    const record = this.recordOf(pod);
    const now = this.ctx.clock.now();
    const type = this.ctx.catalog.find('', 'v1', 'pods')!;
    const { namespace, name } = splitKey(type, key);
    const registry = this.ctx.registryFor(type);
    if (pod.metadata.deletionTimestamp) {
      record.deletionSeenAt ??= now.getTime();
      const graceEnd = Date.parse(pod.metadata.deletionTimestamp);
      const stopAt = record.behavior.stopAfter !== undefined ? Math.min(graceEnd, record.deletionSeenAt + Math.max(0, record.behavior.stopAfter)) : graceEnd;
      this.events.stopping(pod, record.events, record, record.deletionSeenAt);
      if (now.getTime() < stopAt) {
        this.wakeAt(record, key, stopAt);
        return;
      }
      try {
        await registry.delete(namespace, name, { gracePeriodSeconds: 0, preconditions: { uid: record.uid } });
      } catch (err) {
        if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
      }
      return;
    }
    const life = lifeAt(pod, record.behavior, record.acceptedAt, now.getTime());
    const node = this.nodes.get(record.node)!;
    if (life.now.stage !== 'creating' && !record.podIP) record.podIP = specOf(pod).hostNetwork === true ? node.hostIP : this.allocateIP(record.node, node);
    const signature = stageSignature(life.now, pod.metadata.generation);
    const unchanged = record.written?.resourceVersion === pod.metadata.resourceVersion && record.written.stage === signature;
    if (!unchanged) {
      const status = podStatusAt(pod, life.now, { hostIP: node.hostIP, podIP: record.podIP, acceptedAt: record.acceptedAt }, now);
      // Someone else's write (labels, a patch of the status) may leave nothing for the kubelet to change.
      if (record.written?.stage === signature && stableJson(status) === stableJson(statusOf(pod))) record.written = { resourceVersion: pod.metadata.resourceVersion!, stage: signature };
      else {
        const stored = registry.systemUpdate(
          namespace,
          name,
          (p) => {
            if (p.metadata?.deletionTimestamp) return false;
            p.status = status;
            return true;
          },
          record.uid,
        );
        if (stored) record.written = { resourceVersion: stored.metadata.resourceVersion!, stage: signature };
      }
    }
    if (life.nextChangeAt !== undefined) this.wakeAt(record, key, life.nextChangeAt);
    // Recorded after the status write, as the kubelet's recorder does, never in its way.
    const probeAt = this.events.report(pod, record.events, { ...record, podIP: record.podIP }, now.getTime());
    if (probeAt !== undefined) this.wakeAt(record, key, probeAt);
  }

  /** The next free address of the node's /24, from .2 on. */
  private allocateIP(nodeName: string, node: KubeletNode): string {
    let used = this.usedIPs.get(nodeName);
    if (!used) this.usedIPs.set(nodeName, (used = new Set()));
    for (let octet = 2; octet < 255; octet++) {
      if (used.has(octet)) continue;
      used.add(octet);
      return `${node.podNet}.${octet}`;
    }
    return `${node.podNet}.254`;
  }

  /** What the pod's current state is for the kubelet, or undefined when it does not run the pod (yet). */
  private stageOf(pod: KubeObject): { stage: LifeStage; record: PodRecord } | undefined {
    const record = this.records.get(pod.metadata?.uid ?? '');
    if (!record) return undefined;
    return { stage: lifeAt(pod, record.behavior, record.acceptedAt, this.ctx.clock.now().getTime()).now, record };
  }

  /**
   * containerLogs: the programmed log text of the container, cut as the options say. A container
   * still waiting to start has no logs (kubelet_pods.go validateContainerLogStatus's texts).
   */
  logs(pod: KubeObject, container: string, options: PodLogOptions): string {
    const podName = pod.metadata?.name ?? '';
    const state = this.stageOf(pod);
    const stage: LifeStage = state?.stage ?? { stage: 'creating' };
    const hasPrevious = (stage.stage === 'running' && stage.last !== undefined) || stage.stage === 'backoff';
    if (options.previous) {
      if (!hasPrevious) throw badRequest(`previous terminated container ${JSON.stringify(container)} in pod ${JSON.stringify(podName)} not found`);
    } else if (stage.stage === 'creating') {
      throw badRequest(`container ${JSON.stringify(container)} in pod ${JSON.stringify(podName)} is waiting to start: ContainerCreating`);
    }
    // Logs are read when asked for: a rule added after the pod started applies to them.
    const source = this.rules.behaviorOf(pod).logs ?? state?.record.behavior.logs;
    let text = typeof source === 'function' ? source(container, pod) : (source ?? '');
    const startedAt = stage.stage === 'running' ? stage.startedAt : 'last' in stage && stage.last ? stage.last.startedAt : 0;
    let lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
    if (options.tailLines !== undefined) lines = options.tailLines === 0 ? [] : lines.slice(-options.tailLines);
    if (options.timestamps) {
      const stamp = new Date(startedAt).toISOString().replace(/\.000Z$/, 'Z').replace(/(\.\d*?)0+Z$/, '$1Z');
      lines = lines.map((l) => `${stamp} ${l}`);
    }
    text = lines.length ? `${lines.join('\n')}\n` : '';
    if (options.limitBytes !== undefined) text = Buffer.from(text).subarray(0, options.limitBytes).toString();
    return text;
  }

  /**
   * exec: what the programmed `exec` answers (by default nothing, exit code 0); a container that is
   * not running has nothing to run it in (the kubelet's findContainer text).
   */
  exec(pod: KubeObject, container: string, command: string[]): ExecResult {
    const state = this.stageOf(pod);
    if (state?.stage.stage !== 'running') throw badRequest(`container not found (${JSON.stringify(container)})`);
    const exec = this.rules.behaviorOf(pod).exec ?? state.record.behavior.exec;
    return exec?.(command, container, pod) ?? { exitCode: 0 };
  }
}
