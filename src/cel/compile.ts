// Compiling x-kubernetes-validations rules of one schema node (apiextensions-apiserver
// pkg/apiserver/schema/cel/compilation.go): parse and type-check against the node's DeclType,
// require a bool result (a string for messageExpression), find oldSelf uses, estimate the cost.
import { Optional, type Environment } from '@marcbachmann/cel-js';
import type { ValidationRule } from '../schema/types.ts';
import { estimateCost } from './cost.ts';
import { maxCardinality, type DeclType } from './decl-type.ts';
import { nodeEnvironment, type NodeEnvironment } from './environment.ts';
import { formatCheckError } from './errors.ts';
import { celLogicalErrors, patchEngine, uncheckedSemantics } from './engine-patches.ts';
import { MATCHES_FUNCTION } from './library/regex.ts';
import { resolveQualifiedNames } from './qualified-names.ts';
import { engineDepthError, exceedsRecursionDepth, isStackOverflow, RECURSION_ERROR, recursionErrorOnOverflow } from './recursion-depth.ts';
import { applyListSemantics } from './list-semantics-hook.ts';
import { applyOverrides, registryOf } from './overload-overrides.ts';
import { markKubefakeRegistry } from './engine-internals.ts';
import { converter, type Converter } from './values.ts';
import { applyDirectAccess } from './direct-access.ts';
import { childNodes } from './ast-walk.ts';

/** A compiled, type-checked expression, ready to evaluate against converted values. */
export interface Program {
  /** Evaluates with JSON values of `self` and (if any) `oldSelf`; throws the engine's errors. */
  run(self: unknown, oldSelf: unknown, hasOldSelf: boolean): unknown;
}

export interface CompileError {
  type: 'Invalid' | 'Required' | 'Internal';
  detail: string;
}

/** CompilationResult of one rule. */
export interface CompiledRule {
  rule: ValidationRule;
  program: Program | undefined;
  error: CompileError | undefined;
  usesOldSelf: boolean;
  /** Worst-case cost of one evaluation. */
  maxCost: number;
  /** How often the rule may run per request under unbounded lists/maps (from the node's minimum size). */
  maxCardinality: number;
  messageProgram: Program | undefined;
  messageError: CompileError | undefined;
  messageMaxCost: number;
}

interface EngineAst {
  op: string;
  args: unknown;
  meta: { check: unknown; evaluate: unknown; alternate?: unknown };
  clone(op: { name: string; check: unknown; evaluate: unknown }, args: unknown): EngineAst;
  setMeta(key: string, value: unknown): EngineAst;
}

export interface Parsed {
  (ctx: Record<string, unknown>): unknown;
  ast: EngineAst;
  check(): { valid: boolean; type?: string; error?: unknown };
}


/**
 * Points `x.matches(re)` at the RE2 implementation: the engine's own `matches` uses JS RegExp
 * (no inline flags, backtracking) and cannot be overridden, so the call node gets an alternate.
 */
function rewriteMatches(n: EngineAst): void {
  for (const c of childNodes(n)) rewriteMatches(c);
  const a = n.args as unknown[];
  if (n.op === 'rcall' && a[0] === 'matches' && (a[2] as unknown[]).length === 1 && n.meta.alternate === undefined) {
    n.setMeta('alternate', n.clone({ name: 'rcall', check: n.meta.check, evaluate: n.meta.evaluate }, [MATCHES_FUNCTION, a[1], a[2]]));
  }
}

function usesVariable(n: EngineAst, name: string): boolean {
  if (n.op === 'id' && n.args === name) return true;
  return childNodes(n).some((c) => usesVariable(c, name));
}

export interface Checked {
  parsed?: Parsed;
  type?: string;
  error?: string;
}

/** Parses (with `matches` on RE2) and type-checks an expression; errors in cel-go's words. */
export function parseAndCheck(env: Environment, expression: string, options: { skipCheck?: boolean } = {}): Checked {
  // cel-go's semantics for engine built-ins (timestamps, durations, ext.Strings), before checking.
  applyOverrides(env);
  patchEngine();
  // The engine fixes act on kubefake's environments only (engine-internals.ts).
  markKubefakeRegistry(registryOf(env));
  let parsed: Parsed;
  try {
    parsed = env.parse(expression) as unknown as Parsed;
  } catch (e) {
    // The engine's parser recurses per `!`/`-` too: how deep it gets depends on the stack in use.
    if (isStackOverflow(e)) return { error: RECURSION_ERROR };
    return { error: engineDepthError(expression, e) ?? formatCheckError(expression, e) };
  }
  if (exceedsRecursionDepth(parsed.ast)) return { error: RECURSION_ERROR };
  try {
    return checkParsed(expression, parsed, options);
  } catch (e) {
    // Nesting cel-go folds or balances (runs of `!`, long `&&` chains) but the engine's passes
    // recurse through: refused with the parser's recursion error rather than a 500.
    if (isStackOverflow(e)) return { error: RECURSION_ERROR };
    throw e;
  }
}

