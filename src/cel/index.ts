// `kubefake/cel`: Kubernetes CEL validation rules without a cluster. Compile a rule against the
// schema node it sits on (the errors a CRD write would report, its estimated cost), evaluate it on
// values, or validate a whole object against a schema's x-kubernetes-validations as a custom
// resource write does.
// First: on an unsupported Node.js, fail with one sentence before any dependency loads.
import '../node-support.ts';
import { fieldErrorMessage } from '../errors/field-error.ts';
import { compileSchema } from '../schema/compile.ts';
import type { JSONSchemaProps, ValidationRule } from '../schema/types.ts';
import { compileRules, parseAndCheck } from './compile.ts';
import { schemaDeclType } from './decl-type.ts';
import { baseEnvironment } from './environment.ts';
import { runtimeErrorMessage } from './errors.ts';
import { metered, meterEnvironment } from './runtime-cost.ts';
import { CelValidator, PER_CALL_LIMIT } from './validator.ts';

export type { JSONSchemaProps, ValidationRule };
export { PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET } from './validator.ts';
export { STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT } from './crd-compiler.ts';

/** The outcome of evaluating one rule. */
export interface EvaluationResult {
  /** True when the rule holds. */
  valid: boolean;
  /** For a failed rule: messageExpression's result, else message, else `failed rule: <rule>`. */
  message?: string;
  /** A runtime error in cel-go's words (`no such key: x`), or the cost limit being hit. */
  error?: string;
  /** Runtime cost used (one unit per evaluated step, plus string and list traversals). */
  cost: number;
}

/** A rule compiled against its schema node, ready to evaluate. */
export interface CompiledRule {
  /** Compile errors as the CRD write reports them (`compilation failed: ERROR: <input>:1:6: ...`). */
  errors: string[];
  /** Worst-case cost of one evaluation, as cel-go's estimator computes it from the schema's bounds. */
  cost: number;
  /** The rule reads `oldSelf`: a transition rule, evaluated on updates only (unless `optionalOldSelf`). */
  usesOldSelf: boolean;
  /** Evaluates on JSON values; a transition rule without `oldSelf` is not evaluated (valid). */
  evaluate(self: unknown, oldSelf?: unknown): EvaluationResult;
}

/** Options of compile(). */
export interface CompileOptions {
  /** The schema is the root of a resource (adds apiVersion, kind, metadata.name/generateName). Default false. */
  resourceRoot?: boolean;
}

/** Compiles one rule against the schema of the node it is declared on. */
export function compile(rule: string | ValidationRule, schema: JSONSchemaProps, options: CompileOptions = {}): CompiledRule {
  const r: ValidationRule = typeof rule === 'string' ? { rule } : rule;
  const decl = schemaDeclType(schema, options.resourceRoot === true);
  if (decl === undefined) {
    return { errors: ['schema is not visible to CEL (no type, or items/additionalProperties without one)'], cost: 0, usesOldSelf: false, evaluate: () => ({ valid: false, error: 'not compiled', cost: 0 }) };
  }
  const [cr] = compileRules([r], decl);
  const errors = [cr!.error?.detail, cr!.messageError?.detail].filter((e): e is string => e !== undefined);
  // Everything an evaluation needs that does not depend on the values, worked out once.
  const { program, messageProgram, usesOldSelf } = cr!;
  const needsOldSelf = usesOldSelf && r.optionalOldSelf !== true;
  const staticMessage = r.message ? r.message.trim() : `failed rule: ${(r.rule ?? '').trim()}`;
  return {
    errors,
    cost: cr!.maxCost,
    usesOldSelf,
    evaluate(self, oldSelf) {
      if (!program) return { valid: false, error: errors[0] ?? 'empty rule', cost: 0 };
      const hasOld = oldSelf !== undefined;
      if (needsOldSelf && !hasOld) return { valid: true, cost: 0 };
      const out = metered(PER_CALL_LIMIT, () => program.run(self, oldSelf, hasOld));
      if (out.exceeded) return { valid: false, error: 'operation cancelled: actual cost limit exceeded', cost: out.cost };
      if (out.error !== undefined) return { valid: false, error: runtimeErrorMessage(out.error), cost: out.cost };
      if (out.value === true) return { valid: true, cost: out.cost };
      let message: string | undefined;
      if (messageProgram) {
        const m = metered(PER_CALL_LIMIT, () => messageProgram.run(self, oldSelf, hasOld));
        if (typeof m.value === 'string' && m.value.trim() !== '' && !m.value.includes('\n')) message = m.value.trim();
      }
      return { valid: false, message: message ?? staticMessage, cost: out.cost };
    },
  };
}

/** Compiles and evaluates in one go; throws on compile errors. */
export function evaluate(rule: string | ValidationRule, schema: JSONSchemaProps, self: unknown, oldSelf?: unknown): EvaluationResult {
  const compiled = compile(rule, schema);
  if (compiled.errors.length > 0) throw new Error(compiled.errors.join('\n'));
  return compiled.evaluate(self, oldSelf);
}

/**
 * Every x-kubernetes-validations rule of a CRD version's openAPIV3Schema over an object (and its
 * old version, for transition rules and ratcheting), as a custom resource write runs them.
 * Errors and warnings are rendered as the apiserver renders field errors.
 */
export function validate(schema: JSONSchemaProps, obj: unknown, old?: unknown): { errors: string[]; warnings: string[] } {
  const result = new CelValidator(compileSchema(schema)).validate(obj, old);
  return { errors: result.errors.map(fieldErrorMessage), warnings: result.warnings };
}

/** A CEL expression compiled by compileExpression(). */
export interface Expression {
  /** The checked result type (`bool`, `int`, `list<string>`), or undefined with `error`. */
  type?: string;
  /** The parse or check error, in cel-go's format; evaluate() then answers undefined. */
  error?: string;
  /** Evaluates with the variables' values (CEL values: bigint for int); throws the evaluation error. */
  evaluate(bindings?: Record<string, unknown>): unknown;
}

/** Options of compileExpression(). */
export interface ExpressionOptions {
  /** Evaluate without the static type check (runtime checks only). */
  disableCheck?: boolean;
  /** Kubernetes requires list and map literals of one type (default true); cel-go's default is false. */
  homogeneousAggregateLiterals?: boolean;
}

/**
 * A plain CEL expression in the Kubernetes environment (all libraries), with variables declared by
 * CEL type name (`int`, `list<string>`, `dyn`). Values are CEL values: bigint for int, Date for
 * timestamps. For conformance suites and experiments.
 */
export function compileExpression(expression: string, variables: Record<string, string> = {}, options: ExpressionOptions = {}): Expression {
  const env = baseEnvironment().clone({ enableOptionalTypes: true, homogeneousAggregateLiterals: options.homogeneousAggregateLiterals ?? true, unlistedVariablesAreDyn: false });
  for (const [name, type] of Object.entries(variables)) env.registerVariable(name, type);
  meterEnvironment(env);
  const checked = parseAndCheck(env, expression, { skipCheck: options.disableCheck === true });
  if (checked.error !== undefined) return { error: checked.error, evaluate: () => undefined };
  const parsed = checked.parsed!;
  return {
    type: checked.type,
    evaluate: (bindings = {}) => {
      const out = metered(PER_CALL_LIMIT, () => parsed(bindings));
      if (out.error !== undefined) throw out.error;
      return out.value;
    },
  };
}
