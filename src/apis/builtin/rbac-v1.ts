// rbac.authorization.k8s.io/v1: discovery data from
// the generated catalogue (src/generated), strategies from
// pkg/registry/rbac/<resource>/strategy.go, defaults from pkg/apis/rbac/v1/defaults.go and
// validation from pkg/apis/rbac/validation/validation.go (names only need to be path segments).
import type { ResourceType } from '../resource-type.ts';
import { type FieldError, fieldError, fieldPath } from '../../errors/field-error.ts';
import { isDNS1123Subdomain, isPathSegmentName } from '../../validation/names.ts';
import type { KubeObject } from '../object.ts';
import { isPlainObject } from '../object.ts';
import { arrAt, builtin, child, composeStrategy, defaulting, goString, type JsonObject, objAt, semanticEqual, setDefault, unset } from './shared.ts';

const GROUP = 'rbac.authorization.k8s.io';
const rbac = (def: Parameters<typeof builtin>[2]) =>
  builtin(GROUP, 'v1', {
    nameRule: 'path-segment',
    ...def,
  });

/** All four RBAC strategies: PUT may create and needs no resourceVersion. */
const rbacWrites = { allowUnconditionalUpdate: true, allowCreateOnUpdate: true, returnDeletedObject: false } as const;

export function rbacV1ResourceTypes(): ResourceType[] {
  return [
    rbac({
      ...rbacWrites,
      kind: 'ClusterRoleBinding',
      plural: 'clusterrolebindings',
      namespaced: false,
      strategy: bindingStrategy(false),
    }),
    rbac({
      ...rbacWrites,
      kind: 'ClusterRole',
      plural: 'clusterroles',
      namespaced: false,
      strategy: { validate: (obj) => validateRules(obj, false), validateUpdate: (obj) => validateRules(obj, false) },
    }),
    rbac({
      ...rbacWrites,
      kind: 'RoleBinding',
      plural: 'rolebindings',
      namespaced: true,
      strategy: bindingStrategy(true),
    }),
    rbac({
      ...rbacWrites,
      kind: 'Role',
      plural: 'roles',
      namespaced: true,
      strategy: { validate: (obj) => validateRules(obj, true), validateUpdate: (obj) => validateRules(obj, true) },
    }),
  ];
}

const len = (v: unknown) => (Array.isArray(v) ? v.length : 0);

/** validatePolicyRule for each rule. */
function validateRules(obj: KubeObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  (arrAt(obj, 'rules') ?? []).forEach((raw, i) => {
    const rule = isPlainObject(raw) ? raw : {};
    const path = fieldPath.index('rules', i);
    if (len(rule.verbs) === 0) errs.push(fieldError.required(`${path}.verbs`, 'verbs must contain at least one value'));
    if (len(rule.nonResourceURLs) > 0) {
      if (namespaced) errs.push(fieldError.invalid(`${path}.nonResourceURLs`, rule.nonResourceURLs, 'namespaced rules cannot apply to non-resource URLs'));
      if (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0) {
        errs.push(fieldError.invalid(`${path}.nonResourceURLs`, rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
      }
      return;
    }
    if (len(rule.apiGroups) === 0) errs.push(fieldError.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
    if (len(rule.resources) === 0) errs.push(fieldError.required(`${path}.resources`, 'resource rules must supply at least one resource'));
    if (len(rule.resourceNames) > 0 && len(rule.resources) > 1) {
      errs.push(fieldError.required(`${path}.resourceNames`, 'resource names cannot apply to multiple resources'));
    }
  });
  return errs;
}

/** SetDefaults_RoleBinding / ClusterRoleBinding / Subject. */
function defaultBinding(obj: KubeObject): void {
  setDefault(child(obj, 'roleRef'), 'apiGroup', GROUP);
  for (const subject of (arrAt(obj, 'subjects') ?? []).filter(isPlainObject)) {
    if (!unset(subject.apiGroup)) continue;
    if (subject.kind === 'ServiceAccount') subject.apiGroup = '';
    else if (subject.kind === 'User' || subject.kind === 'Group') subject.apiGroup = GROUP;
  }
}

function bindingStrategy(namespaced: boolean) {
  return composeStrategy(defaulting(defaultBinding), {
    validate: (obj) => validateBinding(obj, namespaced),
    validateUpdate(obj, old) {
      const errs = validateBinding(obj, namespaced);
      const roleRef = objAt(obj, 'roleRef') ?? {};
      if (!semanticEqual(roleRef, objAt(old, 'roleRef') ?? {})) {
        // Go prints the internal RoleRef struct, whose field names happen to sort in declaration order.
        const value = { APIGroup: goString(roleRef.apiGroup), Kind: goString(roleRef.kind), Name: goString(roleRef.name) };
        errs.push(fieldError.invalid('roleRef', value, 'cannot change roleRef'));
      }
      return errs;
    },
  });
}

function validateBinding(obj: KubeObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const roleRef: JsonObject = objAt(obj, 'roleRef') ?? {};
  const apiGroup = goString(roleRef.apiGroup);
  if (apiGroup !== GROUP) errs.push(fieldError.notSupported('roleRef.apiGroup', apiGroup, [GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  const kind = goString(roleRef.kind);
  if (!kinds.includes(kind)) errs.push(fieldError.notSupported('roleRef.kind', kind, kinds));
  const name = goString(roleRef.name);
  if (name === '') errs.push(fieldError.required('roleRef.name'));
  else for (const msg of isPathSegmentName(name)) errs.push(fieldError.invalid('roleRef.name', name, msg));
  (arrAt(obj, 'subjects') ?? []).forEach((raw, i) => {
    errs.push(...validateSubject(isPlainObject(raw) ? raw : {}, namespaced, fieldPath.index('subjects', i)));
  });
  return errs;
}

function validateSubject(subject: JsonObject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = goString(subject.name);
  const apiGroup = goString(subject.apiGroup);
  if (name === '') errs.push(fieldError.required(`${path}.name`));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (name !== '') for (const msg of isDNS1123Subdomain(name)) errs.push(fieldError.invalid(`${path}.name`, name, msg));
      if (apiGroup !== '') errs.push(fieldError.notSupported(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && goString(subject.namespace) === '') errs.push(fieldError.required(`${path}.namespace`));
      break;
    case 'User':
      if (name === '') errs.push(fieldError.invalid(`${path}.name`, name, 'user name cannot be empty'));
      if (apiGroup !== GROUP) errs.push(fieldError.notSupported(`${path}.apiGroup`, apiGroup, [GROUP]));
      break;
    case 'Group':
      if (name === '') errs.push(fieldError.invalid(`${path}.name`, name, 'group name cannot be empty'));
      if (apiGroup !== GROUP) errs.push(fieldError.notSupported(`${path}.apiGroup`, apiGroup, [GROUP]));
      break;
    default:
      errs.push(fieldError.notSupported(`${path}.kind`, goString(subject.kind), ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}
