// CEL for admission policies and match conditions (k8s.io/apiserver pkg/admission/plugin/cel:
// compile.go, composition.go, activation.go). Every expression sees `object`, `oldObject` (dyn),
// `request` (kubernetes.AdmissionRequest), `namespaceObject` (kubernetes.Namespace), `params` (dyn,
// only when the policy has a paramKind), `authorizer` and `authorizer.requestResource` (only where
// the real compiler declares them: validations, match conditions, variables and audit annotations,
// not messageExpression), and `variables` (only when the policy declares variables; each variable
// sees the ones before it, typed by their output types). Evaluation runs under the per-call limit
// and a budget shared by the expressions of one validator, with the apiserver's texts.
import type { Environment } from '@marcbachmann/cel-js';
import { parseAndCheck, type Parsed } from '../compile.ts';
import type { DeclField, DeclType } from '../decl-type.ts';
import { baseEnvironment, declareDeclType } from '../environment.ts';
import { celTypeName, runtimeErrorMessage } from '../errors.ts';
import { metered, meterEnvironment } from '../runtime-cost.ts';
import { registerQualifiedVariable } from '../qualified-names.ts';
import { PER_CALL_LIMIT } from '../validator.ts';
import { converter } from '../values.ts';
import { hasMessageConstruction, registerPatchTypes, rewriteMessageConstruction } from './patch-types.ts';
import { AUTHORIZER_TYPE, CelAuthorizer, registerAuthorizerLibrary, requestResourceCheck, RESOURCE_CHECK_TYPE, type AuthorizerContext } from './authorizer-library.ts';

/** celconfig.RuntimeCELCostBudget: what the expressions of one policy evaluation may spend. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
export const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

export interface CelError {
  type: 'Invalid' | 'Required' | 'Internal';
  detail: string;
}

export interface OptionalDeclarations {
  hasParams: boolean;
  hasAuthorizer: boolean;
}

/** The values an evaluation sees (JSON; converted here). */
export interface AdmissionActivation {
  object: unknown;
  oldObject: unknown;
  request: Record<string, unknown>;
  namespaceObject: unknown;
  params: unknown;
  /** The request's user and the cluster's authorizer, for `authorizer` (absent: AlwaysAllow for no one). */
  authorizer?: AuthorizerContext;
}

export interface EvaluationResult {
  value?: unknown;
  /** `expression '<e>' resulted in error: <e>`, or the compilation error. */
  error?: string;
  /** The shared budget ran out: nothing after this expression runs. */
  outOfBudget?: boolean;
}

export interface CompiledExpression {
  expression: string;
  error?: CelError;
  outputType?: string;
}

// ---- declared types --------------------------------------------------------------------------

const str = (min = 2): DeclType => ({ kind: 'scalar', scalar: 'string', maxElements: 0, minSerializedSize: min });
const scalar = (s: 'bool' | 'int' | 'timestamp' | 'dyn'): DeclType => ({ kind: 'scalar', scalar: s, maxElements: 0, minSerializedSize: 1 });
const list = (elem: DeclType): DeclType => ({ kind: 'list', elem, listType: 'atomic', mapKeys: [], maxElements: 0, minSerializedSize: 2 });
const map = (elem: DeclType): DeclType => ({ kind: 'map', elem, maxElements: 0, minSerializedSize: 2 });
function object(fields: Record<string, DeclType>, jsonNames: Record<string, string> = {}): DeclType {
  const m = new Map<string, DeclField>();
  for (const [name, type] of Object.entries(fields)) m.set(name, { jsonName: jsonNames[name] ?? name, type, required: false });
  return { kind: 'object', fields: m, maxElements: 0, minSerializedSize: 2 };
}