function checkParsed(expression: string, parsed: Parsed, options: { skipCheck?: boolean }): Checked {
  rewriteMatches(parsed.ast);
  resolveQualifiedNames(parsed.ast);
  // Without a check, type errors surface only where evaluated, as in cel-go (engine-patches.ts).
  if (options.skipCheck) uncheckedSemantics(parsed.ast);
  if (options.skipCheck) return { parsed, type: 'dyn' };
  let result: { valid: boolean; type?: string; error?: unknown };
  try {
    result = parsed.check();
  } catch (e) {
    if (isStackOverflow(e)) throw e;
    // The checker throws plain Errors on its own bugs (overlapping overloads on empty lists).
    result = { valid: false, error: e };
  }
  if (!result.valid) {
    if (isStackOverflow(result.error)) throw result.error;
    return { error: formatCheckError(expression, result.error) };
  }
  applyListSemantics(parsed.ast);
  celLogicalErrors(parsed.ast);
  return { parsed, type: result.type };
}

function program(env: NodeEnvironment, decl: DeclType, parsed: Parsed, optionalOldSelf: boolean): Program {
  applyDirectAccess(parsed.ast, env.classes.values());
  // Built at the first evaluation: a CRD write compiles every rule but evaluates none.
  let convert: Converter | undefined;
  return {
    run(self, oldSelf, hasOldSelf) {
      convert ??= converter(decl, env.classes);
      if (optionalOldSelf) return parsed({ self: convert(self), oldSelf: hasOldSelf ? Optional.of(convert(oldSelf)) : Optional.none() });
      return parsed(hasOldSelf ? { self: convert(self), oldSelf: convert(oldSelf) } : { self: convert(self) });
    },
  };
}

/** Environments of one node, built on first use: oldSelf plain or optional. */
class NodeEnvironments {
  private plain: NodeEnvironment | undefined;
  private optional: NodeEnvironment | undefined;
  private readonly decl: DeclType;
  constructor(decl: DeclType) {
    this.decl = decl;
  }
  get(optionalOldSelf: boolean): NodeEnvironment {
    if (optionalOldSelf) return (this.optional ??= nodeEnvironment(this.decl, true));
    return (this.plain ??= nodeEnvironment(this.decl, false));
  }
}

/** Compile: every rule of a node, in order, against its DeclType. */
export function compileRules(rules: readonly ValidationRule[], decl: DeclType): CompiledRule[] {
  const envs = new NodeEnvironments(decl);
  const cardinality = maxCardinality(decl.minSerializedSize);
  return rules.map((rule) => compileRule(rule, decl, envs.get(rule.optionalOldSelf === true), cardinality));
}

function compileRule(rule: ValidationRule, decl: DeclType, env: NodeEnvironment, cardinality: number): CompiledRule {
  const result: CompiledRule = {
    rule,
    program: undefined,
    error: undefined,
    usesOldSelf: false,
    maxCost: 0,
    maxCardinality: 0,
    messageProgram: undefined,
    messageError: undefined,
    messageMaxCost: 0,
  };
  if ((rule.rule ?? '').trim().length === 0) return result;
  const checked = parseAndCheck(env.env, rule.rule);
  if (checked.error !== undefined) {
    result.error = { type: 'Invalid', detail: 'compilation failed: ' + checked.error };
    return result;
  }
  if (checked.type !== 'bool') {
    result.error = { type: 'Invalid', detail: 'cel expression must evaluate to a bool' };
    return result;
  }
  const optionalOldSelf = rule.optionalOldSelf === true;
  // The passes after checking recurse too: where the stack let parsing and checking through but
  // not them (seen in a worker thread for 3,000 `||` terms), the answer is still the recursion
  // error, not a 500.
  const passes = recursionErrorOnOverflow(() => ({
    usesOldSelf: usesVariable(checked.parsed!.ast, 'oldSelf'),
    program: program(env, decl, checked.parsed!, optionalOldSelf),
    maxCost: estimateCost(checked.parsed!.ast, decl).max,
  }));
  if ('error' in passes) {
    result.error = { type: 'Invalid', detail: 'compilation failed: ' + passes.error };
    return result;
  }
  Object.assign(result, passes.value);
  result.maxCardinality = cardinality;
  const messageExpression = rule.messageExpression ?? '';
  if (messageExpression !== '') {
    const msg = parseAndCheck(env.env, messageExpression);
    if (msg.error !== undefined) {
      result.messageError = { type: 'Invalid', detail: 'messageExpression compilation failed: ' + msg.error };
      return result;
    }
    if (msg.type !== 'string') {
      result.messageError = { type: 'Invalid', detail: 'messageExpression must evaluate to a string' };
      return result;
    }
    result.messageProgram = program(env, decl, msg.parsed!, optionalOldSelf);
    result.messageMaxCost = estimateCost(msg.parsed!.ast, decl).max;
  }
  return result;
}

