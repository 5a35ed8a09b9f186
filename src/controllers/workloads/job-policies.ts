// What a Job's policies make of its pods (pkg/controller/job/pod_failure_policy.go,
// success_policy.go, backoff_utils.go): which podFailurePolicy rule a failed pod matches and what
// follows, whether the succeeded indexes meet a successPolicy rule, and when a pod finished.
import type { KubeObject } from '../../apis/object.ts';
import { countIndexes, parseIndexes, type Interval } from './job-indexes.ts';
import { numberOr, statusOf, type Json } from './objects.ts';

export type FailureAction = 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';

export interface FailureMatch {
  /** The FailureTarget message of a FailJob rule. */
  failJobMessage?: string;
  /** Whether the failure counts toward backoffLimit (and backoffLimitPerIndex): not for Ignore. */
  countFailed: boolean;
  action?: FailureAction;
}

const terminatedOf = (status: Json): Json | undefined => ((status.state as Json | undefined)?.terminated as Json | undefined) ?? undefined;

/**
 * matchPodFailurePolicy: the first rule the failed pod matches decides. An onExitCodes rule matches
 * the first terminated container (regular ones, then init containers) with a non-zero exit code
 * the operator accepts; an onPodConditions rule the first pod condition of a pattern's type and
 * status. A rule whose action is unknown is passed over.
 */
export function matchPodFailurePolicy(policy: Json | undefined, pod: KubeObject): FailureMatch {
  if (!policy) return { countFailed: true };
  const rules = (policy.rules as Json[] | undefined) ?? [];
  const status = statusOf(pod);
  const where = `${pod.metadata?.namespace}/${pod.metadata?.name}`;
  for (const [index, rule] of rules.entries()) {
    const action = rule.action as string;
    let failJobMessage: string | undefined;
    if (rule.onExitCodes) {
      const container = matchOnExitCodes(status, rule.onExitCodes as Json);
      if (!container) continue;
      failJobMessage = `Container ${container.name} for pod ${where} failed with exit code ${numberOr(terminatedOf(container)!.exitCode, 0)} matching ${action} rule at index ${index}`;
    } else if (rule.onPodConditions) {
      const condition = matchOnPodConditions(status, rule.onPodConditions as Json[]);
      if (!condition) continue;
      failJobMessage = `Pod ${where} has condition ${condition.type} matching ${action} rule at index ${index}`;
    } else continue;
    switch (action) {
      case 'Ignore':
        return { countFailed: false, action };
      case 'FailIndex':
      case 'Count':
        return { countFailed: true, action };
      case 'FailJob':
        return { failJobMessage, countFailed: true, action };
    }
  }
  return { countFailed: true };
}

function matchOnExitCodes(status: Json, requirement: Json): Json | undefined {
  return matchingContainer((status.containerStatuses as Json[] | undefined) ?? [], requirement) ?? matchingContainer((status.initContainerStatuses as Json[] | undefined) ?? [], requirement);
}

/** A container that exited with 0 never matches, whatever the operator. */
function matchingContainer(statuses: Json[], requirement: Json): Json | undefined {
  const values = ((requirement.values as number[] | undefined) ?? []).map(Number);
  for (const container of statuses) {
    const terminated = terminatedOf(container);
    if (!terminated) continue;
    if (typeof requirement.containerName === 'string' && requirement.containerName !== container.name) continue;
    const code = numberOr(terminated.exitCode, 0);
    if (code === 0) continue;
    if (requirement.operator === 'In' ? values.includes(code) : requirement.operator === 'NotIn' ? !values.includes(code) : false) return container;
  }
  return undefined;
}

function matchOnPodConditions(status: Json, patterns: Json[]): Json | undefined {
  for (const condition of (status.conditions as Json[] | undefined) ?? []) {
    if (patterns.some((p) => p.type === condition.type && p.status === condition.status)) return condition;
  }
  return undefined;
}

/**
 * matchSuccessPolicy: the message of the first rule the succeeded indexes meet. A succeededIndexes
 * rule is met when all its indexes succeeded, or succeededCount of them; a succeededCount rule
 * alone when that many indexes succeeded at all.
 */
export function matchSuccessPolicy(policy: Json | undefined, completions: number, succeeded: readonly Interval[]): string | undefined {
  if (!policy || succeeded.length === 0) return undefined;
  const rules = (policy.rules as Json[] | undefined) ?? [];
  for (const [index, rule] of rules.entries()) {
    const count = typeof rule.succeededCount === 'number' ? rule.succeededCount : undefined;
    if (typeof rule.succeededIndexes === 'string') {
      const required = parseIndexes(rule.succeededIndexes, completions);
      if (required.length === 0) continue;
      const contained = overlapCount(required, succeeded);
      if (contained === countIndexes(required) || (count !== undefined && contained >= count)) return `Matched rules at index ${index}`;
    } else if (count !== undefined && countIndexes(succeeded) >= count) return `Matched rules at index ${index}`;
  }
  return undefined;
}

/** How many indexes two sets of ordered intervals share. */
function overlapCount(a: readonly Interval[], b: readonly Interval[]): number {
  let n = 0;
  for (const x of a) for (const y of b) n += Math.max(0, Math.min(x.last, y.last) - Math.max(x.first, y.first) + 1);
  return n;
}

/**
 * getFinishedTime (epoch ms): the latest finish of the containers when all have terminated, else
 * when Ready turned False, else the deletion time less its grace period, else its creation.
 */
export function podFinishedTime(pod: KubeObject): number {
  const status = statusOf(pod);
  const containers = (status.containerStatuses as Json[] | undefined) ?? [];
  let latest: number | undefined;
  let allDone = containers.length > 0;
  for (const c of containers) {
    const at = Date.parse(String(terminatedOf(c)?.finishedAt ?? ''));
    if (!Number.isFinite(at)) {
      allDone = false;
      break;
    }
    latest = Math.max(latest ?? at, at);
  }
  if (allDone && latest !== undefined) return latest;
  const ready = ((status.conditions as Json[] | undefined) ?? []).find((c) => c.type === 'Ready');
  const readyFalseAt = ready?.status === 'False' ? Date.parse(String(ready.lastTransitionTime ?? '')) : NaN;
  if (Number.isFinite(readyFalseAt)) return readyFalseAt;
  const deletion = Date.parse(pod.metadata?.deletionTimestamp ?? '');
  if (Number.isFinite(deletion)) return deletion - numberOr(pod.metadata?.deletionGracePeriodSeconds, 0) * 1000;
  return Date.parse(pod.metadata?.creationTimestamp ?? '') || 0;
}

/** getRemainingTimeForFailuresCount: how long (ms) the back-off after `failures` failures still runs; 10 s doubling, at most 6 minutes. */
export function remainingBackoffMs(failures: number, lastFailureAt: number | undefined, now: number): number {
  if (failures <= 0 || lastFailureAt === undefined) return 0;
  let backoff = 10_000;
  for (let i = 1; i < failures; i++) {
    backoff *= 2;
    if (backoff >= 360_000) {
      backoff = 360_000;
      break;
    }
  }
  const elapsed = now - lastFailureAt;
  return backoff < elapsed ? 0 : backoff - elapsed;
}
