// The Events a node's kubelet records about the pods it runs (pkg/kubelet/events/event.go reasons,
// texts of kuberuntime_container.go, images/image_manager.go, prober/prober.go and
// kubelet_pods.go as of v1.36), derived from the pod's life on the clock: each run of the
// containers, each exit that waits out a back-off, a readiness probe that keeps failing, the
// stop of a deleted pod. A cursor per pod remembers what was recorded, so a clock that jumps over
// several restarts still records each of them, at the instant it happened.
import type { KubeObject } from '../../apis/object.ts';
import { goDurationString } from '../../go/duration.ts';
import { kubeletRecorder, type EventRecorder, type EventType } from '../events/event-broadcaster.ts';
import type { ControllerContext } from '../context.ts';
import type { PodBehavior } from './kubelet-behavior.ts';
import { hexId } from './nodes.ts';
import { lifeAt, type Run } from './pod-lifecycle.ts';
import { numberOr, specOf, type Json } from './objects.ts';

/** What has been recorded about one pod. */
export interface EventCursor {
  accepted: boolean;
  /** Containers whose image was pulled when the pod was accepted (the others were present). */
  pulled: Set<string>;
  runs: number;
  exits: number;
  /** The next readiness probe of the current run that fails, and the run it belongs to. */
  probe?: { run: number; at: number };
  killing: boolean;
  deadline: boolean;
}

export const newEventCursor = (): EventCursor => ({ accepted: false, pulled: new Set(), runs: 0, exits: 0, killing: false, deadline: false });

interface Container {
  name: string;
  image?: string;
  imagePullPolicy?: string;
  readinessProbe?: Json;
}

/** A stable size per image, as the registry would report it. */
const imageSize = (image: string): number => 2_000_000 + (Number.parseInt(hexId(`size:${image}`, 8), 16) % 150_000_000);

/** The message a failing probe of the stand-in gives: nothing answers on the pod's address. */
function probeFailure(probe: Json, podIP: string | undefined): string {
  const ip = podIP ?? '';
  const http = probe.httpGet as Json | undefined;
  if (http) {
    const scheme = String(http.scheme ?? 'HTTP').toLowerCase();
    return `Get "${scheme}://${ip}:${String(http.port)}${String(http.path ?? '/')}": dial tcp ${ip}:${String(http.port)}: connect: connection refused`;
  }
  const tcp = probe.tcpSocket as Json | undefined;
  if (tcp) return `dial tcp ${ip}:${String(tcp.port)}: connect: connection refused`;
  const grpc = probe.grpc as Json | undefined;
  if (grpc) return `timeout: failed to connect service "${ip}:${String(grpc.port)}" within 1s`;
  return '';
}

export class KubeletEvents {
  private readonly ctx: ControllerContext;
  private readonly recorders = new Map<string, EventRecorder>();
  /** The images each node has pulled. */
  private readonly images = new Map<string, Set<string>>();

  constructor(ctx: ControllerContext) {
    this.ctx = ctx;
  }

  private recorderFor(node: string): EventRecorder {
    let recorder = this.recorders.get(node);
    if (!recorder) this.recorders.set(node, (recorder = kubeletRecorder(this.ctx, node)));
    return recorder;
  }

