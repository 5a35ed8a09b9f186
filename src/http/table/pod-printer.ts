// printPod (kubernetes pkg/printers/internalversion/printers.go) over a v1 Pod: the READY, STATUS
// and RESTARTS texts kubectl shows. The server always prints wide (GenerateOptions{Wide: true}).
import type { KubeObject } from '../../apis/object.ts';
import { parseRfc3339, ageSince } from './human-duration.ts';
import { arr, num, obj, str } from './format.ts';
import { column, type ColumnDefinition, type PrintedRow, type RowCondition } from './table-types.ts';
import { DOC, OBJECT_META_DOC } from './swagger-docs.ts';

export const POD_COLUMNS: ColumnDefinition[] = [
  column('Name', 'string', OBJECT_META_DOC.name, { format: 'name' }),
  column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
  column('Status', 'string', 'The aggregate status of the containers in this pod.'),
  column('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
  column('Age', 'string', OBJECT_META_DOC.creationTimestamp),
  column('IP', 'string', DOC.podStatusPodIP, { priority: 1 }),
  column('Node', 'string', DOC.podSpecNodeName, { priority: 1 }),
  column('Nominated Node', 'string', DOC.podStatusNominatedNodeName, { priority: 1 }),
  column('Readiness Gates', 'string', DOC.podSpecReadinessGates, { priority: 1 }),
];

const SUCCEEDED: RowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
const FAILED: RowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];

/** A restartable init container is a sidecar: restartPolicy Always. */
const isRestartable = (c: Record<string, unknown> | undefined): boolean => c?.restartPolicy === 'Always';

export function printPod(pod: KubeObject, now: Date): PrintedRow {
  const spec = obj(pod.spec);
  const status = obj(pod.status);
  const conditions = arr(status.conditions).map(obj);
  const initSpecs = new Map(arr(spec.initContainers).map(obj).map((c) => [str(c.name), c]));

  let restarts = 0;
  let restartableRestarts = 0;
  let totalContainers = arr(spec.containers).length;
  let readyContainers = 0;
  let lastRestart = 0; // 0 = Go's zero time (never restarted)
  let lastRestartableRestart = 0;

  const phase = str(status.phase);
  let reason = status.reason ? str(status.reason) : phase;
  for (const c of conditions) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }
  const rowConditions = phase === 'Succeeded' ? SUCCEEDED : phase === 'Failed' ? FAILED : undefined;

  for (const c of initSpecs.values()) if (isRestartable(c)) totalContainers++;

  let initializing = false;
  const initStatuses = arr(status.initContainerStatuses).map(obj);
  for (let i = 0; i < initStatuses.length; i++) {
    const cs = initStatuses[i]!;
    const state = obj(cs.state);
    const terminated = state.terminated === undefined ? undefined : obj(state.terminated);
    const waiting = state.waiting === undefined ? undefined : obj(state.waiting);
    const finished = lastTerminatedAt(cs);
    restarts += num(cs.restartCount);
    if (finished !== undefined && lastRestart < finished) lastRestart = finished;
    const restartable = isRestartable(initSpecs.get(str(cs.name)));
    if (restartable) {
      restartableRestarts += num(cs.restartCount);
      if (finished !== undefined && lastRestartableRestart < finished) lastRestartableRestart = finished;
    }
    if (terminated && num(terminated.exitCode) === 0) continue;
    if (restartable && cs.started === true) {
      if (cs.ready === true) readyContainers++;
      continue;
    }
    if (terminated) {
      if (!str(terminated.reason)) {
        reason = num(terminated.signal) !== 0 ? `Init:Signal:${num(terminated.signal)}` : `Init:ExitCode:${num(terminated.exitCode)}`;
      } else reason = `Init:${str(terminated.reason)}`;
    } else if (waiting && str(waiting.reason) && waiting.reason !== 'PodInitializing') {
      reason = `Init:${str(waiting.reason)}`;
    } else {
      reason = `Init:${i}/${initSpecs.size}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || conditions.some((c) => c.type === 'Initialized' && c.status === 'True')) {
    restarts = restartableRestarts;
    lastRestart = lastRestartableRestart;
    let hasRunning = false;
    const statuses = arr(status.containerStatuses).map(obj);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i]!;
      const state = obj(cs.state);
      const terminated = state.terminated === undefined ? undefined : obj(state.terminated);
      const waiting = state.waiting === undefined ? undefined : obj(state.waiting);
      restarts += num(cs.restartCount);
      const finished = lastTerminatedAt(cs);
      if (finished !== undefined && lastRestart < finished) lastRestart = finished;
      if (waiting && str(waiting.reason)) reason = str(waiting.reason);
      else if (terminated && str(terminated.reason)) reason = str(terminated.reason);
      else if (terminated) {
        reason = num(terminated.signal) !== 0 ? `Signal:${num(terminated.signal)}` : `ExitCode:${num(terminated.exitCode)}`;
      } else if (cs.ready === true && state.running !== undefined) {
        hasRunning = true;
        readyContainers++;
      }
    }
    // A pod whose containers still report Running is not "Completed".
    if (reason === 'Completed' && hasRunning) {
      reason = conditions.some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
    }
  }

  const deleting = pod.metadata?.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
  if (deleting && status.reason === 'NodeLost') reason = 'Unknown';
  else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';

  let restartsText = String(restarts);
  if (restarts !== 0 && lastRestart !== 0) restartsText = `${restarts} (${ageSince(new Date(lastRestart).toISOString(), now)} ago)`;

  // Internal PodIPs: v1 podIPs, or podIP alone when podIPs is empty (the v1 conversion).
  const podIP = str(obj(arr(status.podIPs)[0]).ip) || str(status.podIP) || '<none>';
  const nodeName = str(spec.nodeName) || '<none>';
  const nominated = str(status.nominatedNodeName) || '<none>';
  let readinessGates = '<none>';
  const gates = arr(spec.readinessGates).map(obj);
  if (gates.length > 0) {
    let trueConditions = 0;
    for (const gate of gates) {
      const found = conditions.find((c) => c.type === gate.conditionType);
      if (found?.status === 'True') trueConditions++;
    }
    readinessGates = `${trueConditions}/${gates.length}`;
  }

  const cells = [
    str(pod.metadata?.name),
    `${readyContainers}/${totalContainers}`,
    reason,
    restartsText,
    ageSince(pod.metadata?.creationTimestamp, now) ?? '<invalid>',
    podIP,
    nodeName,
    nominated,
    readinessGates,
  ];
  return rowConditions ? { cells, conditions: rowConditions } : { cells };
}

/** lastState.terminated.finishedAt in epoch ms, if any (Go compares metav1.Time with Before). */
function lastTerminatedAt(cs: Record<string, unknown>): number | undefined {
  const last = obj(cs.lastState);
  if (last.terminated === undefined || last.terminated === null) return undefined;
  return parseRfc3339(obj(last.terminated).finishedAt) ?? 0;
}
