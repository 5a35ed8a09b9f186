// Regular expressions on RE2 (re2js), as cel-go runs them: `matches` (the engine's own uses JS
// RegExp, so the rule compiler points calls at `kubefakeMatches`) and the Kubernetes regex library
// (`find`, `findAll`). Patterns are compiled once per process through the schema engine's cache;
// `matches` shares the schema engine's `pattern` matcher (same Go MatchString semantics).
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';
import type { RE2JS } from 're2js';
import { compilePattern, compileSchemaPattern } from '../../schema/compile.ts';
import { chargeCost } from '../runtime-cost.ts';

/** The function name `x.matches(re)` is rewritten to (see compile.ts). */
export const MATCHES_FUNCTION = 'kubefakeMatches';

export function regex(pattern: string): RE2JS {
  const re = compilePattern(pattern);
  if (typeof re === 'string') throw new EvaluationError(re);
  return re;
}

function matches(s: string, pattern: string): boolean {
  chargeCost((s.length + 1) * 0.1 * pattern.length * 0.25);
  // The schema engine's matcher: RE2 decides validity; patterns that read the same in both engines
  // and cannot backtrack run on a native RegExp (re2js costs ~0.5 µs even for `^[a-z]*$`).
  const m = compileSchemaPattern(pattern);
  if (typeof m === 'string') throw new EvaluationError(m);
  return m.test(s);
}

function findAll(s: string, pattern: string, limit: bigint): string[] {
  chargeCost((s.length + 1) * 0.1 * pattern.length * 0.25);
  if (limit === 0n) return [];
  const m = regex(pattern).matcher(s);
  const out: string[] = [];
  while ((limit < 0n || out.length < Number(limit)) && m.find()) out.push(m.group() ?? '');
  return out;
}

export function registerRegex(env: Environment): void {
  env.registerFunction(`string.${MATCHES_FUNCTION}(string): bool`, matches);
  env.registerFunction('matches(string, string): bool', matches);
  env.registerFunction('string.find(string): string', (s: string, p: string) => findAll(s, p, 1n)[0] ?? '');
  env.registerFunction('string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1n));
  env.registerFunction('string.findAll(string, int): list<string>', findAll);
}