  /**
   * Records what happened to the pod since the cursor, up to `now`; answers when to look again
   * for something only the kubelet notices (the next failing readiness probe).
   */
  report(pod: KubeObject, cursor: EventCursor, place: { node: string; behavior: PodBehavior; acceptedAt: number; podIP?: string }, now: number): number | undefined {
    if (!this.ctx.events) return undefined;
    const recorder = this.recorderFor(place.node);
    const containers = ((specOf(pod).containers as Container[] | undefined) ?? []).filter((c) => typeof c?.name === 'string');
    const emit = (type: EventType, reason: string, message: string, at: number, container?: Container) =>
      recorder.event(pod, type, reason, message, { at, ...(container ? { fieldPath: `spec.containers{${container.name}}` } : {}) });
    if (!cursor.accepted) {
      cursor.accepted = true;
      const present = this.images.get(place.node) ?? new Set<string>();
      this.images.set(place.node, present);
      for (const c of containers) {
        const image = c.image ?? '';
        if (c.imagePullPolicy === 'Never' || (c.imagePullPolicy !== 'Always' && present.has(image))) continue;
        present.add(image);
        cursor.pulled.add(c.name);
        emit('Normal', 'Pulling', `Pulling image ${JSON.stringify(image)}`, place.acceptedAt, c);
      }
    }
    const runs: Run[] = [];
    const life = lifeAt(pod, place.behavior, place.acceptedAt, now, runs);
    for (; cursor.runs < runs.length; cursor.runs++) {
      const run = runs[cursor.runs]!;
      for (const c of containers) this.started(emit, c, cursor, run, cursor.runs, place.acceptedAt);
    }
    for (; cursor.exits < runs.length && runs[cursor.exits]!.exit; cursor.exits++) {
      const run = runs[cursor.exits]!;
      // A container that is restarted after a back-off: the kubelet's sync finds it waiting (kuberuntime_manager.go doBackOff).
      if (!run.backoffMs) continue;
      for (const c of containers) {
        emit('Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${pod.metadata!.name}_${pod.metadata!.namespace}(${pod.metadata!.uid})`, run.exit!.finishedAt, c);
      }
    }
    if (life.now.stage === 'finished' && life.now.deadlineExceeded && !cursor.deadline) {
      cursor.deadline = true;
      const at = life.now.last.finishedAt;
      emit('Normal', 'DeadlineExceeded', 'Pod was active on the node longer than the specified deadline', at);
      for (const c of containers) emit('Normal', 'Killing', `Stopping container ${c.name}`, at, c);
    }
    return this.probe(emit, pod, containers, cursor, runs, place, now);
  }

  /** A pod deleted gracefully: its running containers are stopped (killContainer's Killing). */
  stopping(pod: KubeObject, cursor: EventCursor, place: { node: string; behavior: PodBehavior; acceptedAt: number }, now: number): void {
    if (!this.ctx.events || cursor.killing) return;
    cursor.killing = true;
    if (lifeAt(pod, place.behavior, place.acceptedAt, now).now.stage !== 'running') return;
    const recorder = this.recorderFor(place.node);
    for (const c of (specOf(pod).containers as Container[] | undefined) ?? []) {
      recorder.event(pod, 'Normal', 'Killing', `Stopping container ${c.name}`, { at: now, fieldPath: `spec.containers{${c.name}}` });
    }
  }

  /** A run's start: the image (pulled for it, or present), then Created and Started, per container. */
  private started(emit: (type: EventType, reason: string, message: string, at: number, container?: Container) => void, c: Container, cursor: EventCursor, run: Run, index: number, acceptedAt: number): void {
    const image = c.image ?? '';
    const pulledFor = index === 0 ? cursor.pulled.has(c.name) : c.imagePullPolicy === 'Always';
    if (index > 0 && pulledFor) emit('Normal', 'Pulling', `Pulling image ${JSON.stringify(image)}`, run.startedAt, c);
    if (pulledFor) {
      const took = goDurationString(index === 0 ? run.startedAt - acceptedAt : 0);
      emit('Normal', 'Pulled', `Successfully pulled image ${JSON.stringify(image)} in ${took} (${took} including waiting). Image size: ${imageSize(image)} bytes.`, run.startedAt, c);
    } else {
      // EnsureImageExists: an image it need not pull (IfNotPresent and present, or Never) is reported present.
      emit('Normal', 'Pulled', `Container image ${JSON.stringify(image)} already present on machine and can be accessed by the pod`, run.startedAt, c);
    }
    emit('Normal', 'Created', 'Container created', run.startedAt, c);
    emit('Normal', 'Started', 'Container started', run.startedAt, c);
  }

  /**
   * A container programmed never to become ready with a readiness probe: the probe fails from
   * its initialDelaySeconds, every periodSeconds, while the run lasts (Unhealthy, aggregated by
   * the correlator into one event whose count rises).
   */
  private probe(
    emit: (type: EventType, reason: string, message: string, at: number, container?: Container) => void,
    pod: KubeObject,
    containers: Container[],
    cursor: EventCursor,
    runs: Run[],
    place: { behavior: PodBehavior; podIP?: string },
    now: number,
  ): number | undefined {
    if (place.behavior.ready !== false || pod.metadata?.deletionTimestamp || runs.length === 0) return undefined;
    const probed = containers.filter((c) => c.readinessProbe && typeof c.readinessProbe === 'object');
    if (probed.length === 0) return undefined;
    const index = runs.length - 1;
    const run = runs[index]!;
    const period = Math.max(1, numberOr(probed[0]!.readinessProbe!.periodSeconds, 10)) * 1000;
    if (cursor.probe?.run !== index) cursor.probe = { run: index, at: run.startedAt + Math.max(0, numberOr(probed[0]!.readinessProbe!.initialDelaySeconds, 0)) * 1000 };
    const end = run.exit?.finishedAt ?? Infinity;
    while (cursor.probe.at <= now && cursor.probe.at < end) {
      for (const c of probed) emit('Warning', 'Unhealthy', `Readiness probe failed: ${probeFailure(c.readinessProbe!, place.podIP)}`, cursor.probe.at, c);
      cursor.probe.at += period;
    }
    return cursor.probe.at < end ? cursor.probe.at : undefined;
  }
}