/** BuildRequestType. */
const gvk = () => object({ group: str(), version: str(), kind: str() });
const gvr = () => object({ group: str(), version: str(), resource: str() });
const REQUEST_TYPE = object({
  kind: gvk(),
  resource: gvr(),
  subResource: str(),
  requestKind: gvk(),
  requestResource: gvr(),
  requestSubResource: str(),
  name: str(),
  namespace: str(),
  operation: str(),
  userInfo: object({ username: str(), uid: str(), groups: list(str()), extra: map(list(str())) }),
  dryRun: scalar('bool'),
  options: scalar('dyn'),
});

/** BuildNamespaceType; `UID` is the Go field name, which no JSON key matches (as upstream, it is never set). */
const NAMESPACE_TYPE = object({
  metadata: object({
    name: str(),
    generateName: str(),
    namespace: str(),
    labels: map(str()),
    annotations: map(str()),
    UID: str(),
    creationTimestamp: scalar('timestamp'),
    deletionGracePeriodSeconds: scalar('int'),
    deletionTimestamp: scalar('timestamp'),
    generation: scalar('int'),
    resourceVersion: str(),
    finalizers: list(str()),
  }),
  spec: object({ finalizers: list(str()) }),
  status: object({
    conditions: list(object({ status: str(), type: str(), lastTransitionTime: scalar('timestamp'), message: str(), reason: str() })),
    phase: str(),
  }),
});

// ---- JSON → dyn ------------------------------------------------------------------------------

/** A JSON value as a dyn CEL value: whole numbers as int, objects as maps. */
function jsonToDyn(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(jsonToDyn);
  if (v !== null && typeof v === 'object') {
    const out = new Map<string, unknown>();
    for (const [k, x] of Object.entries(v)) out.set(k, jsonToDyn(x));
    return out;
  }
  return v;
}

// ---- the lazily evaluated `variables` object -------------------------------------------------

/** The `variables` value: each variable evaluated on first read, once per evaluation context. */
class LazyVariables extends Map<string, unknown> {
  resolve: ((name: string) => unknown) | undefined;
  override get(key: string): unknown {
    if (!super.has(key) && this.resolve) super.set(key, this.resolve(key));
    const v = super.get(key);
    if (v instanceof VariableFailure) throw v.error;
    return v;
  }
  override has(key: string): boolean {
    return this.resolve !== undefined || super.has(key);
  }
}
class VariableFailure {
  readonly error: unknown;
  constructor(error: unknown) {
    this.error = error;
  }
}

// ---- the compiler of one policy ----------------------------------------------------------------

interface Variable {
  name: string;
  parsed: Parsed | undefined;
  error: CelError | undefined;
  type: string;
  env: Env | undefined;
}

interface Env {
  env: Environment;
  convertRequest: (v: unknown) => unknown;
  convertNamespace: (v: unknown) => unknown;
}

/**
 * One policy's compiler (the CompositedCompiler when the policy has variables): compile its
 * variables first, in order, then its expressions.
 */
export class PolicyCompiler {
  private readonly variables: Variable[] = [];
  private readonly composition: boolean;
  private readonly hasParams: boolean;
  private readonly envs = new Map<string, Env>();

  private readonly objectType: { decl: DeclType; name: string } | undefined;
  private readonly paramsType: { decl: DeclType; name: string } | undefined;

  /**
   * `objectType`/`paramsType`: the types the status controller's type check gives `object`,
   * `oldObject` and `params` (the kinds' schemas); dyn otherwise, as at admission time.
   */
  private readonly patchTypes: boolean;

  constructor(options: { hasParams: boolean; composition: boolean; patchTypes?: boolean; objectType?: { decl: DeclType; name: string }; paramsType?: { decl: DeclType; name: string } }) {
    this.patchTypes = options.patchTypes === true;
    this.hasParams = options.hasParams;
    this.composition = options.composition;
    this.objectType = options.objectType;
    this.paramsType = options.paramsType;
  }

