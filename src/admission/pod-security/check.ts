// What a Pod Security check is and the wording helpers every check shares
// (pod-security-admission/policy/checks.go and helpers.go).
import { compareGoStrings } from '../../selectors/go-strings.ts';
import type { PodMetadataView, PodSpecView } from './pod-view.ts';

/** One check's verdict on a pod; a forbidden one says why, briefly, and optionally in detail. */
export type CheckResult = { allowed: true } | { allowed: false; forbiddenReason: string; forbiddenDetail: string };

export const ALLOWED: CheckResult = { allowed: true };

export const forbidden = (forbiddenReason: string, forbiddenDetail = ''): CheckResult => ({ allowed: false, forbiddenReason, forbiddenDetail });

export type CheckPod = (metadata: PodMetadataView, spec: PodSpecView) => CheckResult;

export interface VersionedCheck {
  /** The first policy version (v1.<minor>) this revision of the check applies to. */
  minimumMinor: number;
  checkPod: CheckPod;
  /** Baseline checks this (restricted) revision replaces. */
  overrides?: readonly string[];
}

export interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  /** Revisions in increasing minimumMinor. */
  versions: readonly VersionedCheck[];
}

/** joinQuote: `"a", "b"` (plain quotes, no escaping). */
export function joinQuote(items: readonly string[]): string {
  return items.length ? `"${items.join('", "')}"` : '';
}

export const pluralize = (singular: string, plural: string, count: number): string => (count === 1 ? singular : plural);

/** sets.NewString(...).List(): the distinct values, sorted. */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareGoStrings);
}
