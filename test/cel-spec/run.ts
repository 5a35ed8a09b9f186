// Runs google/cel-spec's simple conformance files (vendored in ./testdata, see README.md) through
// `kubefake/cel`'s compileExpression, as cel-go's conformance runner does: a parse error, or a
// check error unless the case sets disable_check, fails the case; a value must be equal; an
// eval_error must be an evaluation error whose message matches one of the expected ones (loosely:
// cel-spec's messages are short cel-go phrases, see errorMatches). Cases that need protobuf
// messages (TestAllTypes, wrappers, object values) are counted apart: Kubernetes rules never see
// them.
import { readFileSync } from 'node:fs';
import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { runtimeErrorMessage } from '../../src/cel/errors.ts';
import { compileExpression } from '../../src/cel/index.ts';
import { celEqual } from '../../src/cel/value-ops.ts';
import { isMessage, parseTextproto, type TextMessage, type TextScalar, type TextValue } from './textproto.ts';

export const FILES = ['basic', 'macros', 'string', 'comparisons', 'logic', 'integer_math', 'timestamps', 'optionals', 'conversions', 'lists', 'string_ext', 'macros2'];

export interface CaseResult {
  name: string;
  proto: boolean;
  passed: boolean;
  detail?: string;
}

class Skip extends Error {}

const first = (m: TextMessage, f: string): TextValue | undefined => m[f]?.[0];
const token = (v: TextValue | undefined): string => (v && !isMessage(v) ? ((v as TextScalar).token ?? '') : '');
const text = (v: TextValue | undefined): string => (v && !isMessage(v) && (v as TextScalar).bytes ? new TextDecoder().decode((v as TextScalar).bytes) : '');

function double(t: string): number {
  const s = t.toLowerCase();
  if (s === 'inf' || s === 'infinity') return Infinity;
  if (s === '-inf' || s === '-infinity') return -Infinity;
  if (s === 'nan') return NaN;
  return Number(t);
}

/** A conformance Value as the JavaScript value the engine produces. */
function toJs(v: TextValue | undefined): unknown {
  if (!isMessage(v)) throw new Skip('malformed value');
  const [kind] = Object.keys(v);
  const x = first(v, kind!);
  switch (kind) {
    case 'int64_value':
      return BigInt(token(x));
    case 'uint64_value':
      return new UnsignedInt(BigInt(token(x)));
    case 'double_value':
      return double(token(x));
    case 'string_value':
      return text(x);
    case 'bytes_value':
      return (x && !isMessage(x) ? (x as TextScalar).bytes : undefined) ?? new Uint8Array();
    case 'bool_value':
      return token(x) === 'true';
    case 'null_value':
      return null;
    case 'list_value':
      return ((isMessage(x) ? x.values : undefined) ?? []).map(toJs);
    case 'map_value': {
      const out = new Map<unknown, unknown>();
      for (const e of (isMessage(x) ? x.entries : undefined) ?? []) if (isMessage(e)) out.set(toJs(first(e, 'key')), toJs(first(e, 'value')));
      return out;
    }
    case 'type_value':
      return { celType: text(x) };
    default:
      throw new Skip(`value kind ${kind}`);
  }
}

/** Equality of an engine result with an expected value (maps may come back as plain objects, NaN equals NaN). */
function same(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'number' && Number.isNaN(expected)) return typeof actual === 'number' && Number.isNaN(actual);
  if (typeof expected === 'number') return typeof actual === 'number' && (actual === expected);
  if (typeof expected === 'bigint') return typeof actual === 'bigint' && actual === expected;
  if (expected instanceof UnsignedInt) return actual instanceof UnsignedInt && actual.valueOf() === expected.valueOf();
  if (expected && typeof expected === 'object' && 'celType' in expected) return typeof actual === 'object' && actual !== null && (actual as { name?: string }).name === (expected as { celType: string }).celType;
  if (expected instanceof Map) {
    const entries = actual instanceof Map ? [...actual] : actual && typeof actual === 'object' ? Object.entries(actual) : undefined;
    if (!entries || entries.length !== expected.size) return false;
    return [...expected].every(([k, v]) => entries.some(([ak, av]) => (ak === k || String(ak) === String(k)) && same(av, v)));
  }
  if (Array.isArray(expected)) {
    const arr = actual instanceof Set ? [...actual] : actual;
    return Array.isArray(arr) && arr.length === expected.length && expected.every((e, i) => same(arr[i], e));
  }
  return celEqual(actual, expected);
}

