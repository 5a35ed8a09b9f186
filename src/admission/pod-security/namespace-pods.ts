// What labeling a namespace with a stricter enforce level answers about the pods already in it
// (admission.go EvaluatePodsInNamespace, prioritizePods, decoratePodWarnings; v0.36.2). The
// real plugin also stops after one second; kubefake checks every pod up to the same count limit.
import type { KubeObject } from '../../apis/object.ts';
import { goQuote } from '../../errors/go-format.ts';
import { compareGoStrings } from '../../selectors/go-strings.ts';
import { levelVersionString, type LevelVersion } from './api.ts';
import { forbiddenReason, type Evaluator } from './evaluator.ts';
import { podSpecOf } from './pod-specs.ts';

/** defaultNamespaceMaxPodsToCheck. */
export const NAMESPACE_MAX_PODS_TO_CHECK = 3000;

/**
 * prioritizePods: one pod per controller first (the others of the same controller after all of
 * those), so the count limit spends itself on distinct pod templates.
 */
function prioritizePods(pods: readonly KubeObject[]): KubeObject[] {
  const first: KubeObject[] = [];
  const duplicates: KubeObject[] = [];
  const seenControllers = new Set<string>();
  for (const pod of pods) {
    const controller = pod.metadata?.ownerReferences?.find((ref) => ref.controller === true);
    if (!controller) first.push(pod);
    else if (seenControllers.has(controller.uid)) duplicates.push(pod);
    else {
      first.push(pod);
      seenControllers.add(controller.uid);
    }
  }
  return [...first, ...duplicates];
}

/**
 * The warnings: a count line when not every pod was checked, a headline when any violates, then
 * one line per distinct violation (the short reasons), led by the lexically first pod's name and
 * how many others share it, sorted.
 */
export function evaluatePodsInNamespace(evaluator: Evaluator, namespace: string, enforce: LevelVersion, pods: readonly KubeObject[]): string[] {
  const prioritized = prioritizePods(pods);
  const checked = prioritized.slice(0, NAMESPACE_MAX_PODS_TO_CHECK);
  const byWarning = new Map<string, { podName: string; count: number }>();
  for (const pod of checked) {
    const { metadata, spec } = podSpecOf(pod);
    const result = evaluator.evaluate(enforce, metadata, spec);
    if (result.allowed) continue;
    const warning = forbiddenReason(result);
    const name = pod.metadata?.name ?? '';
    const seen = byWarning.get(warning);
    if (!seen) byWarning.set(warning, { podName: name, count: 1 });
    else {
      if (compareGoStrings(name, seen.podName) < 0) seen.podName = name;
      seen.count++;
    }
  }
  const warnings: string[] = [];
  if (checked.length < prioritized.length) {
    warnings.push(`new PodSecurity enforce level only checked against the first ${checked.length} of ${prioritized.length} existing pods`);
  }
  if (byWarning.size) {
    warnings.push(`existing pods in namespace ${goQuote(namespace)} violate the new PodSecurity enforce level ${goQuote(levelVersionString(enforce))}`);
  }
  const podWarnings = [...byWarning].map(([warning, { podName, count }]) => {
    if (count === 1) return `${podName}: ${warning}`;
    if (count === 2) return `${podName} (and 1 other pod): ${warning}`;
    return `${podName} (and ${count - 1} other pods): ${warning}`;
  });
  return [...warnings, ...podWarnings.sort(compareGoStrings)];
}
