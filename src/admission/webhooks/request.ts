// The request a webhook is asked about (admission.VersionedAttributes) and the AdmissionReview sent
// for it (request/admissionreview.go CreateV1AdmissionReview, CreateV1beta1AdmissionReview).
import type { KubeObject } from '../../apis/object.ts';
import { REQUESTER } from '../../apis/builtin/authentication-v1.ts';
import type { DeleteOptions, WriteOptions } from '../../apis/options.ts';
import { admissionKindOf, type AdmissionAttributes, type AdmissionOperation, type GroupVersionKind, type GroupVersionResource, type UserInfo } from '../../registry/admission.ts';

/** One request as the webhook dispatchers see it. */
export interface WebhookRequest {
  attributes: AdmissionAttributes;
  operation: AdmissionOperation;
  /** The resource and kind the webhook is asked about (an equivalent one for matchPolicy Equivalent). */
  resource: GroupVersionResource;
  subresource: string;
  kind: GroupVersionKind;
  /** The resource and kind the client's request was made in. */
  requestResource: GroupVersionResource;
  requestKind: GroupVersionKind;
  /** '' for a cluster-scoped object (a namespace's own name for its update and delete, as RequestInfo has it). */
  namespace: string;
  name: string;
  object: KubeObject | undefined;
  oldObject: KubeObject | undefined;
}

/**
 * admission.Attributes.GetNamespace: '' for a cluster-scoped object, and a namespace's own name
 * for its requests (RequestInfo for /namespaces/{name}; create.go sets it for a namespace's create).
 */
export function requestNamespace(attributes: AdmissionAttributes): string {
  const isNamespace = attributes.type.group === '' && attributes.type.plural === 'namespaces';
  return attributes.namespace ?? (isNamespace ? attributes.name : '');
}

export function webhookRequestOf(attributes: AdmissionAttributes): WebhookRequest {
  const { type } = attributes;
  const namespace = requestNamespace(attributes);
  const resource = { group: type.group, version: type.version, resource: type.plural };
  const kind = admissionKindOf(attributes);
  return {
    attributes,
    operation: attributes.operation,
    resource,
    subresource: attributes.subresource,
    kind,
    requestResource: resource,
    requestKind: kind,
    namespace,
    name: attributes.name,
    object: attributes.object,
    oldObject: attributes.oldObject,
  };
}

/**
 * The object as the webhook receives it. Mutating admission of a create runs before
 * rest.BeforeCreate in the real handler (create.go), so it has no uid, creationTimestamp or
 * generation yet; kubefake's registry sets them first (see createOnce) and they are left out
 * here. (A generateName create has no name yet: the registry generates it after this phase.)
 */
export function reviewObject(r: WebhookRequest, mutating: boolean): KubeObject | null {
  const obj = r.object;
  if (!obj) return null;
  if (!(mutating && r.operation === 'CREATE' && obj.metadata)) return obj;
  const { uid: _uid, creationTimestamp: _created, generation: _generation, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/** The operation's options as the review carries them (patch.go turns PatchOptions into UpdateOptions). */
function reviewOptions(r: WebhookRequest): Record<string, unknown> {
  const kind = r.operation === 'CREATE' ? 'CreateOptions' : r.operation === 'UPDATE' ? 'UpdateOptions' : 'DeleteOptions';
  const out: Record<string, unknown> = { kind, apiVersion: 'meta.k8s.io/v1' };
  if (r.operation === 'DELETE') {
    const o = r.attributes.options as DeleteOptions;
    if (o.gracePeriodSeconds !== undefined) out.gracePeriodSeconds = o.gracePeriodSeconds;
    if (o.preconditions) out.preconditions = o.preconditions;
    if (o.orphanDependents !== undefined) out.orphanDependents = o.orphanDependents;
    if (o.propagationPolicy) out.propagationPolicy = o.propagationPolicy;
    if (o.dryRun?.length) out.dryRun = o.dryRun;
    return out;
  }
  const o = r.attributes.options as WriteOptions;
  if (o.dryRun?.length) out.dryRun = o.dryRun;
  if (o.fieldManager) out.fieldManager = o.fieldManager;
  if (o.fieldValidation) out.fieldValidation = o.fieldValidation;
  return out;
}

function reviewUserInfo(user: UserInfo | undefined): Record<string, unknown> {
  const u = user ?? REQUESTER;
  const out: Record<string, unknown> = {};
  if (u.username) out.username = u.username;
  if ('uid' in u && u.uid) out.uid = u.uid;
  if (u.groups?.length) out.groups = [...u.groups];
  if ('extra' in u && u.extra && Object.keys(u.extra).length) out.extra = u.extra;
  return out;
}

/** AdmissionRequest (the same fields in v1 and v1beta1), with Go's omitempty. */
export function admissionRequest(uid: string, r: WebhookRequest, mutating: boolean): Record<string, unknown> {
  const request: Record<string, unknown> = { uid, kind: r.kind, resource: r.resource };
  if (r.subresource) request.subResource = r.subresource;
  request.requestKind = r.requestKind;
  request.requestResource = r.requestResource;
  if (r.subresource) request.requestSubResource = r.subresource;
  if (r.name) request.name = r.name;
  if (r.namespace) request.namespace = r.namespace;
  request.operation = r.operation;
  request.userInfo = reviewUserInfo(r.attributes.userInfo);
  request.object = reviewObject(r, mutating);
  request.oldObject = r.oldObject ?? null;
  request.dryRun = r.attributes.dryRun;
  request.options = reviewOptions(r);
  return request;
}

export type ReviewVersion = 'v1' | 'v1beta1';

/** CreateAdmissionObjects: the first admissionReviewVersions entry this server speaks. */
export function reviewVersionOf(versions: readonly string[] | undefined): ReviewVersion | undefined {
  for (const v of versions ?? []) if (v === 'v1' || v === 'v1beta1') return v;
  return undefined;
}

export function admissionReview(version: ReviewVersion, request: Record<string, unknown>): Record<string, unknown> {
  return { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request };
}
