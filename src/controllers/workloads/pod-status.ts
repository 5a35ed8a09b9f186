// The status the kubelet reports for a pod at one stage of its life (pkg/kubelet/kubelet_pods.go
// generateAPIPodStatus and status/generate.go): phase, the five conditions in the kubelet's order,
// container statuses with containerd's ids, addresses and startTime. Transition times are kept
// from the previous status while a condition's status is unchanged.
import type { KubeObject } from '../../apis/object.ts';
import { formatTimestamp } from '../../go/time.ts';
import type { LifeStage } from './pod-lifecycle.ts';
import { hexId } from './nodes.ts';
import { specOf, statusOf, type Json } from './objects.ts';

export interface PodPlacement {
  hostIP: string;
  /** Assigned once the sandbox exists (containers started). */
  podIP?: string;
  /** When the kubelet accepted the pod (status.startTime), epoch ms. */
  acceptedAt: number;
}

/** How containerd reports an image reference: registry and library/ filled in, `:latest` when untagged. */
export function normalizedImage(image: string): string {
  let name = image;
  const first = name.split('/')[0]!;
  const hasRegistry = name.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (!hasRegistry) name = `docker.io/${name.includes('/') ? name : `library/${name}`}`;
  const lastPart = name.slice(name.lastIndexOf('/') + 1);
  if (!lastPart.includes(':') && !name.includes('@')) name += ':latest';
  return name;
}

const imageIds = new Map<string, string>();
/** A stable digest per image reference, as containerd reports the image it pulled. */
function imageIdOf(image: string): string {
  let id = imageIds.get(image);
  if (id === undefined) {
    const normalized = normalizedImage(image);
    id = `${normalized.replace(/:[^:/@]+$/, '').replace(/@.*$/, '')}@sha256:${hexId(`image:${normalized}`, 64)}`;
    if (imageIds.size < 10_000) imageIds.set(image, id);
  }
  return id;
}
const containerIdOf = (pod: KubeObject, container: string, restarts: number): string => `containerd://${hexId(`${pod.metadata!.uid}/${container}/${restarts}`, 64)}`;
const at = (ms: number) => formatTimestamp(new Date(ms));

