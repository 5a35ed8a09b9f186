// Every library of the Kubernetes CEL base environment (apiserver pkg/cel/environment/base.go)
// that the engine does not provide itself.
import type { Environment } from '@marcbachmann/cel-js';
import { registerCIDR } from './cidr.ts';
import { registerComprehensions } from './comprehensions.ts';
import { registerExtLists } from './ext-lists.ts';
import { registerFormat } from './format.ts';
import { registerIP } from './ip.ts';
import { registerLists } from './lists.ts';
import { registerOptionals } from './optionals.ts';
import { registerQuantity } from './quantity.ts';
import { registerRegex } from './regex.ts';
import { registerSemver } from './semver.ts';
import { registerSets } from './sets.ts';
import { registerStdFills } from './std-fills.ts';
import { registerStrings, STRING_OVERRIDES } from './strings.ts';
import { TIMESTAMP_OVERRIDES } from './timestamps.ts';
import { registerURL } from './url.ts';
import { overrideOverloads, registerRegistryProbe } from '../overload-overrides.ts';
import { NULL_TYPE_OVERRIDES } from '../engine-patches.ts';
import { NUMERIC_OVERRIDES } from './numeric-semantics.ts';

let overridesRegistered = false;

export function registerLibraries(env: Environment): void {
  registerRegistryProbe(env);
  // The engine built-ins the libraries replace (overload-overrides.ts), once per process and
  // before the first compile applies them.
  if (!overridesRegistered) {
    overridesRegistered = true;
    overrideOverloads([...TIMESTAMP_OVERRIDES, ...NUMERIC_OVERRIDES, ...NULL_TYPE_OVERRIDES, ...STRING_OVERRIDES]);
  }
  registerStdFills(env);
  registerRegex(env);
  registerLists(env);
  registerExtLists(env);
  registerStrings(env);
  registerSets(env);
  registerComprehensions(env);
  registerOptionals(env);
  registerURL(env);
  registerIP(env);
  registerCIDR(env);
  registerQuantity(env);
  registerSemver(env);
  registerFormat(env);
}
