// The MutatingAdmissionPolicy admission plugin (k8s.io/apiserver pkg/admission/plugin/policy:
// generic/policy_dispatcher.go Dispatch, mutating/dispatcher.go dispatchInvocations), GA and on by
// default in v1.36. Each matching policy-binding-param applies its mutations (ApplyConfiguration:
// a structured merge over the kind's apply schema; JSONPatch) in order to the request's object.
// Reinvocation: a policy that changes the object asks the chain for a second run of the mutating
// phase (registry/admission.ts); in it the `IfNeeded` policies invoked before a later change (by a
// policy, a mutating webhook or an in-tree plugin) run again.
import { extractResourceName } from '../forbidden.ts';
import { isPlainObject, type KubeObject } from '../../apis/object.ts';
import { StatusError, forbidden, type Status } from '../../errors/status-error.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import type { AdmissionPlugin } from '../../registry/admission.ts';
import { deepEqual } from '../../util/deep-equal.ts';
import type { AdmissionServices } from '../services.ts';
import { isExcludedFromPolicies } from './matching.ts';
import { admissionRequest } from './request.ts';
import { matchingBindingParams, matchingPolicy, requestNamespaceObject } from './dispatch-steps.ts';
import { authorizerContext } from '../cel-authorizer.ts';
import { ConversionFailure, convertObject } from './versioned.ts';
import type { CompiledMutatingPolicy } from './mutating-evaluator.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (isPlainObject(v) ? v : {});

const MUTATING_POLICIES_BUCKET = 'admissionregistration.k8s.io/mutatingadmissionpolicies';
const MUTATING_BINDINGS_BUCKET = 'admissionregistration.k8s.io/mutatingadmissionpolicybindings';

type Evaluator = typeof import('./mutating-evaluator.ts');
let evaluator: Evaluator | undefined;

interface PolicyError {
  policy: KubeObject;
  binding: KubeObject | undefined;
  message: string;
  reason?: Status['reason'];
}

interface Invocation {
  policy: KubeObject;
  binding: KubeObject;
  param: KubeObject | null;
  compiled: CompiledMutatingPolicy;
  resource: { group: string; version: string; resource: string };
  kind: { group: string; version: string; kind: string };
  /** The served type the rule matched (an equivalent version of the request's under Equivalent). */
  type: ResourceType;
}

/** Replaces the contents of the request's object (mutating plugins change it in place). */
function replaceObject(target: KubeObject, next: KubeObject): void {
  for (const k of Object.keys(target)) delete (target as Json)[k];
  Object.assign(target, next);
}

const MUTATING_POLICY_PLUGIN = 'MutatingAdmissionPolicy';

/** policyReinvokeContext: the IfNeeded invocations run so far, those to run again, and the object the policies last left. */
interface PolicyReinvokeState {
  previouslyInvoked: Set<string>;
  toReinvoke: Set<string>;
  lastOutput: unknown;
}

/** An invocation's identity across the chain's two runs: policy, binding and param. */
function invocationKey(inv: Invocation): string {
  const param = inv.param as { metadata?: { namespace?: string; name?: string } } | null | undefined;
  return JSON.stringify([inv.policy.metadata?.uid, inv.binding.metadata?.uid, param?.metadata?.namespace ?? '', param?.metadata?.name ?? '']);
}