export function podStatusAt(pod: KubeObject, life: LifeStage, placement: PodPlacement, now: Date): Json {
  const old = statusOf(pod);
  const spec = specOf(pod);
  const containers = ((spec.containers as Json[] | undefined) ?? []).map((c) => ({ name: String(c.name), image: String(c.image ?? '') }));
  const initContainers = ((spec.initContainers as Json[] | undefined) ?? []).map((c) => ({ name: String(c.name), image: String(c.image ?? '') }));
  const podName = `${pod.metadata!.name}_${pod.metadata!.namespace}(${pod.metadata!.uid})`;
  const started = life.stage !== 'creating';
  const finished = life.stage === 'finished';

  const containerStatus = (c: { name: string; image: string }): Json => {
    const base = { image: normalizedImage(c.image), imageID: started ? imageIdOf(c.image) : '', name: c.name };
    const terminated = (exit: { startedAt: number; finishedAt: number; exitCode: number }, restarts: number) => ({
      terminated: { exitCode: exit.exitCode, reason: exit.exitCode === 0 ? 'Completed' : 'Error', startedAt: at(exit.startedAt), finishedAt: at(exit.finishedAt), containerID: containerIdOf(pod, c.name, restarts) },
    });
    switch (life.stage) {
      case 'creating':
        return { ...base, lastState: {}, ready: false, restartCount: 0, started: false, state: { waiting: { reason: initContainers.length ? 'PodInitializing' : 'ContainerCreating' } } };
      case 'running':
        return {
          containerID: containerIdOf(pod, c.name, life.restarts),
          ...base,
          lastState: life.last ? terminated(life.last, life.restarts - 1) : {},
          ready: life.ready,
          restartCount: life.restarts,
          started: true,
          state: { running: { startedAt: at(life.startedAt) } },
        };
      case 'backoff':
        return {
          containerID: containerIdOf(pod, c.name, life.restarts),
          ...base,
          lastState: terminated(life.last, life.restarts),
          ready: false,
          restartCount: life.restarts,
          started: false,
          state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off ${life.backoffMs / 1000}s restarting failed container=${c.name} pod=${podName}` } },
        };
      case 'finished':
        return { containerID: containerIdOf(pod, c.name, life.restarts), ...base, lastState: {}, ready: false, restartCount: life.restarts, started: false, state: terminated(life.last, life.restarts) };
    }
  };

  const initStatus = (c: { name: string; image: string }, i: number): Json => {
    const base = { image: normalizedImage(c.image), imageID: started ? imageIdOf(c.image) : '', name: c.name, lastState: {}, ready: started, restartCount: 0 };
    if (!started) return { ...base, started: false, state: i === 0 ? { waiting: { reason: 'PodInitializing' } } : { waiting: { reason: 'PodInitializing' } } };
    const t = placement.acceptedAt;
    return { containerID: containerIdOf(pod, c.name, 0), ...base, ready: true, started: false, state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: at(t), finishedAt: at(t), containerID: containerIdOf(pod, c.name, 0) } } };
  };

  const statuses = containers.map(containerStatus);
  const unready = statuses.filter((s) => s.ready !== true).map((s) => s.name as string);
  const phase = finished ? (life.last.exitCode === 0 ? 'Succeeded' : 'Failed') : started ? 'Running' : 'Pending';
  const generation = pod.metadata?.generation;
  const oldConditions = (old.conditions as Json[] | undefined) ?? [];
  const condition = (type: string, ok: boolean, reason?: string, message?: string): Json => {
    const previous = oldConditions.find((c) => c.type === type);
    const status = ok ? 'True' : 'False';
    return {
      type,
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
      status,
      lastProbeTime: null,
      lastTransitionTime: previous?.status === status ? previous.lastTransitionTime : formatTimestamp(now),
      ...(reason ? { reason } : {}),
      ...(message ? { message } : {}),
    };
  };
  const notReadyMessage = `containers with unready status: [${unready.join(' ')}]`;
  const conditions: Json[] = [
    condition('PodReadyToStartContainers', started && !finished),
    finished
      ? condition('Initialized', true, 'PodCompleted')
      : started || initContainers.length === 0
        ? condition('Initialized', true)
        : condition('Initialized', false, 'ContainersNotInitialized', `containers with incomplete status: [${initContainers.map((c) => c.name).join(' ')}]`),
    finished ? condition('Ready', false, 'PodCompleted') : unready.length ? condition('Ready', false, 'ContainersNotReady', notReadyMessage) : condition('Ready', true),
    finished ? condition('ContainersReady', false, 'PodCompleted') : unready.length ? condition('ContainersReady', false, 'ContainersNotReady', notReadyMessage) : condition('ContainersReady', true),
    ...oldConditions.filter((c) => !['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady'].includes(String(c.type))),
  ];
  const podIP = started && !finished ? placement.podIP : (old.podIP as string | undefined);
  // pkg/kubelet/active_deadline.go: the reason and message of a pod killed at its deadline.
  const deadline = life.stage === 'finished' && life.deadlineExceeded ? { message: 'Pod was active on the node longer than the specified deadline', reason: 'DeadlineExceeded' } : {};
  return {
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
    phase,
    conditions,
    ...deadline,
    hostIP: placement.hostIP,
    hostIPs: [{ ip: placement.hostIP }],
    ...(podIP ? { podIP, podIPs: [{ ip: podIP }] } : {}),
    startTime: old.startTime ?? at(placement.acceptedAt),
    ...(initContainers.length ? { initContainerStatuses: initContainers.map(initStatus) } : {}),
    containerStatuses: statuses,
    ...(old.qosClass !== undefined ? { qosClass: old.qosClass } : {}),
    ...Object.fromEntries(Object.entries(old).filter(([k]) => !KUBELET_FIELDS.has(k))),
  };
}

/** The status fields the kubelet owns; others (nominatedNodeName, resize, ...) are kept as stored. */
const KUBELET_FIELDS = new Set(['observedGeneration', 'phase', 'conditions', 'hostIP', 'hostIPs', 'podIP', 'podIPs', 'startTime', 'initContainerStatuses', 'containerStatuses', 'qosClass', 'message', 'reason']);
