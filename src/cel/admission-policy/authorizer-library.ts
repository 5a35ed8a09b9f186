// The `authorizer` variable of admission CEL (k8s.io/apiserver pkg/cel/library/authz.go: Authz and
// AuthzSelectors), shared by admission policies and webhook matchConditions. A check asks the
// cluster's authorizer (RBAC, on a cluster with auth: true) about the request's user, or the
// service account `serviceAccount(ns, name)` names; without one, it answers as an apiserver whose
// authorizer allows everything (AlwaysAllow): allowed, no reason, no error. Costs follow
// library/cost.go (a check 350000; every builder and accessor 1, as any call is metered).
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';
import type { UserInfo } from '../../apis/options.ts';
import type { AccessQuestion, AccessReviewer } from '../../apis/resource-type.ts';
import { isDNS1123Label, isDNS1123Subdomain } from '../../validation/names.ts';
import { chargeCall } from '../library/ip.ts';
import { serviceAccountUser } from '../../apis/service-account-user.ts';

export const AUTHORIZER_TYPE = 'kubernetes.authorization.Authorizer';
const PATH_CHECK = 'kubernetes.authorization.PathCheck';
const GROUP_CHECK = 'kubernetes.authorization.GroupCheck';
export const RESOURCE_CHECK_TYPE = 'kubernetes.authorization.ResourceCheck';
const DECISION = 'kubernetes.authorization.Decision';

/** library.CostEstimator CallCost: "set to allow for only two authorization checks per expression". */
const CHECK_COST = 350_000;

/** Who is asked about (the request's user) and whom to ask (none: AlwaysAllow). */
export interface AuthorizerContext {
  user: UserInfo;
  access: AccessReviewer | undefined;
}

/** authorizerVal. */
export class CelAuthorizer {
  readonly context: AuthorizerContext;
  constructor(context: AuthorizerContext = { user: { username: '' }, access: undefined }) {
    this.context = context;
  }
}
class CelPathCheck {
  readonly authorizer: CelAuthorizer;
  readonly path: string;
  constructor(authorizer: CelAuthorizer, path: string) {
    this.authorizer = authorizer;
    this.path = path;
  }
}
class CelGroupCheck {
  readonly authorizer: CelAuthorizer;
  readonly group: string;
  constructor(authorizer: CelAuthorizer, group: string) {
    this.authorizer = authorizer;
    this.group = group;
  }
}
export class CelResourceCheck {
  readonly authorizer: CelAuthorizer;
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  constructor(authorizer: CelAuthorizer, group: string, resource: string, subresource = '', namespace = '', name = '') {
    this.authorizer = authorizer;
    this.group = group;
    this.resource = resource;
    this.subresource = subresource;
    this.namespace = namespace;
    this.name = name;
  }
}
/** decisionVal: the authorizer's decision, reason and error. */
class CelDecision {
  readonly allowed: boolean;
  readonly reason: string;
  readonly error: string | undefined;
  constructor(allowed: boolean, reason: string, error?: string) {
    this.allowed = allowed;
    this.reason = reason;
    this.error = error;
  }
}

/** NewResourceAuthorizerVal: `authorizer.requestResource`, the request's own resource. */
export function requestResourceCheck(authorizer: CelAuthorizer, r: { group: string; resource: string; subresource: string; namespace: string; name: string }): CelResourceCheck {
  return new CelResourceCheck(authorizer, r.group, r.resource, r.subresource, r.namespace, r.name);
}

function decide(authorizer: CelAuthorizer, question: Omit<AccessQuestion, 'user'>): CelDecision {
  chargeCall(CHECK_COST);
  const { user, access } = authorizer.context;
  if (!access) return new CelDecision(true, '');
  try {
    const d = access.authorize({ ...question, user });
    return new CelDecision(d.allowed, d.reason);
  } catch (e) {
    return new CelDecision(false, '', e instanceof Error ? e.message : String(e));
  }
}

/** pathCheckVal.Authorize: a non-resource request for the path as given. */
function checkPath(c: CelPathCheck, verb: string): CelDecision {
  return decide(c.authorizer, { verb, isResourceRequest: false, path: c.path, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '' });
}

