// Every library of the Kubernetes CEL base environment (apiserver pkg/cel/environment/base.go)
// that the engine does not provide itself.
import type { Environment } from '@marcbachmann/cel-js';
import { registerComprehensions } from './comprehensions.ts';
import { registerLists } from './lists.ts';
import { registerRegex } from './regex.ts';
import { registerSets } from './sets.ts';
import { registerStdFills } from './std-fills.ts';
import { registerStrings } from './strings.ts';

export function registerLibraries(env: Environment): void {
  registerStdFills(env);
  registerRegex(env);
  registerLists(env);
  registerStrings(env);
  registerSets(env);
  registerComprehensions(env);
}
