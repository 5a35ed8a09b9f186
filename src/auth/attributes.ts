// authorizer.Attributes (k8s.io/apiserver/pkg/authorization/authorizer): what an authorizer decides on.
import type { AccessQuestion } from '../apis/resource-type.ts';

// The review APIs ask their authorizer the same question (resource-type.ts AccessQuestion).
export type AuthorizationAttributes = AccessQuestion;

export interface Decision {
  allowed: boolean;
  /** Why, when an authorizer says (RBAC: which binding allowed it). */
  reason: string;
}

/**
 * The Forbidden text of responsewriters.forbiddenMessage (endpoints/handlers/responsewriters/errors.go),
 * with the authorizer's reason after it when there is one.
 */
export function forbiddenMessage(attrs: AuthorizationAttributes, reason = ''): string {
  const user = JSON.stringify(attrs.user.username);
  let message: string;
  if (!attrs.isResourceRequest) message = `User ${user} cannot ${attrs.verb} path ${JSON.stringify(attrs.path)}`;
  else {
    const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
    message = attrs.namespace
      ? `User ${user} cannot ${attrs.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(attrs.apiGroup)} in the namespace ${JSON.stringify(attrs.namespace)}`
      : `User ${user} cannot ${attrs.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(attrs.apiGroup)} at the cluster scope`;
  }
  return reason ? `${message}: ${reason}` : message;
}
