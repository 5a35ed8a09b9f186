// matchConditions (matchconditions/matcher.go on pkg/admission/plugin/cel): CEL expressions over
// `object`, `oldObject`, `request`, `authorizer` and `authorizer.requestResource` (accessors.go
// compiles them with HasAuthorizer), evaluated in order under the match-condition budget; the
// first one false excludes the webhook; errors fail closed (Forbidden) or, with failurePolicy
// Ignore, exclude it. Texts are cel.Error details (activation.go Evaluate).
import { parseAndCheck, type Parsed } from '../../cel/compile.ts';
import { baseEnvironment } from '../../cel/environment.ts';
import { runtimeErrorMessage } from '../../cel/errors.ts';
import { CostLimitExceeded, metered, meterEnvironment } from '../../cel/runtime-cost.ts';
import { PER_CALL_LIMIT } from '../../cel/validator.ts';
import { registerQualifiedVariable } from '../../cel/qualified-names.ts';
import { AUTHORIZER_TYPE, CelAuthorizer, registerAuthorizerLibrary, requestResourceCheck, RESOURCE_CHECK_TYPE, type AuthorizerContext } from '../../cel/admission-policy/authorizer-library.ts';
import type { WebhookAccessor } from './accessor.ts';
import { admissionRequest, type WebhookRequest } from './request.ts';

/** apiserver/pkg/apis/cel/config.go RuntimeCELCostBudgetMatchConditions. */
export const MATCH_CONDITIONS_COST_BUDGET = 2_500_000;

const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

interface Compiled {
  expression: string;
  parsed?: Parsed;
  error?: string;
}

// The compiled conditions of one webhook spec (spec objects are frozen with their configuration).
const compiledCache = new WeakMap<object, Compiled[]>();

function compile(hook: WebhookAccessor): Compiled[] {
  let compiled = compiledCache.get(hook.spec);
  if (!compiled) {
    const env = baseEnvironment().clone();
    // The variables of a webhook's conditions (cel.NewConditionCompiler without params, namespaceObject or variables).
    for (const name of ['object', 'oldObject', 'request']) env.registerVariable(name, 'dyn');
    registerAuthorizerLibrary(env);
    env.registerVariable('authorizer', AUTHORIZER_TYPE);
    registerQualifiedVariable(env, 'authorizer.requestResource', RESOURCE_CHECK_TYPE);
    meterEnvironment(env);
    compiled = (hook.spec.matchConditions ?? []).map(({ expression }) => {
      const checked = parseAndCheck(env, expression);
      return checked.error !== undefined ? { expression, error: checked.error } : { expression, parsed: checked.parsed! };
    });
    compiledCache.set(hook.spec, compiled);
  }
  return compiled;
}

/** JSON as CEL values: integral numbers are ints (bigint), as the unstructured converter gives int64. */
function toCel(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toCel(v);
    return out;
  }
  return value;
}

export interface MatchResult {
  matches: boolean;
  /** The error that fails the request (failurePolicy Fail). */
  error?: string;
}

export function evaluateMatchConditions(hook: WebhookAccessor, r: WebhookRequest, authorizerContext: AuthorizerContext): MatchResult {
  const ignore = hook.spec.failurePolicy === 'Ignore';
  const failed = (error: string): MatchResult => (ignore ? { matches: false } : { matches: false, error });
  const authorizer = new CelAuthorizer(authorizerContext);
  const bindings = {
    object: toCel(r.object ?? null),
    oldObject: toCel(r.oldObject ?? null),
    request: toCel(admissionRequest('', r, false)),
    authorizer,
    // NewResourceAuthorizerVal on the versioned attributes: the resource the webhook matched.
    'authorizer.requestResource': requestResourceCheck(authorizer, { group: r.resource.group, resource: r.resource.resource, subresource: r.subresource, namespace: r.namespace, name: r.name }),
  };
  let remaining = MATCH_CONDITIONS_COST_BUDGET;
  const errors: string[] = [];
  for (const condition of compile(hook)) {
    if (!condition.parsed) {
      errors.push(`compilation error: ${condition.error}`);
      continue;
    }
    const out = metered(Math.min(PER_CALL_LIMIT, remaining), () => condition.parsed!(bindings));
    if (out.cost > remaining) return failed(OUT_OF_BUDGET);
    remaining -= out.cost;
    if (out.error !== undefined) {
      const message = out.error instanceof CostLimitExceeded ? out.error.message : runtimeErrorMessage(out.error);
      errors.push(`expression '${condition.expression}' resulted in error: ${message}`);
      continue;
    }
    if (out.value === false) return { matches: false };
  }
  // utilerrors.NewAggregate: one error prints alone, more as a bracketed list.
  if (errors.length === 1) return failed(errors[0]!);
  if (errors.length > 1) return failed(`[${errors.join(', ')}]`);
  return { matches: true };
}
