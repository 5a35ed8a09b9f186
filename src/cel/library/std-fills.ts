// Standard-library overloads the engine lacks, added from outside (no fork): conversions between
// timestamps, durations, ints and strings, and bytes ordering; and cel-go's numeric semantics in
// place of the engine's (numeric-semantics.ts).
import type { Environment } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { EvaluationError } from '@marcbachmann/cel-js';
import { celCompare } from '../value-ops.ts';
import { formatDuration, formatTimestamp } from './timestamps.ts';

const TS = 'google.protobuf.Timestamp';
const DUR = 'google.protobuf.Duration';
const MAX_INT = 9223372036854775807n;

/** RFC 3339 as cel-go prints timestamps (time.RFC3339Nano: no trailing zeros; nanoseconds kept). */
export { formatTimestamp } from './timestamps.ts';

export function registerStdFills(env: Environment): void {
  env.registerFunction(`int(${TS}): int`, (d: Date) => BigInt(Math.floor(d.getTime() / 1000)));
  env.registerFunction(`string(${TS}): string`, formatTimestamp);
  env.registerFunction(`string(${DUR}): string`, formatDuration);
  env.registerFunction(`duration(${DUR}): ${DUR}`, (d: Duration) => d);
  env.registerFunction(`timestamp(${TS}): ${TS}`, (d: Date) => d);
  env.registerFunction('int(uint): int', (u: UnsignedInt) => {
    if (u.valueOf() > MAX_INT) throw new EvaluationError({ code: 'numeric_overflow', message: 'integer overflow' });
    return u.valueOf();
  });
  env.registerOperator('bytes < bytes', (a: Uint8Array, b: Uint8Array) => celCompare(a, b) < 0);
  env.registerOperator('bytes <= bytes', (a: Uint8Array, b: Uint8Array) => celCompare(a, b) <= 0);
  env.registerOperator('bytes > bytes', (a: Uint8Array, b: Uint8Array) => celCompare(a, b) > 0);
  env.registerOperator('bytes >= bytes', (a: Uint8Array, b: Uint8Array) => celCompare(a, b) >= 0);
}
