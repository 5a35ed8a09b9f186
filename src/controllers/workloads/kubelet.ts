// A stand-in for the kubelets of the cluster's nodes: it runs the pods bound to them on the
// cluster clock. A pod is accepted (Pending, ContainerCreating, hostIP and startTime), its
// containers start (Running, podIP) and become ready, run to completion, or crash and restart with
// the kubelet's back-off, as programmed per pod (kubelet-behavior.ts). A pod deleted gracefully is
// confirmed (deleted with grace 0) once its containers stop: by default when the grace period runs
// out. Status is written as the kubelet's status manager does, past the pod strategy, recorded in
// managedFields as the `kubelet` manager's Update of pods/status (its PatchPodStatus).
import type { KubeObject } from '../../apis/object.ts';
import { badRequest, StatusError } from '../../errors/status-error.ts';
import type { ContainerLog, ExecResult, KubeletConnection, PodLogOptions } from '../../registry/subresources/pod-connect.ts';
import type { StoreEvent } from '../../storage/versioned-store.ts';
import type { ControllerContext } from '../context.ts';
import { splitKey } from '../context.ts';
import { QueueController } from '../queue-controller.ts';
import { KubeletRules, podMatcher, type PodBehavior, type PodMatch } from './kubelet-behavior.ts';
import { logEntries, nextLineAt, programmedLogs, splitLines, tailOf, writeEntries, type ContainerRun, type LogCut, type LogEntry, type ProgrammedLogs } from './container-logs.ts';
import { KubeletEvents, newEventCursor, type EventCursor } from './kubelet-events.ts';
import { lifeAt, type LifeStage } from './pod-lifecycle.ts';
import { podStatusAt } from './pod-status.ts';
import { specOf, statusOf } from './objects.ts';
import type { ClockTimers } from './timers.ts';
import { KUBELET_MANAGER } from './component-managers.ts';
import { patchStatusAs } from './controller-support.ts';
import { deepEqual } from '../../util/deep-equal.ts';

const PODS = '/pods';

/** A node this kubelet runs: its address and the pod address range it hands out. */
export interface KubeletNode {
  hostIP: string;
  /** The first three octets of the node's /24 pod range (`10.244.0`). */
  podNet: string;
}

interface PodRecord {
  uid: string;
  /** The pod's store key (`namespace/name`). */
  key: string;
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
  /** Lines appended to its containers' logs (`cluster.kubelet.log()`), by container and the start of the run they belong to. */
  appended: Array<LogEntry & { container: string; runStartedAt: number }>;
  /** The `follow` readers of its containers' logs. */
  followers: Set<LogFollower>;
}

/** A `follow` reader of one run of a container: what it has been sent, and the stream it is sent on. */
interface LogFollower {
  container: string;
  startedAt: number;
  /** The programmed lines, read once when following starts (the file being followed is written by one process). */
  programmed: ProgrammedLogs;
  cut: LogCut;
  remaining: number;
  /** How many entries of the run's log it has been past. */
  seen: number;
  controller: ReadableStreamDefaultController<Uint8Array>;
  ended: boolean;
  /** When a wake-up for its next programmed line is already scheduled. */
  wakeAt?: number;
}

/** What distinguishes one written status from the next on the kubelet's side. */
function stageSignature(life: LifeStage, generation: number | undefined): string {
  const ready = life.stage === 'running' ? life.ready : false;
  const restarts = 'restarts' in life ? life.restarts : 0;
  return `${life.stage}/${restarts}/${ready}/${generation}`;
}

/**
 * When the run that started at `startedAt` stopped, if it has by `now`: the first change of the
 * pod's life that finds it no longer running (a few steps: readiness, then exit or deadline).
 */