/** The messages of an eval_error (or any_eval_errors) matcher; undefined when the case expects a value. */
function expectedErrorMessages(t: TextMessage): string[] | undefined {
  const sets = t.eval_error ?? (isMessage(first(t, 'any_eval_errors')) ? (first(t, 'any_eval_errors') as TextMessage).errors : undefined);
  if (sets === undefined) return undefined;
  const out: string[] = [];
  for (const set of sets) if (isMessage(set)) for (const e of set.errors ?? []) if (isMessage(e)) out.push(text(first(e, 'message')));
  return out.filter((m) => m !== '');
}

/**
 * cel-spec's error messages are short phrases, not always cel-go's exact text ("return error for
 * overflow" where cel-go says "integer overflow"); each phrase names a kind of error, and the
 * actual message must be of that kind.
 */
const ERROR_KINDS: [expected: RegExp, actual: RegExp][] = [
  [/^(return error for overflow|range( error)?)$/, /overflow|range/],
  [/^divi(de|sion) by zero$/, /divi(de|sion) by zero/],
  [/^modul(us|o) by zero$/, /modul(us|o) by zero/],
  [/^(no (such|matching) overload|unbound function)$/, /no (such|matching) overload|unbound function/],
  [/^(unknown variable|undeclared reference to .*)$/, /unknown variable|undeclared reference/],
  [/^type conversion error$/, /conversion|cannot convert/],
  [/^invalid utf-8$/, /invalid utf-8/],
  // cel-go's invalid_argument covers bad list indexes (out of range, wrong index type).
  [/^invalid argument$/, /invalid|out of (range|bounds)|unsupported index|no such key/],
];

/**
 * Cases whose expected message is not what cel-go (whose conformance runner ignores messages)
 * produces, with cel-go's message: `true && 1/0 != 0` fails on the division (overflow.go
 * divideInt64Checked), not on an overload; Go's time.Parse and time.ParseDuration already reject
 * a five-digit year or more than 2^63 ns, so the conversion fails (string.go ConvertToType)
 * before any range check.
 */
const TO_TIMESTAMP = "type conversion error from 'string' to 'google.protobuf.Timestamp'";
const TO_DURATION = "type conversion error from 'string' to 'google.protobuf.Duration'";
const MESSAGE_ERRATA: Record<string, string> = {
  'logic/AND/error_right': 'division by zero',
  'logic/AND/error_left': 'division by zero',
  'logic/OR/error_right': 'division by zero',
  'logic/OR/error_left': 'division by zero',
  'timestamps/timestamp_range/from_string_over': TO_TIMESTAMP,
  'timestamps/duration_range/from_string_under': TO_DURATION,
  'timestamps/duration_range/from_string_over': TO_DURATION,
  'timestamps/duration_range/add_under': TO_DURATION,
  'timestamps/duration_range/add_over': TO_DURATION,
  'timestamps/duration_range/sub_under': TO_DURATION,
  'timestamps/duration_range/sub_over': TO_DURATION,
};

function errorMatches(actual: string, expected: string): boolean {
  const norm = (m: string): string => m.toLowerCase().replace(/_/g, ' ').trim();
  const a = norm(actual);
  const x = norm(expected);
  if (a.includes(x)) return true;
  const index = /^index out of range: (-?\d+)$/.exec(x);
  if (index) return /out of (range|bounds)/.test(a) && a.includes(index[1]!);
  const kind = ERROR_KINDS.find(([e]) => e.test(x));
  return kind !== undefined && kind[1].test(a);
}

const PRIMITIVES: Record<string, string> = { INT64: 'int', UINT64: 'uint', DOUBLE: 'double', STRING: 'string', BOOL: 'bool', BYTES: 'bytes' };

