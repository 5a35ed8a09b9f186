// The ValidatingAdmissionPolicy admission plugin (k8s.io/apiserver
// pkg/admission/plugin/policy/validating: plugin.go compilePolicy, dispatcher.go Dispatch,
// validator.go Validate), over the policies and bindings in the store. Policies are compiled once
// per stored version (the stored object is frozen and replaced on every write, so it keys the
// cache). CEL is loaded on the first request a binding exists for.
import { extractResourceName } from '../forbidden.ts';
import { isPlainObject, type KubeObject } from '../../apis/object.ts';
import { StatusError, forbidden, type Status } from '../../errors/status-error.ts';
import type { AdmissionPlugin } from '../../registry/admission.ts';
import type { AdmissionServices } from '../services.ts';
import { isExcludedFromPolicies } from './matching.ts';
import { admissionRequest } from './request.ts';
import { matchingBindingParams, matchingPolicy, requestNamespaceObject } from './dispatch-steps.ts';
import { authorizerContext } from '../cel-authorizer.ts';
import { ConversionFailure, convertObject } from './versioned.ts';
import type { CompiledPolicy, Decision } from './validating-evaluator.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (isPlainObject(v) ? v : {});

const POLICIES_BUCKET = 'admissionregistration.k8s.io/validatingadmissionpolicies';
const BINDINGS_BUCKET = 'admissionregistration.k8s.io/validatingadmissionpolicybindings';

type Evaluator = typeof import('./validating-evaluator.ts');
let evaluator: Evaluator | undefined;

interface DeniedDecision {
  policy: KubeObject;
  binding: KubeObject | undefined;
  message: string;
  reason?: string;
}

/** reasonToCode (policy_decision.go). */
function reasonToCode(reason: string): number {
  switch (reason) {
    case 'Forbidden':
      return 403;
    case 'Unauthorized':
      return 401;
    case 'RequestEntityTooLarge':
      return 413;
    default:
      return 422;
  }
}

export function validatingAdmissionPolicyPlugin(services: AdmissionServices): AdmissionPlugin {
  const compiled = new WeakMap<object, CompiledPolicy>();
  return {
    name: 'ValidatingAdmissionPolicy',
    validate(a) {
      // Without a binding there is nothing to evaluate: answered synchronously (this runs on every write).
      if (isExcludedFromPolicies(a)) return;
      const bindings = services.store.list(BINDINGS_BUCKET, '').map((e) => e.object);
      if (bindings.length === 0) return;
      const policies = services.store.list(POLICIES_BUCKET, '').map((e) => e.object);
      if (policies.length === 0) return;
      return (async () => {
        evaluator ??= await import('./validating-evaluator.ts');
        const ev = evaluator;
        const denied: DeniedDecision[] = [];
        const configError = (policy: KubeObject, binding: KubeObject | undefined, err: string) => {
          const failurePolicy = obj(policy.spec).failurePolicy ?? 'Fail';
          if (failurePolicy === 'Ignore') return;
          if (failurePolicy === 'Fail') denied.push({ policy, binding, message: `failed to configure ${binding ? 'binding' : 'policy'}: ${err}` });
          else denied.push({ policy, binding, message: `unrecognized failure policy: '${String(failurePolicy)}'` });
        };
        for (const policy of policies) {
          const name = policy.metadata?.name;
          const own = bindings.filter((b) => obj(b.spec).policyName === name);
          if (own.length === 0) continue;
          const matched = matchingPolicy(services, a, policy, configError);
          if (!matched) continue;
          const { match, paramType } = matched;
          let policyCompiled = compiled.get(policy);
          if (!policyCompiled) compiled.set(policy, (policyCompiled = ev.compilePolicy(policy)));
          const annotations = new Map<string, string[]>();
          let versionedFor: { object: KubeObject | null; oldObject: KubeObject | null } | undefined;
          for (const binding of own) {
            const params = await matchingBindingParams(services, a, policy, paramType, binding, configError);
            if (!params) continue;
            const ns = requestNamespaceObject(services, a);
            const request = admissionRequest(a, match.resource!, match.kind!);
            // The object at the version the rule matched (Equivalent), converted once per policy.
            let versioned: { object: KubeObject | null; oldObject: KubeObject | null };
            try {
              versioned = versionedFor ??= {
                object: a.object ? await convertObject(services, a.object, a.type, match.type!) : null,
                oldObject: a.oldObject ? await convertObject(services, a.oldObject, a.type, match.type!) : null,
              };
            } catch (e) {
              if (!(e instanceof ConversionFailure)) throw e;
              configError(policy, binding, `failed to convert object version: ${e.message}`);
              continue;
            }
            const actions = (Array.isArray(obj(binding.spec).validationActions) ? obj(binding.spec).validationActions : []) as string[];
            for (const param of params) {
              const result = policyCompiled.validate({ ...versioned, request, namespaceObject: ns, params: param, authorizer: authorizerContext(services, a) });
              result.decisions.forEach((d: Decision, i: number) => {
                if (d.action !== 'deny') return;
                for (const action of actions) {
                  if (action === 'Deny') denied.push({ policy, binding, message: d.message, reason: d.reason });
                  else if (action === 'Warn') a.warnings.push(`Validation failed for ValidatingAdmissionPolicy '${name}' with binding '${binding.metadata?.name}': ${d.message}`);
                  else if (action === 'Audit') {
                    // publishValidationFailureAnnotation: AddAnnotation keeps the first value of a key.
                    a.auditAnnotations['validation.policy.admission.k8s.io/validation_failure'] ??= JSON.stringify([
                      { message: d.message, policy: obj(binding.spec).policyName, binding: binding.metadata?.name, expressionIndex: i, validationActions: actions },
                    ]);
                  }
                }
              });
              for (const an of result.auditAnnotations) {
                if (an.action === 'publish') {
                  const list = annotations.get(an.key) ?? [];
                  const value = an.value.length > 10 * 1024 ? an.value.slice(0, 10 * 1024) : an.value;
                  if (!list.includes(value)) list.push(value);
                  annotations.set(an.key, list);
                } else if (an.action === 'error') denied.push({ policy, binding, message: an.error });
              }
            }
          }
          for (const [key, values] of annotations) a.auditAnnotations[`${name}/${key}`] = values.join(', ');
        }
        if (denied.length === 0) return;
        const first = denied[0]!;
        const message = first.binding
          ? `ValidatingAdmissionPolicy '${first.policy.metadata?.name}' with binding '${first.binding.metadata?.name}' denied request: ${first.message}`
          : `ValidatingAdmissionPolicy '${first.policy.metadata?.name}' denied request: ${first.message}`;
        const base = forbidden({ group: a.type.group, resource: a.type.plural }, extractResourceName(a), message);
        const reason = (first.reason || 'Invalid') as NonNullable<Status['reason']>;
        throw new StatusError({ ...base.status, reason, code: reasonToCode(reason), details: { ...base.status.details, causes: [{ message }] } });
      })();
    },
  };
}