/** resourceCheckVal.Authorize: APIVersion "*". */
function checkResource(c: CelResourceCheck, verb: string): CelDecision {
  return decide(c.authorizer, { verb, isResourceRequest: true, path: '', apiGroup: c.group, apiVersion: '*', resource: c.resource, subresource: c.subresource, namespace: c.namespace, name: c.name });
}

export function registerAuthorizerLibrary(env: Environment): void {
  for (const [name, ctor] of [[AUTHORIZER_TYPE, CelAuthorizer], [PATH_CHECK, CelPathCheck], [GROUP_CHECK, CelGroupCheck], [RESOURCE_CHECK_TYPE, CelResourceCheck], [DECISION, CelDecision]] as const) {
    env.registerType(name, { ctor: ctor as unknown as new () => object, fields: {} });
  }
  env.registerFunction(`${AUTHORIZER_TYPE}.path(string): ${PATH_CHECK}`, (a: CelAuthorizer, p: string) => {
    if (p.trim() === '') throw new EvaluationError('path must not be empty');
    return new CelPathCheck(a, p);
  });
  env.registerFunction(`${AUTHORIZER_TYPE}.group(string): ${GROUP_CHECK}`, (a: CelAuthorizer, g: string) => new CelGroupCheck(a, g));
  env.registerFunction(`${AUTHORIZER_TYPE}.serviceAccount(string, string): ${AUTHORIZER_TYPE}`, (a: CelAuthorizer, ns: string, name: string) => {
    // apimachinery ValidateServiceAccountName (a DNS subdomain) and ValidateNamespaceName (a DNS label).
    if (isDNS1123Subdomain(name).length > 0) throw new EvaluationError('Invalid service account name');
    if (isDNS1123Label(ns).length > 0) throw new EvaluationError('Invalid service account namespace');
    return new CelAuthorizer({ user: serviceAccountUser(ns, name), access: a.context.access });
  });
  env.registerFunction(`${GROUP_CHECK}.resource(string): ${RESOURCE_CHECK_TYPE}`, (g: CelGroupCheck, r: string) => {
    if (r.trim() === '') throw new EvaluationError('resource must not be empty');
    return new CelResourceCheck(g.authorizer, g.group, r);
  });
  const with_ = (c: CelResourceCheck, patch: Partial<CelResourceCheck>) =>
    new CelResourceCheck(c.authorizer, c.group, c.resource, patch.subresource ?? c.subresource, patch.namespace ?? c.namespace, patch.name ?? c.name);
  env.registerFunction(`${RESOURCE_CHECK_TYPE}.subresource(string): ${RESOURCE_CHECK_TYPE}`, (c: CelResourceCheck, s: string) => with_(c, { subresource: s }));
  env.registerFunction(`${RESOURCE_CHECK_TYPE}.namespace(string): ${RESOURCE_CHECK_TYPE}`, (c: CelResourceCheck, s: string) => with_(c, { namespace: s }));
  env.registerFunction(`${RESOURCE_CHECK_TYPE}.name(string): ${RESOURCE_CHECK_TYPE}`, (c: CelResourceCheck, s: string) => with_(c, { name: s }));
  // Selectors narrow a check for authorizers that read them; RBAC does not.
  env.registerFunction(`${RESOURCE_CHECK_TYPE}.fieldSelector(string): ${RESOURCE_CHECK_TYPE}`, (c: CelResourceCheck) => c);
  env.registerFunction(`${RESOURCE_CHECK_TYPE}.labelSelector(string): ${RESOURCE_CHECK_TYPE}`, (c: CelResourceCheck) => c);
  env.registerFunction(`${PATH_CHECK}.check(string): ${DECISION}`, checkPath);
  env.registerFunction(`${RESOURCE_CHECK_TYPE}.check(string): ${DECISION}`, checkResource);
  env.registerFunction(`${DECISION}.allowed(): bool`, (d: CelDecision) => d.allowed);
  env.registerFunction(`${DECISION}.errored(): bool`, (d: CelDecision) => d.error !== undefined);
  env.registerFunction(`${DECISION}.error(): string`, (d: CelDecision) => d.error ?? '');
  env.registerFunction(`${DECISION}.reason(): string`, (d: CelDecision) => d.reason);
}
