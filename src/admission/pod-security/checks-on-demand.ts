// The PodSecurity checks (the evaluator with its baseline and restricted checks, and the namespace
// dry run over its pods) load with the first write that needs them evaluated, not with kubefake:
// with the default policy (privileged everywhere) no write needs them, and most tests never label
// a namespace. One import shared by concurrent first callers (concurrent import()s break Jest's ESM
// runtime, jestjs/jest#11434).
import type { Evaluator } from './evaluator.ts';

export interface PodSecurityChecks {
  evaluator: typeof import('./evaluator.ts');
  namespacePods: typeof import('./namespace-pods.ts');
}

let loading: Promise<PodSecurityChecks> | undefined;
let loaded: PodSecurityChecks | undefined;

async function load(): Promise<PodSecurityChecks> {
  const evaluator = await import('./evaluator.ts');
  const namespacePods = await import('./namespace-pods.ts');
  return (loaded = { evaluator, namespacePods });
}

/**
 * Runs `run` with the checks and one Evaluator per caller (created on first use): synchronously
 * once they are loaded, after loading them the first time.
 */
export function withPodSecurityChecks(state: { evaluator?: Evaluator }, run: (checks: PodSecurityChecks, evaluator: Evaluator) => void): void | Promise<void> {
  const go = (checks: PodSecurityChecks) => run(checks, (state.evaluator ??= new checks.evaluator.Evaluator()));
  if (loaded) return go(loaded);
  return (loading ??= load()).then(go);
}
