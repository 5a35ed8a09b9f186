// Worker script of test/cel-engine-isolation.test.ts: evaluates probe expressions with a plain
// @marcbachmann/cel-js Environment before and after kubefake's CEL is loaded and used, in a
// thread of its own, so "before" is truly before kubefake touched the engine whatever else the
// test process has loaded (test files may share a module graph).
import { Environment } from '@marcbachmann/cel-js';
import { parentPort, workerData } from 'node:worker_threads';

const { probes, kubefakeExpressions } = workerData as { probes: string[]; kubefakeExpressions: string[] };

function outcome(expression: string): string {
  const env = new Environment({ enableOptionalTypes: true });
  try {
    const v = env.evaluate(expression);
    if (v instanceof Map) return `Map ${JSON.stringify([...v].map(([k, x]) => [typeof k, String(k), String(x)]))}`;
    if (typeof v === 'object' && v !== null) return `${v.constructor.name} ${JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x))}`;
    return `${typeof v} ${String(v)}`;
  } catch (e) {
    return `error ${(e as Error).message}`;
  }
}

const before = probes.map(outcome);
const { compileExpression } = await import('../../src/cel/index.ts');
const kubefake = kubefakeExpressions.map((e): unknown => {
  const c = compileExpression(e);
  if (c.error !== undefined) return { error: c.error };
  return c.evaluate();
});
const after = probes.map(outcome);
parentPort!.postMessage({ before, after, kubefake });
