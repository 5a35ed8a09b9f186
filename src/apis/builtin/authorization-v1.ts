// authorization.k8s.io/v1: create-only review APIs that store nothing; discovery data from the
// generated catalogue, REST storage from pkg/registry/authorization/<resource>/rest.go, validation
// from pkg/apis/authorization/validation/validation.go. kubefake has no authorization: it answers
// as kube-apiserver does with --authorization-mode=AlwaysAllow (every access allowed, no reason;
// RulesFor: every verb on every resource and non-resource URL).
//
// As on the real server the create handler's field manager runs before the REST storage, so the
// reviews answer with managedFields (computed from a deduced schema: kubefake has no apply schema
// for these kinds yet, so non-pointer structs such as spec carry a "." entry the real one lacks).
//
// The invalid texts name an empty kind (`.authorization.k8s.io "" is invalid`): the REST storage
// builds them from the decoded internal object, whose TypeMeta the conversion to the internal
// version clears.
import { type FieldError, fieldError } from '../../errors/field-error.ts';
import { badRequest, invalid } from '../../errors/status-error.ts';
import { invalidWithJson } from '../../validation/meta-fields.ts';
import type { KubeObject } from '../object.ts';
import { isPlainObject } from '../object.ts';
import type { AccessReviewer, ResourceType } from '../resource-type.ts';
import type { UserInfo } from '../options.ts';
import { builtin, child, getIn, goString, objAt } from './shared.ts';

const GROUP = 'authorization.k8s.io';
const review = { allowUnconditionalUpdate: false, allowCreateOnUpdate: false, returnDeletedObject: false } as const;
const ALLOWED = { allowed: true };

export function authorizationV1ResourceTypes(): ResourceType[] {
  return [
    builtin(GROUP, 'v1', {
      ...review,
      kind: 'LocalSubjectAccessReview',
      plural: 'localsubjectaccessreviews',
      namespaced: true,
      createOnly: (obj, { namespace, access }) => {
        const errs = [...validateAccessReviewSpec(obj), ...metadataEmpty(obj, 'must be empty except for namespace', true)];
        const resourceNamespace = getIn(obj, ['spec', 'resourceAttributes', 'namespace']);
        if (objAt(obj.spec, 'resourceAttributes') && goString(resourceNamespace) !== goString(obj.metadata?.namespace)) {
          errs.push(fieldError.invalid('spec.resourceAttributes.namespace', goString(resourceNamespace), 'must match metadata.namespace'));
        }
        const nonResource = objAt(obj.spec, 'nonResourceAttributes');
        if (nonResource) errs.push(invalidWithJson('spec.nonResourceAttributes', nonResource, nonResourceJson(nonResource), 'disallowed on this kind of request'));
        reject(errs);
        if (!namespace) throw badRequest(`namespace is required on this type: ${namespace ?? ''}`);
        return answer(obj, access ? decide(access, subjectOf(obj), obj) : ALLOWED);
      },
    }),
    builtin(GROUP, 'v1', {
      ...review,
      kind: 'SelfSubjectAccessReview',
      plural: 'selfsubjectaccessreviews',
      namespaced: false,
      createOnly: (obj, { user, access }) => {
        reject([...validateAttributes(obj), ...metadataEmpty(obj, 'must be empty')]);
        return answer(obj, access && user ? decide(access, user, obj) : ALLOWED);
      },
    }),
    builtin(GROUP, 'v1', {
      ...review,
      kind: 'SelfSubjectRulesReview',
      plural: 'selfsubjectrulesreviews',
      namespaced: false,
      // REST.Create answers a new review: the spec is not echoed.
      createOnly: (obj, { user, access }) => {
        const namespace = getIn(obj, ['spec', 'namespace']);
        if (typeof namespace !== 'string' || namespace === '') throw badRequest('no namespace on request');
        if (access && user) return { kind: obj.kind, apiVersion: obj.apiVersion, metadata: {}, spec: {}, status: { ...rulesReview(access.rulesFor(user, namespace)), incomplete: false } };
        return {
          kind: obj.kind,
          apiVersion: obj.apiVersion,
          metadata: {},
          spec: {},
          status: {
            resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
            incomplete: false,
          },
        };
      },
    }),
    builtin(GROUP, 'v1', {
      ...review,
      kind: 'SubjectAccessReview',
      plural: 'subjectaccessreviews',
      namespaced: false,
      createOnly: (obj, { access }) => {
        reject([...validateAccessReviewSpec(obj), ...metadataEmpty(obj, 'must be empty')]);
        return answer(obj, access ? decide(access, subjectOf(obj), obj) : ALLOWED);
      },
    }),
  ];
}

/** The user a SubjectAccessReview asks about (spec.user, groups, uid, extra). */
function subjectOf(obj: KubeObject): UserInfo {
  const groups = getIn(obj, ['spec', 'groups']);
  const uid = goString(getIn(obj, ['spec', 'uid']));
  const extra = getIn(obj, ['spec', 'extra']);
  return {
    username: goString(getIn(obj, ['spec', 'user'])),
    groups: Array.isArray(groups) ? groups.map(goString) : [],
    ...(uid ? { uid } : {}),
    ...(isPlainObject(extra) ? { extra: extra as Record<string, string[]> } : {}),
  };
}

