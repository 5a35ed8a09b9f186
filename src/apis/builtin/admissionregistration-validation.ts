// Validating/MutatingWebhookConfiguration validation and defaults (pkg/apis/admissionregistration/
// validation/validation.go and v1/defaults.go, v1.36): webhook names fully qualified and unique,
// rules (operations, groups, versions, resources, scope), the policies, sideEffects None or
// NoneOnDryRun, timeouts, selectors, clientConfig (url xor service), admissionReviewVersions.
// On update the stricter rules apply only where the stored object already met them, as upstream.
// Not ported: matchConditions (CEL) validation.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { isDNS1035Label, isDNS1123Subdomain } from '../../validation/names.ts';
import { validateWebhookService, validateWebhookURL } from '../../validation/webhook-client-config.ts';
import type { KubeObject } from '../object.ts';
import { validateLabelSelector } from './label-selector-validation.ts';
import { asObject } from './shared.ts';

type Json = Record<string, unknown>;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : '')) : []);
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const ALL_SIDE_EFFECTS = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];

const hooksOf = (o: KubeObject): Json[] => (Array.isArray(o.webhooks) ? o.webhooks : []).map((h) => asObject(h) ?? {});

/** SetDefaults_ValidatingWebhook / SetDefaults_MutatingWebhook, SetDefaults_Rule, SetDefaults_ServiceReference. */
export function defaultWebhooks(mutating: boolean): (o: KubeObject) => void {
  return (o) => {
    for (const hook of hooksOf(o)) {
      hook.failurePolicy ??= 'Fail';
      hook.matchPolicy ??= 'Equivalent';
      hook.namespaceSelector ??= {};
      hook.objectSelector ??= {};
      hook.timeoutSeconds ??= 10;
      if (mutating) hook.reinvocationPolicy ??= 'Never';
      for (const rule of Array.isArray(hook.rules) ? hook.rules : []) if (asObject(rule)) (rule as Json).scope ??= '*';
      const service = asObject(asObject(hook.clientConfig)?.service);
      if (service) service.port ??= 443;
    }
  };
}

interface Options {
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
}
const CREATE: Options = { requireNoSideEffects: true, requireRecognizedAdmissionReviewVersion: true, requireUniqueWebhookNames: true };

export function validateWebhookConfiguration(mutating: boolean): { validate(o: KubeObject): FieldError[]; validateUpdate(o: KubeObject, old: KubeObject): FieldError[] } {
  return {
    validate: (o) => validateConfiguration(o, mutating, CREATE),
    validateUpdate: (o, old) => {
      const oldHooks = hooksOf(old);
      const names = oldHooks.map((h) => h.name);
      return validateConfiguration(o, mutating, {
        requireNoSideEffects: oldHooks.every((h) => NO_SIDE_EFFECTS.includes(String(h.sideEffects))),
        requireRecognizedAdmissionReviewVersion: oldHooks.every((h) => {
          const versions = strings(h.admissionReviewVersions);
          return versions.length === 0 || versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v));
        }),
        requireUniqueWebhookNames: new Set(names).size === names.length,
      });
    },
  };
}

function validateConfiguration(o: KubeObject, mutating: boolean, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  hooksOf(o).forEach((hook, i) => {
    const path = `webhooks[${i}]`;
    errs.push(...validateWebhook(hook, mutating, opts, path));
    errs.push(...validateAdmissionReviewVersions(strings(hook.admissionReviewVersions), opts.requireRecognizedAdmissionReviewVersion, `${path}.admissionReviewVersions`));
    const name = typeof hook.name === 'string' ? hook.name : '';
    if (opts.requireUniqueWebhookNames && name !== '') {
      if (names.has(name)) errs.push(fieldError.duplicate(`${path}.name`, name));
      else names.add(name);
    }
  });
  return errs;
}

