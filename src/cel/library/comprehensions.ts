// Two-variable comprehensions (cel-go ext.TwoVarComprehensions, Kubernetes 1.32+): all, exists,
// existsOne / exists_one, transformList, transformMap and transformMapEntry with (index, value) on
// lists and (key, value) on maps, as custom macros of the engine. Errors follow CEL's quantifier
// rules: all/exists absorb an error when another element decides the result.
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';
import type { IterationScope, NodeShape } from '../engine-internals.ts';

type Node = NodeShape;
type Ctx = IterationScope;
interface Checker {
  check(n: Node, ctx: Ctx): { kind: string; name: string; keyType?: unknown; valueType?: unknown };
  getType(name: string): unknown;
  registry: { getListType(t: unknown): unknown; getMapType(k: unknown, v: unknown): unknown };
  dynType: unknown;
  intType: unknown;
  boolType: unknown;
  createError(code: string, msg: string, node: Node): Error;
}
interface Evaluator {
  run(n: Node, ctx: Ctx): unknown;
  tryEval(n: Node, ctx: Ctx): unknown;
}
interface Macro {
  receiver: Node;
  vars: [string, string];
  args: Node[];
  ctx1?: Ctx;
  ctx2?: Ctx;
}

type Kind = 'all' | 'exists' | 'existsOne' | 'transformList' | 'transformMap' | 'transformMapEntry';

function varName(n: Node): string {
  if (n.op !== 'id') throw new EvaluationError('argument must be a simple name');
  return n.args as string;
}

function entries(coll: unknown): [unknown, unknown][] {
  if (Array.isArray(coll)) return coll.map((v, i) => [BigInt(i), v]);
  if (coll instanceof Set) return [...coll].map((v, i) => [BigInt(i), v]);
  if (coll instanceof Map) return [...coll.entries()];
  if (coll && typeof coll === 'object') return Object.entries(coll);
  throw new EvaluationError('expression cannot be range of a comprehension (must be list, map, or dynamic)');
}

function macro(kind: Kind) {
  return ({ args, receiver }: { args: Node[]; receiver: Node }) => ({
    receiver,
    vars: [varName(args[0]!), varName(args[1]!)] as [string, string],
    args: args.slice(2),
    typeCheck(chk: Checker, m: Macro, ctx: Ctx) {
      const t = chk.check(m.receiver, ctx);
      const [t1, t2] = t.kind === 'list' ? [chk.intType, t.valueType] : t.kind === 'map' ? [t.keyType, t.valueType] : [chk.dynType, chk.dynType];
      m.ctx1 = ctx.forkWithVariable(m.vars[0], t1);
      m.ctx2 = m.ctx1.forkWithVariable(m.vars[1], t2);
      const types = m.args.map((a) => chk.check(a, m.ctx2!));
      switch (kind) {
        case 'transformList':
          return chk.registry.getListType(types[types.length - 1]);
        case 'transformMap':
          return chk.registry.getMapType(t1, types[types.length - 1]);
        case 'transformMapEntry':
          return chk.registry.getMapType(chk.dynType, chk.dynType);
        default:
          return chk.boolType;
      }
    },
    evaluate(ev: Evaluator, m: Macro, ctx: Ctx) {
      const list = entries(ev.run(m.receiver, ctx));
      const c1 = m.ctx1!.reuse(ctx);
      const c2 = m.ctx2!.reuse(c1);
      const bind = (k: unknown, v: unknown): Ctx => (c1.setIterValue(k, ev), c2.setIterValue(v, ev));
      const filter = m.args.length === 2 ? m.args[0] : undefined;
      const body = m.args[m.args.length - 1]!;
      switch (kind) {
        case 'all':
        case 'exists': {
          let error: unknown;
          for (const [k, v] of list) {
            const r = ev.tryEval(body, bind(k, v));
            if (r instanceof Error) error ??= r;
            else if (r === (kind === 'exists')) return r;
          }
          if (error) throw error;
          return kind === 'all';
        }
        case 'existsOne': {
          let n = 0;
          for (const [k, v] of list) if (ev.run(body, bind(k, v)) === true) n++;
          return n === 1;
        }
        case 'transformList': {
          const out: unknown[] = [];
          for (const [k, v] of list) {
            const c = bind(k, v);
            if (filter && ev.run(filter, c) !== true) continue;
            out.push(ev.run(body, c));
          }
          return out;
        }
        default: {
          const out = new Map<unknown, unknown>();
          for (const [k, v] of list) {
            const c = bind(k, v);
            if (filter && ev.run(filter, c) !== true) continue;
            const r = ev.run(body, c);
            if (kind === 'transformMap') out.set(k, r);
            else for (const [ek, evv] of entries(r)) {
              if (out.has(ek)) throw new EvaluationError(`insert failed: key ${String(ek)} already exists`);
              out.set(ek, evv);
            }
          }
          return out;
        }
      }
    },
  });
}

export function registerComprehensions(env: Environment): void {
  const reg = (sig: string, kind: Kind) => env.registerFunction(sig, macro(kind) as unknown as (...a: unknown[]) => unknown);
  reg('list.all(ast, ast, ast): bool', 'all');
  reg('list.exists(ast, ast, ast): bool', 'exists');
  reg('list.existsOne(ast, ast, ast): bool', 'existsOne');
  reg('list.exists_one(ast, ast, ast): bool', 'existsOne');
  reg('list.transformList(ast, ast, ast): list<dyn>', 'transformList');
  reg('list.transformList(ast, ast, ast, ast): list<dyn>', 'transformList');
  reg('list.transformMap(ast, ast, ast): map<dyn, dyn>', 'transformMap');
  reg('list.transformMap(ast, ast, ast, ast): map<dyn, dyn>', 'transformMap');
  reg('list.transformMapEntry(ast, ast, ast): map<dyn, dyn>', 'transformMapEntry');
  reg('list.transformMapEntry(ast, ast, ast, ast): map<dyn, dyn>', 'transformMapEntry');
}
