// What admission CEL sees of a request (k8s.io/apiserver pkg/admission/plugin/cel/activation.go
// CreateAdmissionRequest and CreateNamespaceObject), as JSON for the CEL conversion.
import { REQUESTER } from '../../apis/builtin/authentication-v1.ts';
import type { KubeObject } from '../../apis/object.ts';
import { admissionKindOf, type AdmissionAttributes, type GroupVersionKind, type GroupVersionResource } from '../../registry/admission.ts';
import { requestNamespace } from '../webhooks/request.ts';

export function admissionRequest(a: AdmissionAttributes, resource: GroupVersionResource, kind: GroupVersionKind): Record<string, unknown> {
  // Without a user on the request, the one every kubefake request is made as (SelfSubjectReview's).
  const user = a.userInfo ?? REQUESTER;
  const requestResource = { group: a.type.group, version: a.type.version, resource: a.type.plural };
  const requestKind = admissionKindOf(a);
  return {
    kind,
    resource,
    subResource: a.subresource,
    requestKind,
    requestResource,
    requestSubResource: a.subresource,
    name: a.name,
    namespace: requestNamespace(a),
    operation: a.operation,
    userInfo: { username: user.username, uid: 'uid' in user ? user.uid : '', groups: [...(user.groups ?? [])], extra: 'extra' in user ? user.extra : {} },
    dryRun: a.dryRun,
    options: a.options,
  };
}

/** CreateNamespaceObject: only metadata's plain fields, spec and status. */
export function namespaceObject(ns: KubeObject | undefined): KubeObject | null {
  if (!ns) return null;
  const m = (ns.metadata ?? {}) as Record<string, unknown>;
  const pick = (...keys: string[]) => Object.fromEntries(keys.filter((k) => m[k] !== undefined).map((k) => [k, m[k]]));
  return {
    metadata: pick('name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'finalizers'),
    spec: ns.spec ?? {},
    status: ns.status ?? {},
  } as KubeObject;
}
