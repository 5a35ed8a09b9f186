// The `authorizer` variable of admission CEL (k8s.io/apiserver pkg/cel/library/authz.go: Authz and
// AuthzSelectors). kubefake has no RBAC yet, so this is an allow-all stand-in: every check answers
// allowed, with no error and an empty reason, as an apiserver whose authorizer allows everything
// (AlwaysAllow) does. The types and member functions are the real ones, so expressions compile and
// type-check as upstream.
import type { Environment } from '@marcbachmann/cel-js';

export const AUTHORIZER_TYPE = 'kubernetes.authorization.Authorizer';
const PATH_CHECK = 'kubernetes.authorization.PathCheck';
const GROUP_CHECK = 'kubernetes.authorization.GroupCheck';
export const RESOURCE_CHECK_TYPE = 'kubernetes.authorization.ResourceCheck';
const DECISION = 'kubernetes.authorization.Decision';

/** What a check would ask; kept so the stand-in could one day ask a real authorizer. */
export class CelAuthorizer {
  readonly serviceAccount: string | undefined;
  constructor(serviceAccount?: string) {
    this.serviceAccount = serviceAccount;
  }
}
class CelPathCheck {
  readonly path: string;
  constructor(path: string) {
    this.path = path;
  }
}
class CelGroupCheck {
  readonly group: string;
  constructor(group: string) {
    this.group = group;
  }
}
export class CelResourceCheck {
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  constructor(group: string, resource: string, subresource = '', namespace = '', name = '') {
    this.group = group;
    this.resource = resource;
    this.subresource = subresource;
    this.namespace = namespace;
    this.name = name;
  }
}
/** authorizer.Decision: always DecisionAllow here. */
class CelDecision {
  readonly allowed = true;
}

export function registerAuthorizerLibrary(env: Environment): void {
  for (const [name, ctor] of [[AUTHORIZER_TYPE, CelAuthorizer], [PATH_CHECK, CelPathCheck], [GROUP_CHECK, CelGroupCheck], [RESOURCE_CHECK_TYPE, CelResourceCheck], [DECISION, CelDecision]] as const) {
    env.registerType(name, { ctor: ctor as new () => object, fields: {} });
  }
  env.registerFunction(`${AUTHORIZER_TYPE}.path(string): ${PATH_CHECK}`, (_a: CelAuthorizer, p: string) => new CelPathCheck(p));
  env.registerFunction(`${AUTHORIZER_TYPE}.group(string): ${GROUP_CHECK}`, (_a: CelAuthorizer, g: string) => new CelGroupCheck(g));
  env.registerFunction(`${AUTHORIZER_TYPE}.serviceAccount(string, string): ${AUTHORIZER_TYPE}`, (_a: CelAuthorizer, ns: string, name: string) => new CelAuthorizer(`system:serviceaccount:${ns}:${name}`));
  env.registerFunction(`${GROUP_CHECK}.resource(string): ${RESOURCE_CHECK_TYPE}`, (g: CelGroupCheck, r: string) => new CelResourceCheck(g.group, r));
  const with_ = (c: CelResourceCheck, patch: Partial<CelResourceCheck>) => new CelResourceCheck(patch.group ?? c.group, patch.resource ?? c.resource, patch.subresource ?? c.subresource, patch.namespace ?? c.namespace, patch.name ?? c.name);
  env.registerFunction(`${RESOURCE_CHECK_TYPE}.subresource(string): ${RESOURCE_CHECK_TYPE}`, (c: CelResourceCheck, s: string) => with_(c, { subresource: s }));
  env.registerFunction(`${RESOURCE_CHECK_TYPE}.namespace(string): ${RESOURCE_CHECK_TYPE}`, (c: CelResourceCheck, s: string) => with_(c, { namespace: s }));
  env.registerFunction(`${RESOURCE_CHECK_TYPE}.name(string): ${RESOURCE_CHECK_TYPE}`, (c: CelResourceCheck, s: string) => with_(c, { name: s }));
  env.registerFunction(`${RESOURCE_CHECK_TYPE}.fieldSelector(string): ${RESOURCE_CHECK_TYPE}`, (c: CelResourceCheck) => c);
  env.registerFunction(`${RESOURCE_CHECK_TYPE}.labelSelector(string): ${RESOURCE_CHECK_TYPE}`, (c: CelResourceCheck) => c);
  env.registerFunction(`${PATH_CHECK}.check(string): ${DECISION}`, () => new CelDecision());
  env.registerFunction(`${RESOURCE_CHECK_TYPE}.check(string): ${DECISION}`, () => new CelDecision());
  env.registerFunction(`${DECISION}.allowed(): bool`, (d: CelDecision) => d.allowed);
  env.registerFunction(`${DECISION}.errored(): bool`, () => false);
  env.registerFunction(`${DECISION}.error(): string`, () => '');
  env.registerFunction(`${DECISION}.reason(): string`, () => '');
}
