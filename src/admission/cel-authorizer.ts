// What the `authorizer` of admission CEL asks (policies and webhook matchConditions alike;
// pkg/admission/plugin/cel/activation.go NewAuthorizerVal(versionedAttr.GetUserInfo(), authz)):
// the request's user, and the cluster's authorizer when it authorizes (auth: true). Without one,
// checks answer as kube-apiserver with AlwaysAllow does; without a user on the request, the user
// is the one every kubefake request is made as there (SelfSubjectReview's), as the plugins'
// `request.userInfo` has it.
import { REQUESTER } from '../apis/builtin/authentication-v1.ts';
import type { AuthorizerContext } from '../cel/admission-policy/authorizer-library.ts';
import type { AdmissionAttributes } from '../registry/admission.ts';
import type { AdmissionServices } from './services.ts';

export function authorizerContext(services: AdmissionServices, a: AdmissionAttributes): AuthorizerContext {
  return { user: a.userInfo ?? { username: REQUESTER.username, groups: [...REQUESTER.groups] }, access: services.access };
}
