// Validating/MutatingAdmissionPolicy and their bindings: defaults and validation
// (pkg/apis/admissionregistration/v1/defaults.go and validation/validation.go, v1.36): the spec's
// fields, and every CEL expression compiled in the environment the plugin will run it in, a
// compile error being a 422 with the compiler's text (`compilation failed: ERROR: <input>:1:...`).
// Not ported: the StoredExpressions environment of updates (kubefake's base environment has no
// version-gated libraries, so both environments are the same).
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { validateQualifiedName } from '../../validation/meta-fields.ts';
import { loadedAdmissionPolicyCel } from '../../cel/lazy.ts';
import { isDNS1035Label, isDNS1123Subdomain, isPathSegmentName } from '../../validation/names.ts';
import type { KubeObject } from '../object.ts';
import { validateRuleWithOperations } from './admissionregistration-validation.ts';
import { validateLabelSelector } from './label-selector-validation.ts';
import { asObject, goString } from './shared.ts';

type Json = Record<string, unknown>;
const arr = (v: unknown): Json[] => (Array.isArray(v) ? v.map((x) => asObject(x) ?? {}) : []);

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const PATCH_TYPES = ['ApplyConfiguration', 'JSONPatch'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
const VALIDATION_ACTIONS = ['Audit', 'Deny', 'Warn'];
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH = 5 * 1024;
const CEL_IDENT = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const CEL_RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/** SetDefaults_MatchResources and SetDefaults_Rule. */
function defaultMatchResources(m: Json | undefined): void {
  if (!m) return;
  m.matchPolicy ??= 'Equivalent';
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  for (const key of ['resourceRules', 'excludeResourceRules']) for (const r of Array.isArray(m[key]) ? m[key] : []) if (asObject(r)) (r as Json).scope ??= '*';
}

/** SetDefaults_ValidatingAdmissionPolicySpec (and the MutatingAdmissionPolicy's, with reinvocationPolicy). */
export function defaultAdmissionPolicy(mutating: boolean): (o: KubeObject) => void {
  return (o) => {
    const spec = asObject(o.spec);
    if (!spec) return;
    spec.failurePolicy ??= 'Fail';
    if (mutating) spec.reinvocationPolicy ??= 'Never';
    defaultMatchResources(asObject(spec.matchConstraints));
  };
}

export function defaultAdmissionPolicyBinding(o: KubeObject): void {
  defaultMatchResources(asObject(asObject(o.spec)?.matchResources));
}

function validateParamKind(pk: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = goString(pk.apiVersion);
  if (apiVersion === '') errs.push(fieldError.required(`${path}.apiVersion`));
  else {
    const parts = apiVersion === '/' ? ['', ''] : apiVersion.split('/');
    if (parts.length > 2) errs.push(fieldError.invalid(`${path}.apiVersion`, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
    else {
      const [group, version] = parts.length === 1 ? ['', parts[0]!] : [parts[0]!, parts[1]!];
      if (group !== '') {
        const e = isDNS1123Subdomain(group);
        if (e.length) errs.push(fieldError.invalid(`${path}.apiVersion`, group, e.join(',')));
      }
      if (version === '') errs.push(fieldError.invalid(`${path}.apiVersion`, apiVersion, 'version must be specified'));
      else {
        const e = isDNS1035Label(version);
        if (e.length) errs.push(fieldError.invalid(`${path}.apiVersion`, version, e.join(',')));
      }
    }
  }
  const kind = goString(pk.kind);
  if (kind === '') errs.push(fieldError.required(`${path}.kind`));
  else {
    const e = isDNS1035Label(kind.toLowerCase());
    if (e.length) errs.push(fieldError.invalid(`${path}.kind`, kind, 'may have mixed case, but should otherwise match: ' + e.join(',')));
  }
  return errs;
}

function validateNamedRule(rule: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (Array.isArray(rule.resourceNames) ? rule.resourceNames : []).forEach((n, i) => {
    const name = goString(n);
    for (const m of isPathSegmentName(name)) errs.push(fieldError.invalid(`${path}.resourceNames[${i}]`, name, m));
    if (seen.has(name)) errs.push(fieldError.duplicate(`${path}.resourceNames[${i}]`, name));
    else seen.add(name);
  });
  errs.push(...validateRuleWithOperations(rule, path));
  return errs;
}

function validateMatchResources(m: Json | undefined, path: string): FieldError[] {
  if (!m) return [];
  const errs: FieldError[] = [];
  if (m.matchPolicy === undefined) errs.push(fieldError.required(`${path}.matchPolicy`));
  else if (!MATCH_POLICIES.includes(goString(m.matchPolicy))) errs.push(fieldError.notSupported(`${path}.matchPolicy`, m.matchPolicy, MATCH_POLICIES));
  for (const key of ['namespaceSelector', 'objectSelector']) {
    if (m[key] === undefined || m[key] === null) errs.push(fieldError.required(`${path}.${key}`));
    else errs.push(...validateLabelSelector(m[key], `${path}.${key}`));
  }
  arr(m.resourceRules).forEach((r, i) => errs.push(...validateNamedRule(r, `${path}.resourceRules[${i}]`)));
  arr(m.excludeResourceRules).forEach((r, i) => errs.push(...validateNamedRule(r, `${path}.excludeResourceRules[${i}]`)));
  return errs;
}

type Compiler = InstanceType<ReturnType<typeof loadedAdmissionPolicyCel>['PolicyCompiler']>;

/** convertCELErrorToValidationError. */
function celError(path: string, expression: string, err: { type: string; detail: string } | undefined): FieldError[] {
  if (!err) return [];
  if (err.type === 'Required') return [fieldError.required(path, err.detail)];
  if (err.type === 'Invalid') return [fieldError.invalid(path, expression, err.detail)];
  return [fieldError.internal(path, err.detail)];
}

function validateMatchConditions(conditions: Json[], hasParams: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (conditions.length > 64) errs.push(fieldError.tooMany(path, conditions.length, 64));
  const names = new Set<string>();
  // matchConditions compile with the stateless compiler: no `variables`.
  const { PolicyCompiler } = loadedAdmissionPolicyCel();
  const compiler = new PolicyCompiler({ hasParams, composition: false });
  conditions.forEach((c, i) => {
    const p = `${path}[${i}]`;
    const expression = goString(c.expression).trim();
    if (expression === '') errs.push(fieldError.required(`${p}.expression`));
    else errs.push(...celError(`${p}.expression`, expression, compiler.compile(expression, ['bool'], { hasParams, hasAuthorizer: true }).error));
    const name = goString(c.name);
    if (name === '') errs.push(fieldError.required(`${p}.name`));
    else errs.push(...validateQualifiedName(name, `${p}.name`));
    if (name !== '') {
      if (names.has(name)) errs.push(fieldError.duplicate(`${p}.name`, name));
      else names.add(name);
    }
  });
  return errs;
}

function validateValidation(compiler: Compiler, v: Json, hasParams: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const expression = goString(v.expression);
  const message = goString(v.message);
  const messageExpression = goString(v.messageExpression);
  if (expression.trim() === '') errs.push(fieldError.required(`${path}.expression`, 'expression is not specified'));
  else errs.push(...celError(`${path}.expression`, expression, compiler.compile(expression, ['bool'], { hasParams, hasAuthorizer: true }).error));
  if (messageExpression.length > 0 && messageExpression.trim() === '') errs.push(fieldError.invalid(`${path}.messageExpression`, messageExpression, 'must be non-empty if specified'));
  else if (messageExpression.trim() !== '') errs.push(...celError(`${path}.messageExpression`, messageExpression, compiler.compile(messageExpression, ['string'], { hasParams, hasAuthorizer: false }).error));
  if (message.length > 0 && message.trim() === '') errs.push(fieldError.invalid(`${path}.message`, message, 'message must be non-empty if specified'));
  else if (/[\n\r]+/.test(message.trim())) errs.push(fieldError.invalid(`${path}.message`, message, 'message must not contain line breaks'));
  if (v.reason !== undefined && !REASONS.includes(goString(v.reason))) errs.push(fieldError.notSupported(`${path}.reason`, v.reason, REASONS));
  return errs;
}

function validateAuditAnnotation(compiler: Compiler, policyName: string, an: Json, hasParams: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const key = goString(an.key);
  if (policyName !== '') errs.push(...validateQualifiedName(`${policyName}/${key}`, `${path}.key`));
  else errs.push(fieldError.invalid(`${path}.key`, key, 'requires metadata.name be non-empty'));
  const valueExpression = goString(an.valueExpression);
  const trimmed = valueExpression.trim();
  if (trimmed === '') errs.push(fieldError.required(`${path}.valueExpression`, 'valueExpression is not specified'));
  else if (trimmed.length > MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH) errs.push(fieldError.required(`${path}.valueExpression`, `must not exceed ${MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH} bytes in length`));
  else errs.push(...celError(`${path}.valueExpression`, valueExpression, compiler.compile(trimmed, ['string', 'null'], { hasParams, hasAuthorizer: true }).error));
  return errs;
}

/**
 * The parts validateValidatingAdmissionPolicySpec and validateMutatingAdmissionPolicySpec share; a
 * mutating policy compiles with composition and the patch types, and may not match DELETE.
 */
function validatePolicyCommon(spec: Json, path: string, mutating: boolean): { errs: FieldError[]; compiler: Compiler; hasParams: boolean } {
  const errs: FieldError[] = [];
  if (spec.failurePolicy === undefined) errs.push(fieldError.required(`${path}.failurePolicy`));
  else if (!FAILURE_POLICIES.includes(goString(spec.failurePolicy))) errs.push(fieldError.notSupported(`${path}.failurePolicy`, spec.failurePolicy, FAILURE_POLICIES));
  const paramKind = asObject(spec.paramKind);
  const hasParams = paramKind !== undefined;
  if (paramKind) errs.push(...validateParamKind(paramKind, `${path}.paramKind`));
  const mc = asObject(spec.matchConstraints);
  if (!mc) errs.push(fieldError.required(`${path}.matchConstraints`));
  else {
    errs.push(...validateMatchResources(mc, `${path}.matchConstraints`));
    if (!Array.isArray(mc.resourceRules) || mc.resourceRules.length === 0) errs.push(fieldError.required(`${path}.matchConstraints.resourceRules`));
    if (mutating) errs.push(...validateMutatingOperations(mc, `${path}.matchConstraints`));
  }
  errs.push(...validateMatchConditions(arr(spec.matchConditions), hasParams, `${path}.matchConditions`));
  const variables = arr(spec.variables);
  const { PolicyCompiler } = loadedAdmissionPolicyCel();
  const compiler = new PolicyCompiler({ hasParams, composition: mutating || variables.length > 0, patchTypes: mutating });
  variables.forEach((v, i) => {
    const p = `${path}.variables[${i}]`;
    const name = goString(v.name);
    if (name.trim() === '') errs.push(fieldError.required(`${p}.name`, 'name is not specified'));
    else if (!CEL_IDENT.test(name) || CEL_RESERVED.has(name)) errs.push(fieldError.invalid(`${p}.name`, name, 'name is not a valid CEL identifier'));
    const expression = goString(v.expression);
    if (expression.trim() === '') errs.push(fieldError.required(`${p}.expression`, 'expression is not specified'));
    else errs.push(...celError(`${p}.expression`, expression, compiler.compileVariable(name, expression).error));
  });
  return { errs, compiler, hasParams };
}

/** validateValidatingAdmissionPolicySpec. */
export function validateValidatingAdmissionPolicy(o: KubeObject): FieldError[] {
  const spec = asObject(o.spec) ?? {};
  const path = 'spec';
  const { errs, compiler, hasParams } = validatePolicyCommon(spec, path, false);
  const validations = arr(spec.validations);
  const auditAnnotations = arr(spec.auditAnnotations);
  if (validations.length === 0 && auditAnnotations.length === 0) {
    errs.push(fieldError.required(`${path}.validations`, 'validations or auditAnnotations must contain at least one item'));
    errs.push(fieldError.required(`${path}.auditAnnotations`, 'validations or auditAnnotations must contain at least one item'));
    return errs;
  }
  validations.forEach((v, i) => errs.push(...validateValidation(compiler, v, hasParams, `${path}.validations[${i}]`)));
  if (auditAnnotations.length > MAX_AUDIT_ANNOTATIONS) errs.push(fieldError.invalid(`${path}.auditAnnotations`, spec.auditAnnotations, `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`));
  const keys = new Set<string>();
  auditAnnotations.forEach((an, i) => {
    errs.push(...validateAuditAnnotation(compiler, goString(o.metadata?.name), an, hasParams, `${path}.auditAnnotations[${i}]`));
    const key = goString(an.key);
    if (keys.has(key)) errs.push(fieldError.duplicate(`${path}.auditAnnotations[${i}].key`, key));
    keys.add(key);
  });
  return errs;
}

/**
 * validateMutatingAdmissionPolicySpec: the shared parts, then the mutations (each compiled with
 * the patch types) and the reinvocationPolicy. The mutation texts follow a port of the server's
 * validateMutation; kubefake could not read the v1.36 source of this function itself.
 */
export function validateMutatingAdmissionPolicy(o: KubeObject): FieldError[] {
  const spec = asObject(o.spec) ?? {};
  const path = 'spec';
  const { errs, compiler, hasParams } = validatePolicyCommon(spec, path, true);
  const mutations = arr(spec.mutations);
  if (mutations.length === 0) errs.push(fieldError.required(`${path}.mutations`, 'mutations must contain at least one item'));
  const decls = { hasParams, hasAuthorizer: true };
  mutations.forEach((m, i) => {
    const p = `${path}.mutations[${i}]`;
    const patchType = goString(m.patchType);
    if (patchType === '') {
      errs.push(fieldError.required(`${p}.patchType`));
      return;
    }
    const expressionOf = (k: string) => goString(asObject(m[k])?.expression).trim();
    const compileAt = (k: string, returnType: string) => {
      const expression = expressionOf(k);
      if (expression === '') errs.push(fieldError.required(`${p}.${k}.expression`));
      else errs.push(...celError(`${p}.${k}.expression`, expression, compiler.compile(expression, [returnType], decls).error));
    };
    if (patchType === 'JSONPatch') {
      if (!asObject(m.jsonPatch)) errs.push(fieldError.required(`${p}.jsonPatch`, 'must be specified when patchType is JSONPatch'));
      else compileAt('jsonPatch', 'list<JSONPatch>');
      if (m.applyConfiguration !== undefined && m.applyConfiguration !== null) errs.push(fieldError.invalid(`${p}.applyConfiguration`, '{applyConfiguration}', 'must not be specified when patchType is JSONPatch'));
    } else if (patchType === 'ApplyConfiguration') {
      if (!asObject(m.applyConfiguration)) errs.push(fieldError.required(`${p}.applyConfiguration`, 'must be specified when patchType is ApplyConfiguration'));
      else compileAt('applyConfiguration', 'Object');
      if (m.jsonPatch !== undefined && m.jsonPatch !== null) errs.push(fieldError.invalid(`${p}.jsonPatch`, '{jsonPatch}', 'must not be specified when patchType is ApplyConfiguration'));
    } else errs.push(fieldError.notSupported(`${p}.patchType`, patchType, PATCH_TYPES));
  });
  const reinvocation = goString(spec.reinvocationPolicy);
  if (reinvocation === '') errs.push(fieldError.required(`${path}.reinvocationPolicy`));
  else if (!REINVOCATION_POLICIES.includes(reinvocation)) errs.push(fieldError.notSupported(`${path}.reinvocationPolicy`, reinvocation, REINVOCATION_POLICIES));
  return errs;
}

/** validateParamRef. */
function validateParamRef(pr: Json | undefined, path: string): FieldError[] {
  if (!pr) return [];
  const errs: FieldError[] = [];
  const name = goString(pr.name);
  const hasSelector = pr.selector !== undefined && pr.selector !== null;
  if (name.length > 0) {
    for (const m of isPathSegmentName(name)) errs.push(fieldError.invalid(`${path}.name`, name, m));
    if (hasSelector) errs.push(fieldError.forbidden(`${path}.name`, 'name and selector are mutually exclusive'));
  }
  if (hasSelector) {
    errs.push(...validateLabelSelector(pr.selector, `${path}.selector`));
    if (name.length > 0) errs.push(fieldError.forbidden(`${path}.selector`, 'name and selector are mutually exclusive'));
  }
  if (name.length === 0 && !hasSelector) errs.push(fieldError.required(path, 'one of name or selector must be specified'));
  const action = goString(pr.parameterNotFoundAction);
  if (action === '') errs.push(fieldError.required(`${path}.parameterNotFoundAction`));
  else if (action !== 'Deny' && action !== 'Allow') errs.push(fieldError.notSupported(`${path}.parameterNotFoundAction`, action, ['Deny', 'Allow']));
  return errs;
}

/**
 * validateMutatingAdmissionPolicyBindingSpec: policyName, paramRef and matchResources (spelled
 * right here, unlike the validating binding's path), whose rules may not name DELETE.
 */
export function validateMutatingAdmissionPolicyBinding(o: KubeObject): FieldError[] {
  const spec = asObject(o.spec) ?? {};
  const errs = validateBindingSpec(spec, 'spec.matchResources');
  const matchResources = asObject(spec.matchResources);
  if (matchResources) errs.push(...validateMutatingOperations(matchResources, 'spec.matchResources'));
  return errs;
}

// supportedMutatingOperations: a mutating admission policy cannot act on DELETE.
const MUTATING_OPERATIONS = ['*', 'CONNECT', 'CREATE', 'UPDATE'];

/** The mutating operations check over every rule's operations, reported at one unindexed path as upstream does. */
function validateMutatingOperations(match: Json, path: string): FieldError[] {
  return arr(match.resourceRules).flatMap((rule) =>
    (Array.isArray(rule.operations) ? rule.operations : []).map(goString).filter((op) => !MUTATING_OPERATIONS.includes(op)).map((op) => fieldError.notSupported(`${path}.resourceRules.operations`, op, MUTATING_OPERATIONS)),
  );
}

/** What both kinds of binding check: the policy's name, the paramRef and the matchResources (at the path given). */
function validateBindingSpec(spec: Record<string, unknown>, matchResourcesPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const policyName = goString(spec.policyName);
  if (policyName === '') errs.push(fieldError.required('spec.policyName'));
  else for (const m of isDNS1123Subdomain(policyName)) errs.push(fieldError.invalid('spec.policyName', policyName, m));
  errs.push(...validateParamRef(asObject(spec.paramRef), 'spec.paramRef'));
  errs.push(...validateMatchResources(asObject(spec.matchResources), matchResourcesPath));
  return errs;
}

/** validateValidatingAdmissionPolicyBindingSpec (its `matchResouces` path is upstream's spelling). */
export function validateValidatingAdmissionPolicyBinding(o: KubeObject): FieldError[] {
  const spec = asObject(o.spec) ?? {};
  const errs = validateBindingSpec(spec, 'spec.matchResouces');
  const actions = Array.isArray(spec.validationActions) ? spec.validationActions.map(goString) : [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!VALIDATION_ACTIONS.includes(a)) errs.push(fieldError.notSupported(`spec.validationActions[${i}]`, a, VALIDATION_ACTIONS));
    if (seen.has(a)) errs.push(fieldError.duplicate(`spec.validationActions[${i}]`, a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(fieldError.invalid('spec.validationActions', actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  if (seen.size === 0) errs.push(fieldError.required('spec.validationActions', 'at least one validation action is required'));
  return errs;
}
