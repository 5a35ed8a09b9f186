// ValidatePodUpdate's relaxations for a pod that still has scheduling gates
// (pkg/apis/core/validation/validation.go, v1.36): its nodeSelector may gain keys
// (validateNodeSelectorMutation) and the terms of its required node affinity may gain requirements
// (validateNodeAffinityMutation, validateNodeSelectorTermHasOnlyAdditions); a node affinity set
// where there was none is allowed. `munged` is the spec being compared with the old one: the
// fields checked here take their old values in it, as Go munges them before the final comparison.
// Values are printed as Go's internal structs (no json tags, so Go field names) are marshalled.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { isPlainObject } from '../object.ts';
import { asObject, semanticEqual } from './shared.ts';

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);
const TERMS_PATH = 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms';

/** core.NodeSelectorRequirement as encoding/json writes the internal struct. */
const internalRequirement = (r: Json) => ({ Key: r.key ?? '', Operator: r.operator ?? '', Values: Array.isArray(r.values) && r.values.length ? r.values : null });
const internalRequirements = (v: unknown) => (Array.isArray(v) && v.length ? list(v).map(internalRequirement) : null);
const internalTerm = (t: Json) => ({ MatchExpressions: internalRequirements(t.matchExpressions), MatchFields: internalRequirements(t.matchFields) });

function validateNodeSelectorMutation(selector: unknown, oldSelector: unknown): FieldError[] {
  const next = asObject(selector) ?? {};
  for (const [k, v] of Object.entries(asObject(oldSelector) ?? {})) {
    if (next[k] !== v) return [fieldError.invalid('spec.nodeSelector', next, 'only additions to spec.nodeSelector are allowed (no mutations or deletions)')];
  }
  return [];
}

/** Every old requirement is still in the term (in any order), and none is lost. */
function termHasOnlyAdditions(term: Json, oldTerm: Json): boolean {
  return (['matchExpressions', 'matchFields'] as const).every((key) => {
    const reqs = list(term[key]);
    const oldReqs = list(oldTerm[key]);
    return oldReqs.length <= reqs.length && oldReqs.every((o) => reqs.some((r) => semanticEqual(o, r)));
  });
}

function validateNodeAffinityMutation(affinity: Json | undefined, oldAffinity: Json | undefined): FieldError[] {
  const oldRequired = asObject(oldAffinity?.requiredDuringSchedulingIgnoredDuringExecution);
  if (!oldRequired) return [];
  const oldTerms = list(oldRequired.nodeSelectorTerms);
  const terms = list(asObject(affinity?.requiredDuringSchedulingIgnoredDuringExecution)?.nodeSelectorTerms);
  if (oldTerms.length > 0 && oldTerms.length !== terms.length) {
    return [fieldError.invalid(TERMS_PATH, terms.length ? terms.map(internalTerm) : null, 'no additions/deletions to non-empty NodeSelectorTerms list are allowed')];
  }
  const errs: FieldError[] = [];
  oldTerms.forEach((oldTerm, i) => {
    if (!termHasOnlyAdditions(terms[i]!, oldTerm)) errs.push(fieldError.invalid(`${TERMS_PATH}[${i}]`, internalTerm(terms[i]!), 'only additions are allowed (no mutations or deletions)'));
  });
  return errs;
}

/** The gated-pod checks; mutates `munged` so the final comparison ignores what they allowed. */
export function validateGatedPodUpdate(munged: Json, oldSpec: Json): FieldError[] {
  if (list(oldSpec.schedulingGates).length === 0) return [];
  const errs: FieldError[] = [];
  if (!semanticEqual(munged.nodeSelector, oldSpec.nodeSelector)) {
    errs.push(...validateNodeSelectorMutation(munged.nodeSelector, oldSpec.nodeSelector));
    if (oldSpec.nodeSelector === undefined) delete munged.nodeSelector;
    else munged.nodeSelector = oldSpec.nodeSelector;
  }
  const oldAffinity = asObject(oldSpec.affinity);
  const affinity = asObject(munged.affinity);
  const oldNodeAffinity = asObject(oldAffinity?.nodeAffinity);
  const nodeAffinity = asObject(affinity?.nodeAffinity);
  if (!semanticEqual(oldNodeAffinity, nodeAffinity)) {
    errs.push(...validateNodeAffinityMutation(nodeAffinity, oldNodeAffinity));
    if (!affinity) {
      if (oldNodeAffinity) munged.affinity = { nodeAffinity: oldNodeAffinity };
    } else if (!oldAffinity && affinity.podAffinity == null && affinity.podAntiAffinity == null) {
      // Only the node affinity was set on a pod that had no affinity at all.
      delete munged.affinity;
    } else {
      const next: Json = { ...affinity };
      if (oldNodeAffinity) next.nodeAffinity = oldNodeAffinity;
      else delete next.nodeAffinity;
      munged.affinity = next;
    }
  }
  return errs;
}