/**
 * The authorizer's answer to a review's attributes (pkg/registry/authorization/util's
 * ResourceAttributesFrom / NonResourceAttributesFrom): `{allowed: true, reason}` or
 * `{allowed: false}` (RBAC has no opinion and gives no reason).
 */
function decide(access: AccessReviewer, user: UserInfo, obj: KubeObject): Record<string, unknown> {
  const resource = objAt(obj.spec, 'resourceAttributes');
  const nonResource = objAt(obj.spec, 'nonResourceAttributes');
  const s = (v: unknown) => goString(v);
  const question = resource
    ? { user, verb: s(resource.verb), isResourceRequest: true, path: '', apiGroup: s(resource.group), apiVersion: s(resource.version), resource: s(resource.resource), subresource: s(resource.subresource), namespace: s(resource.namespace), name: s(resource.name) }
    : { user, verb: s(nonResource?.verb), isResourceRequest: false, path: s(nonResource?.path), apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '' };
  const decision = access.authorize(question);
  return decision.allowed ? { allowed: true, ...(decision.reason ? { reason: decision.reason } : {}) } : { allowed: false };
}

/** SelfSubjectRulesReview's status: resource rules and non-resource rules, as RBAC's RulesFor lists them. */
function rulesReview(rules: Record<string, unknown>[]): Record<string, unknown> {
  const resourceRules = rules.filter((r) => !r.nonResourceURLs).map((r) => ({ verbs: r.verbs ?? [], ...(r.apiGroups ? { apiGroups: r.apiGroups } : {}), ...(r.resources ? { resources: r.resources } : {}), ...(r.resourceNames ? { resourceNames: r.resourceNames } : {}) }));
  const nonResourceRules = rules.filter((r) => r.nonResourceURLs).map((r) => ({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs }));
  return { resourceRules, nonResourceRules };
}

function reject(errs: FieldError[]): void {
  if (errs.length) throw invalid({ group: GROUP, kind: '' }, '', errs);
}

/** The review echoed with its status; its metadata is empty (validated) but for the namespace and managedFields. */
function answer(obj: KubeObject, status: Record<string, unknown>): KubeObject {
  const { namespace, managedFields } = obj.metadata ?? {};
  obj.metadata = { ...(namespace ? { namespace } : {}), ...(managedFields ? { managedFields } : {}) };
  child(obj, 'spec');
  obj.status = status;
  return obj;
}

/** NonResourceAttributes as json.Marshal writes the struct (path, verb; both omitempty). */
function nonResourceJson(v: Record<string, unknown>): string {
  const out: Record<string, unknown> = {};
  if (goString(v.path)) out.path = v.path;
  if (goString(v.verb)) out.verb = v.verb;
  return JSON.stringify(out);
}

/** ValidateSelfSubjectAccessReviewSpec: exactly one of resourceAttributes and nonResourceAttributes. */
function validateAttributes(obj: KubeObject): FieldError[] {
  const resource = objAt(obj.spec, 'resourceAttributes');
  const nonResource = objAt(obj.spec, 'nonResourceAttributes');
  if (resource && nonResource) {
    return [invalidWithJson('spec.nonResourceAttributes', nonResource, nonResourceJson(nonResource), 'cannot be specified in combination with resourceAttributes')];
  }
  if (!resource && !nonResource) return [fieldError.invalid('spec.resourceAttributes', 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified')];
  return [];
}

/** ValidateSubjectAccessReviewSpec: the attributes rule, then a user or a group. */
function validateAccessReviewSpec(obj: KubeObject): FieldError[] {
  const errs = validateAttributes(obj);
  const user = goString(getIn(obj, ['spec', 'user']));
  const groups = getIn(obj, ['spec', 'groups']);
  if (user === '' && !(Array.isArray(groups) && groups.length > 0)) errs.push(fieldError.invalid('spec.user', user, 'at least one of user or group must be specified'));
  return errs;
}

/** ObjectMeta's JSON keys in Go field order (json.Marshal of the struct). */
const OBJECT_META_ORDER = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields'];

/** The review's ObjectMeta must be the zero value (managedFields and, for the local review, namespace aside). */
function metadataEmpty(obj: KubeObject, detail: string, exceptNamespace = false): FieldError[] {
  const meta: Record<string, unknown> = isPlainObject(obj.metadata) ? obj.metadata : {};
  const isZero = (v: unknown) => v === undefined || v === null || v === '' || v === 0 || (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).length === 0);
  const compared = OBJECT_META_ORDER.filter((k) => k !== 'managedFields' && !(exceptNamespace && k === 'namespace'));
  if (compared.every((k) => isZero(meta[k]))) return [];
  // The value printed is the whole ObjectMeta as sent, zero fields omitted.
  const shown = Object.fromEntries(OBJECT_META_ORDER.filter((k) => !isZero(meta[k])).map((k) => [k, meta[k]]));
  return [invalidWithJson('metadata', shown, JSON.stringify(shown), detail)];
}