  private environment(hasParams: boolean, hasAuthorizer: boolean): Env {
    const key = `${hasParams}/${hasAuthorizer}/${this.variables.length}`;
    let e = this.envs.get(key);
    if (e) return e;
    const env = baseEnvironment().clone();
    const classes = new Map<DeclType, new () => object>();
    const requestType = declareDeclType(env, REQUEST_TYPE, 'kubernetes.AdmissionRequest', classes);
    const namespaceType = declareDeclType(env, NAMESPACE_TYPE, 'kubernetes.Namespace', classes);
    registerAuthorizerLibrary(env);
    if (this.patchTypes) registerPatchTypes(env);
    const objectType = this.objectType ? declareDeclType(env, this.objectType.decl, this.objectType.name, classes) : 'dyn';
    env.registerVariable('object', objectType);
    env.registerVariable('oldObject', objectType);
    env.registerVariable('namespaceObject', namespaceType);
    env.registerVariable('request', requestType);
    if (hasParams) env.registerVariable('params', this.paramsType ? declareDeclType(env, this.paramsType.decl, this.paramsType.name, classes) : 'dyn');
    if (hasAuthorizer) {
      env.registerVariable('authorizer', AUTHORIZER_TYPE);
      registerQualifiedVariable(env, 'authorizer.requestResource', RESOURCE_CHECK_TYPE);
    }
    if (this.composition) {
      const fields: Record<string, string> = {};
      for (const v of this.variables) fields[v.name] = v.type;
      env.registerType('kubernetes.variables', { ctor: LazyVariables as unknown as new () => object, fields });
      env.registerVariable('variables', 'kubernetes.variables');
    }
    meterEnvironment(env);
    e = { env, convertRequest: converter(REQUEST_TYPE, classes), convertNamespace: converter(NAMESPACE_TYPE, classes) };
    this.envs.set(key, e);
    return e;
  }

  /** CompileAndStoreVariable: compiled with params (if any) and the authorizer. */
  compileVariable(name: string, expression: string): CompiledExpression {
    const result = this.compileWith(expression, [], { hasParams: this.hasParams, hasAuthorizer: true });
    this.variables.push({ name, parsed: result.parsed, error: result.error, type: result.outputType ?? 'dyn', env: result.env });
    return { expression, error: result.error, outputType: result.outputType };
  }

  /** CompileCELExpression: `returnTypes` empty accepts any type. */
  compile(expression: string, returnTypes: readonly string[], decls: OptionalDeclarations): Program {
    const r = this.compileWith(expression, returnTypes, decls);
    return new Program(expression, r.parsed, r.error, r.env, r.outputType);
  }

  private compileWith(expression: string, returnTypes: readonly string[], decls: OptionalDeclarations): { parsed?: Parsed; error?: CelError; env?: Env; outputType?: string } {
    const env = this.environment(decls.hasParams, decls.hasAuthorizer);
    // A mutation's message construction (`Object{...}`, `JSONPatch{...}`) in the engine's syntax.
    const source = this.patchTypes && hasMessageConstruction(expression) ? rewriteMessageConstruction(expression) : expression;
    const checked = parseAndCheck(env.env, source);
    if (checked.error !== undefined) return { error: { type: 'Invalid', detail: 'compilation failed: ' + checked.error } };
    const type = checked.type ?? 'dyn';
    if (returnTypes.length > 0 && !returnTypes.includes(type)) {
      const got = celTypeName(type);
      const want = returnTypes.map(celTypeName);
      const detail = want.length === 1 ? `must evaluate to ${want[0]} but got ${got}` : `must evaluate to one of [${want.join(' ')}] but got ${got}`;
      return { error: { type: 'Invalid', detail } };
    }
    return { parsed: checked.parsed, env, outputType: type };
  }

  /** The activation of one evaluation (its variables evaluated lazily, each once). */
  activation(input: AdmissionActivation): Activation {
    return new Activation(this, input);
  }

  /** @internal */
  variableList(): readonly Variable[] {
    return this.variables;
  }
}

