// The runtime cost budget. @marcbachmann/cel-js has no cost tracking, but every sub-expression is
// evaluated through `Evaluator.prototype.run`, so counting those calls meters an evaluation at
// (measured) no overhead. One evaluated node costs 1, as an ident, select or call does in cel-go;
// library functions that traverse strings or lists add their traversal cost through `chargeCost`.
// The evaluator is not exported: a function registered in a throwaway environment returns it
// (custom functions run with the evaluator as `this`). Pinned library version; the cel tests fail
// loudly if a version bump moves this seam.
import { Environment } from '@marcbachmann/cel-js';

/** Thrown (and re-thrown on every later step) once an evaluation is over its budget. */
export class CostLimitExceeded extends Error {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
  }
}

interface Meter {
  used: number;
  limit: number;
}

let active: Meter | undefined;

function installMeter(): void {
  const probe = new Environment().registerFunction('kubefakeEvaluator(): dyn', function (this: unknown) {
    return this;
  });
  const evaluator = probe.evaluate('kubefakeEvaluator()') as object;
  const proto = Object.getPrototypeOf(evaluator) as { run?: (ast: unknown, ctx: unknown) => unknown };
  const run = proto.run;
  if (typeof run !== 'function') throw new Error('@marcbachmann/cel-js: Evaluator.prototype.run not found; the runtime cost meter cannot be installed');
  proto.run = function meteredRun(this: unknown, ast: unknown, ctx: unknown): unknown {
    if (active !== undefined && ++active.used > active.limit) throw new CostLimitExceeded();
    return run.call(this, ast, ctx);
  };
}
installMeter();

/** Adds a library function's own cost (string traversal, list scans) to the running evaluation. */
export function chargeCost(units: number): void {
  if (active === undefined) return;
  active.used += Math.ceil(units);
  if (active.used > active.limit) throw new CostLimitExceeded();
}

/** Runs `fn` under a cost limit; returns its result or error and the cost it used. */
export function metered<T>(limit: number, fn: () => T): { value?: T; error?: unknown; cost: number; exceeded: boolean } {
  const outer = active;
  const meter: Meter = { used: 0, limit };
  active = meter;
  try {
    const value = fn();
    return { value, cost: meter.used, exceeded: meter.used > limit };
  } catch (error) {
    return { error, cost: meter.used, exceeded: meter.used > limit || error instanceof CostLimitExceeded };
  } finally {
    active = outer;
  }
}
