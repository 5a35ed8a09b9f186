// Where a pod the stand-in kubelet runs is in its life at a given instant, from when it was
// accepted, its restartPolicy and the behavior programmed for it: still creating its containers,
// running (ready or not yet), waiting out a restart back-off, or finished. Pure: the same inputs
// give the same answer, so the status written depends only on the clock.
import type { KubeObject } from '../../apis/object.ts';
import type { PodBehavior } from './kubelet-behavior.ts';
import { numberOr, specOf, type Json } from './objects.ts';

export type LifeStage =
  | { stage: 'creating' }
  | { stage: 'running'; restarts: number; startedAt: number; ready: boolean; last?: Exit }
  | { stage: 'backoff'; restarts: number; backoffMs: number; last: Exit }
  | { stage: 'finished'; restarts: number; last: Exit; deadlineExceeded?: boolean };

export interface Exit {
  startedAt: number;
  finishedAt: number;
  exitCode: number;
}

/** One run of the containers, for what the kubelet records about it: its start, and its exit and back-off once it ended. */
export interface Run {
  startedAt: number;
  exit?: Exit;
  /** The back-off before the next run (0: restarted at once); absent when it is not restarted. */
  backoffMs?: number;
}

export interface Life {
  now: LifeStage;
  /** When the stage next changes by itself (epoch ms), if ever. */
  nextChangeAt?: number;
}

/** The kubelet's crash back-off: none before the first restart, then 10 s doubling to 5 minutes. */
export const restartBackoffMs = (restarts: number): number => (restarts === 0 ? 0 : Math.min(10_000 * 2 ** (restarts - 1), 300_000));

/** The longest readiness probe initialDelaySeconds, in ms: how long a probed container takes to become ready. */
function probeDelayMs(pod: KubeObject): number {
  const containers = (specOf(pod).containers as Json[] | undefined) ?? [];
  return Math.max(0, ...containers.map((c) => numberOr((c.readinessProbe as Json | undefined)?.initialDelaySeconds, 0) * 1000));
}

/**
 * Where the pod is at `now`; a pod with spec.activeDeadlineSeconds that is still running when the
 * deadline passes is killed (the kubelet's activeDeadlineHandler): its containers end with 137.
 */
export function lifeAt(pod: KubeObject, behavior: PodBehavior, acceptedAt: number, now: number, runs?: Run[]): Life {
  const deadlineSeconds = specOf(pod).activeDeadlineSeconds;
  if (typeof deadlineSeconds !== 'number') return lifeUntil(pod, behavior, acceptedAt, now, runs);
  const deadline = acceptedAt + deadlineSeconds * 1000;
  if (now < deadline) {
    const life = lifeUntil(pod, behavior, acceptedAt, now, runs);
    return life.now.stage === 'finished' ? life : { now: life.now, nextChangeAt: Math.min(life.nextChangeAt ?? deadline, deadline) };
  }
  const atDeadline = lifeUntil(pod, behavior, acceptedAt, deadline, runs);
  if (atDeadline.now.stage === 'finished') return atDeadline;
  const startedAt = atDeadline.now.stage === 'running' ? atDeadline.now.startedAt : deadline;
  const restarts = atDeadline.now.stage === 'creating' ? 0 : atDeadline.now.restarts;
  return { now: { stage: 'finished', restarts, last: { startedAt, finishedAt: deadline, exitCode: 137 }, deadlineExceeded: true } };
}

/** Where the pod is at `now`; `runs`, when given, collects every run started by then. */
function lifeUntil(pod: KubeObject, behavior: PodBehavior, acceptedAt: number, now: number, runs?: Run[]): Life {
  const startAt = acceptedAt + Math.max(0, behavior.startAfter ?? 0);
  if (now < startAt) return { now: { stage: 'creating' }, nextChangeAt: startAt };
  const restartPolicy = (specOf(pod).restartPolicy as string | undefined) ?? 'Always';
  const runFor = Math.max(0, behavior.runFor ?? (behavior.crashLoop ? 0 : restartPolicy === 'Always' ? Infinity : 0));
  const exitCode = behavior.exitCode ?? (behavior.crashLoop ? 1 : 0);
  const restarts = restartPolicy === 'Always' || (restartPolicy === 'OnFailure' && exitCode !== 0);
  const readyAfter = Math.max(0, behavior.readyAfter ?? probeDelayMs(pod));
  let runStart = startAt;
  let last: Exit | undefined;
  for (let k = 0; ; k++) {
    const runEnd = runStart + runFor;
    const run: Run = { startedAt: runStart };
    runs?.push(run);
    if (now < runEnd) {
      const readyAt = runStart + readyAfter;
      const ready = behavior.ready !== false && now >= readyAt;
      const next = behavior.ready !== false && !ready ? Math.min(readyAt, runEnd) : runEnd;
      return { now: { stage: 'running', restarts: k, startedAt: runStart, ready, last }, nextChangeAt: Number.isFinite(next) ? next : undefined };
    }
    last = { startedAt: runStart, finishedAt: runEnd, exitCode };
    run.exit = last;
    if (!restarts) return { now: { stage: 'finished', restarts: k, last } };
    const backoffMs = restartBackoffMs(k);
    run.backoffMs = backoffMs;
    const nextStart = runEnd + backoffMs;
    if (now < nextStart) return { now: { stage: 'backoff', restarts: k, backoffMs, last }, nextChangeAt: nextStart };
    runStart = nextStart;
  }
}