/** utilvalidation.IsFullyQualifiedName. */
function isFullyQualifiedName(path: string, name: string): FieldError[] {
  if (name === '') return [fieldError.required(path)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length) return [fieldError.invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3) return [fieldError.invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

function validateWebhook(hook: Json, mutating: boolean, opts: Options, path: string): FieldError[] {
  const errs = isFullyQualifiedName(`${path}.name`, typeof hook.name === 'string' ? hook.name : '');
  (Array.isArray(hook.rules) ? hook.rules : []).forEach((r, i) => errs.push(...validateRuleWithOperations(asObject(r) ?? {}, `${path}.rules[${i}]`)));
  if (typeof hook.failurePolicy === 'string' && !FAILURE_POLICIES.includes(hook.failurePolicy)) errs.push(fieldError.notSupported(`${path}.failurePolicy`, hook.failurePolicy, FAILURE_POLICIES));
  if (typeof hook.matchPolicy === 'string' && !MATCH_POLICIES.includes(hook.matchPolicy)) errs.push(fieldError.notSupported(`${path}.matchPolicy`, hook.matchPolicy, MATCH_POLICIES));
  const allowed = opts.requireNoSideEffects ? NO_SIDE_EFFECTS : ALL_SIDE_EFFECTS;
  if (typeof hook.sideEffects !== 'string') errs.push(fieldError.required(`${path}.sideEffects`, `must specify one of ${allowed.join(', ')}`));
  else if (!allowed.includes(hook.sideEffects)) errs.push(fieldError.notSupported(`${path}.sideEffects`, hook.sideEffects, allowed));
  if (typeof hook.timeoutSeconds === 'number' && (hook.timeoutSeconds > 30 || hook.timeoutSeconds < 1)) {
    errs.push(fieldError.invalid(`${path}.timeoutSeconds`, hook.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  }
  for (const key of ['namespaceSelector', 'objectSelector'] as const) if (asObject(hook[key])) errs.push(...validateLabelSelector(hook[key], `${path}.${key}`));
  if (mutating && typeof hook.reinvocationPolicy === 'string' && !REINVOCATION_POLICIES.includes(hook.reinvocationPolicy)) {
    errs.push(fieldError.notSupported(`${path}.reinvocationPolicy`, hook.reinvocationPolicy, REINVOCATION_POLICIES));
  }
  const cc = asObject(hook.clientConfig) ?? {};
  const url = typeof cc.url === 'string' ? cc.url : undefined;
  const service = asObject(cc.service);
  if ((url === undefined) === (service === undefined)) errs.push(fieldError.required(`${path}.clientConfig`, 'exactly one of url or service is required'));
  else if (url !== undefined) errs.push(...validateWebhookURL(`${path}.clientConfig.url`, url, true));
  else if (service) {
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    errs.push(...validateWebhookService(`${path}.clientConfig.service`, str(service.namespace), str(service.name), typeof service.path === 'string' ? service.path : undefined, typeof service.port === 'number' ? service.port : 443));
  }
  return errs;
}

export function validateRuleWithOperations(rule: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const operations = strings(rule.operations);
  if (operations.length === 0) errs.push(fieldError.required(`${path}.operations`));
  if (operations.length > 1 && operations.includes('*')) errs.push(fieldError.invalid(`${path}.operations`, operations, "if '*' is present, must not specify other operations"));
  operations.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.push(fieldError.notSupported(`${path}.operations[${i}]`, op, OPERATIONS));
  });
  const groups = strings(rule.apiGroups);
  if (groups.length === 0) errs.push(fieldError.required(`${path}.apiGroups`));
  if (groups.length > 1 && groups.includes('*')) errs.push(fieldError.invalid(`${path}.apiGroups`, groups, "if '*' is present, must not specify other API groups"));
  const versions = strings(rule.apiVersions);
  if (versions.length === 0) errs.push(fieldError.required(`${path}.apiVersions`));
  if (versions.length > 1 && versions.includes('*')) errs.push(fieldError.invalid(`${path}.apiVersions`, versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(fieldError.required(`${path}.apiVersions[${i}]`));
  });
  const resources = strings(rule.resources);
  if (resources.length === 0) errs.push(fieldError.required(`${path}.resources`));
  resources.forEach((r, i) => {
    if (r === '') errs.push(fieldError.required(`${path}.resources[${i}]`));
  });
  if (typeof rule.scope === 'string' && !SCOPES.includes(rule.scope)) errs.push(fieldError.notSupported(`${path}.scope`, rule.scope, SCOPES));
  return errs;
}

function validateAdmissionReviewVersions(versions: string[], requireRecognized: boolean, path: string): FieldError[] {
  if (versions.length === 0) return [fieldError.required(path, `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldError.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    errs.push(...isDNS1035Label(v).map((m) => fieldError.invalid(`${path}[${i}]`, v, m)));
    if (ACCEPTED_REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) errs.push(fieldError.invalid(path, versions, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  return errs;
}