/** One evaluation context: converted values, the lazy variables, the remaining budget. */
export class Activation {
  budget = RUNTIME_CEL_COST_BUDGET;
  private readonly input: AdmissionActivation;
  private readonly bound = new Map<Env, Record<string, unknown>>();
  private readonly variables = new LazyVariables();
  private object: unknown;
  private oldObject: unknown;
  private params: unknown;
  private readonly authorizer: CelAuthorizer;

  constructor(compiler: PolicyCompiler, input: AdmissionActivation) {
    this.input = input;
    this.authorizer = new CelAuthorizer(input.authorizer);
    this.object = jsonToDyn(input.object ?? null);
    this.oldObject = jsonToDyn(input.oldObject ?? null);
    this.params = jsonToDyn(input.params ?? null);
    const byName = new Map(compiler.variableList().map((v) => [v.name, v]));
    this.variables.resolve = (name) => {
      const v = byName.get(name);
      if (!v) return null;
      if (v.error || !v.parsed || !v.env) return new VariableFailure(new Error(`composited variable "${name}" fails to compile: ${v.error?.detail ?? 'unexpected internal error compiling expression'}`));
      try {
        // Evaluated inside the reading expression's meter: its cost is charged there, as
        // composition.go charges a variable's cost to the expression that first reads it.
        return v.parsed(this.bindings(v.env));
      } catch (e) {
        return new VariableFailure(e);
      }
    };
  }

  /** The bindings for an environment (the converters of request and namespace are per environment). */
  bindings(key: Env): Record<string, unknown> {
    let b = this.bound.get(key);
    if (b) return b;
    b = {
      object: this.object,
      oldObject: this.oldObject,
      request: key.convertRequest(this.input.request),
      namespaceObject: this.input.namespaceObject == null ? null : key.convertNamespace(this.input.namespaceObject),
      params: this.params,
      authorizer: this.authorizer,
      'authorizer.requestResource': requestResourceOf(this.authorizer, this.input.request),
      variables: this.variables,
    };
    this.bound.set(key, b);
    return b;
  }
}

function requestResourceOf(authorizer: CelAuthorizer, request: Record<string, unknown>) {
  const res = (request.resource ?? {}) as Record<string, string>;
  return requestResourceCheck(authorizer, { group: res.group ?? '', resource: res.resource ?? '', subresource: String(request.subResource ?? ''), namespace: String(request.namespace ?? ''), name: String(request.name ?? '') });
}

/** A compiled expression of a policy. */
export class Program implements CompiledExpression {
  readonly expression: string;
  readonly error: CelError | undefined;
  readonly outputType: string | undefined;
  private readonly parsed: Parsed | undefined;
  private readonly env: Env | undefined;
  constructor(expression: string, parsed: Parsed | undefined, error: CelError | undefined, env: Env | undefined, outputType: string | undefined) {
    this.expression = expression;
    this.parsed = parsed;
    this.error = error;
    this.env = env;
    this.outputType = outputType;
  }

  /** activation.go Evaluate: the value, or the error in the apiserver's words; spends the activation's budget. */
  evaluate(activation: Activation): EvaluationResult {
    if (this.error) return { error: `compilation error: ${this.error.detail}` };
    if (!this.parsed || !this.env) return { error: 'unexpected internal error compiling expression' };
    const parsed = this.parsed;
    const bindings = activation.bindings(this.env);
    const out = metered(PER_CALL_LIMIT, () => parsed(bindings));
    if (out.cost > activation.budget) {
      activation.budget = -1;
      return { error: OUT_OF_BUDGET, outOfBudget: true };
    }
    activation.budget -= out.cost;
    if (out.exceeded) return { error: `expression '${this.expression}' resulted in error: operation cancelled: actual cost limit exceeded` };
    if (out.error !== undefined) return { error: `expression '${this.expression}' resulted in error: ${runtimeErrorMessage(out.error)}` };
    return { value: out.value };
  }
}
