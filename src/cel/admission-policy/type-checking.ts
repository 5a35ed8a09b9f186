// The type check the ValidatingAdmissionPolicy status controller runs (k8s.io/apiserver
// pkg/admission/plugin/policy/validating/typechecking.go): every validation's expression and
// messageExpression compiled once per kind the policy's resourceRules name (no wildcards, at most
// 10 kinds), with `object`/`oldObject` typed by the kind's schema and `params` by the paramKind's;
// each failure is an expression warning `<group>/<version>, Kind=<Kind>: <compile error>`.
import { isPlainObject, type KubeObject } from '../../apis/object.ts';
import type { DeclType } from '../decl-type.ts';
import { PolicyCompiler } from './compiler.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (isPlainObject(v) ? v : {});
const arr = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj) : []);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : '')) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface GVK {
  group: string;
  version: string;
  kind: string;
}
export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

/** What the type check needs of the cluster: the kinds a resource names, and a kind's schema as a DeclType. */
export interface TypeResolver {
  kindsFor(group: string, version: string, resource: string): GVK[];
  declType(gvk: GVK): DeclType | undefined;
}

const MAX_TYPES_TO_CHECK = 10;
const gvkString = (g: GVK): string => `${g.group}/${g.version}, Kind=${g.kind}`;
const compareGvk = (a: GVK, b: GVK): number => (a.group !== b.group ? (a.group < b.group ? -1 : 1) : a.version !== b.version ? (a.version < b.version ? -1 : 1) : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);

/** typesToCheck. */
function typesToCheck(policy: KubeObject, resolver: TypeResolver): GVK[] {
  const rules = arr(obj(obj(policy.spec).matchConstraints).resourceRules);
  const found = new Map<string, GVK>();
  let count = 0;
  for (const rule of rules) {
    const groups = strs(rule.apiGroups);
    const versions = strs(rule.apiVersions);
    if (groups.length === 0 || groups.some((g) => g.includes('*')) || versions.length === 0 || versions.some((v) => v.includes('*'))) continue;
    const resources = strs(rule.resources).filter((r) => !/[*/]/.test(r));
    if (resources.length === 0) continue;
    for (const group of [...groups].sort()) {
      for (const version of [...versions].sort()) {
        for (const resource of [...resources].sort()) {
          for (const gvk of resolver.kindsFor(group, version, resource)) {
            found.set(gvkString(gvk), gvk);
            if (++count === MAX_TYPES_TO_CHECK) return [...found.values()].sort(compareGvk);
          }
        }
      }
    }
  }
  return [...found.values()].sort(compareGvk);
}

/** TypeChecker.Check. */
export function typeCheckPolicy(policy: KubeObject, resolver: TypeResolver): ExpressionWarning[] {
  const spec = obj(policy.spec);
  const paramKind = isPlainObject(spec.paramKind) ? spec.paramKind : undefined;
  let paramsType: { decl: DeclType; name: string } | undefined;
  if (paramKind) {
    const apiVersion = str(paramKind.apiVersion);
    const slash = apiVersion.indexOf('/');
    const gvk = { group: slash < 0 ? '' : apiVersion.slice(0, slash), version: slash < 0 ? apiVersion : apiVersion.slice(slash + 1), kind: str(paramKind.kind) };
    const decl = resolver.declType(gvk);
    if (decl) paramsType = { decl, name: `${gvk.kind}Params` };
  }
  const compilers = typesToCheck(policy, resolver).flatMap((gvk) => {
    const decl = resolver.declType(gvk);
    if (!decl) return [];
    const compiler = new PolicyCompiler({ hasParams: paramKind !== undefined, composition: true, objectType: { decl, name: gvk.kind }, paramsType });
    for (const v of arr(spec.variables)) compiler.compileVariable(str(v.name), str(v.expression));
    return [{ gvk, compiler }];
  });
  const check = (expression: string): string | undefined => {
    const messages: string[] = [];
    for (const { gvk, compiler } of compilers) {
      const err = compiler.compile(expression, [], { hasParams: paramKind !== undefined, hasAuthorizer: true }).error;
      if (!err) continue;
      messages.push(err.type === 'Invalid' ? `${gvkString(gvk)}: ${err.detail}\n` : `${gvkString(gvk)}: type checking error: ${err.detail}\n`);
    }
    return messages.length ? messages.join('\n') : undefined;
  };
  const warnings: ExpressionWarning[] = [];
  arr(spec.validations).forEach((v, i) => {
    const w = check(str(v.expression));
    if (w !== undefined) warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: w });
    if (str(v.messageExpression) === '') return;
    const m = check(str(v.messageExpression));
    if (m !== undefined) warnings.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: m });
  });
  return warnings;
}