function runEndOf(pod: KubeObject, record: PodRecord, startedAt: number, now: number): number | undefined {
  const runningThen = (t: number) => {
    const life = lifeAt(pod, record.behavior, record.acceptedAt, t);
    return { running: life.now.stage === 'running' && life.now.startedAt === startedAt, next: life.nextChangeAt };
  };
  if (runningThen(now).running) return undefined;
  let t = startedAt;
  for (let step = 0; step < 16; step++) {
    const { running, next } = runningThen(t);
    if (!running) return t;
    if (next === undefined || next > now) return now;
    t = next;
  }
  return now;
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
    // The containers are gone, and their logs with them: follow readers reach the end.
    for (const follower of record.followers) this.endFollower(record, follower);
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
      record = {
        uid,
        key: `${pod.metadata!.namespace}/${pod.metadata!.name}`,
        node: specOf(pod).nodeName as string,
        behavior: this.rules.behaviorOf(pod),
        acceptedAt: this.ctx.clock.now().getTime(),
        wakeups: new Set(),
        appended: [],
        followers: new Set(),
        events: newEventCursor(),
      };
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
      this.writeTerminalStatus(pod, record, namespace, name, stopAt, stopAt >= graceEnd, now);
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
      if (record.written?.stage === signature && deepEqual(status, statusOf(pod))) record.written = { resourceVersion: pod.metadata.resourceVersion!, stage: signature };
      else {
        const stored = patchStatusAs(
          this.ctx,
          type,
          KUBELET_MANAGER,
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
    // A container that stopped ends the logs followed; one that goes on may have logged.
    for (const follower of record.followers) this.pump(pod, record, follower);
  }

  /**
   * Before confirming a deletion the kubelet reports the pod terminal (pkg/kubelet/status
   * status_manager.go TerminatePod, kubelet_pods.go getPhase with podIsTerminal): containers still
   * running when the pod was deleted end with 143 (stopped on SIGTERM) or 137 (killed when the
   * grace period ran out), and the phase becomes Failed (Succeeded only when every container
   * exited 0). Controllers that look at how a pod ended (the Job's podFailurePolicy, its failure
   * count) see this status in the pod's last update.
   */
  private writeTerminalStatus(pod: KubeObject, record: PodRecord, namespace: string | undefined, name: string, stopAt: number, killed: boolean, now: Date): void {
    const phase = statusOf(pod).phase;
    if (phase === 'Failed' || phase === 'Succeeded') return;
    // A container that ran to its end before it was stopped reports its own exit.
    const life = lifeAt(pod, record.behavior, record.acceptedAt, stopAt).now;
    const restarts = life.stage === 'creating' ? 0 : life.restarts;
    const startedAt = life.stage === 'running' ? life.startedAt : stopAt;
    const final: LifeStage = life.stage === 'finished' ? life : { stage: 'finished', restarts, last: { startedAt, finishedAt: stopAt, exitCode: killed ? 137 : 143 } };
    const node = this.nodes.get(record.node)!;
    const status = podStatusAt(pod, final, { hostIP: node.hostIP, podIP: record.podIP, acceptedAt: record.acceptedAt }, now);
    patchStatusAs(
      this.ctx,
      this.ctx.catalog.find('', 'v1', 'pods')!,
      KUBELET_MANAGER,
      namespace,
      name,
      (p) => {
        p.status = status;
        return true;
      },
      record.uid,
    );
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
   * The run of the container whose log the kubelet reads (validateContainerLogStatus, from the
   * status it reports): the running one, else the last terminated; `previous` the one before the
   * running one, or the last terminated while waiting to restart. Refused with the kubelet's texts.
   */
  private logRunOf(pod: KubeObject, container: string, previous: boolean): { run: ContainerRun; record: PodRecord } {
    const podName = pod.metadata?.name ?? '';
    const state = this.stageOf(pod);
    const stage: LifeStage = state?.stage ?? { stage: 'creating' };
    const notFound = () => badRequest(`previous terminated container ${JSON.stringify(container)} in pod ${JSON.stringify(podName)} not found`);
    if (!state || stage.stage === 'creating') {
      throw previous ? notFound() : badRequest(`container ${JSON.stringify(container)} in pod ${JSON.stringify(podName)} is waiting to start: ContainerCreating`);
    }
    const ended = (exit: { startedAt: number; finishedAt: number }): ContainerRun => ({ startedAt: exit.startedAt, finishedAt: exit.finishedAt });
    switch (stage.stage) {
      case 'running':
        if (!previous) return { run: { startedAt: stage.startedAt }, record: state.record };
        if (!stage.last) throw notFound();
        return { run: ended(stage.last), record: state.record };
      case 'backoff':
        // Waiting to restart: the last termination is both the current log and the previous one.
        return { run: ended(stage.last), record: state.record };
      case 'finished':
        // The status reports no last termination beside the terminated state.
        if (previous) throw notFound();
        return { run: ended(stage.last), record: state.record };
    }
  }

  /** The lines appended to the run's log. */
  private appendedTo(record: PodRecord, container: string, startedAt: number): LogEntry[] {
    return record.appended.filter((e) => e.container === container && e.runStartedAt === startedAt).map(({ at, line }) => ({ at, line }));
  }

  /**
   * containerLogs (GetContainerLogs → ReadLogs): the run's log as the options cut it. Following a
   * running container answers a stream that goes on as the container logs, on the cluster clock,
   * and ends when it stops (or the pod goes, or the cluster closes); following one that has
   * stopped reads to the end, as the kubelet does.
   */
  logs(pod: KubeObject, container: string, options: PodLogOptions): ContainerLog {
    const { run, record } = this.logRunOf(pod, container, options.previous === true);
    const now = this.ctx.clock.now().getTime();
    // Logs are read when asked for: a rule added after the pod started applies to them.
    const programmed = programmedLogs(this.rules.behaviorOf(pod).logs ?? record.behavior.logs, container, pod);
    // NewLogOptions: sinceSeconds counts back from now; a later sinceTime wins.
    let since = options.sinceSeconds !== undefined ? now - options.sinceSeconds * 1000 : undefined;
    if (options.sinceTime !== undefined && (since === undefined || options.sinceTime > since)) since = options.sinceTime;
    const cut: LogCut = { tailLines: options.tailLines, since, timestamps: options.timestamps, limitBytes: options.limitBytes };
    const entries = logEntries(programmed, this.appendedTo(record, container, run.startedAt), run, now);
    const first = writeEntries(tailOf(entries, cut.tailLines), cut);
    if (!options.follow || run.finishedAt !== undefined || first.remaining <= 0) return { kind: 'text', body: first.bytes };
    let follower: LogFollower | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        follower = { container, startedAt: run.startedAt, programmed, cut, remaining: first.remaining, seen: entries.length, controller, ended: false };
        if (first.bytes.length) controller.enqueue(new Uint8Array(first.bytes));
        record.followers.add(follower);
        this.scheduleNextLine(record, follower, run, now);
      },
      // The reader left (the client closed the connection): nothing more to follow.
      cancel: () => {
        if (follower) {
          follower.ended = true;
          record.followers.delete(follower);
        }
      },
    });
    return { kind: 'stream', body };
  }

  /** Wakes the follower when its next programmed line falls due. */
  private scheduleNextLine(record: PodRecord, follower: LogFollower, run: ContainerRun, now: number): void {
    const next = nextLineAt(follower.programmed, run, now);
    if (next === undefined || next === follower.wakeAt) return;
    follower.wakeAt = next;
    this.timers.at(next, () => {
      const pod = this.ctx.store.get(PODS, record.key);
      if (pod && pod.metadata.uid === record.uid) this.pump(pod, record, follower);
    });
  }

  /** Sends a follower what its run logged since, and ends it once the run stopped or the byte limit is spent. */
  private pump(pod: KubeObject, record: PodRecord, follower: LogFollower): void {
    if (follower.ended) return;
    const now = this.ctx.clock.now().getTime();
    const finishedAt = runEndOf(pod, record, follower.startedAt, now);
    const run: ContainerRun = { startedAt: follower.startedAt, finishedAt };
    const entries = logEntries(follower.programmed, this.appendedTo(record, follower.container, follower.startedAt), run, now);
    const fresh = entries.slice(follower.seen);
    follower.seen = entries.length;
    const { bytes, remaining } = writeEntries(fresh, follower.cut, follower.remaining);
    follower.remaining = remaining;
    if (bytes.length) follower.controller.enqueue(new Uint8Array(bytes));
    if (finishedAt !== undefined || remaining <= 0) this.endFollower(record, follower);
    else this.scheduleNextLine(record, follower, run, now);
  }

  private endFollower(record: PodRecord, follower: LogFollower): void {
    if (follower.ended) return;
    follower.ended = true;
    record.followers.delete(follower);
    try {
      follower.controller.close();
    } catch {
      // Already cancelled by its reader.
    }
  }

  /** Ends every log being followed (the cluster closes). */
  endFollowers(): void {
    for (const record of this.records.values()) for (const follower of [...record.followers]) this.endFollower(record, follower);
  }

  /**
   * Appends `text` to the logs of the running containers of the pods `match` selects (or only the
   * one named `container`), at the clock's time; follow readers get it at once. Answers how many
   * container logs it went to.
   */
  appendLog(match: PodMatch, text: string, container?: string): number {
    const selects = podMatcher(match);
    const now = this.ctx.clock.now().getTime();
    let written = 0;
    for (const record of this.records.values()) {
      const pod = this.ctx.store.get(PODS, record.key);
      if (!pod || pod.metadata.uid !== record.uid || !selects(pod)) continue;
      const life = lifeAt(pod, record.behavior, record.acceptedAt, now).now;
      if (life.stage !== 'running') continue;
      const names = ((specOf(pod).containers as Array<{ name?: string }> | undefined) ?? []).map((c) => c.name ?? '').filter((n) => container === undefined || n === container);
      for (const name of names) {
        for (const line of splitLines(text)) record.appended.push({ container: name, runStartedAt: life.startedAt, at: now, line });
        written++;
      }
      for (const follower of [...record.followers]) this.pump(pod, record, follower);
    }
    return written;
  }

  /**
   * attach: the running container's output from now on (its log as it is written), ending when the
   * container stops; a container that is not running is not found, as for exec.
   */
  attach(pod: KubeObject, container: string): ReadableStream<Uint8Array> {
    if (this.stageOf(pod)?.stage.stage !== 'running') throw badRequest(`container not found (${JSON.stringify(container)})`);
    const log = this.logs(pod, container, { follow: true, tailLines: 0 });
    return log.kind === 'stream' ? log.body : new ReadableStream({ start: (controller) => controller.close() });
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
