// The scheduling parts of ValidatePodSpec (pkg/apis/core/validation/validation.go, v1.36):
// validateAffinity (node selector terms and requirements, preferred terms' weights, pod
// (anti-)affinity terms with their selectors, namespaces and topologyKey), validateSchedulingGates
// and validateTopologySpreadConstraints (maxSkew, topologyKey, whenUnsatisfiable, no repeated
// {topologyKey, whenUnsatisfiable}, minDomains, the node inclusion policies, the label selector).
// Label values in a required node affinity and in selectors are checked strictly, as on create.
// matchLabelKeys/mismatchLabelKeys are checked in pod-match-label-keys.ts.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { validateLabelName, validateQualifiedName } from '../../validation/meta-fields.ts';
import { isDNS1123Label, isDNS1123Subdomain, isValidLabelValue } from '../../validation/names.ts';
import { isPlainObject } from '../object.ts';
import { validateLabelSelector } from './label-selector-validation.ts';
import { validateMatchLabelKeys } from './pod-match-label-keys.ts';
import { asObject, goString } from './shared.ts';

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((e) => (typeof e === 'string' ? e : String(e))) : []);

/** ValidateNodeSelectorRequirement. */
function nodeSelectorRequirement(rq: Json, checkValues: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = strings(rq.values);
  switch (rq.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(fieldError.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(fieldError.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errs.push(fieldError.required(`${path}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(fieldError.invalid(`${path}.operator`, goString(rq.operator), 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(goString(rq.key), `${path}.key`));
  if (checkValues) values.forEach((v, i) => errs.push(...isValidLabelValue(v).map((m) => fieldError.invalid(`${path}.values[${i}]`, v, m))));
  return errs;
}

/** ValidateNodeFieldSelectorRequirement: only metadata.name, with In or NotIn and one value. */
function nodeFieldSelectorRequirement(rq: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = strings(rq.values);
  if (rq.operator === 'In' || rq.operator === 'NotIn') {
    if (values.length !== 1) errs.push(fieldError.required(`${path}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else errs.push(fieldError.invalid(`${path}.operator`, goString(rq.operator), 'not a valid selector operator'));
  if (rq.key !== 'metadata.name') errs.push(fieldError.invalid(`${path}.key`, goString(rq.key), 'not a valid field selector key'));
  else values.forEach((v, i) => errs.push(...isDNS1123Subdomain(v).map((m) => fieldError.invalid(`${path}.values[${i}]`, v, m))));
  return errs;
}

/** ValidateNodeSelectorTerm. */
function nodeSelectorTerm(term: Json, checkValues: boolean, path: string): FieldError[] {
  return [
    ...list(term.matchExpressions).flatMap((rq, j) => nodeSelectorRequirement(rq, checkValues, `${path}.matchExpressions[${j}]`)),
    ...list(term.matchFields).flatMap((rq, j) => nodeFieldSelectorRequirement(rq, `${path}.matchFields[${j}]`)),
  ];
}

/** ValidateNodeSelector (a required node affinity): at least one term. */
export function validateNodeSelector(selector: Json, path: string): FieldError[] {
  const terms = list(selector.nodeSelectorTerms);
  if (terms.length === 0) return [fieldError.required(`${path}.nodeSelectorTerms`, 'must have at least one node selector term')];
  return terms.flatMap((term, i) => nodeSelectorTerm(term, true, `${path}.nodeSelectorTerms[${i}]`));
}

const weightErrors = (weight: unknown, path: string): FieldError[] => {
  const w = typeof weight === 'number' ? weight : 0;
  return w <= 0 || w > 100 ? [fieldError.invalid(path, w, 'must be in the range 1-100')] : [];
};

/** validatePodAffinityTerm. */
function podAffinityTerm(term: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateLabelSelector(term.labelSelector, `${path}.labelSelector`));
  errs.push(...validateLabelSelector(term.namespaceSelector, `${path}.namespaceSelector`));
  // ValidateNamespaceName, reported under `namespace` (singular) as Go names the path.
  for (const name of strings(term.namespaces)) errs.push(...isDNS1123Label(name).map((m) => fieldError.invalid(`${path}.namespace`, name, m)));
  errs.push(...validateMatchLabelKeys(path, term.matchLabelKeys, term.mismatchLabelKeys, term.labelSelector));
  const topologyKey = goString(term.topologyKey);
  if (topologyKey === '') errs.push(fieldError.required(`${path}.topologyKey`, 'can not be empty'));
  errs.push(...validateLabelName(topologyKey, `${path}.topologyKey`));
  return errs;
}

/** validatePodAffinity / validatePodAntiAffinity (the same shape). */
function podAffinity(affinity: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  list(affinity.requiredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
    errs.push(...podAffinityTerm(term, `${path}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`));
  });
  list(affinity.preferredDuringSchedulingIgnoredDuringExecution).forEach((weighted, j) => {
    const p = `${path}.preferredDuringSchedulingIgnoredDuringExecution[${j}]`;
    errs.push(...weightErrors(weighted.weight, `${p}.weight`));
    errs.push(...podAffinityTerm(asObject(weighted.podAffinityTerm) ?? {}, `${p}.podAffinityTerm`));
  });
  return errs;
}

/** validateAffinity, `path` being `spec.affinity`. */
export function validateAffinity(value: unknown, path: string): FieldError[] {
  const affinity = asObject(value);
  if (!affinity) return [];
  const errs: FieldError[] = [];
  const node = asObject(affinity.nodeAffinity);
  if (node) {
    const required = asObject(node.requiredDuringSchedulingIgnoredDuringExecution);
    if (required) errs.push(...validateNodeSelector(required, `${path}.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`));
    list(node.preferredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
      const p = `${path}.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
      errs.push(...weightErrors(term.weight, `${p}.weight`));
      // Invalid label values are always allowed in preferred terms.
      errs.push(...nodeSelectorTerm(asObject(term.preference) ?? {}, false, `${p}.preference`));
    });
  }
  const podAff = asObject(affinity.podAffinity);
  if (podAff) errs.push(...podAffinity(podAff, `${path}.podAffinity`));
  const antiAff = asObject(affinity.podAntiAffinity);
  if (antiAff) errs.push(...podAffinity(antiAff, `${path}.podAntiAffinity`));
  return errs;
}

/** validateSchedulingGates: qualified names, no duplicates. */
export function validateSchedulingGates(value: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  list(value).forEach((gate, i) => {
    const name = goString(gate.name);
    errs.push(...validateQualifiedName(name, `${path}[${i}]`));
    if (seen.has(name)) errs.push(fieldError.duplicate(`${path}[${i}]`, name));
    seen.add(name);
  });
  return errs;
}

const SCHEDULE_ACTIONS = ['DoNotSchedule', 'ScheduleAnyway'];
const NODE_INCLUSION_POLICIES = ['Honor', 'Ignore'];

/** validateTopologySpreadConstraints. */
export function validateTopologySpreadConstraints(value: unknown, path: string): FieldError[] {
  const constraints = list(value);
  const errs: FieldError[] = [];
  constraints.forEach((c, i) => {
    const p = `${path}[${i}]`;
    const maxSkew = typeof c.maxSkew === 'number' ? c.maxSkew : 0;
    if (maxSkew <= 0) errs.push(fieldError.invalid(`${p}.maxSkew`, maxSkew, 'must be greater than zero'));
    const topologyKey = goString(c.topologyKey);
    if (topologyKey === '') errs.push(fieldError.required(`${p}.topologyKey`, 'can not be empty'));
    const action = goString(c.whenUnsatisfiable);
    if (!SCHEDULE_ACTIONS.includes(action)) errs.push(fieldError.notSupported(`${p}.whenUnsatisfiable`, action, SCHEDULE_ACTIONS));
    if (constraints.slice(i + 1).some((r) => goString(r.topologyKey) === topologyKey && goString(r.whenUnsatisfiable) === action)) {
      errs.push(fieldError.duplicate(`${p}.{topologyKey, whenUnsatisfiable}`, `{${topologyKey}, ${action}}`));
    }
    if (typeof c.minDomains === 'number') {
      if (c.minDomains <= 0) errs.push(fieldError.invalid(`${p}.minDomains`, c.minDomains, 'must be greater than zero'));
      if (action !== 'DoNotSchedule') errs.push(fieldError.invalid(`${p}.minDomains`, c.minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
    }
    for (const key of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const policy = c[key];
      if (typeof policy === 'string' && !NODE_INCLUSION_POLICIES.includes(policy)) errs.push(fieldError.notSupported(`${p}.${key}`, policy, NODE_INCLUSION_POLICIES));
    }
    // With MatchLabelKeysInPodTopologySpreadSelectorMerge on, the affinity terms' rule (no mismatch keys).
    errs.push(...validateMatchLabelKeys(p, c.matchLabelKeys, undefined, c.labelSelector));
    errs.push(...validateLabelSelector(c.labelSelector, `${p}.labelSelector`));
  });
  return errs;
}