export function mutatingAdmissionPolicyPlugin(services: AdmissionServices): AdmissionPlugin {
  const compiled = new WeakMap<object, CompiledMutatingPolicy>();
  return {
    name: MUTATING_POLICY_PLUGIN,
    admit(a) {
      // Without a binding there is nothing to evaluate: answered synchronously (this runs on every write).
      if (isExcludedFromPolicies(a)) return;
      const bindings = services.store.list(MUTATING_BINDINGS_BUCKET, '').map((e) => e.object);
      if (bindings.length === 0) return;
      const policies = services.store.list(MUTATING_POLICIES_BUCKET, '').map((e) => e.object);
      if (policies.length === 0) return;
      return (async () => {
        evaluator ??= await import('./mutating-evaluator.ts');
        const ev = evaluator;
        const errors: PolicyError[] = [];
        const invocations: Invocation[] = [];
        const configError = (policy: KubeObject, binding: KubeObject | undefined, err: string) =>
          errors.push({ policy, binding, message: `failed to configure ${binding ? 'binding' : 'policy'}: ${err}` });
        // generic/policy_dispatcher.go: the policy-binding-param invocations that match.
        for (const policy of policies) {
          const own = bindings.filter((b) => obj(b.spec).policyName === policy.metadata?.name);
          if (own.length === 0) continue;
          const matched = matchingPolicy(services, a, policy, configError);
          if (!matched) continue;
          const { match, paramType } = matched;
          let policyCompiled = compiled.get(policy);
          if (!policyCompiled) compiled.set(policy, (policyCompiled = ev.compileMutatingPolicy(policy)));
          for (const binding of own) {
            const params = await matchingBindingParams(services, a, policy, paramType, binding, configError);
            if (!params) continue;
            for (const param of params) invocations.push({ policy, binding, param, compiled: policyCompiled, resource: match.resource!, kind: match.kind!, type: match.type! });
          }
        }
        if (invocations.length > 0) {
          const ns = requestNamespaceObject(services, a);
          const run = async (inv: Invocation): Promise<boolean> => {
            if (!a.object) return false; // no object to patch (a delete)
            let object: KubeObject;
            let oldObject: KubeObject | null;
            try {
              object = await convertObject(services, a.object, a.type, inv.type);
              oldObject = a.oldObject ? await convertObject(services, a.oldObject, a.type, inv.type) : null;
            } catch (e) {
              if (!(e instanceof ConversionFailure)) throw e;
              errors.push({ policy: inv.policy, binding: inv.binding, message: `failed to convert object version: ${e.message}` });
              return false;
            }
            const input = { object, oldObject, request: admissionRequest(a, inv.resource, inv.kind), namespaceObject: ns, params: inv.param, authorizer: authorizerContext(services, a) };
            const matches = inv.compiled.matches(input);
            if (matches !== true) {
              if (matches !== false) errors.push({ policy: inv.policy, binding: inv.binding, message: matches.error, reason: 'Invalid' });
              return false;
            }
            const outcome = inv.compiled.mutate(input, inv.type);
            for (const error of outcome.errors) errors.push({ policy: inv.policy, binding: inv.binding, message: error, reason: 'Invalid' });
            if (deepEqual(object, outcome.object)) return false;
            // Back to the request's version (dispatcher.go converts the last versioned object back).
            try {
              replaceObject(a.object, await convertObject(services, outcome.object, inv.type, a.type));
            } catch (e) {
              if (!(e instanceof ConversionFailure)) throw e;
              errors.push({ policy: inv.policy, binding: inv.binding, message: `failed to convert object: ${e.message}` });
              return false;
            }
            return true;
          };
          // mutating/dispatcher.go with the policy reinvoke context: in the chain's first run every
          // invocation; in its second, only the IfNeeded ones invoked before a later change (by a
          // policy, a webhook or an in-tree plugin).
          const reinvocation = a.reinvocation;
          let state = reinvocation?.values.get(MUTATING_POLICY_PLUGIN) as PolicyReinvokeState | undefined;
          if (!state) {
            state = { previouslyInvoked: new Set(), toReinvoke: new Set(), lastOutput: undefined };
            reinvocation?.values.set(MUTATING_POLICY_PLUGIN, state);
          }
          const isReinvoke = reinvocation?.isReinvoke ?? false;
          const requireReinvoking = (st: PolicyReinvokeState) => {
            for (const key of st.previouslyInvoked) st.toReinvoke.add(key);
            st.previouslyInvoked.clear();
          };
          if (isReinvoke && !deepEqual(state.lastOutput, a.object)) requireReinvoking(state);
          try {
            for (const inv of invocations) {
              const key = invocationKey(inv);
              if (isReinvoke && !state.toReinvoke.has(key)) continue;
              if (await run(inv)) {
                requireReinvoking(state);
                if (reinvocation) reinvocation.shouldReinvoke = true;
              }
              if (obj(inv.policy.spec).reinvocationPolicy === 'IfNeeded') state.previouslyInvoked.add(key);
            }
          } finally {
            state.lastOutput = structuredClone(a.object);
          }
        }
        // Dispatch: failurePolicy Ignore drops an error; the first one left refuses the request.
        const failing = errors.filter((e) => obj(e.policy.spec).failurePolicy !== 'Ignore');
        if (failing.length === 0) return;
        const text = (e: PolicyError) =>
          e.binding
            ? `policy '${e.policy.metadata?.name}' with binding '${e.binding.metadata?.name}' denied request: ${e.message}`
            : `policy ${JSON.stringify(e.policy.metadata?.name ?? '')} denied request: ${e.message}`;
        const base = forbidden({ group: a.type.group, resource: a.type.plural }, extractResourceName(a), 'admission request denied by policy');
        const first = failing[0]!;
        throw new StatusError({
          ...base.status,
          message: text(first),
          reason: first.reason ?? 'Forbidden',
          details: { ...base.status.details, causes: failing.map((e) => ({ message: text(e) })) },
        });
      })();
    },
  };
}