function declType(t: TextValue | undefined): string {
  if (!isMessage(t)) return 'dyn';
  if (t.primitive) return PRIMITIVES[token(first(t, 'primitive'))] ?? 'dyn';
  if (t.well_known) return ({ TIMESTAMP: 'google.protobuf.Timestamp', DURATION: 'google.protobuf.Duration' } as Record<string, string>)[token(first(t, 'well_known'))] ?? 'dyn';
  if (t.list_type) return `list<${declType(isMessage(first(t, 'list_type')) ? first(first(t, 'list_type') as TextMessage, 'elem_type') : undefined)}>`;
  if (t.map_type) {
    const m = first(t, 'map_type') as TextMessage;
    return `map<${declType(first(m, 'key_type'))}, ${declType(first(m, 'value_type'))}>`;
  }
  return 'dyn';
}

function runCase(t: TextMessage, file: string, section: string): CaseResult {
  const name = `${file}/${section}/${text(first(t, 'name'))}`;
  const expr = text(first(t, 'expr'));
  const container = text(first(t, 'container'));
  const proto = /TestAllTypes|NestedTestAllTypes|google\.protobuf\.(?!Timestamp|Duration)|proto[23]|object_value|enum_value/.test(expr + container) || JSON.stringify(t).includes('object_value');
  try {
    const variables: Record<string, string> = {};
    for (const e of t.type_env ?? []) {
      if (!isMessage(e)) continue;
      const ident = first(e, 'ident');
      variables[text(first(e, 'name'))] = declType(isMessage(ident) ? first(ident, 'type') : undefined);
    }
    const bindings: Record<string, unknown> = {};
    for (const b of t.bindings ?? []) {
      if (!isMessage(b)) continue;
      const key = text(first(b, 'key'));
      const v = first(b, 'value');
      bindings[key] = toJs(isMessage(v) ? first(v, 'value') : undefined);
      variables[key] ??= 'dyn';
    }
    const erratum = MESSAGE_ERRATA[name];
    const expectedErrors = erratum !== undefined ? [erratum] : expectedErrorMessages(t);
    const expectError = expectedErrors !== undefined;
    const expected = expectError ? undefined : t.value ? toJs(first(t, 'value')) : true;
    let compiled;
    try {
      compiled = compileExpression(expr, variables, { disableCheck: token(first(t, 'disable_check')) === 'true', homogeneousAggregateLiterals: false });
    } catch (e) {
      return { name, proto, passed: false, detail: `setup: ${(e as Error).message}` };
    }
    // cel-go's runner stops on parse and check errors (t.Fatal): an expected eval_error does not cover them.
    if (compiled.error !== undefined) return { name, proto, passed: false, detail: `compile: ${compiled.error.split('\n')[0]}` };
    let actual: unknown;
    try {
      actual = compiled.evaluate(bindings);
    } catch (e) {
      const message = runtimeErrorMessage(e);
      if (!expectError) return { name, proto, passed: false, detail: message.split('\n')[0] };
      const passed = expectedErrors.length === 0 || expectedErrors.some((x) => errorMatches(message, x) || errorMatches((e as Error).message, x));
      return { name, proto, passed, detail: passed ? message.split('\n')[0] : `error '${message.split('\n')[0]}' does not match '${expectedErrors.join("' | '")}'` };
    }
    if (expectError) return { name, proto, passed: false, detail: 'expected an error' };
    return { name, proto, passed: same(actual, expected), detail: 'wrong value' };
  } catch (e) {
    if (e instanceof Skip) return { name, proto: true, passed: false, detail: e.message };
    throw e;
  }
}

export function runFile(file: string): CaseResult[] {
  const doc = parseTextproto(readFileSync(new URL(`./testdata/${file}.textproto`, import.meta.url), 'utf8'));
  const out: CaseResult[] = [];
  for (const s of doc.section ?? []) {
    if (!isMessage(s)) continue;
    for (const t of s.test ?? []) if (isMessage(t)) out.push(runCase(t, file, text(first(s, 'name'))));
  }
  return out;
}
