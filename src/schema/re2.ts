// RE2 (re2js, one 260 KB module: ~8 ms of CPU to load) on first use, not with kubefake: only CRD
// schemas with patterns or formats and CEL's matches() need it. Patterns are compiled
// synchronously deep inside validation, so the first use loads it synchronously, through
// require (re2js ships a CommonJS build; every runtime use goes through here, so one copy loads).
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

let loaded: typeof RE2JS | undefined;

/** The RE2JS class, loaded on the first call. */
export function re2(): typeof RE2JS {
  return (loaded ??= (createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS);
}
