// matchLabelKeys / mismatchLabelKeys of pod (anti-)affinity terms and topology spread constraints,
// as kube-apiserver v1.36 serves them with its default gates (MatchLabelKeysInPodAffinity GA,
// MatchLabelKeysInPodTopologySpread and MatchLabelKeysInPodTopologySpreadSelectorMerge on):
// - on Pod create the keys' values from the pod's own labels are merged into the term's
//   labelSelector as `key In (value)` / `key NotIn (value)` requirements (pkg/registry/core/pod/
//   strategy.go mutatePodAffinity, mutateTopologySpreadConstraints, run in PrepareForCreate, before
//   validation); templates are never merged;
// - validation (pkg/apis/core/validation/validation.go validateMatchLabelKeysAndMismatchLabelKeys,
//   used for topology spread too once SelectorMerge is on, see pkg/api/pod/util.go): label-name keys,
//   no keys without a labelSelector, a matchLabelKeys key that meets a selector requirement already
//   holding that key, and a key in both lists. Go's quirks are kept: the "both in matchLabelKeys and
//   labelSelector" error is reported at `<term>[i]` (fldPath.Index), and only a matchExpressions
//   entry that repeats a key seen before (in matchLabels or an earlier expression) counts, since the
//   merged requirement itself is expected there.
// Not ported: the legacy topology-spread rule an update falls back to when the stored pod fails the
// current one (OldPodViolatesMatchLabelKeysValidation); pods stored here always passed it.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { validateLabelName } from '../../validation/meta-fields.ts';
import { isPlainObject, type KubeObject } from '../object.ts';
import { asObject } from './shared.ts';

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((e) => (typeof e === 'string' ? e : String(e))) : []);
const hasSelector = (v: unknown): boolean => v !== undefined && v !== null;

/** validateLabelKeys: label names, and none at all without a selector. */
function validateLabelKeys(keys: string[], selector: unknown, path: string): FieldError[] {
  if (keys.length === 0) return [];
  if (!hasSelector(selector)) return [fieldError.forbidden(path, 'must not be specified when labelSelector is not set')];
  return keys.flatMap((key, i) => validateLabelName(key, `${path}[${i}]`));
}

/** ValidateMatchLabelKeysAndMismatchLabelKeys; `path` is the term's (or constraint's) own path. */
export function validateMatchLabelKeys(path: string, matchLabelKeys: unknown, mismatchLabelKeys: unknown, labelSelector: unknown): FieldError[] {
  const match = strings(matchLabelKeys);
  const mismatch = strings(mismatchLabelKeys);
  const errs = [...validateLabelKeys(match, labelSelector, `${path}.matchLabelKeys`), ...validateLabelKeys(mismatch, labelSelector, `${path}.mismatchLabelKeys`)];
  const selector = asObject(labelSelector);
  if (selector) {
    // Keyed by label key, valued by its (last) index in matchLabelKeys, as Go's map is.
    const index = new Map<string, number>();
    match.forEach((key, i) => index.set(key, i));
    const seen = new Set(Object.keys(asObject(selector.matchLabels) ?? {}));
    for (const expr of list(selector.matchExpressions)) {
      const key = typeof expr.key === 'string' ? expr.key : '';
      const i = index.get(key);
      if (i !== undefined && seen.has(key)) errs.push(fieldError.invalid(`${path}[${i}]`, key, 'exists in both matchLabelKeys and labelSelector'));
      seen.add(key);
    }
  }
  const mismatchSet = new Set(mismatch);
  match.forEach((key, i) => {
    if (mismatchSet.has(key)) errs.push(fieldError.invalid(`${path}.matchLabelKeys[${i}]`, key, 'exists in both matchLabelKeys and mismatchLabelKeys'));
  });
  return errs;
}

/** applyLabelKeysToLabelSelector: one requirement per key the pod has a label for. */
function applyLabelKeys(selector: Json, keys: string[], operator: 'In' | 'NotIn', labels: Record<string, string>): void {
  for (const key of keys) {
    if (!Object.hasOwn(labels, key)) continue;
    const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : (selector.matchExpressions = []);
    (exprs as unknown[]).push({ key, operator, values: [labels[key]] });
  }
}

/** applyMatchLabelKeysAndMismatchLabelKeys / applyMatchLabelKeys on one term. */
function mergeTerm(term: Json, labels: Record<string, string>, withMismatch: boolean): void {
  const match = strings(term.matchLabelKeys);
  const mismatch = withMismatch ? strings(term.mismatchLabelKeys) : [];
  const selector = asObject(term.labelSelector);
  // A nil selector matches nothing; there is nothing to narrow.
  if ((match.length === 0 && mismatch.length === 0) || !selector) return;
  applyLabelKeys(selector, match, 'In', labels);
  applyLabelKeys(selector, mismatch, 'NotIn', labels);
}

/** mutatePodAffinity and mutateTopologySpreadConstraints: the create-time merge into the selectors. */
export function mergeMatchLabelKeys(pod: KubeObject): void {
  const spec = asObject(pod.spec);
  if (!spec) return;
  const labels = (asObject(pod.metadata?.labels) ?? {}) as Record<string, string>;
  const affinity = asObject(spec.affinity);
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const a = asObject(affinity?.[kind]);
    if (!a) continue;
    for (const weighted of list(a.preferredDuringSchedulingIgnoredDuringExecution)) {
      const term = asObject(weighted.podAffinityTerm);
      if (term) mergeTerm(term, labels, true);
    }
    for (const term of list(a.requiredDuringSchedulingIgnoredDuringExecution)) mergeTerm(term, labels, true);
  }
  for (const constraint of list(spec.topologySpreadConstraints)) mergeTerm(constraint, labels, false);
}
