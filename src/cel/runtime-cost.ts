// The runtime cost budget. @marcbachmann/cel-js has no cost tracking, but every sub-expression is
// evaluated through its Evaluator's `run`, so counting those calls meters an evaluation. One
// evaluated node costs 1, as an ident, select or call does in cel-go; library functions that
// traverse strings or lists add their traversal cost through `chargeCost`.
// The meter goes on the evaluators of kubefake's own environments only (their prototype becomes a
// child of Evaluator.prototype whose `run` counts), not on Evaluator.prototype itself: the engine
// stays untouched for anyone else in the process (and the bare-engine benchmark measures the bare
// engine). An environment's evaluator is not exported; the engine hands it to the root node of an
// expression it evaluates, so a probe expression's root catches it. Pinned library version; a
// moved seam throws at the first compile.
import type { Environment } from '@marcbachmann/cel-js';

/** Thrown (and re-thrown on every later step) once an evaluation is over its budget. */
export class CostLimitExceeded extends Error {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
  }
}

// The running evaluation's step count and limit, as two plain numbers: the check runs on every
// evaluated node. Outside `metered` the limit is Infinity (the count still moves; nothing reads it).
let used = 0;
let limit = Infinity;

type Evaluator = { run(ast: unknown, ctx: unknown): unknown };

// The metered evaluator prototype: the engine's Evaluator.prototype with a counting `run` on top,
// made once. Kubefake's evaluators are switched onto it, so that `run` stays a prototype method
// (an own property per instance would make every `ev.run(...)` of the engine a slower call).
let meteredPrototype: object | undefined;

interface Node {
  evaluate(ev: unknown, ast: Node, ctx: unknown): unknown;
}

// Evaluator#run of the pinned engine is `return ast.evaluate(this, ast, ctx)`: when it still reads
// so, the metered run does the same itself (one call less on every evaluated node), else it calls it.
const ENGINE_RUN = /^run\(ast, ?ctx\) ?\{\s*return ast\.evaluate\(this, ?ast, ?ctx\);?\s*\}$/;

function meteredPrototypeOver(engine: Evaluator): object {
  const run = engine.run;
  const proto = Object.create(engine) as Evaluator;
  proto.run = ENGINE_RUN.test(String(run))
    ? function meteredRun(this: unknown, ast: unknown, ctx: unknown): unknown {
        if (++used > limit) throw new CostLimitExceeded();
        return (ast as Node).evaluate(this, ast as Node, ctx);
      }
    : function meteredRun(this: unknown, ast: unknown, ctx: unknown): unknown {
        if (++used > limit) throw new CostLimitExceeded();
        return run.call(this, ast, ctx);
      };
  return proto;
}

/** The evaluator of `env`: the engine passes it to the root node's `evaluate` of what it evaluates. */
function evaluatorOf(env: Environment): object {
  const probe = env.parse('true') as unknown as { (ctx: object): unknown; ast: { evaluate: (ev: unknown) => unknown } };
  let evaluator: unknown;
  probe.ast.evaluate = (ev) => ((evaluator = ev), true);
  probe({});
  if (typeof evaluator !== 'object' || evaluator === null) throw new Error('@marcbachmann/cel-js: the evaluator was not handed to the root node; the runtime cost meter cannot be installed');
  return evaluator;
}

/** Meters every evaluation step of `env` (a clone of the base environment). */
export function meterEnvironment(env: Environment): void {
  const evaluator = evaluatorOf(env);
  const proto = Object.getPrototypeOf(evaluator) as Evaluator | null;
  if (proto === meteredPrototype) return;
  if (typeof proto?.run !== 'function') throw new Error('@marcbachmann/cel-js: Evaluator.prototype.run not found; the runtime cost meter cannot be installed');
  meteredPrototype ??= meteredPrototypeOver(proto);
  if (Object.getPrototypeOf(meteredPrototype) !== proto) throw new Error('@marcbachmann/cel-js: environments with different Evaluator classes; the runtime cost meter cannot be installed');
  Object.setPrototypeOf(evaluator, meteredPrototype);
}

/** Adds a library function's own cost (string traversal, list scans) to the running evaluation. */
export function chargeCost(units: number): void {
  used += Math.ceil(units);
  if (used > limit) throw new CostLimitExceeded();
}

/** Runs `fn` under a cost limit; returns its result or error and the cost it used. A nested call meters on its own. */
export function metered<T>(lim: number, fn: () => T): { value?: T; error?: unknown; cost: number; exceeded: boolean } {
  const outerUsed = used;
  const outerLimit = limit;
  used = 0;
  limit = lim;
  try {
    const value = fn();
    return { value, cost: used, exceeded: used > lim };
  } catch (error) {
    return { error, cost: used, exceeded: used > lim || error instanceof CostLimitExceeded };
  } finally {
    used = outerUsed;
    limit = outerLimit;
  }
}
