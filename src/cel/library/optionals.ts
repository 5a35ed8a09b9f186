// cel-go's optional library (cel.OptionalTypes(), all versions, as apiserver's base environment
// enables it) where the engine lacks it: optional.ofNonZeroValue, the optMap and optFlatMap macros,
// equality of optionals, type(optional) and `optional_type`, list first()/last(),
// optional.unwrap() and unwrapOpt(). The engine has optional.of/none, hasValue, value, or,
// orValue and `.?`/`[?]`; the `[?x]`/`{?k: v}` literals and has() over optionals are in
// ../optional-syntax.ts.
import { Environment, EvaluationError, Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { celTypeName } from '../errors.ts';
import { installOptionalSyntax } from '../optional-syntax.ts';
import type { IterationScope, NodeShape } from '../engine-internals.ts';
import { celEqual } from '../value-ops.ts';

type Node = NodeShape;
type Ctx = IterationScope;
interface Type {
  kind: string;
  name: string;
  valueType?: Type;
}
interface Checker {
  check(n: Node, ctx: Ctx): Type;
  dynType: Type;
  registry: { getOptionalType(t: Type): Type };
  createError(code: string, msg: string, node: Node): Error;
}
interface Evaluator {
  run(n: Node, ctx: Ctx): unknown;
}
interface OptMacro {
  receiver: Node;
  variable: Node;
  body: Node;
  bindCtx?: Ctx;
}

/**
 * Zero values as cel-go's traits.Zeroer reports them. Objects of a schema type are never zero:
 * apiserver's unstructuredMap does not implement IsZeroValue, so ofNonZeroValue(self.spec) is
 * always present.
 */
export function isZeroValue(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
      return v.length === 0;
    case 'bigint':
      return v === 0n;
    case 'number':
      return v === 0;
    case 'boolean':
      return !v;
    case 'object':
      if (v === null) return true;
      if (Array.isArray(v)) return v.length === 0;
      if (v instanceof Set || v instanceof Map) return v.size === 0;
      if (v instanceof Uint8Array) return v.length === 0;
      if (v instanceof UnsignedInt) return v.valueOf() === 0n;
      if (v instanceof Duration) return v.seconds === 0n && v.nanos === 0;
      if (v instanceof Date) return v.getTime() === 0;
      if (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null) return Object.keys(v).length === 0;
      return false;
    default:
      return false;
  }
}

function ensureOptional(v: unknown, what: string): Optional {
  if (v instanceof Optional) return v;
  throw new EvaluationError(`${what} must be optional`);
}

/**
 * optMap(x, e) / optFlatMap(x, e): cel-go expands them to `t.hasValue() ? optional.of(cel.bind(x,
 * t.value(), e)) : optional.none()` (without `optional.of` for optFlatMap); evaluated here
 * directly, with the receiver run once.
 */
function optMacro(name: 'optMap' | 'optFlatMap') {
  const flat = name === 'optFlatMap';
  return ({ args, receiver }: { args: Node[]; receiver: Node }) => ({
    receiver,
    variable: args[0]!,
    body: args[1]!,
    async: false,
    typeCheck(chk: Checker, m: OptMacro, ctx: Ctx): Type {
      if (m.variable.op !== 'id') throw chk.createError('invalid_macro_argument_text', `${name}() variable name must be a simple identifier`, m.variable);
      const target = chk.check(m.receiver, ctx);
      if (target.kind !== 'optional' && target.kind !== 'dyn') {
        throw chk.createError('no_matching_overload_text', `found no matching overload for 'hasValue' applied to '${celTypeName(target.name)}.()'`, m.receiver);
      }
      const valueType = target.kind === 'optional' ? target.valueType! : chk.dynType;
      m.bindCtx = ctx.forkWithVariable(m.variable.args as string, valueType);
      const bodyType = chk.check(m.body, m.bindCtx);
      if (!flat) return chk.registry.getOptionalType(bodyType);
      if (bodyType.kind === 'optional' || bodyType.kind === 'dyn') return bodyType.kind === 'dyn' ? chk.registry.getOptionalType(chk.dynType) : bodyType;
      // The expansion's `_?_:_` needs both branches optional.
      throw chk.createError('no_matching_overload_text', `found no matching overload for '_?_:_' applied to '(bool, ${celTypeName(bodyType.name)}, optional_type(T))'`, m.body);
    },
    evaluate(ev: Evaluator, m: OptMacro, ctx: Ctx): unknown {
      const target = ensureOptional(ev.run(m.receiver, ctx), `${name}() receiver`);
      if (!target.hasValue()) return Optional.none();
      const out = ev.run(m.body, m.bindCtx!.reuse(ctx).setIterValue(target.value(), ev));
      return flat ? ensureOptional(out, `${name}() result`) : Optional.of(out);
    },
  });
}

/** The value `type(optional.none())` and `optional_type` denote: one instance, as types compare by identity. */
function optionalTypeValue(): object {
  const intType = new Environment().evaluate('int') as object;
  const TypeCtor = intType.constructor as new (name: string) => object;
  return new TypeCtor('optional_type');
}

function unwrap(l: unknown[] | Set<unknown>): unknown[] {
  const out: unknown[] = [];
  for (const o of l) {
    if (!(o instanceof Optional)) throw new EvaluationError(`value ${String(o)} is not optional`);
    if (o.hasValue()) out.push(o.value());
  }
  return out;
}

const items = (l: unknown[] | Set<unknown>): unknown[] => (Array.isArray(l) ? l : [...l]);

export function registerOptionals(env: Environment): void {
  installOptionalSyntax();
  env.registerFunction('OptionalNamespace.ofNonZeroValue(A): optional<A>', (_ns: unknown, v: unknown) => (isZeroValue(v) ? Optional.none() : Optional.of(v)));
  env.registerFunction('optional.optMap(ast, ast): optional<dyn>', optMacro('optMap'));
  env.registerFunction('optional.optFlatMap(ast, ast): optional<dyn>', optMacro('optFlatMap'));
  env.registerOperator('optional<A> == optional<A>', (a: Optional, b: Optional) => (a.hasValue() && b.hasValue() ? celEqual(a.value(), b.value()) : a.hasValue() === b.hasValue()));
  const optionalType = optionalTypeValue();
  env.registerFunction('type(optional<A>): type', () => optionalType);
  env.registerConstant('optional_type', 'type', optionalType);
  env.registerFunction('list<A>.first(): optional<A>', (l: unknown[] | Set<unknown>) => {
    const xs = items(l);
    return xs.length === 0 ? Optional.none() : Optional.of(xs[0]);
  });
  env.registerFunction('list<A>.last(): optional<A>', (l: unknown[] | Set<unknown>) => {
    const xs = items(l);
    return xs.length === 0 ? Optional.none() : Optional.of(xs[xs.length - 1]);
  });
  env.registerFunction('OptionalNamespace.unwrap(list<optional<A>>): list<A>', (_ns: unknown, l: unknown[]) => unwrap(l));
  env.registerFunction('list<optional<A>>.unwrapOpt(): list<A>', (l: unknown[]) => unwrap(l));
}
