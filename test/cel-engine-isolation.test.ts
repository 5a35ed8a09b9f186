// kubefake's fixes of @marcbachmann/cel-js (src/cel/engine-patches.ts, optional-syntax.ts) patch
// shared engine objects; they must act only on kubefake's own environments. A program that also
// uses the engine directly keeps the engine's behaviour after kubefake has compiled expressions.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

/** Expressions each fix changes, evaluated by a plain engine environment. */
const PROBES = [
  "{1: 'a'}", // typed map keys
  "has({'a': 1}.a)", // has() over any select
  '.5', // leading-dot double
  "b'\u00ff'.size()", // UTF-8 bytes literal
  '[?optional.none(), 1]', // optional list elements
  '{?1: optional.none()}', // optional map entries
  '[].all(x, x > 0)', // type variables in macros
  'optional.none().?x', // selection on a free type parameter
  'type(null)', // null_type
];

/** The same fixes through kubefake's environment, which does get cel-go's answers. */
const KUBEFAKE_EXPRESSIONS = [
  "{1: 'a'}",
  "has({'a': 1}.a)",
  '.5',
  "b'\u00ff'.size()",
  '[?optional.none(), 1]',
  '{?1: optional.none()}.size()',
  '[].all(x, x > 0)',
  'optional.none().?x.hasValue()',
];

interface ProbeResult {
  before: string[];
  after: string[];
  kubefake: unknown[];
}

/**
 * Runs the probes in a worker thread (test/support/cel-engine-probe.ts): a module graph of its
 * own, in which kubefake's CEL is loaded only after "before" is taken, even when this file shares
 * a test worker with files that loaded it already.
 */
function runProbes(): Promise<ProbeResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./support/cel-engine-probe.ts', import.meta.url), {
      execArgv: [],
      stderr: true,
      workerData: { probes: PROBES, kubefakeExpressions: KUBEFAKE_EXPRESSIONS },
    });
    worker.once('message', (result: ProbeResult) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
    let stderr = '';
    worker.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    worker.once('exit', (code) => reject(new Error(`probe worker exited with ${code} before answering: ${stderr}`)));
  });
}

describe('engine patches and other users of the engine', () => {
  it('a plain Environment behaves the same before and after a kubefake compile', async () => {
    const { before, after, kubefake } = await runProbes();
    // The kubefake environment does get cel-go's answers for the same expressions.
    expect(kubefake).toEqual([new Map([[1n, 'a']]), true, 0.5, 2n, [1n], 0n, true, false]);

    expect(after).toEqual(before);
    // The engine's own answers, as a check that the probes exercise the unpatched paths.
    expect(after[2]).toMatch(/^error /);
    expect(after[4]).toMatch(/^error /);
  });
});
