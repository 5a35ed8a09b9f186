// A ValidatingAdmissionPolicy compiled (plugin.go compilePolicy) and evaluated (validator.go
// Validate) on the CEL engine. Loaded with CEL, on the first request a policy binding exists for.
import { isPlainObject, type KubeObject } from '../../apis/object.ts';
import { OUT_OF_BUDGET, PolicyCompiler, RUNTIME_CEL_COST_BUDGET, type AdmissionActivation, type EvaluationResult, type Program } from '../../cel/admission-policy/compiler.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (isPlainObject(v) ? v : {});
const arr = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_MESSAGE_BYTES = 5 * 1024;

export interface Decision {
  action: 'admit' | 'deny';
  message: string;
  reason?: string;
}
export type AuditAnnotationResult = { action: 'publish'; key: string; value: string } | { action: 'error'; key: string; error: string } | { action: 'exclude'; key: string };

export interface ValidateResult {
  decisions: Decision[];
  auditAnnotations: AuditAnnotationResult[];
}

export interface CompiledPolicy {
  validate(input: AdmissionActivation): ValidateResult;
}

interface Validation {
  program: Program;
  message: string;
  reason: string | undefined;
  messageProgram: Program | undefined;
}

export function compilePolicy(policy: KubeObject): CompiledPolicy {
  const spec = obj(policy.spec);
  const hasParams = isPlainObject(spec.paramKind);
  const failurePolicy = str(spec.failurePolicy) || 'Fail';
  const errorAction: Decision['action'] = failurePolicy === 'Ignore' ? 'admit' : 'deny';
  const compiler = new PolicyCompiler({ hasParams, composition: true });
  for (const v of arr(spec.variables)) compiler.compileVariable(str(v.name), str(v.expression));
  const withAuthorizer = { hasParams, hasAuthorizer: true };
  const matchConditions = arr(spec.matchConditions).map((m) => ({ name: str(m.name), program: compiler.compile(str(m.expression), ['bool'], withAuthorizer) }));
  const validations: Validation[] = arr(spec.validations).map((v) => ({
    program: compiler.compile(str(v.expression), ['bool'], withAuthorizer),
    message: str(v.message),
    reason: typeof v.reason === 'string' ? v.reason : undefined,
    messageProgram: str(v.messageExpression) ? compiler.compile(str(v.messageExpression), ['string'], { hasParams, hasAuthorizer: false }) : undefined,
  }));
  const auditAnnotations = arr(spec.auditAnnotations).map((an) => ({ key: str(an.key), valueExpression: str(an.valueExpression), program: compiler.compile(str(an.valueExpression).trim(), ['string', 'null'], withAuthorizer) }));
  const errorDecision = (message: string): ValidateResult => ({ decisions: [{ action: errorAction, message }], auditAnnotations: [] });

  return {
    validate(input) {
      const activation = compiler.activation(input);
      // matchconditions/matcher.go: any false skips the policy; errors (when none is false) fail it as failurePolicy says.
      if (matchConditions.length > 0) {
        const errors: string[] = [];
        for (const m of matchConditions) {
          const r = m.program.evaluate(activation);
          if (r.outOfBudget) return errorDecision(r.error!);
          if (r.error !== undefined) errors.push(r.error);
          else if (r.value === false) return { decisions: [], auditAnnotations: [] };
        }
        if (errors.length > 0) {
          if (failurePolicy === 'Ignore') return { decisions: [], auditAnnotations: [] };
          // utilerrors.NewAggregate: one error prints alone, several as "[a, b]".
          return errorDecision(errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`);
        }
      }
      activation.budget = RUNTIME_CEL_COST_BUDGET;
      const results: EvaluationResult[] = [];
      for (const v of validations) {
        const r = v.program.evaluate(activation);
        if (r.outOfBudget) return errorDecision(OUT_OF_BUDGET);
        results.push(r);
      }
      const decisions: Decision[] = validations.map((v, i) => {
        const r = results[i]!;
        if (r.error !== undefined) return { action: errorAction, message: r.error };
        if (r.value === true) return { action: 'admit', message: '' };
        let message = '';
        if (v.messageProgram) {
          const m = v.messageProgram.evaluate(activation);
          if (m.outOfBudget) return { action: errorAction, message: `failed messageExpression: ${OUT_OF_BUDGET}` };
          if (typeof m.value === 'string') {
            message = m.value.trim();
            if (Buffer.byteLength(message) > MAX_MESSAGE_BYTES || message.includes('\n')) message = '';
          }
        }
        if (message === '' && v.message.length > 0) message = v.message.trim();
        if (message === '') message = `failed expression: ${v.program.expression.trim()}`;
        return { action: 'deny', message, reason: v.reason ?? 'Invalid' };
      });
      // Audit annotations run on a fresh budget (validator.go passes runtimeCELCostBudget again).
      activation.budget = RUNTIME_CEL_COST_BUDGET;
      const annotations: AuditAnnotationResult[] = [];
      for (const an of auditAnnotations) {
        const r = an.program.evaluate(activation);
        if (r.outOfBudget) return errorDecision(OUT_OF_BUDGET);
        if (r.error !== undefined) {
          annotations.push(failurePolicy === 'Ignore' ? { action: 'exclude', key: an.key } : { action: 'error', key: an.key, error: r.error });
        } else if (typeof r.value === 'string') {
          const value = r.value.trim();
          annotations.push(value === '' ? { action: 'exclude', key: an.key } : { action: 'publish', key: an.key, value });
        } else if (r.value === null) {
          annotations.push({ action: 'exclude', key: an.key });
        } else {
          annotations.push({ action: 'error', key: an.key, error: `valueExpression '${an.valueExpression}' resulted in unsupported return type: ${typeof r.value}. Return type must be either string or null.` });
        }
      }
      return { decisions, auditAnnotations: annotations };
    },
  };
}
