// Which checks a level and version run, in which order, and how their verdicts read together
// (pod-security-admission/policy/registry.go and checks.go, v0.36.2).
import { compareGoStrings } from '../../selectors/go-strings.ts';
import type { LevelVersion } from './api.ts';
import { BASELINE_CHECKS } from './baseline-checks.ts';
import type { Check, CheckPod, CheckResult } from './check.ts';
import type { PodMetadataView, PodSpecView } from './pod-view.ts';
import { RESTRICTED_CHECKS } from './restricted-checks.ts';

/** The verdicts of every check of a level on one pod. */
export interface AggregateCheckResult {
  allowed: boolean;
  forbiddenReasons: string[];
  /** One per reason; '' where a check gave no detail. */
  forbiddenDetails: string[];
}

/** AggregateCheckResults: the forbidden verdicts, in check order. */
export function aggregateCheckResults(results: readonly CheckResult[]): AggregateCheckResult {
  const forbiddenReasons: string[] = [];
  const forbiddenDetails: string[] = [];
  for (const result of results) {
    if (result.allowed) continue;
    forbiddenReasons.push(result.forbiddenReason || 'unknown forbidden reason');
    forbiddenDetails.push(result.forbiddenDetail);
  }
  return { allowed: forbiddenReasons.length === 0, forbiddenReasons, forbiddenDetails };
}

/** `host ports, privileged`: what namespace-wide checks report per pod. */
export const forbiddenReason = (a: AggregateCheckResult): string => a.forbiddenReasons.join(', ');

/** `hostPort (container "c" uses hostPort 80), privileged (...)`: what a single pod's answer says. */
export function forbiddenDetail(a: AggregateCheckResult): string {
  return a.forbiddenReasons.map((reason, i) => (a.forbiddenDetails[i] ? `${reason} (${a.forbiddenDetails[i]})` : reason)).join(', ');
}

/**
 * The checks of each level per policy version, precomputed as checkRegistry's populate does:
 * versions above the newest one any check names (and `latest`) run that newest set; a restricted
 * check's overrides remove the baseline checks it replaces; baseline checks run first, each group
 * in the order of its IDs.
 */
export class Evaluator {
  private readonly baseline: CheckPod[][] = [];
  private readonly restricted: CheckPod[][] = [];
  /** The newest minor version any check names (v1.35 in v0.36.2). */
  readonly maxMinor: number;

  constructor(checks: readonly Check[] = [...BASELINE_CHECKS, ...RESTRICTED_CHECKS]) {
    this.maxMinor = Math.max(...checks.map((c) => c.versions[c.versions.length - 1]!.minimumMinor));
    const byId = (a: Check, b: Check) => compareGoStrings(a.id, b.id);
    const ordered = [...checks.filter((c) => c.level === 'baseline').sort(byId), ...checks.filter((c) => c.level === 'restricted').sort(byId)];
    const revisionAt = (check: Check, minor: number) => check.versions.filter((v) => v.minimumMinor <= minor).at(-1);
    for (let minor = 0; minor <= this.maxMinor; minor++) {
      const overridden = new Set<string>();
      for (const check of ordered) if (check.level === 'restricted') for (const id of revisionAt(check, minor)?.overrides ?? []) overridden.add(id);
      const baseline: CheckPod[] = [];
      const restricted: CheckPod[] = [];
      for (const check of ordered) {
        const revision = revisionAt(check, minor);
        if (!revision) continue;
        if (check.level === 'baseline') baseline.push(revision.checkPod);
        if (check.level === 'restricted' || !overridden.has(check.id)) restricted.push(revision.checkPod);
      }
      this.baseline.push(baseline);
      this.restricted.push(restricted);
    }
  }

  /** EvaluatePod: every check of the level at the version (none for privileged). */
  evaluatePod(lv: LevelVersion, metadata: PodMetadataView, spec: PodSpecView): CheckResult[] {
    if (lv.level === 'privileged') return [];
    const minor = lv.version.latest ? this.maxMinor : Math.min(lv.version.minor, this.maxMinor);
    const checks = (lv.level === 'baseline' ? this.baseline : this.restricted)[minor]!;
    return checks.map((check) => check(metadata, spec));
  }

  /** The aggregate verdict of the level at the version. */
  evaluate(lv: LevelVersion, metadata: PodMetadataView, spec: PodSpecView): AggregateCheckResult {
    return aggregateCheckResults(this.evaluatePod(lv, metadata, spec));
  }
}
